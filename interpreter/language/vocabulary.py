"""The vocabulary of the DSL: its query and effect functions and its aggregates.

The grammar knows only the shape of a call; what a name means is here. Each entry says how many arguments
it takes, which of them are places to assign (`refs`), whether it changes the state (effect functions are
refused in conditions), and how to build the compiled closure from the compiled arguments.
"""

from __future__ import annotations

from ..engine import rng
from .codegen import _NOTHING, NOCONST, CompileError, RuleError, X, _of_nothing, charge, elem_type


class Fn:
    def __init__(self, build, min_args, max_args=None, refs=(), effect=False, doc="", reads=()):
        self.build = build
        self.min_args = min_args
        self.max_args = min_args if max_args is None else max_args
        self.refs = frozenset(refs)        # arguments that are places (vars, fields) the function sets
        self.reads = frozenset(reads)      # those of them whose value it also reads (the lint's reads)
        self.effect = effect
        self.doc = doc


FUNCTIONS: dict[str, Fn] = {}
AGGREGATES: dict = {}


def fn(name, min_args, max_args=None, refs=(), effect=False, reads=()):
    def deco(build):
        FUNCTIONS[name] = Fn(build, min_args, max_args, refs, effect, (build.__doc__ or "").strip(), reads)
        return build
    return deco


def _want(x: X, types, what, node):
    if x.t not in types and x.t != "any":
        raise CompileError(f"{what}: expected {' or '.join(types)}, got {x.t}", node)


def _zone(c, x, node, what):
    _want(x, ("zone",), what, node)
    return x.f


# ------------------------------------------------------------------ queries
@fn("len", 1)
def _len(c, a, node):
    """len(coll): the number of items of a zone or list."""
    x = a[0]
    f = x.f
    if x.t == "zone":
        return X(lambda s, e: len(s.zones[f(s, e)]), "int")
    if elem_type(x.t) is None:
        raise CompileError(f"len() of a {x.t}", node)
    return X(lambda s, e: len(f(s, e)), "int")


FUNCTIONS["count"] = Fn(_len, 1, doc="count(coll): the number of items (also count(x for x in coll if cond))")
FUNCTIONS["size"] = Fn(_len, 1, doc="size(zone): the number of pieces in a zone")


@fn("values", 1)
def _values(c, a, node):
    """values(kind): the list of a kind's values (a kind's name alone means the same)."""
    if not a[0].t.startswith("list:"):
        raise CompileError(f"values() takes a kind, got a {a[0].t}", node)
    return a[0]


@fn("used", 1)
def _used(c, a, node):
    """used(zone): the capacity a zone's pieces take (pieces, or the sum of their size property)."""
    f = _zone(c, a[0], node, "used()")
    w = c.w
    return X(lambda s, e: w.used(s, f(s, e)), "int")


@fn("capacity", 1)
def _capacity(c, a, node):
    """capacity(zone): its capacity (a large number when it has none)."""
    f = _zone(c, a[0], node, "capacity()")
    w = c.w
    return X(lambda s, e: w.capacity(s, f(s, e)), "int")


@fn("free", 1)
def _free(c, a, node):
    """free(zone): the capacity left."""
    f = _zone(c, a[0], node, "free()")
    w = c.w
    return X(lambda s, e: w.capacity(s, f(s, e)) - w.used(s, f(s, e)), "int")


@fn("top", 1)
def _top(c, a, node):
    """top(zone): the first piece of a zone, or none when it is empty."""
    f = _zone(c, a[0], node, "top()")

    def top(s, e):
        z = s.zones[f(s, e)]
        return z[0] if z else None
    return X(top, "piece")


@fn("owner", 1)
def _owner(c, a, node):
    """owner(x): the player whose zone holds piece x, or none; for a piece in a zone held by a piece (a
    stack on a disc), the owner of that holder, and so on down (a piece never holds itself)."""
    _want(a[0], ("piece",), "owner()", node)
    f = a[0].f
    lay = c.w.layout
    rt = c.w.piece_zone_rt
    if rt.lo is None:  # no piece holds a zone in this game
        return X(lambda s, e: lay.zone_owner(s.loc[f(s, e)]), "player")

    def owner(s, e):
        z = s.loc[f(s, e)]
        h = rt.holder(s, z)
        while h is not None:
            z = s.loc[h]
            h = rt.holder(s, z)
        return lay.zone_owner(z)
    return X(owner, "player")


