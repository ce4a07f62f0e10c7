"""Pure defs: a def whose value depends on its arguments alone is computed once per distinct arguments.

A def is inlined where it is called (call by value, see `Calls.inline_def`). When its body reads nothing
but its parameters (not the state, the acting player, the event, or any vocabulary function, which all
take the state) and every argument is a plain value (a number, a name, a truth value, a piece, a player),
the same arguments always give the same value: `workers_needed(v, target, tol, step)` is arithmetic on
four small numbers. Such a def costing more than a few operations is compiled a second time, as a function
of its arguments alone, and called through a memo of the values it returned: the value of a call is the
value of the body as written, and a body that fails (a division by zero, a number beyond ±2**53) fails as
it would inline, every time, since failures are not kept.

A pure call among the arguments of another (`workers_needed(v, depot_of_slot(t.slot), tol, step)`) is
merged into it: one memo, keyed by the outer call's other arguments and the inner call's, so the pair costs
one look-up.

The memo is per game and argument types (a def called with numbers and with names gets two), and keeps at
most `MAX_PURE_MEMO` argument lists; past that, calls compute the body without keeping it.
"""
from __future__ import annotations

import re

from ..definition.limits import MAX_PURE_MEMO
from .codegen import NOCONST, CompileError, Pool, Scope, Unit

PLAIN = ("int", "str", "bool", "player", "piece", "none")  # argument types that are their own memo key
_STATE = re.compile(r"\bs\b")  # generated code reads the state only through `s`
MIN_WORK = 3  # checked operations and calls below which a lookup costs more than the body

# Verdicts the per-user cache carries (definition/cache.py): the (def, argument types) found not pure when
# the game was compiled from its files. A load from the cache skips their trial compile (about a sixth of
# a load). The cache key covers the engine and every file, so the verdict is the one the trial would
# reach; and a def taken for impure is only inlined, which is always its meaning.
_known_impure: frozenset = frozenset()
_found_impure: list | None = None


def record_impure(on=True) -> list | None:
    """Start (or, with a false `on`, stop) collecting the (name, argument types) found not pure; the list."""
    global _found_impure
    _found_impure = [] if on else None
    return _found_impure


def assume_impure(keys=()):
    """Take these (name, argument types) for not pure without a trial compile, until called again."""
    global _known_impure
    _known_impure = frozenset(keys)


def memoized(c, name, params, body, args):
    """For the compiler `c`: (the source of a call of def `name` (params, body) with the compiled `args`
    through its memo, the value's type), or None when the def is not pure for these argument types (it is
    then inlined)."""
    if not all(a.t in PLAIN for a in args) or all(a.c is not NOCONST for a in args):
        return None  # (constant arguments: inlined, the body folds to a constant)
    memo = c.__dict__.setdefault("_pure_defs", {})
    key = (name, tuple(a.t for a in args))
    f = memo.get(key, NOCONST)
    if f is NOCONST:
        f = memo[key] = None if key in _known_impure else _compile(c, name, params, body, args)
        if f is None and _found_impure is not None:
            _found_impure.append(key)
    if f is None:
        return None
    fn, memo_of_values, t = f
    # A pure call among the arguments (`workers_needed(v, depot_of_slot(t.slot), ...)`): one memo for the
    # two, keyed by the outer call's other arguments and the inner call's, not a look-up for each.
    # `calls`: the source of each memoized call -> (function, its arguments), per pool (`K[i]` means
    # another object in another pool, a trial's).
    calls = c.pool.__dict__.setdefault("pure_calls", {})
    inner = [calls.get(a._src) if a._src is not None and a.c is NOCONST else None for a in args]
    if any(inner):
        fn, memo_of_values, args = _composed(c, key, fn, inner, args)
    m = c.pool.ref(memo_of_values)
    # The lookup inline, the call only on a miss: `(v if (v := (M := memo).get(k, M)) is not M else F(*k))`,
    # the arguments computed once (into the key the call unpacks) and the memo fetched once.
    k, v, mm = c.temp(), c.temp(), c.temp()
    if len(args) == 1:
        key, call = f"({k} := {c.src(args[0])})", f"{k}"
    else:
        key, call = "(" + f"{k} := (" + ", ".join(c.src(a) for a in args) + ",))", f"*{k}"
    src = f"({v} if ({v} := ({mm} := {m}).get({key}, {mm})) is not {mm} else {c.pool.ref(fn)}({call}))"
    calls[src] = (fn, args)
    return src, t


