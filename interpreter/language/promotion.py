"""Piece types that change where the definition allows it: promotion, flipping, upgrading.

A component type may list `becomes: [TYPE, ...]`: the types its pieces may turn into, of the same class (the
class's fields stay as they are). `become(x, TYPE)` changes piece x's type, and is a rule error when x's
current type does not list TYPE. The change is undone by nothing but another `become` (a flipped tile that
may flip back lists its first type in turn). A saved state is consistent when every piece's type is its
setup type or one reachable from it through `becomes`.

`s.types` is shared by the copies of a state: `become` replaces the list, never changes it in place.
"""

from __future__ import annotations

from .compiler import RuleError
from ..definition.problems import did_you_mean


def allowed_changes(w) -> dict:
    """{type: frozenset of the types it may become}, checked (reported through `w.error`)."""
    out = {}
    for tname, tdef in w.type_entries.items():
        to = tdef.get("becomes") if isinstance(tdef, dict) else None
        if to is None:
            continue
        cname = w.types[tname]
        path = ("components", cname, "types", tname, "becomes")
        to = [to] if isinstance(to, str) else list(to)
        ok = []
        for t in to:
            if t not in w.types:
                w.error(f"becomes: unknown component type '{t}'", path, did_you_mean(str(t), w.types))
            elif w.types[t] != cname:
                w.error(f"becomes: '{t}' is of class {w.types[t]}, not {cname} (a piece keeps its class and "
                        "fields)", path)
            else:
                ok.append(t)
        out[tname] = frozenset(ok)
    return out


def become(w, s, x, t) -> None:
    if x is None:
        raise RuleError("become(): there is no piece (none)")
    old = s.types[x]
    if t == old:
        return
    if t not in w.becomes.get(old, ()):
        allowed = sorted(w.becomes.get(old, ()))
        raise RuleError(f"become(): a {old} may not become {t!r} ("
                        + (f"its type lists becomes: [{', '.join(allowed)}])" if allowed
                           else "its type lists no becomes:)"))
    types = list(s.types)
    types[x] = t
    s.types = types


def reachable(w, start: str) -> frozenset:
    """The types a piece that started as `start` may have now."""
    seen, todo = {start}, [start]
    while todo:
        for t in w.becomes.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return frozenset(seen)


def types_problem(w, types, setup_types) -> str | None:
    """Why piece types of a loaded state cannot come from the setup's, or None."""
    if len(types) != len(setup_types):
        return "the piece types are not those of the setup (pieces are never added, removed or swapped)"
    for x, (now, start) in enumerate(zip(types, setup_types)):
        if now != start and now not in reachable(w, start):
            return (f"the piece types are not those of the setup: piece {x} is a {now}, which its setup type "
                    f"{start} cannot become (pieces are never added, removed or swapped)")
    return None