@fn("zone_of", 1)
def _zone_of(c, a, node):
    """zone_of(x): the zone that holds piece x."""
    f = a[0].f
    return X(lambda s, e: s.loc[f(s, e)], "zone")


def _type_arg(c, x, node):
    _want(x, ("str",), "a component type", node)
    if x.c is not NOCONST and x.c not in c.w.types:
        from ..definition.problems import did_you_mean
        raise CompileError(f"'{x.c}' is not a component type", node, did_you_mean(x.c, c.w.types))
    return x.f


@fn("owns", 2)
def _owns(c, a, node):
    """owns(p, type): does player p have a piece of this type in any of their zones."""
    _type_arg(c, a[1], node)
    # Generated source, not a closure around closures: menus ask this once per candidate.
    return c.gen(f"{c.pool.ref(c.w)}.owns(s, {c.src(a[0])}, {c.src(a[1])})", "bool")


@fn("active", 2)
def _active(c, a, node):
    """active(p, type): does player p have an active piece of this type (its class's `active` holds)."""
    _type_arg(c, a[1], node)
    if a[1].c is not NOCONST:
        c.w.reads.add(("active", a[1].c))
    return c.gen(f"({c.pool.ref(c.w)}.find(s, {c.src(a[0])}, {c.src(a[1])}, True) is not None)", "bool")


@fn("piece_of", 2)
def _piece_of(c, a, node):
    """piece_of(p, type): player p's first piece of this type, or none."""
    pf = a[0].f
    tf = _type_arg(c, a[1], node)
    w = c.w
    return X(lambda s, e: w.find(s, pf(s, e), tf(s, e), False), "piece")


@fn("is_active", 1)
def _is_active(c, a, node):
    """is_active(x): does piece x satisfy its class's `active` condition."""
    f = a[0].f
    w = c.w
    return X(lambda s, e: w.is_active(s, f(s, e)), "bool")


@fn("neighbors", 1)
def _neighbors(c, a, node):
    """neighbors(x): the pieces next to x on its board (its class declares `graph: {id, edges}`)."""
    _want(a[0], ("piece",), "neighbors()", node)
    return c.gen(f"{c.pool.ref(c.w.zone_graphs)}.neighbors(s, {c.src(a[0])})", "list:piece")


@fn("region", 2)
def _region(c, a, node):
    """region(x, 'prop'): x and all pieces connected to it through neighbours with the same prop value."""
    _want(a[0], ("piece",), "region()", node)
    p = a[1]
    if p.c is NOCONST or p.c not in c.w.props:
        from ..definition.problems import did_you_mean
        raise CompileError("region() takes a property name in quotes, e.g. region(x, 'color')", node,
                           did_you_mean(str(p.c), c.w.props) if p.c is not NOCONST else None)
    c.w.reads.add(("prop", p.c))
    return c.gen(f"{c.pool.ref(c.w.zone_graphs)}.region(s, {c.src(a[0])}, {c.pool.ref(p.c)})", "list:piece")


@fn("next_player", 1, 2)
def _next_player(c, a, node):
    """next_player(p, k=1): the player k seats clockwise from p."""
    pf = a[0].f
    kf = a[1].f if len(a) > 1 else (lambda s, e: 1)
    return X(lambda s, e: (pf(s, e) + kf(s, e)) % s.n, "player")


@fn("range", 1, 2)
def _range(c, a, node):
    """range(n) or range(a, b): the integers a..b-1."""
    budget = c.w.step_budget
    af = a[0].f if len(a) > 1 else (lambda s, e: 0)
    bf = a[-1].f

    def rng_(s, e):
        lo, hi = af(s, e), bf(s, e)
        # Every number a range makes counts against the effect's step budget: nothing runs unbounded.
        if hi > lo:
            s.budget += hi - lo
            if s.budget > budget:
                raise RuleError(f"an effect ran more than {budget} loop steps (a range of {hi - lo})")
        return list(range(lo, hi))
    return X(rng_, "list:int")


