"""Parameter adjustments by the game's state: `parameters.NAME.adjust: [{if: COND, add: N} | {if: COND,
set: V}]`, applied in order after the modifiers of the player's own active pieces, for every player whose
COND holds (`player` is the player whose parameter is read). A global event that changes a rule for all
("during a drought every harvest gives one less") is one adjustment whose condition reads the event.
"""

from __future__ import annotations

from .compiler import RuleError, Scope, Unit

_FAILS = (TypeError, KeyError, IndexError, AttributeError, ValueError)


def compile_adjust(w, name: str, compiling: set) -> tuple:
    """The adjustments of parameter `name` as ((kind, value, cond f, nslots), ...); compiled once, when an
    expression first reads the parameter. A condition that reads its own parameter is refused."""
    raw = w.d["parameters"].get(name)
    spec = raw.get("adjust") if isinstance(raw, dict) else None
    if not spec:
        return ()
    if name in compiling:
        return None
    compiling.add(name)
    out = []
    try:
        for i, a in enumerate(spec):
            path = ("parameters", name, "adjust", i)
            if not isinstance(a, dict) or "if" not in a or len(set(a) & {"add", "set"}) != 1:
                w.error("an adjustment is {if: condition, add: number} or {if: condition, set: value}", path)
                continue
            u = Unit(player=True)
            x = w.compile_expr(a["if"], path + ("if",), u, Scope(u), want="bool")
            if x is None:
                continue
            if "add" in a:
                if type(a["add"]) is not int:
                    w.error("add takes a whole number", path + ("add",))
                    continue
                out.append(("add", a["add"], x.f, u.n))
            else:
                out.append(("set", a["set"], x.f, u.n))
    finally:
        compiling.discard(name)
    return tuple(out)


def adjusted(name: str, adjust: tuple, s, pl, v):
    """Value v of parameter `name` for player pl after its adjustments."""
    for kind, val, f, n in adjust:
        try:
            hold = f(s, [pl, None] + [None] * (n - 2))
        except _FAILS as ex:
            raise RuleError(f"{type(ex).__name__}: {ex}", f"parameters.{name}.adjust") from None
        if hold:
            v = v + val if kind == "add" else val
    return v
