"""Compile DSL trees into generated Python functions, checking every name and type against the definition.

A compiled expression is an `X`: Python source over `s` (the state) and `e` (an environment list) — or, for
the vocabulary's functions, a closure `f(s, e)` — with its static type and, when it is a constant, its value.
The source becomes a function only where one is needed (a condition, a domain, an argument of a vocabulary
function), so `a.x + b.y > 3 and f(x)` runs as one function. An effect body becomes one function with its
statements numbered for error locations. The environment is `[player, event_args, local slots...]`; each
compiled unit (one effect, one action, one condition) allocates its own slots at compile time, so nothing is
looked up by name during play. Generated code names nothing an author wrote: names are slots, and every
constant, table or function is `K[i]` of the `Pool`.

Types are strings: 'int', 'bool', 'str', 'player', 'piece', 'zone', 'map', 'none', 'any', and 'list:T'
for lists of T. They exist to resolve `x.name` at load time and to report mistakes where they are written.
"""

from __future__ import annotations

from lark import Token, Tree

from ..definition.limits import LOOP_BUDGET, MAX_BLOCK_DEPTH, MAX_COMPILE_WORK, MAX_EXPR_DEPTH, MAX_GAME_WORK, MAX_STATEMENTS
from ..definition.problems import did_you_mean

LIMIT = 2 ** 53
NOCONST = object()
MAX_PARENS = 150  # open parentheses in one generated expression before it becomes a function of its own


