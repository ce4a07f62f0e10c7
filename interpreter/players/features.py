"""Features of a position, derived from the definition alone: what a learned value reads.

    space = FeatureSpace.of(game)                 # once per game (cached)
    row = space.extract(state, seat, remaining)   # {feature index: value}, what `seat` may see
    space.names[i]                                # "me.zone.city.type.harbor", "table.var.round", ...

Nothing here is written per game: every feature is a declared thing of the state, counted the same way in
every definition.

- **Quantities of a seat** (`Q`): each number it holds (player vars; a map var per key; a var holding a
  piece counted as a zone of at most one piece, a var holding a player by whether it is set and names the
  seat itself), each of its zones
  (its size; its pieces counted by type, by class and by each text property's value; their number
  properties and fields summed, a text field also counted by each kind value it holds), each scoring
  item's current value and the total score (only where nothing of a player that a score may count is
  hidden from the seat: another player's private var or hand, the seat's own card held facing out or
  buried in its discard pile).
- **Quantities of the table** (`G`): global vars (a piece var as a one-piece zone: the card under auction;
  a player var by whether it is set and names the seat that sees it: the high bidder is me, and then each
  number var and piece var again: the bid I owe, the card I am about to take), global zones
  (as above), where the flow is (the step
  that decides next, whose turn it is counted from the seat, the counters of the repeats on the stack),
  the end triggers set, and a constant 1.

A seat's feature vector has five blocks: its own quantities three times (`early.`, `middle.`, `late.`),
each scaled by one of three hat functions of how much of the game remains (`remaining` falls from 1 at
the start to 0 at the usual length of a game; the hats peak at 1, 1/2 and 0 and always sum to 1), so what
an asset is worth can rise and fall over the game as any piecewise-linear curve (a farm is worth much
early and nothing in the last round); the mean of the other seats' quantities (`others.`: the other
players, then any scripted seats); and the table's (`table.`).

Visibility is the rule of every output (`visibility`, `facing`): a zone the seat may not see counts only
its size, another seat's private vars are left out, a face-down piece counts in its zone's size only. So
features computed on a state sampled from a seat's view (`determinize`) are those of the true state
wherever the seat can tell, and the learner cannot learn to read what the seat does not see.

`evaluator.Evaluator` computes a linear value over these features without building them: each piece adds
the precomputed weight of its (zone, type), so judging a position costs about one look-up per piece.
"""
from __future__ import annotations

import weakref

from ..engine.facing import piece_seen
from ..engine.flow import REPEAT
from ..engine.visibility import CONTENTS, TOP, sees, var_modes

BLOCKS = ("early", "middle", "late", "others", "table")
OWN_BLOCKS = ("early", "middle", "late")


def phases(remaining: float) -> tuple[float, float, float]:
    """The three hat functions of `remaining` (clamped to 0..1): (early, middle, late), summing to 1."""
    r = min(1.0, max(0.0, remaining))
    return max(0.0, 2 * r - 1), 1 - abs(2 * r - 1), max(0.0, 1 - 2 * r)
TEXT_VALUES_MAX = 16  # a text property with more distinct values than this is not counted per value
FIELD_VALUES_MAX = 96  # a text field is counted per kind value where the game declares at most this many


