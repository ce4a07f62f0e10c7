"""Menus computed like a compiler would: what a condition reads decides where and how often it runs.

An action offers one entry per combination of its choices that passes its condition. Evaluated as written,
the whole condition runs for every combination. The compiler knows which environment slots every
expression reads (`X.deps`), so this module plans each action's condition once, at load:

- **Loop-invariant hoisting.** A costly part of the condition that reads no choice (only the state, the
  acting player and the event) is computed once per menu: `hoist` wraps it in a function that keeps its
  value in the menu's memo (`s.pcache`, which lives while one menu is computed and the state cannot
  change).
- **Shared choices.** The first choice of an action, when it reads no other, is found once per menu and
  shared by every action that offers the same choice (`shared`: the same generated source).
- **Cheap rejections first.** The condition's conjuncts (`a and b and c`, through inlined defs) are placed
  at the outermost loop where everything they read is bound: a conjunct that reads no choice is checked
  once before the action's choices are enumerated (when it is false the action offers nothing and its
  domains are never computed), one that reads only the first choice is checked before the second is
  enumerated, and so on. What is left is checked for each full combination.
- **Work shared across an earlier choice.** A later choice's domain `list(x for x in IT if COND)` whose
  COND is partly independent of an earlier choice found once per menu (a die, say) filters IT by
  that part once per menu and value of what it reads, and by the rest for each value of the earlier
  choice (`shared_filter`).
- **Generated loops.** An action's choices are enumerated by one generated function with the condition
  inline (`single_loop`, `nested_loop`), not by the generic recursion of flow._enumerate with a call of the
  condition per combination; an action with a check between its choices keeps that recursion.

The menu is the menu of the condition as written: conditions change nothing (the compiler refuses effects
in them), so a conjunct that was true stays true wherever it is checked, and a moved conjunct that fails
(raises) is not trusted: the combinations below it are then checked against the whole condition, in its
own order, so the failure is reported where the rules would report it. One difference remains, as with
any query planner: a combination that a moved conjunct rejects is not checked further, so a part of the
condition (or a domain of a later choice) that would fail on it is not reached; such a failure can only
matter for a combination that is not offered anyway.
"""
from __future__ import annotations

from .compiler import NOCONST

INVARIANT = frozenset((0, 1))  # the acting player and the event: fixed while one menu is computed


def costly(x) -> bool:
    """Whether computing x once and looking it up is cheaper than computing it again: a call of a
    generated or vocabulary function, or a loop."""
    src = x._src
    return src is None or "](s" in src or "(s, " in src or " for " in src  # a call; a comprehension


def invariant(x) -> bool:
    """Whether x reads no choice (only the state, the acting player and the event) and costs a call."""
    return x.c is NOCONST and x.deps is not None and x.deps <= INVARIANT and costly(x)


def hoister(pool):
    """The compiler's `hoist` hook while a condition is compiled: x -> a function computing x once per menu,
    or None for a part that reads a choice or costs less than a look-up."""
    made: dict = {}

    def hoist(x):
        if not invariant(x):
            return None
        if x._src is not None:
            return shared(pool, x)
        hit = made.get(id(x))
        if hit is None or hit[0] is not x:  # kept with x: an id is unique only while its object lives
            hit = made[id(x)] = (x, _once_per_menu(x.f))
        return hit[1]
    return hoist


def shared(pool, x):
    """x computed once per menu and shared by every action of the game whose rules read the same thing:
    generated source is the same text exactly when it computes the same value from the state, the player
    and the event (names are slots and constants are entries of the game's one pool)."""
    memo = pool.__dict__.setdefault("menu_shared", {})
    h = memo.get(x._src)
    if h is None:
        h = memo[x._src] = _once_per_menu(x.f)
    return h


def _once_per_menu(f):
    key = object()  # a key no game name can collide with

    def once(s, e):  # (reads no choice: see by_signature)
        memo = s.pcache
        if memo is None:  # outside a menu: as written
            return f(s, e)
        v = memo.get(key, key)
        if v is key:
            v = memo[key] = f(s, e)
        return v
    once.reads_no_choice = True
    return once