class CompileError(Exception):
    """A mistake in DSL text, at (line, col) of that text."""

    def __init__(self, message: str, node=None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        meta = getattr(node, "meta", None) if isinstance(node, Tree) else None
        if isinstance(node, Token):
            self.line, self.col = node.line or 1, node.column or 1
        elif meta is not None and not getattr(meta, "empty", True):
            self.line, self.col = meta.line, meta.column
        else:
            self.line, self.col = 1, 1


class RuleError(Exception):
    """A rule failed while running (e.g. moving a piece into a full zone); names where it is written."""

    def __init__(self, message: str, where: str | None = None):
        super().__init__(f"{where}: {message}" if where else message)
        self.message, self.where = message, where


# The code object of every generated source compiled so far (the same rules loaded again, or code from the
# cache, see `cache`); `record()` collects the sources a load uses.
CODES: dict = {}
MAX_CODES = 50_000
_used: set | None = None


def record(on=True) -> set | None:
    """Start (or, with a false `on`, stop) collecting the sources that `Pool.define` uses; the set."""
    global _used
    _used = set() if on else None
    return _used


class Pool:
    """Generated Python source for expressions, and the objects it refers to.

    The compiler turns a DSL expression into one Python expression (with `s` the state and `e` the
    environment) instead of a tree of closures: a condition like `x.workers < x.circles and p.doubloons >= 3`
    runs as a single function. Nothing an author wrote reaches the generated code as text: names become slot
    numbers and every constant, table or function is referred to as `K[i]`.
    """

    def __init__(self):
        self.K: list = []
        self._ids: dict = {}
        self._functions: dict = {}

    def ref(self, obj) -> str:
        i = self._ids.get(id(obj))
        if i is None or self.K[i] is not obj:
            i = len(self.K)
            self.K.append(obj)
            self._ids[id(obj)] = i
        return f"K[{i}]"

    def function(self, src: str):
        """A function f(s, e) returning the value of `src` (compiled once per distinct source)."""
        f = self._functions.get(src)
        if f is None:
            f = self._functions[src] = self.define("s, e", [f"return {src}"])
        return f

    def define(self, params: str, body: list[str]):
        """A function of `params` (plus K) whose body is the given lines (already indented past the def)."""
        ns = {"K": self.K}
        src = f"def _f({params}, K=K):\n" + "\n".join("    " + line for line in body) + "\n"
        code = CODES.get(src)
        if code is None:
            if len(CODES) >= MAX_CODES:
                CODES.clear()
            code = CODES[src] = compile(src, "<meeple rules>", "exec")
        if _used is not None:
            _used.add(src)
        exec(code, ns)
        return ns["_f"]


class X:
    """A compiled expression: a function f(s, e) or the Python source of one, its type and, for a
    constant, its value."""

    __slots__ = ("_f", "_src", "t", "c", "slot", "pool", "deps", "parts")

    def __init__(self, f, t, c=NOCONST, slot=None, src=None, pool=None):
        self._f, self.t, self.c = f, t, c
        self._src, self.pool = src, pool
        self.slot = slot  # set when the value is just env[slot]
        self.deps = None  # the environment slots it reads that were bound before it (set by Compiler.expr)
        self.parts = None  # the operands of an `and` chain (a condition's conjuncts)

    @property
    def f(self):
        if self._f is None:
            self._f = self.pool.function(self._src)
        return self._f


def const(v, t=None) -> X:
    if t is None:
        t = ("bool" if isinstance(v, bool) else "int" if isinstance(v, int) else
             "str" if isinstance(v, str) else "none" if v is None else "list:any" if isinstance(v, list) else "any")
    return X(lambda s, e, v=v: v, t, v)


def _too_big(v):
    raise RuleError(f"integer {v} is beyond the limit of ±2**53")


def _division_by_zero():
    raise RuleError("division by zero")


class _Nothing:
    """What min/max of no items give without a `default`: an error, not a number that looks like one."""

    def __init__(self, name):
        self.name = name


_NOTHING = {"min": _Nothing("min"), "max": _Nothing("max")}


def _of_nothing(v):
    if type(v) is _Nothing:
        raise RuleError(f"{v.name} of nothing: no item to compare (give one with `, default = VALUE`)")
    return v


# Aggregates over a generator, as Python source: {el} the element, {loop} `for e[i] in ... if ...`.
GEN_FORMS = {
    "sum": ("sum(({el}) {loop})", "int"),
    "any": ("any(({el}) {loop})", "bool"),
    "all": ("all(({el}) {loop})", "bool"),
    "min": ("min((({el}) {loop}), default={default})", "int"),
    "max": ("max((({el}) {loop}), default={default})", "int"),
    "first": ("next((({el}) {loop}), None)", None),
    "list": ("[({el}) {loop}]", None),
    "count": (None, "int"),
}
LOOP_FORMS = ("any", "all", "sum", "count", "first")  # generated as a plain loop (Compiler.loop_call)


def elem_type(t: str) -> str | None:
    """The type of the items of a collection type, or None if it is not a collection."""
    if t == "zone":
        return "piece"
    if t.startswith("zones:"):  # a zone family: its zones
        return "zone"
    if t.startswith("list:"):
        return t[5:]
    if t == "any":
        return "any"
    return None


class Unit:
    """One compiled text with its own environment; allocates local slots."""

    def __init__(self, player: bool = True, event: tuple | None = None, effects: bool = False):
        self.n = 2
        self.player = player          # is `player` bound here
        self.event = event            # the event's (names, types) in a hook, else None
        self.effects = effects        # may effect functions be called
        self.assigned: dict = {}      # slot -> (name, node) of locals made by an assignment
        self.read: set = set()        # slots some expression reads

    def slot(self) -> int:
        self.n += 1
        return self.n - 1


class Scope:
    def __init__(self, unit: Unit, parent: "Scope | None" = None):
        self.unit = unit
        self.parent = parent
        self.names: dict[str, tuple] = {}   # name -> ('slot', i, type) | ('macro', X)

    def lookup(self, name):
        sc = self
        while sc is not None:
            if name in sc.names:
                return sc.names[name]
            sc = sc.parent
        return None

    def child(self) -> "Scope":
        return Scope(self.unit, self)

    def bind(self, name, t) -> int:
        i = self.unit.slot()
        self.names[name] = ("slot", i, t)
        return i


def _bounded(v):
    if type(v) is int and not -LIMIT <= v <= LIMIT:
        raise RuleError(f"integer {v} is beyond the limit of ±2**53")
    return v


class Compiler:
    """Compiles expressions and statements for one game (`world` knows its names)."""

    def __init__(self, world):
        self.w = world
        self.def_stack: list[str] = []
        self.pool = Pool()
        self._temps = 0
        # Every environment slot read, in compile order: what an expression reads is the part of this log
        # written while it was compiled (see `expr`), so menus know which parts depend on a choice.
        self.read_log: list[int] = []
        # While a menu's condition is compiled (see menuplan): hoist(x) gives a function computing x once
        # per menu, used for the parts that read no choice; None otherwise.
        self.hoist = None
        self._depth = 0
        self._work = 0
        self._total = 0
        self._loading = 1  # the whole-game budget counts the definition only, not later tools' expressions

    def loaded(self):
        """The definition is compiled: expressions compiled from now on (tools, scenarios) have only the
        per-expression budget."""
        self._loading = 0

    def gen(self, src, t, slot=None) -> X:
        if len(src) > MAX_PARENS and src.count("(") > MAX_PARENS:
            # CPython refuses about 200 nested parentheses: deep defs continue in a function of their own.
            src = self.pool.ref(self.pool.function(src)) + "(s, e)"
        return X(None, t, slot=slot, src=src, pool=self.pool)

    def src(self, x: X) -> str:
        """Python source for x: its own, a literal, or a call of its function."""
        if self.hoist is not None and x.deps is not None and x.c is NOCONST:
            h = self.hoist(x)
            if h is not None:
                return self.pool.ref(h) + "(s, e)"
        if x._src is not None:
            return x._src
        if x.c is not NOCONST and (x.c is None or type(x.c) in (int, bool, str)):
            return repr(x.c)
        if x.c is not NOCONST:
            return self.pool.ref(x.c)
        return self.pool.ref(x.f) + "(s, e)"

    def temp(self) -> str:
        self._temps += 1
        return f"_t{self._temps}"

    # ---------------------------------------------------------------- expressions
    def expr(self, node, sc: Scope) -> X:
        # Budgets (see limits): nesting, and the nodes compiled for one top-level expression, defs expanded.
        if self._depth == 0:
            self._work = 0
        self._work += 1
        self._total += self._loading
        if self._depth >= MAX_EXPR_DEPTH:
            raise CompileError(f"this expression is nested more than {MAX_EXPR_DEPTH} levels deep: "
                               "the nesting limit", node)
        if self._work > MAX_COMPILE_WORK or self._total > MAX_GAME_WORK:
            raise CompileError(
                f"this expression expands to more than {MAX_COMPILE_WORK} parts (defs included): "
                "the compile-work limit" if self._work > MAX_COMPILE_WORK else
                f"the game's expressions expand to more than {MAX_GAME_WORK} parts (defs included): "
                "the compile-work limit", node)
        self._depth += 1
        try:
            return self._expr(node, sc)
        finally:
            self._depth -= 1

    def _expr(self, node, sc: Scope) -> X:
        if isinstance(node, Token):
            raise CompileError(f"unexpected {node.value!r}", node)
        m = getattr(self, "x_" + node.data, None)
        if m is None:
            raise CompileError(f"unsupported expression ({node.data})", node)
        log, n0, u0 = self.read_log, len(self.read_log), sc.unit.n
        x = m(node, sc)
        # Slots bound while x was compiled (its own loop variables, a def's arguments) are x's own; the
        # log keeps only what x reads from outside (so it stays as short as the nesting is deep).
        deps = frozenset([i for i in log[n0:] if i < u0]) if len(log) > n0 else frozenset()
        del log[n0:]
        log.extend(deps)
        if x.deps is None:
            x.deps = deps
        return x

    def x_number(self, n, sc):
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
            return self.gen(f"s.g[{slot}]", t)
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

    def table(self, name):
        value, by_players = self.w.tables[name]
        t = _value_type(next(iter(value.values())) if by_players and value else value)
        if by_players:
            return self.gen(f"{self.pool.ref(value)}[s.n]", t)
        return const(value, t)

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
                return self.gen(f"s.p[{bs}][{slot}]", t)
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
                return X(w.param_fn(name, b.f), w.param_type(name))
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
                return self.gen(f"{self.pool.ref(w.props[name])}[s.types[{bs}]]", t)
            if b.t == "piece":
                raise CompileError(f"a piece has no field or property '{name}'", tok,
                                   did_you_mean(name, ["type", "class"] + list(w.fields) + list(w.props)))
        raise CompileError(f"'.{name}' on a value of type {b.t}", tok)

    def x_index(self, n, sc):
        base, key = n.children
        b = self.expr(base, sc)
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
            return self.gen(f"({self.src(b)})[{self.src(k)}]", et)
        raise CompileError(f"cannot index a value of type {b.t}", n)

    def x_neg(self, n, sc):
        a = self.num(n.children[0], sc)
        if a.c is not NOCONST:
            return const(-a.c, "int")
        return self.gen(f"(-({self.src(a)}))", "int")

    def num(self, node, sc) -> X:
        x = self.expr(node, sc)
        if x.t == "bool":
            raise CompileError("expected a number, got a bool (true and false are not numbers: write "
                               "`1 if c else 0`)", node)
        if x.t not in ("int", "any"):
            hint = None
            if x.t == "table" and isinstance(x.c, dict) and set(self.w.player_counts) <= set(x.c):
                hint = "a table indexed by the player count is written {by_players: {3: ..., 4: ...}}"
            raise CompileError(f"expected a number, got a {x.t}", node, hint)
        return x

    def x_binop(self, n, sc):
        a = self.num(n.children[0], sc)
        op = str(n.children[1])
        b = self.num(n.children[2], sc)
        if a.c is not NOCONST and b.c is not NOCONST:
            try:
                if op in ("//", "%") and b.c == 0:
                    raise RuleError("division by zero")
                v = {"+": a.c + b.c, "-": a.c - b.c, "*": a.c * b.c}.get(op) if op in "+-*" else (
                    a.c // b.c if op == "//" else a.c % b.c)
                return const(_bounded(v), "int")
            except RuleError as ex:
                raise CompileError(ex.message, n) from None
        sa, sb = self.src(a), self.src(b)
        # A value of unknown type (a table entry) must be a number before `*` can repeat a text or list.
        sa, sb = (f"{self.pool.ref(_number)}({x})" if t.t == "any" else x for x, t in ((sa, a), (sb, b)))
        if op in ("//", "%"):
            if b.c is not NOCONST and b.c != 0:  # a constant divisor: no zero to guard against
                return self.gen(f"(({sa}) {op} ({sb}))", "int")
            d = self.temp()
            zero = self.pool.ref(_division_by_zero)
            return self.gen(f"((({sa}) {op} {d}) if ({d} := ({sb})) != 0 else {zero}())", "int")
        # Every sum, difference and product stays within ±2**53: checked where it is computed.
        tmp = self.temp()
        over = self.pool.ref(_too_big)
        return self.gen(f"({tmp} if {-LIMIT} <= ({tmp} := ({sa}) {op} ({sb})) <= {LIMIT} else {over}({tmp}))",
                        "int")

    def x_compare(self, n, sc):
        a = self.expr(n.children[0], sc)
        op = str(n.children[1])
        b = self.expr(n.children[2], sc)
        if op not in ("==", "!=") and (a.t not in ("int", "any") or b.t not in ("int", "any")):
            raise CompileError(f"'{op}' compares numbers, not {a.t} and {b.t}", n)
        self.check_comparable(a, b, n)
        return self.gen(f"(({self.src(a)}) {op} ({self.src(b)}))", "bool")

    def check_comparable(self, a: X, b: X, node):
        """Catch `x.type == 'univrsity'`: a string constant compared must be a known name; and values of
        types that are never equal (a kind value and a number, a bool and a number)."""
        kinds = {a.t, b.t}
        if kinds in ({"str", "int"}, {"str", "bool"}, {"bool", "int"}, {"str", "player"}, {"str", "piece"},
                     {"bool", "player"}, {"bool", "piece"}):
            an = lambda t: ("an " if t[:1] in "aeiou" else "a ") + t  # noqa: E731
            raise CompileError(f"{an(a.t)} is never equal to {an(b.t)}: compare values of one type", node)
        for x, y in ((a, b), (b, a)):
            if x.t == "str" and y.c is not NOCONST and isinstance(y.c, str):
                w = self.w
                if y.c not in w.all_strings:
                    raise CompileError(f"'{y.c}' is not a kind value, component type or phase", node,
                                       did_you_mean(y.c, w.all_strings))

    def x_in_(self, n, sc, negate=False):
        a = self.expr(n.children[0], sc)
        b = self.expr(n.children[1], sc)
        if b.t == "zone":
            src = f"(s.loc[{self.src(a)}] == ({self.src(b)}))"
        elif b.t.startswith("list:") or b.t == "any" or b.t.startswith("zones:"):
            if b.t.startswith("list:"):
                self.check_comparable(a, X(None, b.t[5:]), n)
            src = f"(({self.src(a)}) in ({self.src(b)}))"
        else:
            raise CompileError(f"'in' needs a zone or a list, got a {b.t}", n.children[1])
        return self.gen(f"(not {src})" if negate else src, "bool")

    def x_not_in(self, n, sc):
        return self.x_in_(n, sc, negate=True)

    def _chain(self, n, sc, kind):
        """The operands of a chain `a and b and c` (or `or`), flattened."""
        out = []
        stack = [n]
        while stack:
            m = stack.pop()
            if isinstance(m, Tree) and m.data == kind:
                stack.append(m.children[1])
                stack.append(m.children[0])
            else:
                out.append(self.expr(m, sc))
        return out

    def x_and_(self, n, sc):
        xs = self._chain(n, sc, "and_")
        t = "bool" if all(x.t == "bool" for x in xs) else xs[-1].t
        x = self.gen("(" + " and ".join(f"({self.src(x)})" for x in xs) + ")", t)
        x.parts = xs
        return x

    def x_or_(self, n, sc):
        xs = self._chain(n, sc, "or_")
        t = "bool" if all(x.t == "bool" for x in xs) else xs[-1].t
        return self.gen("(" + " or ".join(f"({self.src(x)})" for x in xs) + ")", t)

    def x_not_(self, n, sc):
        a = self.expr(n.children[0], sc)
        return self.gen(f"(not ({self.src(a)}))", "bool")

    def x_ternary(self, n, sc):
        a = self.expr(n.children[0], sc)
        c = self.expr(n.children[1], sc)
        b = self.expr(n.children[2], sc)
        t = a.t if a.t == b.t or b.t == "none" else b.t if a.t == "none" else "any"
        return self.gen(f"(({self.src(a)}) if ({self.src(c)}) else ({self.src(b)}))", t)

    def x_call(self, n, sc):
        name_tok = n.children[0]
        name = str(name_tok)
        args = n.children[1:]
        if name in self.w.defs:
            return self.inline_def(name, args, sc, n)
        if name in self.w.procedures:
            return self.w.procedures.call(self, name, args, sc, n)
        from .vocabulary import AGGREGATES, FUNCTIONS
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise CompileError(f"unknown function '{name}'", name_tok,
                               did_you_mean(name, list(FUNCTIONS) + list(self.w.defs) + list(self.w.procedures.sigs)
                                            + list(AGGREGATES)))
        if fn.effect and not sc.unit.effects:
            raise CompileError(f"'{name}' changes the state: it may be used in an effect only", name_tok)
        if not fn.min_args <= len(args) <= fn.max_args:
            want = str(fn.min_args) if fn.min_args == fn.max_args else f"{fn.min_args} to {fn.max_args}"
            raise CompileError(f"{name}() takes {want} argument(s), got {len(args)}", n)
        compiled = []
        for i, a in enumerate(args):
            if i in fn.refs:
                compiled.append(self.ref(a, sc))
            else:
                compiled.append(self.expr(a, sc))
        return fn.build(self, compiled, n)

    def inline_def(self, name, args, sc, node):
        params, body, where = self.w.defs[name]
        if name in self.def_stack:
            raise CompileError(f"def '{name}' calls itself (defs may not recurse: " +
                               " -> ".join(self.def_stack + [name]) + ")", node)
        if len(args) != len(params):
            raise CompileError(f"{name}() takes {len(params)} argument(s) ({', '.join(params)}), got {len(args)}", node)
        # Call by value: an argument that is a constant or a plain slot is used as it is; any other is
        # evaluated once, into a fresh slot, before the body reads it.
        compiled = [self.expr(a, sc) for a in args]
        inner = Scope(sc.unit, None)
        sets = []
        for p, x in zip(params, compiled):
            if x.c is not NOCONST or x.slot is not None:
                inner.names[p] = ("macro", x)
            else:
                sets.append(f"e.__setitem__({inner.bind(p, x.t)}, {self.src(x)})")
        self.w.reads.add(("def", name))
        self.def_stack.append(name)
        try:
            body_x = self.expr(body, inner)
        except CompileError as ex:
            if not getattr(ex, "reported", False):
                # A mistake in the def's body: reported once, where the def is written (naming the first
                # use that found it); every use then fails quietly.
                use = getattr(node.meta, "line", 1), getattr(node.meta, "column", 1)
                self.w.def_problem(name, ex, use)
                ex.reported = True
            raise
        finally:
            self.def_stack.pop()
        if not sets:
            return body_x
        return self.gen("(" + " or ".join(sets) + f" or ({self.src(body_x)}))", body_x.t)

    def x_call_gen(self, n, sc):
        name_tok, gen = n.children[:2]
        name = str(name_tok)
        from .vocabulary import AGGREGATES
        if name not in AGGREGATES:
            raise CompileError(f"'{name}' does not take a generator (one of: {', '.join(AGGREGATES)})",
                               name_tok)
        el_node, var_tok, coll_node = gen.children[:3]
        cond_node = gen.children[3] if len(gen.children) > 3 else None
        default = None
        if len(n.children) > 2 and n.children[2] is not None:  # `, default = VALUE` (min and max only)
            if str(n.children[2]) != "default" or name not in ("min", "max"):
                raise CompileError(f"'{name}(... for ...)' takes no '{n.children[2]}'"
                                   + ("; only min and max take `, default = VALUE`" if name not in ("min", "max")
                                      else "; did you mean 'default'?"), n.children[2])
            default = self.expr(n.children[3], sc)
        coll = self.expr(coll_node, sc)
        et = elem_type(coll.t)
        if et is None:
            raise CompileError(f"cannot iterate over a {coll.t}", coll_node)
        inner = sc.child()
        slot = inner.bind(str(var_tok), et)
        el = self.expr(el_node, inner)
        indexed = None
        if coll.t == "zone" and cond_node is not None and name in GEN_FORMS:
            from .indexes import indexed_walk
            indexed = indexed_walk(self, coll, str(var_tok), cond_node, sc, inner)
        if indexed is not None:
            it, cond = indexed
        else:
            cond = self.expr(cond_node, inner) if cond_node is not None else None
        if name not in GEN_FORMS:  # built by the vocabulary (sort_by)
            return AGGREGATES[name](coll, slot, el, cond, n)
        if indexed is None:
            it = f"s.zones[{self.src(coll)}]" if coll.t == "zone" else self.src(coll)
            if ":=" in it:  # an assignment expression may not stand in a comprehension's iterable
                it = self.pool.ref(self.pool.function(it)) + "(s, e)"
            # The items a generator walks count against the loop budget, like a `for` statement's steps.
            it = f"{self.pool.ref(charge)}(s, {it})"
        cs = self.src(cond) if cond is not None else None
        loop = f"for e[{slot}] in {it}" + (f" if ({cs})" if cond is not None else "")
        es = self.src(el)
        if name in LOOP_FORMS:
            return self.gen(self.loop_call(name, slot, it, cs, es, el.t), GEN_FORMS[name][1] or el.t)
        form, t = GEN_FORMS[name]
        if t is None:
            t = "list:" + el.t if name == "list" else el.t
        if name in ("min", "max"):
            if default is not None:
                return self.gen(form.format(el=es, loop=loop, default=f"({self.src(default)})"), t)
            nothing = self.pool.ref(_NOTHING[name])
            return self.gen(f"{self.pool.ref(_of_nothing)}({form.format(el=es, loop=loop, default=nothing)})", t)
        return self.gen(form.format(el=es, loop=loop), t)

    def loop_call(self, name, slot, it, cond_src, el_src, el_t) -> str:
        """`any`, `all`, `sum`, `count` and `first` over a generator as a call of a generated function with a
        plain loop (a generator handed to any() or sum() costs a resumption per item): the same values in
        the same order, the same loop budget, the same failures."""
        body = [f"for e[{slot}] in {it}:"]
        charged = f"{self.pool.ref(charge)}(s, "
        if it.startswith(charged) and it.endswith(")"):
            # charge(), inline: the items counted against the loop budget without a call
            body = [f"_it = {it[len(charged):-1]}",
                    "s.budget += len(_it)",
                    f"if s.budget > {LOOP_BUDGET}:",
                    f"    {self.pool.ref(_charge_exceeded)}(len(_it))",
                    f"for e[{slot}] in _it:"]
        pad = "    "
        if cond_src is not None:
            body.append(f"    if ({cond_src}):")
            pad = "        "
        if name == "count" and cond_src is None and el_t == "bool":
            body.append(f"{pad}if ({el_src}):")  # count(b for x in xs): the true ones
            pad += "    "
        body += {"any": [f"{pad}if ({el_src}):", f"{pad}    return True"],
                 "all": [f"{pad}if not ({el_src}):", f"{pad}    return False"],
                 "sum": [f"{pad}_a += ({el_src})"],
                 "count": [f"{pad}_a += 1"],
                 "first": [f"{pad}return ({el_src})"]}[name]
        if name in ("sum", "count"):
            body = ["_a = 0"] + body + ["return _a"]
        else:
            body.append({"any": "return False", "all": "return True", "first": "return None"}[name])
        key = ("loop",) + tuple(body)  # one function per distinct loop, as Pool.function does per source
        f = self.pool._functions.get(key)
        if f is None:
            f = self.pool._functions[key] = self.pool.define("s, e", body)
        return self.pool.ref(f) + "(s, e)"
    def x_call_where(self, n, sc):
        from .boards import call_where  # `connected(x, where t: COND)` and the other board walks
        return call_where(self, n, sc)

    # ---------------------------------------------------------------- references (assignable)
    def ref(self, node, sc):
        """(get, set, type) functions for an assignable place (the vocabulary's `transfer` takes two)."""
        place = self.place(node, sc)
        head = [f"_c = {place['c']}", f"_k = {place['k']}"]
        if place.get("map"):
            head.append(f"if _k not in _c: {self.pool.ref(_no_key)}(_k, _c)")
        get = self.pool.define("s, e", head + ["return _c[_k]"])
        put = self.pool.define("s, e, v", self.store(place, "v"))
        get.place = place  # for a function that generates its reads and writes inline (transfer)
        return get, put, place["t"]

    def map_min(self, base):
        """The lower bound of a map var (resources never go below 0)."""
        w = self.w
        if isinstance(base, Tree):
            if base.data == "name":
                return w.gvar_min.get(str(base.children[0]))
            if base.data == "attr":
                name = str(base.children[1])
                if name in w.pvar_min:
                    return w.pvar_min.get(name)
                return w.field_min.get(name)
        return None

    # ---------------------------------------------------------------- statements
    def stmts(self, tree, sc: Scope, where):
        """Compile a `start_stmts` tree into one generated function f(s, e).

        Each statement sets `_ln` to its number first, so a rule that fails is reported at the
        `file:line:col` of its statement (`where(line, col)` gives that text)."""
        lines: list = []
        locs: list = []
        self._depth = 0
        for c in tree.children:
            self.stmt(c, sc, where, lines, locs, 2)
            if len(locs) > MAX_STATEMENTS:
                raise CompileError(f"more than {MAX_STATEMENTS} statements in one effect: the statement limit", c)
        if not lines:
            return lambda s, e: None
        relocate = self.pool.ref(_relocator(locs))
        body = (["_ln = 0", "try:"] + ["    " * (d - 1) + text for d, text in lines]
                + ["except Exception as _x:", f"    raise {relocate}(_x, _ln) from None"])
        return self.pool.define("s, e", body)

    def stmt(self, node, sc, where, lines, locs, depth):
        kind = node.data
        if depth - 2 >= MAX_BLOCK_DEPTH:
            raise CompileError(f"blocks nested more than {MAX_BLOCK_DEPTH} deep: the nesting limit", node)
        if kind == "simple_stmt":
            for c in node.children:
                lines.append((depth, f"_ln = {len(locs)}"))
                locs.append((where, c))  # its place is found only if it fails
                for text in self.small(c, sc):
                    lines.append((depth, text))
            return
        if kind == "if_stmt":
            lines.append((depth, f"_ln = {len(locs)}"))
            locs.append((where, node))  # its place is found only if it fails
            ch = node.children
            lines.append((depth, f"if ({self.src(self.expr(ch[0], sc))}):"))
            self.suite(ch[1], sc, where, lines, locs, depth + 1)
            for c in ch[2:]:
                if c.data == "elif_clause":
                    lines.append((depth, f"elif ({self.src(self.expr(c.children[0], sc))}):"))
                    self.suite(c.children[1], sc, where, lines, locs, depth + 1)
                else:
                    lines.append((depth, "else:"))
                    self.suite(c.children[0], sc, where, lines, locs, depth + 1)
            return
        if kind == "for_stmt":
            lines.append((depth, f"_ln = {len(locs)}"))
            locs.append((where, node))  # its place is found only if it fails
            var_tok, coll_node, body_node = node.children
            coll = self.expr(coll_node, sc)
            et = elem_type(coll.t)
            if et is None:
                raise CompileError(f"cannot iterate over a {coll.t}", coll_node)
            inner = sc.child()
            i = inner.bind(str(var_tok), et)
            it = f"s.zones[{self.src(coll)}]" if coll.t == "zone" else self.src(coll)
            tmp = self.temp()
            over = self.pool.ref(_budget_exceeded)
            # A list is copied first: the body may move the pieces of the zone it walks through.
            lines.append((depth, f"for e[{i}] in (tuple({tmp}) if type({tmp} := ({it})) is list else {tmp}):"))
            lines.append((depth + 1, "s.budget += 1"))
            lines.append((depth + 1, f"if s.budget > {self.w.step_budget}: {over}({self.w.step_budget})"))
            self.suite(body_node, inner, where, lines, locs, depth + 1)
            return
        if kind == "while_stmt":  # bounded: more than `max` passes is a rule error at the `while`
            k = len(locs)
            lines.append((depth, f"_ln = {k}"))
            locs.append((where, node))
            cond_node, max_node, body_node = node.children
            cond = self.expr(cond_node, sc)
            most = self.num(max_node, sc)
            n, m = self.temp(), self.temp()
            over = self.pool.ref(_while_exceeded)
            lines.append((depth, f"{n} = 0; {m} = ({self.src(most)})"))
            lines.append((depth, f"while ({self.src(cond)}):"))
            lines.append((depth + 1, f"{n} += 1; s.budget += 1"))
            lines.append((depth + 1, f"if {n} > {m} or s.budget > {self.w.step_budget}: _ln = {k}; "
                                     f"{over}({m}, s.budget > {self.w.step_budget})"))
            self.suite(body_node, sc, where, lines, locs, depth + 1)
            return
        raise CompileError(f"unsupported statement ({kind})", node)

    def suite(self, node, sc, where, lines, locs, depth):
        n0 = len(lines)
        for c in node.children:
            self.stmt(c, sc, where, lines, locs, depth)
        if len(lines) == n0:
            lines.append((depth, "pass"))

    @staticmethod
    def _loc(where, node):
        """The text naming a statement's place: `where` is a string or a function (line, col) -> str."""
        line = getattr(node.meta, "line", 1) if isinstance(node, Tree) else 1
        col = getattr(node.meta, "column", 1) if isinstance(node, Tree) else 1
        return where(line, col) if callable(where) else f"{where}, line {line}"

    def small(self, node, sc) -> list[str]:
        """The Python lines of one simple statement."""
        kind = node.data
        if kind == "pass_stmt":
            return ["pass"]
        if kind == "expr_stmt":
            return [self.src(self.expr(node.children[0], sc))]
        if kind == "assign":
            target, value = node.children
            v = self.expr(value, sc)
            if (isinstance(target, Tree) and target.data == "name" and sc.lookup(str(target.children[0])) is None
                    and str(target.children[0]) not in self.w.gvars):
                name = str(target.children[0])
                if name in self.w.reserved_names or name in ("player", "players", "event", "option"):
                    raise CompileError(f"'{name}' is a name of the game: choose another local name", target)
                i = sc.bind(name, v.t)
                sc.unit.assigned[i] = (name, target)
                return [f"e[{i}] = ({self.src(v)})"]
            place = self.place(target, sc)
            self.check_assign(place["t"], v, value)
            return self.store(place, f"({self.src(v)})")
        if kind == "augassign":
            target, op, value = node.children
            place = self.place(target, sc)
            if place["t"] not in ("int", "any"):
                raise CompileError(f"'{op}' needs a number, this is a {place['t']}", target)
            v = self.num(value, sc)
            sign = "+" if str(op) == "+=" else "-"
            return self.store(place, f"_c[_k] {sign} ({self.src(v)})")
        if kind == "emit":
            name_tok = node.children[0]
            name = str(name_tok)
            ev = self.w.events.get(name)
            if ev is None:
                raise CompileError(f"unknown event '{name}'", name_tok, did_you_mean(name, self.w.events))
            args = [self.expr(a, sc) for a in node.children[1:]]
            names, types = ev
            self.w.reads.add(("emit", name))
            if len(args) != len(names):
                raise CompileError(f"event {name} has {len(names)} argument(s) ({', '.join(names)}), "
                                   f"got {len(args)}", node)
            from .procedures import _fits
            for (arg_name, want), x, a in zip(zip(names, types), args, node.children[1:]):
                want = ("int" if want in self.w.number_kinds else "str") if want in self.w.kinds else want
                want = "list:any" if want == "list" else want
                if want in ("int", "bool", "str", "player", "piece", "zone", "list:any") and not _fits(want, x.t):
                    raise CompileError(f"event {name}: argument '{arg_name}' is a {want}, got a {x.t}", a)
            return [f"s.ev.append(({name!r}, (" + "".join(f"({self.src(a)}), " for a in args) + ")))"]
        raise CompileError(f"unsupported statement ({kind})", node)

    def place(self, node, sc) -> dict:
        """Where an assignment stores: a container and a key (as source), the type, the lower bound and
        how to name it in a message."""
        w = self.w
        if isinstance(node, Tree) and node.data == "name":
            name = str(node.children[0])
            b = sc.lookup(name)
            if b is not None and b[0] == "slot":
                sc.unit.read.add(b[1])  # `n += 1` is a use of n, not a new local
                return {"c": "e", "k": str(b[1]), "t": b[2], "lo": None, "what": name}
            if name in w.gvars:
                w.writes.add(("var", name))
                slot, t = w.gvars[name]
                return {"c": "s.g", "k": str(slot), "t": t, "lo": w.gvar_min.get(name), "what": name}
            raise CompileError(f"'{name}' is not a var that can be set", node,
                               did_you_mean(name, list(w.gvars) + list(sc.names)))
        if isinstance(node, Tree) and node.data == "attr":
            base, tok = node.children
            name = str(tok)
            b = self.expr(base, sc)
            if b.t == "player" and name in w.pvars:
                w.writes.add(("pvar", name))
                slot, t = w.pvars[name]
                return {"c": f"s.p[{self.src(b)}]", "k": str(slot), "t": t, "lo": w.pvar_min.get(name),
                        "what": f"player {{0}}'s {name}", "arg": f"({self.src(b)}) + 1"}
            if b.t in ("piece", "any") and name in w.fields:
                w.writes.add(("field", name))
                col, t = w.fields[name]
                return {"c": f"s.fields[{col}]", "k": self.src(b), "t": t, "lo": w.field_min.get(name),
                        "what": f"field {name}"}
            if b.t == "player":
                raise CompileError(f"a player has no var '{name}'", tok, did_you_mean(name, w.pvars))
            if b.t == "piece":
                raise CompileError(f"a piece has no field '{name}'", tok, did_you_mean(name, w.fields))
            raise CompileError(f"'{name}' cannot be set here (only vars and piece fields can)", tok)
        if isinstance(node, Tree) and node.data == "index":
            base, key = node.children
            before = set(w.reads)
            b = self.expr(base, sc)
            # Setting m[k] writes the map; reading the map to find the entry is not a read of it.
            for r in set(w.reads) - before:
                if r[0] in ("var", "pvar", "field"):
                    w.reads.discard(r)
                    w.writes.add(r)
            if b.t != "map":
                raise CompileError(f"only a map entry can be set by index, not a {b.t}", node)
            k = self.expr(key, sc)
            if k.t in ("bool", "player", "piece") or (k.t == "int" and not self.w.number_kinds):
                raise CompileError(f"a map's keys are the values of its kind, not a {k.t}", key)
            return {"c": self.src(b), "k": self.src(k), "t": "int", "lo": self.map_min(base), "what": "{0}",
                    "arg": "_k", "map": True}
        raise CompileError("this cannot be assigned to", node)

    def store(self, place, value_src) -> list[str]:
        """Lines that compute a value and store it at `place`, refusing what its bounds forbid."""
        lo = place["lo"]
        low = -LIMIT if lo is None else lo
        bad = self.pool.ref(_bad_value)
        out = [f"_c = {place['c']}", f"_k = {place['k']}"]
        if place.get("map"):
            out.append(f"if _k not in _c: {self.pool.ref(_no_key)}(_k, _c)")
        out.append(f"_v = {value_src}")
        arg = place.get("arg", "None")
        out.append(f"if type(_v) is int and not {low} <= _v <= {LIMIT}: "
                   f"{bad}(_v, {place['what']!r}, {lo!r}, {arg})")
        out.append("_c[_k] = _v")
        return out

    def check_assign(self, t, v: X, node):
        if t in ("any",) or v.t in ("any", "none") or t == v.t:
            return
        if {t, v.t} == {"int", "player"}:
            return
        if t.startswith("list:") and v.t.startswith("list:"):
            return
        raise CompileError(f"cannot assign a {v.t} to a {t}", node)


def _relocator(locs):
    """What a generated effect raises when its statement number `ln` fails: a RuleError naming the place."""
    def relocate(ex, ln):
        loc = Compiler._loc(*locs[ln]) if 0 <= ln < len(locs) else None  # (where, node): named when needed
        if isinstance(ex, RuleError):
            return ex if ex.where is not None else RuleError(ex.message, loc)
        if isinstance(ex, (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError)):
            return RuleError(f"{type(ex).__name__}: {ex}", loc)
        return ex
    return relocate


def _number(v):
    if type(v) is not int:
        raise RuleError(f"expected a number, got {type(v).__name__} {v!r:.40}")
    return v


def charge(s, items):
    """`items`, after counting them against the state's loop budget (a generator is about to walk them)."""
    s.budget += len(items)
    if s.budget > LOOP_BUDGET:
        _charge_exceeded(len(items))
    return items


def _charge_exceeded(n):
    raise RuleError(f"an effect ran more than {LOOP_BUDGET} loop steps (a generator over {n} items)")


def _while_exceeded(most, budget):
    if budget:
        _budget_exceeded(LOOP_BUDGET)
    raise RuleError(f"a while loop ran more than its max of {most} passes")


def _budget_exceeded(budget):
    raise RuleError(f"an effect ran more than {budget} loop steps")


def _bad_value(v, what, lo, arg=None):
    if lo is not None and v < lo:
        raise RuleError(f"{what.format(arg)} would become {v} (below {lo})")
    raise RuleError(f"integer {v} is beyond the limit of ±2**53")


def _no_key(k, d):
    raise RuleError(f"{k!r} is not a key of this map (keys: {', '.join(map(str, d))})")


def _value_type(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    if v is None:
        return "any"
    if isinstance(v, list):
        if v and all(isinstance(x, bool) for x in v):
            return "list:bool"
        if v and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return "list:int"
        if v and all(isinstance(x, str) for x in v):
            return "list:str"
        return "list:any"
    if isinstance(v, dict):
        return "table"
    return "any"