class ZoneShape:
    """The sub-block of one zone name: offsets of its features and what each piece type adds."""

    def __init__(self, fs: "FeatureSpace", prefix: str):
        self.base = len(fs.qnames) if prefix.startswith("q") else len(fs.gnames)
        names = fs.qnames if prefix.startswith("q") else fs.gnames
        label = prefix.split(":", 1)[1]
        names.append(f"{label}.size")
        w = fs.world
        # per type: ((offset, value), ...) of the features one piece of that type adds
        self.adds: list[tuple] = []
        offsets: dict[str, int] = {}

        def off(name):
            if name not in offsets:
                offsets[name] = len(names) - self.base
                names.append(f"{label}.{name}")
            return offsets[name]

        for t in fs.type_names:
            cls = w.class_of.get(t)
            add = [(off(f"type.{t}"), 1.0), (off(f"class.{cls}"), 1.0)]
            for prop, ptype in fs.props_of_class[cls]:
                v = w.props[prop].get(t)
                if v is None or isinstance(v, (list, dict)):
                    continue
                if ptype in ("int",) and type(v) is int and v:
                    add.append((off(f"sum.{prop}"), float(v)))
                elif ptype == "bool" and v is True:
                    add.append((off(f"count.{prop}"), 1.0))
                elif ptype == "str" and prop in fs.text_props:
                    add.append((off(f"{prop}.{v}"), 1.0))
            self.adds.append(tuple(add))
        # fields of the pieces: (column, kind, per type ((offset, 1.0), ...)): a field's value summed over
        # the zone, and by the type and each text property value of the pieces that hold it (which
        # buildings are staffed, which spaces of which colour are built on)
        self.fields = []
        for fname, (col, ftype) in w.fields.items():
            kind = ftype if ftype in ("int", "bool", "map") else "set"
            holders = fs.field_classes.get(fname, set())
            per_type = []
            for t in fs.type_names:
                cls = w.class_of.get(t)
                if cls not in holders:
                    per_type.append(())
                    continue
                add = [(off(f"field.{fname}"), 1.0), (off(f"field.{fname}.type.{t}"), 1.0)]
                for prop, ptype in fs.props_of_class[cls]:
                    v = w.props[prop].get(t)
                    if ptype == "str" and prop in fs.text_props and isinstance(v, str):
                        add.append((off(f"field.{fname}.{prop}.{v}"), 1.0))
                per_type.append(tuple(add))
            self.fields.append((col, kind, per_type))
            # a text field also by the value it holds, where that is a kind value (which space a marker
            # marks): (column, "text", {value: offset}); counted alone it says only that a piece holds one
            if ftype == "str" and holders and fs.field_values:
                self.fields.append((col, "text", {v: off(f"field.{fname}={v}") for v in fs.field_values}))
        self.size = len(names) - self.base


