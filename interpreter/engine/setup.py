"""Setting a game up: the initial values of vars and fields compiled at load, the pieces of each player
count, and `new_game` (player count and options checked, setup effects run, the flow started). A mixin of
`game.Game`."""

from __future__ import annotations

from . import rng
from .errors import GameSetupError
from .flow import advance, new_decision, push, run_effect
from .state import State, map_index
from ..definition.limits import piece_count_problems
from ..definition.problems import did_you_mean
from ..definition.static_checks import same_value
from ..language.compiler import NOCONST, RuleError, Unit, fault_words


class Setup:
    """Part of `Game` (see the module doc)."""

    def _compile_inits(self):
        w = self.world
        self.ginit, self.pinit = [], []
        for scope, out in (("global", self.ginit), ("player", self.pinit)):
            for name, v, t in w.var_defs[scope]:
                path = ("vars", scope, name)
                u = Unit(player=(scope == "player"))
                init = v.get("init")
                if t == "map":
                    kinds = w.kinds.get(v.get("of"), [])
                    if isinstance(init, dict):
                        fns = {}
                        for k, x in init.items():
                            if k not in kinds:
                                w.error(f"'{k}' is not a value of kind {v.get('of')}", path + ("init", k),
                                        did_you_mean(str(k), kinds))
                                continue
                            cx = w.compile_expr(x, path + ("init", k), u)
                            fns[k] = cx.f if cx else None
                        out.append((t, [(k, fns.get(k)) for k in kinds], u.n))
                    else:
                        cx = w.compile_expr(init if init is not None else 0, path + ("init",), u)
                        out.append((t, [(k, cx.f if cx else None) for k in kinds], u.n))
                else:
                    default = {"int": 0, "bool": False}.get(t, "[]" if t.startswith("list:") else None)
                    cx = w.compile_expr(init if init is not None else default, path + ("init",), u)
                    if cx is not None and cx.t not in ("any", "none", t) and {cx.t, t} not in (
                            {"int", "bool"}, {"int", "player"}) and not (t[:5] == cx.t[:5] == "list:"):
                        hint = None
                        if isinstance(init, str) and init.strip() in w.tables:
                            hint = f"table '{init.strip()}' is written at {self._table_where(init.strip())}"
                        w.error(f"var '{name}' is a {t}, but its init gives a {cx.t}"
                                + (f" ({cx.c!r})" if cx.c is not NOCONST else ""), path + ("init",), hint)
                    out.append((t, cx.f if cx else None, u.n))

    def _table_where(self, name):
        """Where a table's value was last written (an overlay's line, when one set it)."""
        d = self.definition
        best = d.where(("tables", name))
        for path, (doc, dpath) in d._origin.items():
            if path[:2] == ("tables", name) and doc in d.overlays:
                best = doc.key_where(dpath)
        return best

    def _compile_pieces(self):
        w = self.world
        self.piece_plan = []   # (type, count fn, zone index or player-zone offset, per player?)
        for tname, cname in w.types.items():
            tdef = w.type_entries[tname]
            cls = w.classes[cname]
            zone = tdef.get("zone", cls.get("zone"))
            path = ("components", cname, "types", tname)
            if zone is None:
                w.error(f"pieces of '{tname}' have no starting zone", path,
                        f"give class {cname} (or the type) a 'zone:' naming a zone")
                continue
            count = w.count_value(tdef.get("count", 1), path + ("count",))
            if zone in w.gzones:
                self.piece_plan.append((tname, count, w.gzones[zone], False))
            elif zone in w.pzones:
                # A player zone: every player gets `count` pieces of this type (their own board).
                self.piece_plan.append((tname, count, w.pzones[zone], True))
            else:
                w.error(f"unknown zone '{zone}'", path + ("zone",),
                        did_you_mean(str(zone), list(w.gzones) + list(w.pzones)))
        for message, tname in piece_count_problems(self.piece_plan, w.player_counts):
            w.error(message, ("components", w.types[tname], "types", tname, "count"))
        self.field_init = []
        for fname, classes, fdef, is_map in w.field_defs:
            if is_map:
                kinds = w.kinds.get(fdef.get("of"), [])
                self.field_init.append((classes, ("map", kinds)))
            else:
                init = fdef.get("init", {"int": 0, "bool": False}.get(str(fdef.get("type", "int"))))
                init = None if init == "none" else init
                self.field_init.append((classes, ("value", init)))

    def new_game(self, players: int, seed: int = 0, options: dict | None = None, log: list | None = None) -> State:
        """A new game at its first decision (`log`, if given, receives the narration up to it)."""
        if type(seed) is not int:
            raise GameSetupError(f"a seed is a whole number, not {seed!r:.40}")
        if players not in self.player_counts:
            raise GameSetupError(f"{self.id} is for {', '.join(map(str, self.player_counts))} players, not {players}")
        opts = {k: v.get("default") for k, v in self.options.items()}
        for k, v in (options or {}).items():
            if k not in self.options:
                raise GameSetupError(f"unknown option '{k}'" + (f"; {h}" if (h := did_you_mean(k, self.options)) else ""))
            allowed = self.options[k].get("values")
            if allowed is not None and not any(same_value(v, a) for a in allowed):
                raise GameSetupError(f"option {k} must be one of {allowed}, not {v!r}")
            opts[k] = v
        w = self.world
        lay = self.layout
        s = State.__new__(State)
        s.n = players
        s.opts = opts
        s.rng = rng.seed_state(seed)
        s.decisions = 0
        s.ends = []
        s.faces = {}
        s.told = {}
        s.menu = None
        s.ids = None
        s.pcache = None
        s.ev = []
        s.budget = 0
        new_decision()
        s.flow = []
        s.g = [None] * len(lay.gvars)
        seats = players + w.scripted.count(players, opts)  # the players, then the scripted seats present
        s.p = [[None] * len(lay.pvars) for _ in range(seats)]
        fresh = self._fresh_pieces(players, seats)
        # The list of types is shared by every new game with these seats: a list of types is never changed
        # in place (`become` replaces it), and what is kept per list of types (pieces by type, indexes,
        # graph layouts) is then found again in the next game.
        s.types = fresh.types
        s.zones = [zone[:] for zone in fresh.zones]
        s.loc = fresh.loc[:]
        s.fields = [column[:] for column in fresh.fields]
        s.mapidx = fresh.mapidx
        for i, xs in s.mapidx:
            column = s.fields[i]
            for x in xs:
                column[x] = dict(column[x])
        try:
            for i, (t, f, n) in enumerate(self.ginit):
                s.g[i] = self._init_value(s, t, f, n, None)
            for pl in range(seats):
                for i, (t, f, n) in enumerate(self.pinit):
                    s.p[pl][i] = self._init_value(s, t, f, n, pl)
            if self.setup_fn is not None:
                run_effect(self, s, self.setup_fn, self.setup_n, None, None)
            if self.root is not None:
                push(s, self.root, None, None)
            advance(self, s, log)
        except RuleError as ex:  # the setup's own effect, or the flow up to the first decision
            raise ex.ran_by("the setup") from None
        except (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError) as ex:
            # an init expression that fails (e.g. a table without that key): a rule error, not a crash
            raise RuleError(fault_words(ex), self._init_where(s), "the setup (a var's init)") from None
        return s

    def _init_where(self, s) -> str | None:
        """Where the first var whose init fails is written (its init is evaluated again to find it)."""
        w = self.world
        for scope, inits, names, pl in (("global", self.ginit, w.gvars, None),
                                        ("player", self.pinit, w.pvars, 0)):
            by_slot = {slot: name for name, (slot, _) in names.items()}
            for i, (t, f, n) in enumerate(inits):
                try:
                    self._init_value(s, t, f, n, pl)
                except Exception:  # this is the one that failed
                    loc = self.definition.where(("vars", scope, by_slot.get(i), "init"))
                    return str(loc) if loc is not None else None
        return None

    def _fresh_pieces(self, players: int, seats: int) -> "State":
        """The pieces of a new game for `players` with `seats` seats, before the setup: types, zones,
        locations and fields at their init (made once per seats; new_game copies them)."""
        known = self.__dict__.setdefault("_fresh", {})
        fresh = known.get((players, seats))
        if fresh is not None:
            return fresh
        w, lay = self.world, self.layout
        fresh = State.__new__(State)
        fresh.zones = [[] for _ in range(lay.G + seats * lay.PZ)]
        types = []
        for tname, count, z, per_player in self.piece_plan:
            for zi in ([lay.G + pl * lay.PZ + z for pl in range(seats)] if per_player else [z]):
                for _ in range(count(players)):
                    fresh.zones[zi].append(len(types))
                    types.append(tname)
        fresh.types = types
        fresh.loc = [None] * len(types)
        for zi, zone in enumerate(fresh.zones):
            for x in zone:
                fresh.loc[x] = zi
        cls = [w.types[t] for t in types]
        fresh.fields = []
        for classes, (kind, init) in self.field_init:
            if kind == "map":
                fresh.fields.append([{k: 0 for k in init} if c in classes else None for c in cls])
            else:
                fresh.fields.append([init if c in classes else None for c in cls])
        fresh.mapidx = map_index(fresh, lay)
        known[(players, seats)] = fresh
        return fresh

    @staticmethod
    def _init_value(s, t, f, n, pl):
        e = [pl, None] + [None] * (n - 2)
        if t == "map":
            return {k: (g(s, e) if g is not None else 0) for k, g in f}
        return f(s, e) if f is not None else None
