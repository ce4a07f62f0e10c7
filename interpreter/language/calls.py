"""The compiler's calls: the vocabulary's functions, defs (inlined, arguments by value), generators
and aggregates over them (indexed walks, plain loops that count against the loop budget), and references to
places a function changes. A mixin of `compiler.Compiler`."""

from __future__ import annotations

import re

from ..definition.limits import LOOP_BUDGET
from ..definition.problems import did_you_mean
from .codegen import (GEN_FORMS, LOOP_FORMS, NOCONST, _NOTHING, CompileError, Scope, _charge_exceeded, _no_key,
                      _of_nothing, charge, elem_type)


class Calls:
    """Part of `Compiler` (see the module doc)."""

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
                compiled.append(self.ref(a, sc, read=i in fn.reads))
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
        from .puredefs import memoized
        pure = memoized(self, name, params, body, compiled)
        if pure is not None:  # its value depends on the arguments alone: computed once per arguments
            self.w.reads.add(("def", name))
            return self.gen(*pure)
        inner = Scope(sc.unit, None)
        sets = []
        for p, x in zip(params, compiled):
            if x.c is not NOCONST or x.slot is not None:
                inner.names[p] = ("macro", x)
            else:
                slot = inner.bind(p, x.t)
                sc.unit.derived[slot] = x.deps  # (what menuplan.shared_filter follows back to a choice)
                sets.append(f"e.__setitem__({slot}, {self.src(x)})")
        self.w.reads.add(("def", name))
        self.def_stack.append(name)
        try:
            body_x = self.expr(body, inner)
        except CompileError as ex:
            if not getattr(ex, "reported", False) and not self.trial:
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
            indexed = indexed_walk(self, coll, str(var_tok), cond_node, sc, inner,
                                   early=name in ("first", "any", "all"))
        if indexed is not None:
            it, cond, it_deps = indexed
        else:
            cond = self.expr(cond_node, inner) if cond_node is not None else None
            it_deps = coll.deps
        if name not in GEN_FORMS:  # built by the vocabulary (sort_by)
            return AGGREGATES[name](coll, slot, el, cond, n)
        if indexed is None:
            it = f"s.zones[{self.src(coll)}]" if coll.t == "zone" else self.src(coll)
            if ":=" in it:  # an assignment expression may not stand in a comprehension's iterable
                it = self.pool.ref(self.pool.function(it)) + "(s, e)"
            # The items a generator walks count against the loop budget, like a `for` statement's steps.
            it = f"{self.pool.ref(charge)}(s, {it})"
        cs = self.src(cond) if cond is not None else None
        es = self.src(el)
        if name == "list" and cond is not None and self.menu_choices is not None:
            from .menuplan import shared_filter
            shared = shared_filter(self, sc, slot, it, it_deps, cond, es)
            if shared is not None:
                return self.gen(shared, "list:" + el.t)
        if name in LOOP_FORMS:
            return self.gen(self.loop_call(name, slot, it, cs, es, el.t), GEN_FORMS[name][1] or el.t)
        item, (cs, es) = item_local(self.pool, slot, [cs, es])
        loop = f"for {item} in {it}" + (f" if ({cs})" if cond is not None else "")
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
        item, (cond_src, el_src) = item_local(self.pool, slot, [cond_src, el_src])
        body = [f"for {item} in {it}:"]
        charged = f"{self.pool.ref(charge)}(s, "
        if it.startswith(charged) and it.endswith(")"):
            # charge(), inline: the items counted against the loop budget without a call
            body = [f"_it = {it[len(charged):-1]}",
                    "s.budget += len(_it)",
                    f"if s.budget > {LOOP_BUDGET}:",
                    f"    {self.pool.ref(_charge_exceeded)}(len(_it))",
                    f"for {item} in _it:"]
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

    def ref(self, node, sc, read=False):
        """(get, set, type) functions for an assignable place (the vocabulary's `transfer` takes two); with
        `read`, the place counts as read as well as written (for the lint's written-not-read)."""
        before, self.w.writes = self.w.writes, set()
        place = self.place(node, sc)
        written, self.w.writes = self.w.writes, before | self.w.writes
        if read:
            self.w.reads.update(written)
        head = [f"_c = {place['c']}", f"_k = {place['k']}"]
        if place.get("map"):
            head.append(f"if _k not in _c: {self.pool.ref(_no_key)}(_k, _c)")
        get = self.pool.define("s, e", head + ["return _c[_k]"])
        put = self.pool.define("s, e, v", self.store(place, "v"))
        get.place = place  # for a function that generates its reads and writes inline (transfer)
        return get, put, place["t"]


def item_local(pool, slot: int, srcs: list) -> tuple:
    """(what a generator's loop binds its item to, the sources `srcs` reading it there). The item is the
    slot `e[slot]`; when nothing but these sources can read it (none hands the whole environment to a
    function: menuplan.hands_environment) it is kept in a local of the loop instead, a store and a load
    where the slot costs a subscript each."""
    from .menuplan import hands_environment
    from .peephole import QUOTED
    if any(src is not None and hands_environment(pool, src) for src in srcs):
        return f"e[{slot}]", srcs
    var = f"_i{slot}"
    item = re.compile(f"({QUOTED})|(?<![\\w.])e\\[{slot}\\]")
    return var, [item.sub(lambda m: m.group(1) or var, src) if src is not None else None for src in srcs]
