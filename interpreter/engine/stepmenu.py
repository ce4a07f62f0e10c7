"""A step's menu as one generated function: its actions, one after another, written out.

`Step.menu` asks every action of a step for its entries, in the order the rules list them. Walking the
actions in a generic loop costs, for each action and each menu, the look-ups of what the compiler already
decided at load (its choices, its plan, its generated loop, the size of its environment). `step_menu`
writes that walk out once per step, as Python, with those decisions as constants: for each action a fresh
environment of the right size, the check before its choices (menuplan's `pre`), then its generated loop
(menuplan's `single_loop` / `nested_loop`), or flow._enumerate where the action keeps the planned
recursion. The entries are the same, in the same order, as the generic walk would give:

- an action without choices offers `()` when it has no condition or its condition holds;
- an action whose `pre` fails (raises) is not trusted: its combinations are checked against the whole
  condition, in its own order (menuplan's module doc);
- `cur[0]` names the action being asked, for the location of a failure (Step.menu reports it).
"""
from __future__ import annotations

from ..language.codegen import UNTRUSTED
from .flow import _enumerate


def _whole(s, e, act, out):
    """An action whose check before its choices failed: every combination against the whole condition."""
    _enumerate(s, e, act, act.params, 0, (), out, act.plan.whole, None)


def step_menu(pool, actions):
    """f(s, player, event, out, cur) appending every legal (action, values) of `actions` to `out`; see the
    module doc. `pool`: the compiler's pool of constants and generated functions."""
    ref = pool.ref
    lines = []
    for act in actions:
        a = ref(act)
        lines.append(f"cur[0] = {a}")
        lines.append("e = [player, event" + ", None" * (act.nslots - 2) + "]")
        if not act.params:
            if act.cond is None:
                lines.append(f"out.append(({a}, ()))")
            else:
                lines += [f"if {ref(act.cond)}(s, e):", f"    out.append(({a}, ()))"]
            continue
        plan = act.plan
        cond, levels = (plan.rest, plan.levels) if plan is not None else (act.cond, None)
        if act.loop is not None:
            body = f"{ref(act.loop)}(s, e, out)"
        else:
            c = ref(cond) if cond is not None else "None"
            lv = ref(levels) if levels is not None else "None"
            body = f"{ref(_enumerate)}(s, e, {a}, {a}.params, 0, (), out, {c}, {lv})"
        if plan is not None and plan.pre is not None:
            lines += ["try:",
                      f"    ok = {ref(plan.pre)}(s, e)",
                      f"except {ref(UNTRUSTED)}:",
                      f"    {ref(_whole)}(s, e, {a}, out)",
                      "    ok = False",
                      "if ok:",
                      f"    {body}"]
        else:
            lines.append(body)
    if not lines:
        lines.append("pass")
    return pool.define("s, player, event, out, cur", lines)