class FeatureSpace:
    """The features of one game (see the module doc). Indices are fixed by the definition; `names` say
    what each is, so a model stores weights by name and survives a reordering."""

    def __init__(self, game):
        self.game = game
        w = self.world = game.world
        lay = self.layout = game.layout
        self.type_names = list(w.types)
        self.type_index = {t: i for i, t in enumerate(self.type_names)}
        self.props_of_class = {cls: [(p, w.prop_types.get(p)) for p in w.props
                                     if any(w.props[p].get(t) is not None for t in self.type_names
                                            if w.class_of.get(t) == cls)] for cls in w.classes}
        self.text_props = {p for p, t in w.prop_types.items() if t == "str"
                           and len({v for v in w.props[p].values() if isinstance(v, str)}) <= TEXT_VALUES_MAX}
        self.field_classes = {fname: set(classes) for fname, classes, *_ in w.field_defs}
        self.field_values = sorted(w.kind_values) if len(w.kind_values) <= FIELD_VALUES_MAX else []
        self.qnames: list[str] = []
        self.gnames: list[str] = []
        # --- a seat's quantities
        self.pvar_feats = []  # (slot, key or None, index)
        self.pvar_pieces = []  # (name, slot, shape): a piece var, counted as a zone of at most one piece
        self.pvar_players = []  # (name, slot, set index, self index): a player var, set and naming its holder
        for name, v, t in w.var_defs["player"]:
            self._var(name, v, t, lay.pvars[name], self.qnames, self.pvar_feats)
            self._reference(name, t, lay.pvars[name], "q", self.pvar_pieces, self.pvar_players, "self")
        self.private = var_modes(w, "player")  # name -> mode
        # Another seat's score is a quantity of it only where nothing of a player is hidden from the others
        # (a score may count a private var or a hand: the sample's would be a guess, the truth a leak).
        self.scores_public = not any(mode in ("owner", "none") for mode in self.private.values()) and not any(
            w.zone_visibility.get(("player", name)) in ("owner", "hidden", TOP) for name in lay.pzones)
        # and a seat's own score, where nothing of its own is hidden from it (a hand held facing out, the
        # buried cards of its discard pile)
        self.own_scores_public = not any(mode in ("others", "none") for mode in self.private.values()) and not any(
            w.zone_visibility.get(("player", name)) in ("others", "hidden", TOP) for name in lay.pzones)
        self.pzone_shapes = {}
        for name in lay.pzones:
            self.pzone_shapes[name] = ZoneShape(self, f"q:zone.{name}")
        self.item_index = {}
        for iid, *_ in game.score_items:
            self.item_index[iid] = len(self.qnames)
            self.qnames.append(f"score.{iid}")
        self.total_index = len(self.qnames)
        self.qnames.append("score.total")
        # --- the table's quantities
        self.gvar_feats = []
        self.gvar_pieces = []   # (name, slot, shape)
        self.gvar_players = []  # (name, slot, set index, me index): naming the seat that sees it
        for name, v, t in w.var_defs["global"]:
            self._var(name, v, t, lay.gvars[name], self.gnames, self.gvar_feats)
            self._reference(name, t, lay.gvars[name], "g", self.gvar_pieces, self.gvar_players, "me")
        self.secret = var_modes(w, "global")
        # a var naming a player, and what the table's numbers and piece vars are when it names the seat:
        # the bid the high bidder owes, the card he is about to take (a linear value cannot multiply
        # "the high bidder is me" by the bid itself)
        self.gvar_mine = []  # (name, slot, [(number var, slot, index)], [(piece var, slot, shape)])
        numbers = [(name, lay.gvars[name]) for name, v, t in w.var_defs["global"] if t == "int"]
        for name, slot, _, _ in self.gvar_players:
            nums = []
            for xname, xslot in numbers:
                nums.append((xname, xslot, len(self.gnames)))
                self.gnames.append(f"var.{name}.me.var.{xname}")
            shapes = [(pname, pslot, ZoneShape(self, f"g:var.{name}.me.{pname}"))
                      for pname, pslot, _ in self.gvar_pieces]
            self.gvar_mine.append((name, slot, nums, shapes))
        self.gzone_shapes = {}
        for name in lay.gzones:
            self.gzone_shapes[name] = ZoneShape(self, f"g:zone.{name}")
        self.step_index = {}
        for node in game.nodes:
            if node.step is not None and node.step.id not in self.step_index:
                self.step_index[node.step.id] = len(self.gnames)
                self.gnames.append(f"step.{node.step.id}")
        self.turn_base = len(self.gnames)
        self.max_seats = max(game.player_counts) + 8
        self.gnames.extend(f"turn.{k}" for k in range(self.max_seats))
        self.turn_none = len(self.gnames)
        self.gnames.append("turn.none")
        self.repeat_index = {}
        for i, node in enumerate(game.nodes):
            if node.kind == REPEAT:
                self.repeat_index[i] = len(self.gnames)
                self.gnames.append("repeat." + "/".join(str(p) for p in node.path))
        self.trigger_index = {}
        for t in w.end_triggers:
            self.trigger_index[t] = len(self.gnames)
            self.gnames.append(f"ends.{t}")
        self.bias = len(self.gnames)
        self.gnames.append("bias")
        self.remaining_index = len(self.gnames)
        self.gnames.append("remaining")
        Q = len(self.qnames)
        self.Q, self.G = Q, len(self.gnames)
        self.names = [f"{block}.{n}" for block in BLOCKS[:-1] for n in self.qnames] + [
            f"table.{n}" for n in self.gnames]
        self.offsets = {block: k * Q for k, block in enumerate(BLOCKS)}
        self.index = {n: i for i, n in enumerate(self.names)}

    def _reference(self, name, t, slot, block, pieces, players, who):
        """A var holding a piece (the card under auction, the role chosen): what a piece in a zone would
        add; a var holding a player (the high bidder, the start player): whether it is set, and whether it
        names `who` (the holder of a player var, the seat that sees a global one)."""
        names = self.qnames if block == "q" else self.gnames
        if t == "piece":
            pieces.append((name, slot, ZoneShape(self, f"{block}:var.{name}")))
        elif t == "player":
            players.append((name, slot, len(names), len(names) + 1))
            names.extend((f"var.{name}.set", f"var.{name}.{who}"))

    def _var(self, name, v, t, slot, names, out):
        if t in ("int", "bool"):
            out.append((slot, None, len(names)))
            names.append(f"var.{name}")
        elif t == "map":
            kind = v.get("of")
            keys = sorted(k for k, kk in self.world.kind_values.items() if kk == kind) if kind else []
            for k in keys:
                out.append((slot, k, len(names)))
                names.append(f"var.{name}.{k}")

    @classmethod
    def of(cls, game) -> "FeatureSpace":
        fs = _spaces.get(game)
        if fs is None:
            fs = _spaces[game] = cls(game)
        return fs

    # ------------------------------------------------------------------ quantities
    def seat_quantities(self, s, pl: int, viewer: int, scores) -> dict:
        """Seat `pl`'s quantities as `viewer` may see them: {Q index: value}."""
        out: dict[int, float] = {}
        row = s.p[pl]
        own = pl == viewer
        for slot, key, i in self.pvar_feats:
            v = row[slot] if key is None else row[slot].get(key, 0)
            if v:
                out[i] = float(v)
        if not own and self.private:
            for name, mode in self.private.items():
                if not sees(mode, pl, viewer):
                    for slot, key, i in self.pvar_feats:
                        if slot == self.layout.pvars[name]:
                            out.pop(i, None)
        for name, slot, shape in self.pvar_pieces:
            x = row[slot]
            if x is not None and sees(self.private.get(name), pl, viewer):
                self._pieces(s, [x], shape, piece_seen(self.game, s, x, viewer), viewer, out)
        for name, slot, i_set, i_self in self.pvar_players:
            q = row[slot]
            if q is not None and sees(self.private.get(name), pl, viewer):
                out[i_set] = 1.0
                if q == pl:
                    out[i_self] = 1.0
        lay = self.layout
        base = lay.G + pl * lay.PZ
        for name, shape in self.pzone_shapes.items():
            z = base + lay.pzones[name]
            self._zone(s, z, shape, self._zone_seen(("player", name), pl, viewer), viewer, out)
        if scores is not None and pl < len(scores) and (self.own_scores_public if own else self.scores_public):
            for iid, v in scores[pl].items():
                if v:
                    out[self.item_index[iid]] = float(v)
            total = sum(scores[pl].values())
            if total:
                out[self.total_index] = float(total)
        return out

    def table_quantities(self, s, viewer: int, game) -> dict:
        """The table's quantities as `viewer` may see them: {G index: value}."""
        out: dict[int, float] = {self.bias: 1.0}
        g = s.g
        for slot, key, i in self.gvar_feats:
            v = g[slot] if key is None else g[slot].get(key, 0)
            if v:
                out[i] = float(v)
        for name, mode in self.secret.items():
            if not sees(mode, None, viewer):
                slot = self.layout.gvars[name]
                for sl, key, i in self.gvar_feats:
                    if sl == slot:
                        out.pop(i, None)
        for name, slot, shape in self.gvar_pieces:
            x = g[slot]
            if x is not None and sees(self.secret.get(name), None, viewer):
                self._pieces(s, [x], shape, piece_seen(self.game, s, x, viewer), viewer, out)
        for name, slot, i_set, i_me in self.gvar_players:
            q = g[slot]
            if q is not None and sees(self.secret.get(name), None, viewer):
                out[i_set] = 1.0
                if q == viewer:
                    out[i_me] = 1.0
        for name, slot, nums, shapes in self.gvar_mine:
            if g[slot] != viewer or not sees(self.secret.get(name), None, viewer):
                continue
            for xname, xslot, i in nums:
                v = g[xslot]
                if v and sees(self.secret.get(xname), None, viewer):
                    out[i] = float(v)
            for pname, pslot, shape in shapes:
                x = g[pslot]
                if x is not None and sees(self.secret.get(pname), None, viewer):
                    self._pieces(s, [x], shape, piece_seen(self.game, s, x, viewer), viewer, out)
        lay = self.layout
        for name, shape in self.gzone_shapes.items():
            self._zone(s, lay.gzones[name], shape, self._zone_seen(("global", name), None, viewer), viewer, out)
        if s.flow:
            top = game.nodes[s.flow[-1][0]]
            if top.step is not None:
                out[self.step_index[top.step.id]] = 1.0
            for fr in s.flow:
                i = self.repeat_index.get(fr[0])
                if i is not None and fr[3]:
                    out[i] = float(fr[3])
        who = game.current_player(s) if s.flow else None
        if who is None:
            out[self.turn_none] = 1.0
        else:
            out[self.turn_base + min((who - viewer) % len(s.p), self.max_seats - 1)] = 1.0
        for t in s.ends:
            i = self.trigger_index.get(t)
            if i is not None:
                out[i] = 1.0
        return out

    def _zone_seen(self, key, owner, viewer):
        """What `viewer` sees of the pieces of a zone: True (which pieces they are: all of a `contents`
        pile, whose order alone is hidden), False (none), or N (the top N of a `top` pile)."""
        return zone_sight(self.world, key, owner, viewer)

    def _zone(self, s, z, shape, seen, viewer, out):
        self._pieces(s, s.zones[z], shape, seen, viewer, out)

    def _pieces(self, s, pieces, shape, seen, viewer, out):
        """What `pieces` (a zone's, or a piece var's one) add under `shape`, as `viewer` sees them."""
        if not pieces:
            return
        b = shape.base
        out[b] = out.get(b, 0.0) + len(pieces)
        if seen is False:
            return
        if seen is not True:
            pieces = pieces[:seen]
        types, ti, adds, faces = s.types, self.type_index, shape.adds, s.faces
        fields = shape.fields
        for x in pieces:
            if faces and x in faces and not piece_seen(self.game, s, x, viewer):
                continue
            t = ti[types[x]]
            for o, v in adds[t]:
                out[b + o] = out.get(b + o, 0.0) + v
            for col, kind, per_type in fields:
                v = s.fields[col][x]
                if v is None or v is False:
                    continue
                if kind == "text":
                    o = per_type.get(v) if type(v) is str else None
                    if o is not None:
                        out[b + o] = out.get(b + o, 0.0) + 1.0
                    continue
                if kind == "int":
                    add = float(v)
                elif kind == "map":
                    add = float(sum(v.values()))
                else:
                    add = 1.0
                if add:
                    for o, m in per_type[t]:
                        out[b + o] = out.get(b + o, 0.0) + m * add

    # ------------------------------------------------------------------ rows
    def extract(self, s, seat: int, remaining: float, scores=None) -> dict:
        """The feature row of `seat` in state `s` (see the module doc): {index: value}, zeros left out.
        `scores` is `game.score_breakdown(s)` when the caller has it."""
        game = self.game
        if scores is None:
            scores = game.score_breakdown(s)
        off = self.offsets
        row: dict[int, float] = {}
        mine = self.seat_quantities(s, seat, seat, scores)
        for block, f in zip(OWN_BLOCKS, phases(remaining)):
            if f:
                base = off[block]
                for i, v in mine.items():
                    row[base + i] = v * f
        others = [o for o in range(len(s.p)) if o != seat]
        if others:
            k = 1.0 / len(others)
            acc: dict[int, float] = {}
            for o in others:
                for i, v in self.seat_quantities(s, o, seat, scores).items():
                    acc[i] = acc.get(i, 0.0) + v
            base = off["others"]
            for i, v in acc.items():
                row[base + i] = v * k
        base = off["table"]
        for i, v in self.table_quantities(s, seat, game).items():
            row[base + i] = v
        if remaining:
            row[base + self.remaining_index] = remaining
        return row


def zone_sight(w, key, owner, viewer):
    """What `viewer` sees of the pieces of zone `key` (("global" or "player", name)) held by `owner`:
    True (which pieces: all, or a `contents` pile's), False (none) or N (the top N of a `top` pile)."""
    mode = w.zone_visibility.get(key)
    if mode == CONTENTS:
        return True
    if mode == TOP:
        return w.zone_top.get(key, 1)
    return sees(mode, owner, viewer)


_spaces: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

