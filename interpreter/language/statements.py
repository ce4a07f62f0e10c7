"""The compiler's statements: an effect body as one generated function with numbered statements (so a
failure names its line), assignments to the places of the state with their bounds, and blocks. A mixin of
`compiler.Compiler`."""

from __future__ import annotations

from lark import Tree

from ..definition.limits import MAX_BLOCK_DEPTH, MAX_STATEMENTS
from ..definition.problems import did_you_mean
from .codegen import (LIMIT, NOCONST, X, CompileError, RuleError, Scope, _bad_value, _budget_exceeded, _no_key,
                      _while_exceeded, elem_type, fault_words)


class Statements:
    """Part of `Compiler` (see the module doc)."""

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
            return self.store(place, f"({self.src(v)})", v)
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

    def store(self, place, value_src, value: X | None = None) -> list[str]:
        """Lines that compute a value and store it at `place`, refusing what its bounds forbid (`value`,
        when given, is the compiled value: a constant within the bounds, or a value that is never a
        number, needs no check)."""
        lo = place["lo"]
        low = -LIMIT if lo is None else lo
        bad = self.pool.ref(_bad_value)
        out = [f"_c = {place['c']}", f"_k = {place['k']}"]
        if place.get("map"):
            out.append(f"if _k not in _c: {self.pool.ref(_no_key)}(_k, _c)")
        out.append(f"_v = {value_src}")
        arg = place.get("arg", "None")
        if value is None or not (value.t in ("bool", "str", "none") or (
                value.c is not NOCONST and (type(value.c) is not int or low <= value.c <= LIMIT))):
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
        loc = Statements._loc(*locs[ln]) if 0 <= ln < len(locs) else None  # (where, node): named when needed
        if isinstance(ex, RuleError):
            return ex if ex.where is not None else RuleError(ex.message, loc)
        if isinstance(ex, (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError)):
            return RuleError(fault_words(ex), loc)
        return ex
    return relocate
