"""Procedures: named blocks of statements with parameters, callable from any effect.

    procedures:
      "pay(p: player, n: int)": |           # a parameter may name its type (int, bool, str, player,
        p.coins -= n                        # piece, zone, list, or a kind: one of its values)
        supply += n

    effect: "pay(player, 3)"

A procedure is compiled once, where it is written: a mistake in it is reported there, once, however many
rules call it. A call is a statement of an effect (a procedure changes the state, so a condition may not
call one); it checks the number and types of its arguments. `player` in a procedure is the caller's
acting player. Procedures may call other procedures, but not themselves (no recursion: every rule
terminates).
"""

from __future__ import annotations

from .compiler import CompileError, Scope, Unit
from ..definition.problems import did_you_mean

TYPES = ("int", "bool", "str", "player", "piece", "zone", "list", "any")


class Procedures:
    def __init__(self, world):
        self.w = world
        self.sigs: dict = {}        # name -> (params [(name, type)], body text, path)
        self.compiled: dict = {}    # name -> (fn, nslots) or None when it has a mistake
        self.stack: list = []
        for key, body in (world.d["procedures"] or {}).items():
            self._declare(str(key).strip(), body, ("procedures", key))

    def _declare(self, key, body, path):
        w = self.w
        if "(" in key and key.endswith(")"):
            name, ptext = key[:-1].split("(", 1)
        else:
            name, ptext = key, ""
        name = name.strip()
        if not name.isidentifier():  # the schema says what is wrong with the name
            return
        params = []
        for part in filter(None, (x.strip() for x in ptext.split(","))):
            pname, _, ptype = (y.strip() for y in part.partition(":"))
            ptype = ptype or "any"
            if ptype in w.kinds:
                ptype = "int" if ptype in w.number_kinds else "str"
            elif ptype not in TYPES:
                w.error(f"procedure {name}: '{ptype}' is not a type (one of {', '.join(TYPES)}, or a kind)",
                        path, did_you_mean(ptype, list(TYPES) + list(w.kinds)))
                ptype = "any"
            if not pname.isidentifier():
                w.error(f"procedure {name}: '{pname}' is not a parameter name", path)
                continue
            params.append((pname, "list:any" if ptype == "list" else ptype))
        if name in w.defs:
            w.error(f"'{name}' is both a def and a procedure", path)
        self.sigs[name] = (params, body, path)

    def __contains__(self, name):
        return name in self.sigs

    def compile(self, name):
        """(fn, nslots) of a procedure, compiling it the first time; None if it has a mistake."""
        if name in self.compiled:
            return self.compiled[name]
        params, body, path = self.sigs[name]
        if not isinstance(body, (str, list)):  # the schema says what is wrong with the body
            self.compiled[name] = None
            return None
        u = Unit(player=True, effects=True)
        sc = Scope(u)
        for pname, ptype in params:
            sc.bind(pname, ptype)
            u.read.update(range(2, u.n))  # a parameter nobody reads is not a misspelt local
        self.stack.append(name)
        try:
            fn = self.w.compile_stmts(body, path, u, sc)
        finally:
            self.stack.pop()
        self.compiled[name] = (fn, u.n) if fn is not None else None
        return self.compiled[name]

    def compile_all(self):
        for name in self.sigs:
            self.compile(name)

    def call(self, compiler, name, args, sc, node):
        """The compiled call `name(args)` in an effect: an expression of type none."""
        if not sc.unit.effects:
            raise CompileError(f"procedure '{name}' changes the state: it may be called in an effect only",
                               node)
        if name in self.stack:
            raise CompileError(f"procedure '{name}' calls itself (" + " -> ".join(self.stack + [name])
                               + "): procedures may not recurse", node)
        params = self.sigs[name][0]
        if len(args) != len(params):
            raise CompileError(f"{name}() takes {len(params)} argument(s) "
                               f"({', '.join(p for p, _ in params)}), got {len(args)}", node)
        xs = [compiler.expr(a, sc) for a in args]
        for (pname, ptype), x, a in zip(params, xs, args):
            if not _fits(ptype, x.t):
                raise CompileError(f"{name}(): argument '{pname}' is a {ptype}, got a {x.t}", a)
        self.w.reads.add(("procedure", name))
        got = self.compile(name)
        if got is None:  # its mistake is reported where it is written
            return compiler.gen("None", "none")
        fn, n = got
        pad = f" + [None] * {n - 2 - len(xs)}" if n - 2 - len(xs) > 0 else ""
        src = f"{compiler.pool.ref(fn)}(s, [e[0], None" + "".join(f", ({compiler.src(x)})" for x in xs) + "]" + pad + ")"
        return compiler.gen(src, "none")


def _fits(want, got):
    if want == "any" or got in ("any", "none") or want == got:
        return True
    if {want, got} in ({"int", "bool"}, {"int", "player"}):
        return True
    return want.startswith("list:") and got.startswith("list:")
