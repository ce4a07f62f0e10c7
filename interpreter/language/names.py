"""The compiler's names and values: literals, names (slots, constants, tables, the state's variables and
zones, players), attributes of pieces, players and zones, and indexing. A mixin of `compiler.Compiler`."""

from __future__ import annotations

from lark import Tree

from ..definition.problems import did_you_mean
from .codegen import LIMIT, NOCONST, X, CompileError, RuleError, _value_type, const


class Names:
    """Part of `Compiler` (see the module doc)."""

    def x_number(self, n, sc):
        digits = str(n.children[0]).lstrip("-+")
        if len(digits) > 20:  # int() of thousands of digits is slow, and past 4,300 refused by Python
            raise CompileError(f"an integer of {len(digits)} digits is beyond the limit of ±2**53", n)
        v = int(n.children[0])
        if not -LIMIT <= v <= LIMIT:
            raise CompileError(f"integer {v} is beyond the limit of ±2**53", n)
        return const(v, "int")

    def x_string(self, n, sc):
        return const(n.children[0][1:-1], "str")

    def x_list_(self, n, sc):
        items = [self.expr(c, sc) for c in n.children]
        t = items[0].t if items and all(i.t == items[0].t for i in items) else "any"
        if all(i.c is not NOCONST for i in items):
            return const([i.c for i in items], "list:" + t)
        return self.gen("[" + ", ".join(self.src(i) for i in items) + "]", "list:" + t)

    def x_name(self, n, sc):
        name = str(n.children[0])
        return self.name(name, n, sc)

    def name(self, name, node, sc) -> X:
        b = sc.lookup(name)
        if b is not None:
            if b[0] == "slot":
                i = b[1]
                sc.unit.read.add(i)
                self.read_log.append(i)
                return self.gen(f"e[{i}]", b[2], slot=i)
            if b[1].deps:
                self.read_log.extend(b[1].deps)
            return b[1]
        w = self.w
        if name == "player":
            if not sc.unit.player:
                raise CompileError("'player' is not bound here (no acting player)", node)
            self.read_log.append(0)
            return self.gen("e[0]", "player", slot=0)
        if name == "event":
            raise CompileError("'event' is used only as event.NAME, in a hook", node)
        if name in ("none", "true", "false"):
            return const({"none": None, "true": True, "false": False}[name])
        if name == "players":
            return self.gen("range(s.n)", "list:player")
        if name == "player_count":
            return self.gen("s.n", "int")
        if name == "pieces":
            return self.gen("range(len(s.types))", "list:piece")
        if name in w.gvars:
            w.reads.add(("var", name))
            slot, t = w.gvars[name]
            return self.metered("var", name, self.gen(f"s.g[{slot}]", t))
        if name in w.scripted.seat_fns:  # a scripted seat: its seat, or none when it is not at the table
            w.reads.add(("seat", name))
            return self.gen(f"{self.pool.ref(w.scripted.seat_fns[name])}(s)", "player")
        if name in w.tables:
            w.reads.add(("table", name))
            return self.table(name)
        if name == "game_ending":
            return self.gen("bool(s.ends)", "bool")
        if name in w.gzones:
            w.reads.add(("zone", name))
            z = w.gzones[name]
            return const(z, "zone")
        if name in w.gfamilies:  # a zone family: the list of its zones; NAME[k] is one of them (zonevalues)
            w.reads.add(("zone", name))
            kind, first = w.gfamilies[name]
            base = w.gzones.get(first, 0)
            return const(range(base, base + len(w.kinds[kind])), "zones:" + kind)
        if name in w.kinds:
            w.reads.add(("kind", name))
            # One list per kind (constants are never changed): the same text compiles to the same source.
            lists = self.__dict__.setdefault("_kind_lists", {})
            if name in w.number_kinds:
                return const(lists.setdefault(name, list(w.number_kinds[name])), "list:int")
            return const(lists.setdefault(name, list(w.kinds[name])), "list:str")
        if name in w.kind_values or name in w.types or name in w.phases or name in w.end_triggers:
            w.reads.add(("name", name))
            return const(name, "str")
        if name in w.pzones:
            raise CompileError(f"'{name}' is a player zone: write player.{name} or p.{name}", node)
        if name in w.pvars:
            raise CompileError(f"'{name}' is a player var: write player.{name} or p.{name}", node)
        if name == "option":
            raise CompileError("write option.NAME", node)
        if name in w.defs and not w.defs[name][0]:
            return self.inline_def(name, [], sc, node)
        raise CompileError(f"unknown name '{name}'", node, did_you_mean(name, self.known_names(sc)))

    def known_names(self, sc):
        names = set()
        s = sc
        while s is not None:
            names.update(s.names)
            s = s.parent
        w = self.w
        names.update(w.gvars, w.tables, w.gzones, w.gfamilies, w.kinds, w.kind_values, w.types, w.phases,
                     w.end_triggers, w.scripted.names)
        names.update(("player", "players", "player_count", "none", "true", "false", "pieces", "option",
                      "game_ending"))
        return names

    def table(self, name, whole=True):
        """The value of table `name` (its value at the game's player count for a by_players table); a read
        of the whole value when a meter counts it and `whole` (x_index counts the entry it reads instead)."""
        value, by_players = self.w.tables[name]
        t = _value_type(next(iter(value.values())) if by_players and value else value)
        x = self.gen(f"{self.pool.ref(value)}[s.n]", t) if by_players else const(value, t)
        return self.metered("table", name, x) if whole else x

    def metered(self, kind, name, x: X) -> X:
        """x, or (when the game's read meter counts `name`) x read through the meter (see meters)."""
        meter = self.w.meter
        if meter is None or not meter.metered(kind, name):
            return x
        return self.gen(f"{self.pool.ref(meter.value)}(s, {self.pool.ref((kind, name, None))}, {self.src(x)})", x.t)

    def metered_table(self, node, sc):
        """The name of the table `node` names when the game's read meter counts its reads, else None."""
        meter = self.w.meter
        if meter is None or not (isinstance(node, Tree) and node.data == "name"):
            return None
        name = str(node.children[0])
        if sc.lookup(name) is not None or name not in self.w.tables or not meter.metered("table", name):
            return None
        return name

    def x_attr(self, n, sc):
        base, name_tok = n.children
        name = str(name_tok)
        w = self.w
        if isinstance(base, Tree) and base.data == "name":
            bname = str(base.children[0])
            if bname == "option" and sc.lookup("option") is None:
                if name not in w.options:
                    raise CompileError(f"unknown option '{name}'", name_tok, did_you_mean(name, w.options))
                w.reads.add(("option", name))
                return self.gen(f"s.opts[{name!r}]", _value_type(w.options[name].get("default")))
            if bname == "event" and sc.lookup("event") is None:
                ev = sc.unit.event
                if ev is None:
                    raise CompileError("'event' is bound only in a hook", base)
                names, types = ev
                if name not in names:
                    raise CompileError(f"the event has no argument '{name}'", name_tok, did_you_mean(name, names))
                i = names.index(name)
                self.read_log.append(1)
                return self.gen(f"e[1][{i}]", types[i])
        b = self.expr(base, sc)
        return self.attribute(b, name, name_tok)

    def attribute(self, b: X, name: str, tok) -> X:
        w = self.w
        bs = self.src(b)
        if b.t == "player":
            if name in w.pvars:
                w.reads.add(("pvar", name))
                slot, t = w.pvars[name]
                return self.metered("var", name, self.gen(f"s.p[{bs}][{slot}]", t))
            if name in w.pzones:
                w.reads.add(("pzone", name))
                off = w.pzones[name]
                G, PZ = w.layout.G, w.layout.PZ
                return self.gen(f"({G + off} + ({bs}) * {PZ})", "zone")
            if name in w.pfamilies:
                w.reads.add(("pzone", name))
                kind, first = w.pfamilies[name]
                G, PZ = w.layout.G, w.layout.PZ
                base = f"({G + w.pzones.get(first, 0)} + ({bs}) * {PZ})"
                return self.gen(f"range({base}, {base} + {len(w.kinds[kind])})", "zones:" + kind)
            if name in w.params:
                w.reads.add(("param", name))
                if w.meter is not None and w.meter.metered("param", name):
                    return self.metered("param", name, X(w.param_fn(name, b.f), w.param_type(name), pool=self.pool))
                if b.slot is None:
                    return X(w.param_fn(name, b.f), w.param_type(name))
                f = w.param_fn(name, b.f, b.slot)
                # A player in a slot (`player`, a choice): the menu's memo (modifiers._cached_param) is
                # looked up inline, and the function called only outside a menu or on a miss.
                c, v = self.temp(), self.temp()
                return self.gen(f"({v} if ({c} := s.pcache) is not None and ({v} := {c}.get(({self.pool.ref(name)}, "
                                f"e[{b.slot}]))) is not None else {self.pool.ref(f)}(s, e))", w.param_type(name))
            raise CompileError(f"a player has no var, zone or parameter '{name}'", tok,
                               did_you_mean(name, list(w.pvars) + list(w.pzones) + list(w.params)))
        if b.t == "piece" or b.t == "any":
            if name == "type":
                return self.gen(f"s.types[{bs}]", "str")
            if name == "class":
                return self.gen(f"{self.pool.ref(w.class_of)}[s.types[{bs}]]", "str")
            if name in w.piece_zones:  # the zone this piece holds (zonevalues)
                w.reads.add(("zone", name))
                return self.gen(f"{self.pool.ref(w.piece_zone_rt.zone)}(s, {bs}, {name!r})", "zone")
            if name in w.fields:
                w.reads.add(("field", name))
                col, t = w.fields[name]
                return self.gen(f"s.fields[{col}][{bs}]", t)
            if name in w.props:
                w.reads.add(("prop", name))
                t = w.prop_types[name]
                if w.meter is not None and w.meter.metered("prop", name):  # counted per piece type
                    return self.gen(f"{self.pool.ref(w.meter.entry)}(s, {self.pool.ref(('prop', name))}, "
                                    f"{self.pool.ref(w.props[name])}, s.types[{bs}])", t)
                return self.gen(f"{self.pool.ref(w.props[name])}[s.types[{bs}]]", t)
            if b.t == "piece":
                raise CompileError(f"a piece has no field or property '{name}'", tok,
                                   did_you_mean(name, ["type", "class"] + list(w.fields) + list(w.props)))
        raise CompileError(f"'.{name}' on a value of type {b.t}", tok)

    def x_index(self, n, sc):
        base, key = n.children
        metered = self.metered_table(base, sc)  # a metered table counts the entry read, not the whole table
        b = self.expr(base, sc) if metered is None else self.table(metered, whole=False)
        k = self.expr(key, sc)
        if b.t.startswith("zones:"):  # one zone of a family, by a value of its kind
            values = self.w.kinds.get(b.t[6:], [])
            if k.c is not NOCONST and k.c not in values:
                raise CompileError(f"the family's zones are one per {b.t[6:]}: {k.c!r} is none of its values", key,
                                   did_you_mean(str(k.c), [str(v) for v in values]))
            if k.t in ("bool", "player", "piece", "zone"):
                raise CompileError(f"a zone family is indexed by a value of {b.t[6:]}, not a {k.t}", key)
            offsets = {v: i for i, v in enumerate(values)}
            return self.gen(f"({self.src(b)})[{self.pool.ref(offsets)}[{self.src(k)}]]", "zone")
        if b.t == "zone":  # the piece at a place of a zone (0 is the top): a card chosen by its place
            if k.t not in ("int", "any"):
                raise CompileError(f"a zone is indexed by a place (a whole number, 0 is the top), not a {k.t}", key)
            return self.gen(f"{self.pool.ref(piece_at)}(s, {self.src(b)}, {self.src(k)})", "piece")
        if b.t == "map":
            if k.t in ("bool", "player", "piece") or (k.t == "int" and not self.w.number_kinds):
                raise CompileError(f"a map's keys are the values of its kind, not a {k.t}", key)
            # A missing key raises KeyError, which the statement or the menu reports where it is written.
            return self.gen(f"({self.src(b)})[{self.src(k)}]", "int")
        if b.t == "table" and isinstance(b.c, dict) and b.c:
            keys = list(b.c)
            if k.c is not NOCONST and k.c not in b.c:
                raise CompileError(f"this table has no key {k.c!r} (its keys: {', '.join(map(str, keys[:12]))})",
                                   key, did_you_mean(str(k.c), [str(x) for x in keys]))
            if all(isinstance(x, str) for x in keys) and k.t in ("int", "bool"):
                raise CompileError(f"this table's keys are names ({', '.join(keys[:6])}), not a {k.t}", key)
            if all(type(x) is int for x in keys) and k.t == "str":
                raise CompileError("this table's keys are numbers, not a str", key)
        if b.t.startswith("list:") or b.t == "any" or b.t.startswith("table"):
            et = b.t[5:] if b.t.startswith("list:") else "any"
            if metered is not None:
                return self.gen(f"{self.pool.ref(self.w.meter.entry)}(s, {self.pool.ref(('table', metered))}, "
                                f"{self.src(b)}, {self.src(k)})", et)
            return self.gen(f"({self.src(b)})[{self.src(k)}]", et)
        raise CompileError(f"cannot index a value of type {b.t}", n)


def piece_at(s, z, i):
    """The piece at place i of zone z (0 is the top); a rule error where there is none."""
    pieces = s.zones[z]
    if type(i) is not int or not 0 <= i < len(pieces):
        raise RuleError(f"a zone of {len(pieces)} pieces has no place {i!r} (places are 0 to {len(pieces) - 1})")
    return pieces[i]