def _composed(c, key, fn, inner, args):
    """(function, memo, arguments) of the call of `fn` whose arguments `inner` marks as memoized calls:
    one function of the outer call's other arguments and the inner calls' own, in the order they are
    computed, memoized as a pure def is."""
    flat, names, outer = [], [], []
    for a, sub in zip(args, inner):
        if sub is None:
            names.append(f"a{len(flat)}")
            flat.append(a)
            outer.append(names[-1])
        else:
            f, sub_args = sub
            mine = [f"a{len(flat) + i}" for i in range(len(sub_args))]
            names += mine
            flat += sub_args
            outer.append(f"{c.pool.ref(f)}({', '.join(mine)})")
    made = c.__dict__.setdefault("_pure_composed", {})
    shape = (key, tuple(x is not None and x[0] for x in inner), len(flat))
    hit = made.get(shape)
    if hit is None:
        hit = made[shape] = _memo_function(c.pool, names, [f"v = {c.pool.ref(fn)}({', '.join(outer)})"])
    return hit[0], hit[1], flat


def _memo_function(pool, names, compute) -> tuple:
    """(function of the arguments `names`, its memo): the value the lines `compute` leave in `v`, kept in
    the memo for each list of arguments (at most MAX_PURE_MEMO of them); a failure is not kept."""
    values: dict = {}
    m = pool.ref(values)
    k = names[0] if len(names) == 1 else "(" + ", ".join(names) + ",)"
    return pool.define(", ".join(names), [
        f"k = {k}",
        f"v = {m}.get(k, {m})",  # (the memo itself is a value no body returns)
        f"if v is not {m}:",
        "    return v",
        *compute,
        f"if len({m}) < {MAX_PURE_MEMO}:",
        f"    {m}[k] = v",
        "return v"]), values


def _compile(c, name, params, body, args):
    """(The memoized function of the def for these argument types, its memo, its value's type), or None if
    its body is not pure (or too cheap to be worth a lookup)."""
    unit = Unit(player=False)
    inner = Scope(unit, None)
    slots = [inner.bind(p, a.t) for p, a in zip(params, args)]
    # The trial compiles into a pool and temporaries of its own: the code generated after it is then the
    # same whether it ran or was skipped (the cache finds that code by its text), and the memoized
    # function refers to its own constants.
    log_len, hoist, temps, pool = len(c.read_log), c.hoist, c._temps, c.pool
    c.pool = Pool()
    c.hoist = None  # a part computed once per menu reads the state
    trial, c.trial = c.trial, True  # a mistake in the body is reported by the inline compile, not here
    c.def_stack.append(name)
    try:
        x = c.expr(body, inner)
        src = c.src(x) if x.c is NOCONST else None
    except CompileError:
        return None
    finally:
        c.def_stack.pop()
        c.trial = trial
        c.hoist = hoist
        c._temps = temps
        trial_pool, c.pool = c.pool, pool
        del c.read_log[log_len:]
    if src is None or _STATE.search(src) or not x.deps <= set(slots):
        return None
    if src.count(":=") + src.count("K[") < MIN_WORK:
        return None
    names = [f"a{i}" for i in range(len(args))]
    env = ", ".join(["None", "None", *names] + ["None"] * (unit.n - 2 - len(names)))
    return (*_memo_function(trial_pool, names, [f"e = [{env}]", f"v = ({src})"]), x.t)
