"""The state of one game: plain data, cheap to copy, JSON round-trippable.

Layout (all indices are fixed by the compiled game, see `Layout`):
- `g`      global var values, one slot per declared global var (a map var is a dict kind -> int);
- `p`      one list per seat of player var values (the players, then the scripted seats present);
- `zones`  every zone's ordered piece list: the global zones first, then each seat's zones;
- `loc`    for each piece, the index of the zone that holds it;
- `fields` one column per piece field: `fields[f][piece]` (None for pieces whose class lacks it);
- `types`  the type of each piece (copies share the list: `become` replaces it, never changes it in place);
- `flow`   the stack of unfinished flow frames `[node, player, event, a, b, c]`;
- `rng`    the random generator state (one integer);
- `ends`     the end triggers set so far (in order);
- `faces`  the pieces with a visibility of their own (`facing`): {piece: [mode, seats]}, replaced, never
           changed in place (copies share it); in JSON only when some piece has one;
- `told`   what seats were told of pieces (`knowledge`): {piece: {seat: {name: fact}}}, replaced like `faces`;
           in JSON only when someone was told something;
- `n`, `opts`, `decisions` the player count, the chosen options and how many decisions were taken.
"""

from __future__ import annotations


class State:
    __slots__ = ("g", "p", "zones", "loc", "fields", "types", "flow", "rng", "n", "opts",
                 "decisions", "menu", "ev", "budget", "ids", "ends", "pcache", "mapidx", "faces", "told")

    def copy(self, layout: "Layout") -> "State":
        """A copy that shares nothing mutable with this state (the piece types and faces are replaced,
        never changed in place, so they are shared)."""
        t = State.__new__(State)
        g = self.g[:]
        for i in layout.gmaps:
            g[i] = dict(g[i])
        t.g = g
        pmaps = layout.pmaps
        if pmaps:
            t.p = []
            for row in self.p:
                row = row[:]
                for i in pmaps:
                    row[i] = dict(row[i])
                t.p.append(row)
        else:
            t.p = [row[:] for row in self.p]
        t.zones = [z[:] for z in self.zones]
        t.loc = self.loc[:]
        fields = [c[:] for c in self.fields]
        for i, pieces in self.mapidx:  # only the pieces that have the map field (fixed at setup)
            col = fields[i]
            for x in pieces:
                col[x] = dict(col[x])
        t.fields = fields
        t.types = self.types
        t.mapidx = self.mapidx
        t.flow = [f[:] for f in self.flow]
        t.rng = self.rng
        t.n = self.n
        t.opts = self.opts
        t.decisions = self.decisions
        t.ends = self.ends[:]
        t.faces = self.faces
        t.told = self.told
        t.menu = None
        t.ids = None
        t.pcache = None
        t.ev = None
        t.budget = 0
        return t

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        return (self.g == other.g and self.p == other.p and self.zones == other.zones
                and self.fields == other.fields and self.types == other.types
                and self.flow == other.flow and self.rng == other.rng and self.n == other.n
                and self.opts == other.opts and self.decisions == other.decisions and self.ends == other.ends
                and self.faces == other.faces and self.told == other.told)

    __hash__ = None


class Layout:
    """Where each named thing lives in a `State` (built once per compiled game)."""

    def __init__(self, gvars, pvars, gzones, pzones, fields, gmaps, pmaps, fmaps):
        self.gvars = gvars          # name -> slot
        self.pvars = pvars
        self.gzones = gzones        # name -> zone index
        self.pzones = pzones        # name -> offset within a player's block
        self.fields = fields        # name -> column
        self.gmaps = tuple(gmaps)   # slots holding dicts
        self.pmaps = tuple(pmaps)
        self.fmaps = tuple(fmaps)
        self.G = len(gzones)
        self.PZ = len(pzones)

    def zone_index(self, name: str, player: int | None = None) -> int:
        if player is None:
            return self.gzones[name]
        return self.G + player * self.PZ + self.pzones[name]

    def zone_owner(self, z: int):
        """The player whose zone `z` is, or None for a global zone."""
        return None if z < self.G else (z - self.G) // self.PZ

    def zone_name(self, z: int) -> str:
        if z < self.G:
            return self.gzone_names[z]
        return self.pzone_names[(z - self.G) % self.PZ]

    @property
    def gzone_names(self):
        return list(self.gzones)

    @property
    def pzone_names(self):
        return list(self.pzones)


def to_json(s: State, layout: Layout, game_id: str) -> dict:
    """The state as plain JSON data, with names rather than slot numbers."""
    gnames = list(layout.gvars)
    pnames = list(layout.pvars)
    G, PZ = layout.G, layout.PZ
    zn = layout.gzone_names
    pzn = layout.pzone_names
    d = {
        "game": game_id,
        "players": s.n,
        "options": dict(s.opts),
        "rng": s.rng,
        "decisions": s.decisions,
        "ends": list(s.ends),
        "vars": {k: _plain(s.g[i]) for i, k in enumerate(gnames)},
        "player_vars": [{k: _plain(row[i]) for i, k in enumerate(pnames)} for row in s.p],
        "zones": {zn[i]: list(s.zones[i]) for i in range(G)},
        "player_zones": [{pzn[j]: list(s.zones[G + pl * PZ + j]) for j in range(PZ)}
                         for pl in range(len(s.p))],  # the players, then any scripted seats
        "pieces": {"types": list(s.types),
                   "fields": {f: _column(s.fields[c], _plain) for f, c in layout.fields.items()}},
        "flow": [_plain(f) for f in s.flow],
    }
    if s.faces:
        from .facing import to_json as faces_json
        d["faces"] = faces_json(s.faces)
    if s.told:
        from .knowledge import to_json as told_json
        d["told"] = told_json(s.told)
    return d