def by_signature(pool, cond_src, slot) -> bool:
    """Whether a condition (Python source) reads the choice in `slot` only through its piece type
    (`s.types[e[slot]]`) and its fields (`s.fields[i][e[slot]]`): then two pieces with the same `distinct`
    signature (type and every field) pass or fail it alike, and a signature is judged once. Any other use
    of the choice, or of the whole environment (a call that is not a once-per-menu part, which reads no
    choice), says no."""
    import re
    ref = re.escape(f"e[{slot}]")
    rest = re.sub(r"s\.types\[" + ref + r"\]|s\.fields\[\d+\]\[" + ref + r"\]", "", cond_src)
    if f"e[{slot}]" in rest:
        return False
    return not hands_environment(pool, rest)


def hands_environment(pool, src: str) -> bool:
    """Whether generated source `src` hands the whole environment `e` to a function that may read any of
    its slots: any use of `e` other than `e[i]`, `e.__setitem__(` and a call of a part computed once per
    menu (`K[i](s, e)` where K[i] reads no choice)."""
    import re

    def hoisted(m):
        obj = pool.K[int(m.group(1))]
        return "" if getattr(obj, "reads_no_choice", False) else m.group(0)
    rest = re.sub(r"K\[(\d+)\]\(s, e\)", hoisted, src)
    return re.search(r"\be\b(?!\[|\.__setitem__\()", rest) is not None


def conjuncts(x) -> list:
    """The operands of x's `and` chain, flattened through nested chains (x alone if it is not one)."""
    if not x.parts:
        return [x]
    out = []
    for p in x.parts:
        out.extend(conjuncts(p))
    return out


class Plan:
    """Where each conjunct of an action's condition runs.

    `pre`: checked once before the choices (None if nothing reads no choice); `levels[i]`: checked once
    the first i + 1 choices are bound (None where nothing belongs), for every choice but the last; `rest`:
    checked for each full combination (None when nothing is left); `whole`: the condition as written."""

    __slots__ = ("pre", "levels", "rest", "whole", "rest_src")


def plan(compiler, cond, slots) -> Plan | None:
    """The plan of a compiled condition `cond` for choices bound at `slots` (in order), or None when
    nothing can be moved (the condition then runs as written for each combination)."""
    if cond is None:
        return None
    parts = conjuncts(cond)
    if any(p.deps is None for p in parts):
        return None
    bound = INVARIANT
    depth = []  # per conjunct: -1 before the choices, i after choice i
    reach = [bound]
    for s in slots:
        bound = bound | {s}
        reach.append(bound)
    for p in parts:
        level = len(slots) - 1
        for i, r in enumerate(reach[:-1]):
            if p.deps <= r:
                level = i - 1
                break
        depth.append(level)
    last = len(slots) - 1
    if all(d == last for d in depth):
        return None
    pool = compiler.pool

    def joined(xs):
        if not xs:
            return None
        if len(xs) == 1:
            return xs[0].f
        return pool.function("(" + " and ".join(f"({compiler.src(x)})" for x in xs) + ")")

    pl = Plan()
    pl.whole = cond.f
    pl.pre = joined([p for p, d in zip(parts, depth) if d == -1])
    pl.levels = [joined([p for p, d in zip(parts, depth) if d == i]) for i in range(last)]
    rest = [p for p, d in zip(parts, depth) if d == last]
    pl.rest = joined(rest)
    pl.rest_src = " and ".join(f"({compiler.src(x)})" for x in rest) if rest else None
    return pl