@fn("total", 1)
def _total(c, a, node):
    """total(map): the sum of a map's values."""
    _want(a[0], ("map",), "total()", node)
    return c.gen(f"sum(({c.src(a[0])}).values())", "int")  # inline: no call per use


@fn("abs", 1)
def _abs(c, a, node):
    """abs(n)."""
    f = a[0].f
    return X(lambda s, e: abs(f(s, e)), "int")


def _minmax(py):
    def build(c, a, node):
        if len(a) == 1:  # of a list: of an empty one is an error (see codegen._of_nothing)
            nothing = c.pool.ref(_NOTHING[py.__name__])
            return c.gen(f"{c.pool.ref(_of_nothing)}({py.__name__}(({c.src(a[0])}), default={nothing}))", "int")
        return c.gen(f"{py.__name__}(" + ", ".join(f"({c.src(x)})" for x in a) + ")", "int")
    return build


FUNCTIONS["min"] = Fn(_minmax(min), 1, 8, doc="min(a, b, ...) or min(list); min of nothing is an error")
FUNCTIONS["max"] = Fn(_minmax(max), 1, 8, doc="max(a, b, ...) or max(list); max of nothing is an error")


@fn("clamp", 3)
def _clamp(c, a, node):
    """clamp(x, lo, hi)."""
    xf, lf, hf = a[0].f, a[1].f, a[2].f
    return X(lambda s, e: max(lf(s, e), min(hf(s, e), xf(s, e))), "int")


# ------------------------------------------------------------------ effects
@fn("random", 1, effect=True)
def _random(c, a, node):
    """random(n): a uniform integer 0..n-1 from the game's generator."""
    _want(a[0], ("int",), "random(n)", node)
    f = a[0].f

    def r(s, e):
        n = f(s, e)
        if n <= 0:
            raise RuleError(f"random({n}): n must be positive")
        s.rng, v = rng.below(s.rng, n)
        return v
    return X(r, "int")


@fn("move", 2, 3, effect=True)
def _move(c, a, node):
    """move(x, zone) puts piece x at the end of zone; move(x, zone, 0) on top."""
    _want(a[0], ("piece",), "move() piece", node)
    xf = a[0].f
    zf = _zone(c, a[1], node, "move() destination")
    pf = a[2].f if len(a) > 2 else None
    w = c.w

    def mv(s, e):
        w.move(s, xf(s, e), zf(s, e), None if pf is None else pf(s, e))
    return X(mv, "none")


@fn("draw", 2, effect=True)
def _draw(c, a, node):
    """draw(src, dst): move the top piece of src to the end of dst; the piece, or none if src is empty."""
    sf = _zone(c, a[0], node, "draw() source")
    df = _zone(c, a[1], node, "draw() destination")
    w = c.w

    def dr(s, e):
        z = s.zones[sf(s, e)]
        if not z:
            return None
        x = z[0]
        w.move(s, x, df(s, e), None)
        return x
    return X(dr, "piece")


@fn("shuffle", 1, effect=True)
def _shuffle(c, a, node):
    """shuffle(zone): put the zone's pieces in a random order."""
    zf = _zone(c, a[0], node, "shuffle()")

    def sh(s, e):
        z = s.zones[zf(s, e)]
        if s.told:  # no seat can follow a piece through a shuffle: what it was told is forgotten
            from ..engine.knowledge import forget
            forget(s, z)
        s.rng = rng.shuffle(s.rng, z, s.types)
    return X(sh, "none")