def map_index(s, layout) -> tuple:
    """For each map-valued field column, the pieces that have it (a copy duplicates just those dicts)."""
    return tuple((i, tuple(x for x, v in enumerate(s.fields[i]) if v is not None)) for i in layout.fmaps)


_SCALARS = frozenset((int, bool, str, float, type(None)))  # copied as they are (the fast path of a column)


def _column(values, convert) -> list:
    """A field column's values copied, `convert` applied to each that is not a scalar (a map's dict)."""
    if set(map(type, values)) <= _SCALARS:  # (the common case, checked without a Python loop)
        return list(values)
    return [v if type(v) in _SCALARS else convert(v) for v in values]


def _plain(v):
    if isinstance(v, dict):
        return dict(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


class StateFormatError(ValueError):
    """Raised by `from_json` for data that is not a state of this game."""


def from_json(d: dict, layout: Layout, game_id: str) -> State:
    """Rebuild a state from `to_json` data (checked for shape, not for rule legality)."""
    try:
        if d.get("game") != game_id:
            raise StateFormatError(f"state is of game {d.get('game')!r}, not {game_id!r}")
        _exact_keys(d, _KEYS + tuple(k for k in ("faces", "told") if k in d), "the state")
        _exact_keys(d["vars"], layout.gvars, "vars")
        _exact_keys(d["zones"], layout.gzones, "zones")
        _exact_keys(d["pieces"], ("types", "fields"), "pieces")
        _exact_keys(d["pieces"]["fields"], layout.fields, "pieces.fields")
        for i, (row, zrow) in enumerate(zip(d["player_vars"], d["player_zones"])):
            _exact_keys(row, layout.pvars, f"player_vars[{i}]")
            _exact_keys(zrow, layout.pzones, f"player_zones[{i}]")
        s = State.__new__(State)
        s.n = _int(d["players"], "players")
        if not isinstance(d["options"], dict) or not isinstance(d["ends"], list):
            raise StateFormatError("options must be a mapping and ends a list")
        s.opts = dict(d["options"])
        s.rng = _int(d["rng"], "rng")
        s.decisions = _int(d["decisions"], "decisions")
        s.ends = list(d["ends"])
        vars_ = d["vars"]
        s.g = [_load(vars_[k]) for k in layout.gvars]
        s.p = [[_load(row[k]) for k in layout.pvars] for row in d["player_vars"]]
        if len(s.p) < s.n or len(d["player_zones"]) != len(s.p):  # scripted seats: Game.from_json checks
            raise StateFormatError("player_vars and player_zones must have one entry per seat")
        zones = [list(d["zones"][k]) for k in layout.gzones]
        for pl in range(len(s.p)):
            row = d["player_zones"][pl]
            zones.extend(list(row[k]) for k in layout.pzones)
        s.zones = zones
        s.types = list(d["pieces"]["types"])
        s.fields = [_column(d["pieces"]["fields"][f], _load) for f in layout.fields]
        s.mapidx = map_index(s, layout)
        s.loc = [None] * len(s.types)
        for zi, z in enumerate(zones):
            for x in z:
                s.loc[x] = zi
        s.flow = [_frame(f) for f in d["flow"]]
        from .facing import from_json as faces_from
        s.faces = faces_from(d["faces"], len(s.types), s.n) if "faces" in d else {}
        from .knowledge import from_json as told_from
        s.told = told_from(d["told"], len(s.types), s.n) if "told" in d else {}
        s.menu = None
        s.ids = None
        s.pcache = None
        s.ev = None
        s.budget = 0
        return s
    except StateFormatError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as ex:
        raise StateFormatError(f"not a state of {game_id}: {type(ex).__name__}: {ex}") from None


_KEYS = ("game", "players", "options", "rng", "decisions", "ends", "vars", "player_vars", "zones", "player_zones",
         "pieces", "flow")


def _int(v, what):
    if type(v) is not int:
        raise StateFormatError(f"{what} must be a whole number, not {v!r:.40}")
    return v


def _exact_keys(d, keys, what):
    """Refuse a mapping whose keys are not exactly `keys` (a key added or lost is an edited state)."""
    if not isinstance(d, dict):
        raise StateFormatError(f"{what} must be a mapping")
    if set(d) != set(keys):
        extra, missing = sorted(map(str, set(d) - set(keys))), sorted(map(str, set(keys) - set(d)))
        raise StateFormatError(f"{what}: " + "; ".join(
            ([f"unknown {', '.join(extra)}"] if extra else []) + ([f"missing {', '.join(missing)}"] if missing else [])))


def _load(v):
    if isinstance(v, dict):
        return dict(v)
    return v


def _frame(f):
    f = list(f)
    if f[2] is not None:
        if not isinstance(f[2], list) or not all(v is None or type(v) in (int, str, bool) for v in f[2]):
            raise StateFormatError(f"flow frame {f!r}: event arguments are a list of plain values")
        f[2] = tuple(f[2])
    return f