def single_loop(compiler, act, cond_src):
    """The menu loop of an action with one choice, as one generated function f(s, e, out): each value of
    the choice that passes the condition (Python source `cond_src`, or None for none) is appended as
    (act, (value,)), as Step.menu's own loop does, with the condition inline instead of a call per value.
    A `distinct` choice keeps the first value of each signature (`act.sig_slow[t](s, x)` for pieces whose
    type has more than one field, or a map)."""
    pool = compiler.pool
    name, slot, dom, distinct = act.params[0]
    a, d = pool.ref(act), pool.ref(dom)
    test = f"({cond_src})" if cond_src else "True"
    if distinct and cond_src:
        # In the loop below t is the piece's type (types = s.types) and e[slot] is v: the condition reads
        # them from there (the same values, fewer look-ups).
        cond_src = cond_src.replace(f"s.types[e[{slot}]]", "t")
        test = f"({cond_src})"
    if not distinct:
        return pool.define("s, e, out", [
            f"for v in {d}(s, e):",
            f"    e[{slot}] = v",
            f"    if {test}:",
            f"        out.append(({a}, (v,)))"])
    if cond_src and by_signature(pool, cond_src, slot):
        # A signature is judged once: the first piece of each signature that fails the condition
        # stands for the others (they would fail alike).
        return pool.define("s, e, out", [
            "seen = set()",
            f"slow = {a}.sig_slow",
            f"one = {a}.sig_col",
            "types = s.types",
            "fields = s.fields",
            f"for v in {d}(s, e):",
            "    t = types[v]",
            "    c = one[t]",
            f"    sig = (t, fields[c][v]) if c >= 0 else t if c == -1 else slow[t](s, v)",
            "    if sig in seen:",
            "        continue",
            "    seen.add(sig)",
            f"    e[{slot}] = v",
            f"    if {test}:",
            f"        out.append(({a}, (v,)))"])
    return pool.define("s, e, out", [
        "seen = set()",
        f"slow = {a}.sig_slow",
        f"one = {a}.sig_col",
        "types = s.types",
        "fields = s.fields",
        f"for v in {d}(s, e):",
        "    t = types[v]",
        "    c = one[t]",  # see flow.sig_col: -1 a type without fields, -2 any other shape
        f"    sig = (t, fields[c][v]) if c >= 0 else t if c == -1 else slow[t](s, v)",
        "    if sig in seen:",
        "        continue",
        f"    e[{slot}] = v",
        f"    if {test}:",
        f"        out.append(({a}, (v,)))",
        "        seen.add(sig)"])


def nested_loop(compiler, act, cond_src):
    """The menu loops of an action with several choices and no check between them (its plan, if any, has
    only a part before the choices and a rest), as one generated function f(s, e, out): the nested loops
    of flow._enumerate, written out, with the condition (Python source `cond_src`, or None) inline in the
    innermost. Each domain is computed once per binding of the choices before it and walked as it is
    (a menu changes nothing, as in _enumerate); a `distinct` choice skips a value whose signature already
    gave an entry."""
    pool = compiler.pool
    a = pool.ref(act)
    params = act.params
    last = len(params) - 1
    lines = [f"A = {a}", "slow = A.sig_slow", "one = A.sig_col", "types = s.types", "fields = s.fields"]
    for i, (_, slot, dom, distinct) in enumerate(params):
        pad = "    " * i
        items = f"{pool.ref(dom)}(s, e)"
        lines.append(f"{pad}_d{i} = {items}")
        if distinct:
            lines.append(f"{pad}seen{i} = set()")
        lines.append(f"{pad}for v{i} in _d{i}:")
        body = pad + "    "
        if distinct:
            lines += [f"{body}t = types[v{i}]",
                      f"{body}c = one[t]",  # see flow.sig_col: -1 a type without fields, -2 any other shape
                      f"{body}sig{i} = (t, fields[c][v{i}]) if c >= 0 else t if c == -1 else slow[t](s, v{i})",
                      f"{body}if sig{i} in seen{i}:",
                      f"{body}    continue"]
        lines.append(f"{body}e[{slot}] = v{i}")
        if i < last:
            if distinct:
                lines.append(f"{body}n{i} = len(out)")
            continue
        values = "(" + ", ".join(f"v{j}" for j in range(len(params))) + ",)"
        if cond_src:
            lines.append(f"{body}if ({cond_src}):")
            body += "    "
        lines.append(f"{body}out.append((A, {values}))")
        if distinct:
            lines.append(f"{body}seen{i}.add(sig{i})")
    # after each inner loop: a distinct choice's signature is spent once it gave an entry
    for i in range(last - 1, -1, -1):
        if params[i][3]:
            pad = "    " * (i + 1)
            lines += [f"{pad}if len(out) > n{i}:", f"{pad}    seen{i}.add(sig{i})"]
    return pool.define("s, e, out", lines)


