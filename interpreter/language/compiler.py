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

from lark import Token

from ..definition.limits import MAX_COMPILE_WORK, MAX_EXPR_DEPTH, MAX_GAME_WORK
from .calls import Calls
from .codegen import (CODES, LIMIT, MAX_PARENS, NOCONST, CompileError, Pool, RuleError, Scope, Unit, X, charge,
                      const, elem_type, fault_words, record)
from .names import Names
from .operators import Operators
from .statements import Statements

# What the rest of the engine imports from here (defined in codegen, the compiler's parts' common ground).
__all__ = ["CODES", "LIMIT", "NOCONST", "CompileError", "Compiler", "Pool", "RuleError", "Scope", "Unit", "X",
           "charge", "const", "elem_type", "fault_words", "record"]


class Compiler(Names, Operators, Calls, Statements):
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
        # While a choice's domain is compiled (see menuplan.shared_filter): (unit, [(slot, domain function)
        # of each choice bound before it, outermost first]); None otherwise.
        self.menu_choices = None
        self.trial = False  # while puredefs compiles a def's body on trial: its mistakes are not reported
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