@fn("transfer", 3, refs=(1, 2), effect=True, reads=(1,))  # how much moves depends on what the source holds
def _transfer(c, a, node):
    """transfer(n, src, dst): move up to n from one counter to another; returns how much moved."""
    nf = a[0].f
    sget, sset, _ = a[1]
    dget, dset, _ = a[2]
    sp, dp = getattr(sget, "place", None), getattr(dget, "place", None)
    if sp is not None and dp is not None:
        # One generated function: the same reads, checks and writes in the same order, without four calls.
        from .codegen import _no_key
        body = [f"_n = {c.src(a[0])}", f"_c = {sp['c']}", f"_k = {sp['k']}"]
        if sp.get("map"):
            body.append(f"if _k not in _c: {c.pool.ref(_no_key)}(_k, _c)")
        body += ["_have = _c[_k]", "_m = _n if _n < _have else _have", "if _m <= 0:", "    return 0"]
        body += c.store(sp, "_have - _m") + c.store(dp, "_c[_k] + _m") + ["return _m"]
        return X(c.pool.define("s, e", body), "int")

    def tr(s, e):
        n = nf(s, e)
        have = sget(s, e)
        k = n if n < have else have
        if k <= 0:
            return 0
        sset(s, e, have - k)
        dset(s, e, dget(s, e) + k)
        return k
    return X(tr, "int")


@fn("end_game", 1, effect=True)
def _end_game(c, a, node):
    """end_game(trigger): set an end trigger declared in `end.triggers` (the game then ends when its `at`
    says: now, at the end of the turn or round, or by default when the flow ends, reading `game_ending`);
    the outcome lists the triggers set."""
    x = a[0]
    if x.c is NOCONST or x.c not in c.w.end_triggers:
        from ..definition.problems import did_you_mean
        raise CompileError(f"end_game() takes the name of an end trigger ({', '.join(c.w.end_triggers) or 'none declared'})",
                           node, did_you_mean(str(x.c), c.w.end_triggers) if x.c is not NOCONST else None)
    name = x.c

    def end(s, e):
        if name not in s.ends:
            s.ends.append(name)
    return X(end, "none")


@fn("ended", 1)
def _ended(c, a, node):
    """ended(trigger): has this end trigger been set."""
    x = a[0]
    if x.c is NOCONST or x.c not in c.w.end_triggers:
        raise CompileError("ended() takes the name of an end trigger", node)
    name = x.c
    return X(lambda s, e: name in s.ends, "bool")


# ------------------------------------------------------------------ aggregates over generators
def _iter(coll):
    """The items of a collection, counted against the loop budget (see compiler.charge)."""
    cf = coll.f
    if coll.t == "zone":
        return lambda s, e: charge(s, s.zones[cf(s, e)])
    return lambda s, e: charge(s, cf(s, e))


def _agg_sort_by(coll, slot, el, cond, node):
    """sort_by(KEY for x in COLL if COND): the items x, ordered by KEY (ascending, stable)."""
    it, ef = _iter(coll), el.f
    cf = cond.f if cond is not None else None
    et = elem_type(coll.t) or "any"

    def f(s, e):
        keyed = []
        for v in it(s, e):
            e[slot] = v
            if cf is None or cf(s, e):
                keyed.append((ef(s, e), len(keyed), v))
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [k[2] for k in keyed]
    return X(f, "list:" + et)


AGGREGATES.update({
    "sort_by": _agg_sort_by,
    # generated inline by the compiler as Python loops and comprehensions (codegen.GEN_FORMS)
    **{name: None for name in ("sum", "count", "any", "all", "min", "max", "first", "list")},
})


# Boards (spaces, directions, connected groups, distances) and list vars live in their own modules.
def _register():
    from .boards import BOARD_FUNCTIONS
    from .lists import LIST_FUNCTIONS
    for name, (build, lo, hi) in BOARD_FUNCTIONS.items():
        FUNCTIONS[name] = Fn(build, lo, hi, doc=(build.__doc__ or "").strip())
    for name, (build, n, refs, effect) in LIST_FUNCTIONS.items():
        FUNCTIONS[name] = Fn(build, n, refs=refs, effect=effect, doc=(build.__doc__ or "").strip())


_register()


from . import piece_functions  # noqa: E402,F401  (registers holder, become, reveal, face_down, hide, sees)