KEY_TYPES = frozenset(("int", "bool", "str", "player", "piece", "zone", "none"))  # values that can key a memo


def shared_filter(compiler, sc, slot, it, it_deps, cond, el_src):
    """Python source for `list(EL for x in IT if COND)` in the domain of a choice that is enumerated for
    each value of an earlier choice, when part of COND does not depend on that earlier choice; None when
    nothing is shared.

    The conjuncts of COND that do not read the earlier choice (nor a def argument computed from it), with
    IT, are computed once per menu for each value of the slots they read (the filtered items are kept in
    the menu's memo); the conjuncts that read it then filter those items, for each of its values. For
    example, the free places a piece may go are found once per piece, and each die (the earlier choice)
    only checks what it costs to use it there. Same items, same order: both filters keep an item
    exactly when COND does. A failure in either (a conjunct asked in a new order) is not trusted: the
    generator is then computed as written, which reports what the rules as written report.

    Only an earlier choice whose values are found once per menu (it reads no other choice: `shared`)
    qualifies, and the work is shared only when it has more than one value now: with one, nothing could
    be found again, and the generator runs as written."""
    held = compiler.menu_choices
    if held is None or held[0] is not sc.unit or compiler.trial:
        return None
    parts = conjuncts(cond)
    if len(parts) < 2 or any(p.deps is None for p in parts) or it_deps is None:
        return None
    unit = sc.unit

    def reach(deps):  # the slots deps reads, and those the def arguments among them were computed from
        seen, todo = set(), list(deps)
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(unit.derived.get(d, ()))
        return seen
    it_reach = reach(it_deps)
    for hot, hot_domain in held[1]:
        if hot in it_reach or not getattr(hot_domain, "reads_no_choice", False):
            continue
        dep = [p for p in parts if hot in reach(p.deps)]
        free = [p for p in parts if hot not in reach(p.deps)]
        if not dep or not free or not any(costly(p) for p in free):
            continue
        keys = sorted(set(it_deps).union(*(p.deps for p in free)) - INVARIANT - {slot})
        if any(unit.types.get(k) not in KEY_TYPES for k in keys):
            continue
        return _split(compiler, slot, it, cond, free, dep, keys, el_src, hot_domain)
    return None


def _split(compiler, slot, it, cond, free, dep, keys, el_src, hot_domain):
    from .codegen import UNTRUSTED
    pool = compiler.pool
    src = compiler.src
    key = "(" + ", ".join([pool.ref(object())] + [f"e[{k}]" for k in keys]) + ",)"
    failures = pool.ref(UNTRUSTED)
    f = pool.define("s, e", [
        "m = s.pcache",
        # in a menu (the state cannot change), when the earlier choice has several values: shared
        f"if m is not None and len({pool.ref(hot_domain)}(s, e)) > 1:",
        f"    key = {key}",
        "    xs = m.get(key)",
        "    try:",
        "        if xs is None:",
        f"            xs = m[key] = [e[{slot}] for e[{slot}] in {it} if "
        + " and ".join(f"({src(p)})" for p in free) + "]",
        f"        return [({el_src}) for e[{slot}] in xs if " + " and ".join(f"({src(p)})" for p in dep) + "]",
        f"    except {failures}:",
        "        pass  # a conjunct asked out of its order failed: the rules as written decide",
        f"return [({el_src}) for e[{slot}] in {it} if ({src(cond)})]"])
    return pool.ref(f) + "(s, e)"
