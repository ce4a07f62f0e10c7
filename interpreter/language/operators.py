"""The compiler's operators: arithmetic (every sum, difference and product checked against ±2**53),
comparisons (with the checks that catch comparing values of types that are never equal), membership,
`and`/`or`/`not` and the conditional expression. A mixin of `compiler.Compiler`."""

from __future__ import annotations

from lark import Tree

from ..definition.problems import did_you_mean
from .codegen import LIMIT, NOCONST, X, CompileError, RuleError, _bounded, _division_by_zero, _number, _too_big, const


class Operators:
    """Part of `Compiler` (see the module doc)."""

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
            if b.c is not NOCONST and b.c == 0:
                raise CompileError(f"division by zero: the divisor of `{op}` is always 0", n)
            if b.c is not NOCONST:  # a constant divisor: no zero to guard against
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
        if op in ("==", "!=") and (a.c is None or b.c is None):
            # none equals only none, whatever the other value's type: `is` says so without asking the
            # other value to compare itself
            op = "is" if op == "==" else "is not"
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
