"""The position a scenario starts from: `given` applied to a new game (a part of `scenario.Runner`).

Zones are filled with the listed pieces (exactly those, from format version 2; `{top: [...]}` keeps the pieces
that start in the zone below them), vars and fields are set (a player is a seat from 1, or pN), `effect` runs,
`random` fixes the next draws, and `start` puts the flow at a step or phase (resuming the game's own flow
after it with `resume`; a step the flow takes in several places is named with `in:`).
"""

from __future__ import annotations

from ..definition.problems import did_you_mean
from ..engine.flow import push
from ..language.compiler import CompileError, RuleError, Scope, Unit, const
from ..language.dsl import DslSyntaxError


class Position:
    """`given`: the scenario's position; the runner sets `game`, `doc`, `name` and `version`."""

    def where(self, *path):
        return self.doc.where(("scenarios", self.name) + path) if self.doc else None

    def given(self, s, given, res):
        g = self.game
        w = g.world
        lay = g.layout
        t = s.copy(lay)
        named_zones = []  # (zone, its listed contents)
        for name, items in (given.get("zones") or {}).items():
            if name not in w.gzones:
                res.failures.append(f"given.zones: unknown global zone '{name}'"
                                    + _hint(name, w.gzones))
                continue
            named_zones.append((w.gzones[name], items))
        for seat, pdef in (given.get("players") or {}).items():
            pl = self.seat(seat, s.n, res, s)
            if pl is None:
                continue
            for name, items in ((pdef or {}).get("zones") or {}).items():
                if name not in w.pzones:
                    res.failures.append(f"given.players.{seat}.zones: unknown player zone '{name}'"
                                        + _hint(name, w.pzones))
                    continue
                named_zones.append((lay.zone_index(name, pl), items))
        if res.failures:
            return t
        # Empty the named zones first, so their pieces can be taken again for the listed contents (a zone
        # with `rest:` keeps them until they are moved there, after the lists are placed).
        start_zone = {tname: (z, per_player) for tname, _, z, per_player in g.piece_plan}
        for z, items in named_zones:
            if isinstance(items, dict) and items.get("rest") is not None:
                continue
            for x in list(t.zones[z]):
                home, per_player = start_zone[t.types[x]]
                if per_player:  # back to its owner's own zone (or the first player's)
                    owner = lay.zone_owner(z)
                    home = lay.G + (owner or 0) * lay.PZ + home
                w.move(t, x, home, None)
        claimed: set = set()
        exact = []  # (zone, what, rest): zones that hold exactly their listed pieces
        for name, items in (given.get("zones") or {}).items():
            exact += self.fill(t, w.gzones[name], items, claimed, res, f"given.zones.{name}")
        for seat, pdef in (given.get("players") or {}).items():
            pl = self.seat(seat, s.n, res, s)
            for name, items in ((pdef or {}).get("zones") or {}).items():
                exact += self.fill(t, lay.zone_index(name, pl), items, claimed, res,
                                   f"given.players.{seat}.zones.{name}")
            for name, value in ((pdef or {}).get("vars") or {}).items():
                if name not in w.pvars:
                    res.failures.append(f"given.players.{seat}.vars: unknown player var '{name}'"
                                        + _hint(name, w.pvars))
                    continue
                slot, typ = w.pvars[name]
                t.p[pl][slot] = self.value(t.p[pl][slot], value, typ, s.n, res, f"p{pl + 1}.{name}")
        self.held = {what: len(t.zones[z]) for what, z in self.listed(given, lay, s)}  # (for upgrade)
        for z, what, rest in exact:
            left = [x for x in t.zones[z] if x not in claimed]
            if left and rest is not None:
                to = self.zone_named(rest, s, res, f"{what}.rest")
                for x in left if to is not None else ():
                    try:
                        w.move(t, x, to, None)
                    except RuleError as ex:
                        res.failures.append(f"{what}.rest: {ex.message}")
                        break
            elif left:
                kinds = sorted({t.types[x] for x in left})
                res.failures.append(
                    f"{what} holds exactly the listed pieces, but {len(left)} piece(s) that start in this zone "
                    f"are listed nowhere ({', '.join(kinds[:6])}{' ...' if len(kinds) > 6 else ''}): list them in "
                    "another zone, write {top: [...], rest: ZONE} to put them there, or {top: [...]} to keep "
                    "them below the listed ones")
        for name, value in (given.get("vars") or {}).items():
            if name not in w.gvars:
                res.failures.append(f"given.vars: unknown var '{name}'" + _hint(name, w.gvars))
                continue
            slot, typ = w.gvars[name]
            t.g[slot] = self.value(t.g[slot], value, typ, s.n, res, name)
        if given.get("effect"):
            self.given_effect(t, str(given["effect"]), res)
        if given.get("random") is not None:
            t.rng = self.fixed_random(t, given["random"], res)
        start = given.get("start")
        if start is not None:
            pl = self.seat(start.get("player", 1), s.n, res)
            t.flow = []
            if "phase" in start:
                root = g.phase_root.get(start["phase"])
                if root is None:
                    res.failures.append(f"given.start: unknown phase '{start['phase']}'"
                                        + _hint(start["phase"], g.phase_root))
                    return t
            elif "step" in start:
                root = self.step_node(start["step"], start.get("in"), bool(start.get("resume")), res)
                if root is None:
                    return t
            else:
                res.failures.append("given.start: give a phase or a step")
                return t
            if start.get("resume"):
                from ..engine.resume import resume_stack
                stack = resume_stack(g, root, pl, s.n, t)
                if stack is None:
                    res.failures.append(f"given.start: {start.get('step') or start.get('phase')} is not reached "
                                        "from the game's flow, so the flow cannot resume after it")
                    return t
                t.flow = stack
            else:
                push(t, root, pl, None)
        t.menu = None
        t.ids = None
        from ..engine.flow import advance
        advance(g, t)
        return t

    def listed(self, given, lay, s):
        """(what, zone index) of every zone `given` lists."""
        w = self.game.world
        out = [(f"given.zones.{name}", w.gzones[name]) for name in (given.get("zones") or {}) if name in w.gzones]
        for seat, pdef in (given.get("players") or {}).items():
            pl, _ = self.seat_of(seat, s.n, s)
            if pl is not None:
                out += [(f"given.players.{seat}.zones.{name}", lay.zone_index(name, pl))
                        for name in ((pdef or {}).get("zones") or {}) if name in w.pzones]
        return out

    def fixed_random(self, t, items, res):
        """The generator state whose next draws give `items`: a number is what the next `random(n)` gives
        (0..n-1); a list of component types is the order (top first) the next shuffle leaves."""
        from ..engine import rng
        w = self.game.world
        out = []
        for i, item in enumerate(items if isinstance(items, list) else [items]):
            if isinstance(item, bool) or not isinstance(item, (int, list)):
                res.failures.append(f"given.random[{i}]: a number (a random(n) outcome) or a list of "
                                    f"component types (a shuffle's order), not {item!r}")
                continue
            if isinstance(item, list):
                for name in item:
                    if name not in w.types:
                        res.failures.append(f"given.random[{i}]: unknown component type '{name}'"
                                            + _hint(name, w.types))
            out.append(item)
        return rng.fix(t.rng, out)

    def given_effect(self, t, text, res):
        """Statements that finish the position (e.g. set a field of a piece that stays in place), with
        p1..pN bound to the seats; run after the given zones and vars, before `start`."""
        from ..language.dsl import parse_stmts
        u = Unit(player=False, effects=True)
        sc = Scope(u)
        for i in range(t.n):
            sc.names[f"p{i + 1}"] = ("macro", const(i, "player"))
        try:
            fn = self.game.world.compiler.stmts(parse_stmts(text), sc, "given.effect")
        except (CompileError, DslSyntaxError) as ex:
            res.failures.append(f"given.effect, line {getattr(ex, 'line', 1)}: {ex.message}")
            return
        t.ev = []
        t.budget = 0
        try:
            fn(t, [None, None] + [None] * (u.n - 2))
        except RuleError as ex:
            res.failures.append(f"given.effect: {ex}")
        t.ev = []

    def step_node(self, sid, within, resume, res):
        """The flow node of step `sid` that `start` names (`within`: the phase or hook that holds it, or
        `flow`, the game's own flow, where the step is taken in several places); None and a failure when
        there is no such node or, to resume the flow after it (from format version 2), more than one.
        Without resume, the step alone is taken, the same wherever it is written."""
        g = self.game
        places = [n for n in g.nodes if n.step is not None and n.step.id == sid]
        if not places:
            if sid in g.world.d["steps"]:
                res.failures.append(f"{self.where('given', 'start', 'step')}: given.start: step '{sid}' is "
                                    "taken nowhere in the flow")
            else:
                res.failures.append(f"given.start: unknown step '{sid}'" + _hint(sid, g.world.d["steps"]))
            return None
        holders = {n.id: _holder(n.path) for n in places}
        if within is not None:
            named = [n for n in places if holders[n.id] == str(within)]
            if not named:
                res.failures.append(f"{self.where('given', 'start', 'in')}: given.start: step '{sid}' is not "
                                    f"taken in '{within}' (it is in {', '.join(sorted(set(holders.values())))})")
                return None
            places = named
        if len(places) > 1 and (self.version < 2 or not resume):
            return places[0].id  # format version 1 took the first place the definition lists
        if len(places) > 1:
            d = g.world.d
            res.failures.append(
                f"{self.where('given', 'start', 'step')}: given.start: step '{sid}' is taken in {len(places)} "
                f"places of the flow ({'; '.join(f'{d.where(n.path)} in {holders[n.id]}' for n in places)}): "
                + ("say which with `in:` (the phase or hook that holds it, or `flow`)"
                   if len({holders[n.id] for n in places}) > 1 else
                   f"all in {holders[places[0].id]}: start at a phase instead (`phase:`)"))
            return None
        return places[0].id

    def seat(self, seat, n, res, s=None):
        """The seat index of `seat` (1.., pN; in a state `s`, also a scripted seat's id), or None (and a
        failure in `res`)."""
        pl, why = self.seat_of(seat, n, s)
        if why:
            res.failures.append(why)
        return pl

    def seat_of(self, seat, n, s=None):
        """(seat index, None), or (None, why `seat` names no seat)."""
        if s is not None:
            for pl, name in self.game.world.scripted.seats(s.n, s.opts):
                if str(seat) == name:
                    return pl, None
        try:
            k = int(str(seat).lstrip("p"))
        except ValueError:
            return None, f"'{seat}' is not a seat (1..{n})"
        if not 1 <= k <= n:
            return None, f"seat {k} is not in this {n}-player game"
        return k - 1, None

    def value(self, old, value, typ, n, res, what):
        if typ == "player":
            return None if value is None else self.seat(value, n, res)
        if isinstance(old, dict):
            if not isinstance(value, dict):
                res.failures.append(f"{what} is a map: give {{kind: value}}")
                return old
            new = dict(old)
            for k, v in value.items():
                if k not in new:
                    res.failures.append(f"{what}: '{k}' is not a key ({', '.join(new)})")
                    continue
                new[k] = v
            return new
        return value

    def fill(self, t, z, items, claimed, res, what) -> list:
        """Put the listed pieces into zone z, in order, with their fields; `claimed` are pieces that
        earlier lists of this `given` already placed. Returns [(z, what, rest)] when the zone must hold
        exactly them (a list, from format version 2; `{top: [...], rest: ZONE}`, the other pieces it held
        moved to ZONE), [] when the pieces that start in it stay below them (`{top: [...]}`, and a list in
        version 1)."""
        w = self.game.world
        exact = isinstance(items, list) and self.version >= 2
        rest = None
        if isinstance(items, dict):
            rest = items.get("rest")
            exact = rest is not None
            items = items.get("top")
        for i, item in enumerate(items or []):
            fields = {}
            if isinstance(item, dict) and len(item) == 1:
                (tname, fields), = item.items()
                fields = fields or {}
            else:
                tname = item
            if tname not in w.types:
                res.failures.append(f"{what}[{i}]: unknown component type '{tname}'" + _hint(tname, w.types))
                continue
            # Prefer a piece already in the zone (a zone where its pieces start lists them in place).
            candidates = [x for x in range(len(t.types)) if t.types[x] == tname and x not in claimed]
            x = next((x for x in candidates if t.loc[x] == z), candidates[0] if candidates else None)
            if x is None:
                res.failures.append(f"{what}[{i}]: no piece of type '{tname}' is left to place")
                continue
            claimed.add(x)
            try:
                w.move(t, x, z, len([y for y in t.zones[z] if y in claimed and y != x]))
            except RuleError as ex:
                res.failures.append(f"{what}[{i}]: {ex.message}")
                continue
            for f, v in fields.items():
                if f not in w.fields:
                    res.failures.append(f"{what}[{i}]: unknown field '{f}'" + _hint(f, w.fields))
                    continue
                col, ftype = w.fields[f]
                if ftype == "player":
                    v = self.player(v, t.n, res, f"{what}[{i}].{f}")
                old = t.fields[col][x]
                if isinstance(old, dict):  # a map field: the listed keys change, the others stay
                    if not isinstance(v, dict) or set(v) - set(old):
                        res.failures.append(f"{what}[{i}]: field {f} is a map with keys {', '.join(old)}")
                        continue
                    v = {**old, **v}
                t.fields[col][x] = v
        return [(z, what, rest)] if exact else []

    def zone_named(self, text, s, res, what):
        """The zone a scenario names: a global zone, or `pN.NAME` (a player's zone); None and a failure."""
        w = self.game.world
        text = str(text)
        if "." in text:
            seat, name = text.split(".", 1)
            pl, why = self.seat_of(seat, s.n, s)
            if pl is not None and name in w.pzones:
                return self.game.layout.zone_index(name, pl)
            res.failures.append(f"{what}: '{text}' is no zone" + (f" ({why})" if why else
                                                                   _hint(name, w.pzones)))
            return None
        if text in w.gzones:
            return w.gzones[text]
        res.failures.append(f"{what}: '{text}' is no global zone (or pN.ZONE)" + _hint(text, w.gzones))
        return None

    def player(self, value, n, res, what):
        """A player value written in this file: `pN`, none, or a number (a seat from 1 from format version 2,
        from 0 in version 1, as it was read then)."""
        if value is None:
            return None
        if isinstance(value, int) and not isinstance(value, bool) and self.version < 2:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            res.failures.append(f"{what}: {value!r} is not a player (a seat 1..{n}, pN or none)")
            return None
        pl, why = self.seat_of(value, n)
        if why:
            res.failures.append(f"{what}: {why}")
        return pl


def _holder(path) -> str:
    """What holds a flow node, by its definition path: a phase's or hook's id, or `flow`."""
    return str(path[1]) if len(path) > 1 and path[0] in ("phases", "hooks") else "flow"


def _hint(name, names):
    h = did_you_mean(str(name), names)
    return f"; {h}" if h else ""
