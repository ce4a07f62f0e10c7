"""What generated code is made of, shared by the compiler's parts: compiled values (`X`, `const`), the pool of
generated functions and their memo (`Pool`, `CODES`), scopes and environment slots (`Unit`, `Scope`), the
errors (`CompileError` at load time, `RuleError` in play) and the helpers generated code calls (bounds,
division by zero, the loop budget)."""

from __future__ import annotations

from lark import Token, Tree

from ..definition.limits import LOOP_BUDGET
from .peephole import constant_name, constants_read, optimized

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
    """A rule failed while running (e.g. moving a piece into a full zone); names where it is written
    (`where`, file:line:col) and what ran it (`during`: the step and action, the phase or the hook)."""

    def __init__(self, message: str, where: str | None = None, during: str | None = None):
        text = f"{where}: {message}" if where else message
        super().__init__(text + (f" (during {during})" if during else ""))
        self.message, self.where, self.during = message, where, during

    def ran_by(self, during: str | None) -> "RuleError":
        """This error, saying what ran the rule (unless it says so already)."""
        if self.during is not None or not during:
            return self
        return RuleError(self.message, self.where, during)


def fault_words(ex: Exception) -> str:
    """What a Python exception raised by a running rule means, in an author's words."""
    text = str(ex)
    if isinstance(ex, ZeroDivisionError):
        return "division by zero"
    if isinstance(ex, (TypeError, AttributeError)) and "None" in text:
        return ("a value is none where a piece, a player, a number or a list is needed (the first of nothing, a "
                "var not set yet, an empty place): test it with `!= none` first")
    if isinstance(ex, KeyError):
        return f"no entry {text} in this map or table"
    if isinstance(ex, IndexError):
        return "an index past the end of a list or a zone"
    if isinstance(ex, RecursionError):
        return "values nested too deep to compute"
    return f"{type(ex).__name__}: {text}"


# What a part of the rules may raise when it runs on values it was not meant for (a condition asked out of
# the order it is written in): a menu plan does not trust such a part, and asks the rules as written.
UNTRUSTED = (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError, RuleError)


# The code object of every generated source compiled so far, with the pool constants it reads (see
# peephole): for the same rules loaded again, or code from the cache (see `cache`). `record()` collects
# the sources a load uses.
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
        K = self.K
        src = f"def _f({params}, K=K):\n" + "\n".join("    " + line for line in body) + "\n"
        compiled = CODES.get(src)
        if compiled is None:
            if len(CODES) >= MAX_CODES:
                CODES.clear()
            code = compile(optimized(src), "<meeple rules>", "exec")
            compiled = CODES[src] = (code, constants_read(code))
        if _used is not None:
            _used.add(src)
        code, reads = compiled
        ns = {"K": K}
        for i in reads:  # K[i] is read as the global K_i (see peephole)
            ns[constant_name(i)] = K[i]
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
        self.types: dict = {}         # slot -> the type of the value bound there
        self.derived: dict = {}       # slot -> the slots read by the def argument computed into it

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
        self.unit.types[i] = t
        return i


def _bounded(v):
    if type(v) is int and not -LIMIT <= v <= LIMIT:
        raise RuleError(f"integer {v} is beyond the limit of ±2**53")
    return v


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
