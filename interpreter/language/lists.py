"""List variables: ordered lists of values held in vars, and the functions that change and read them.

A var declared `{type: list, items: piece}` (items: int, bool, str, player, piece or any; default any)
holds an ordered list, empty unless its `init` gives one. Reading: `len(L)`, `v in L`, `L[i]`, `index(L, v)`,
and every aggregate over it. Changing (effects): `append(L, v)`, `remove(L, v)`, or assigning a whole list.
A list never changes in place: each change stores a new list, so a copied state shares nothing that changes.
A list var holds at most `MAX_LIST` items; more is a rule error where the `append` is written.

A list may hold lists: a position history is a list var whose items are positions (lists of values), so a
repetition rule reads `count(q for q in seen if q == position) >= 3`.
"""

from __future__ import annotations

from .compiler import CompileError, RuleError, X, elem_type
from ..definition.limits import MAX_LIST

ITEM_TYPES = ("int", "bool", "str", "player", "piece", "any")


def var_type(world, v, path) -> str:
    """The DSL type of a list var (`list:ITEM`), reporting an unknown `items`."""
    item = str(v.get("items", "any"))
    if item not in ITEM_TYPES:
        world.error(f"unknown list item type '{item}'; expected one of {', '.join(ITEM_TYPES)}", path + ("items",))
        item = "any"
    return "list:" + item


def _list_place(a, what, node):
    get, put, t = a
    if not t.startswith("list:") and t != "any":
        raise CompileError(f"{what} changes a list var, not a {t}", node)
    return get, put, t


def _item(c, lt, v, what, node):
    """Refuse at load an item that the list's declared item type can never hold."""
    et = elem_type(lt) or "any"
    if et != "any" and v.t not in ("any", "none") and not (et == v.t or {et, v.t} == {"int", "player"}
                                                           or (et.startswith("list:") and v.t.startswith("list:"))):
        raise CompileError(f"{what}: this list holds {et} values, not a {v.t}", node)
    c.check_comparable(X(None, et), v, node)


def _append(c, a, node):
    """append(L, v): put v at the end of list var L."""
    get, put, lt = _list_place(a[0], "append()", node)
    vf = a[1].f
    _item(c, lt, a[1], "append()", node)

    def app(s, e):
        old = get(s, e)
        if len(old) >= MAX_LIST:
            raise RuleError(f"append(): a list var holds at most {MAX_LIST} items")
        put(s, e, old + [vf(s, e)])
    return X(app, "none")


def _remove(c, a, node):
    """remove(L, v): take the first v out of list var L (a rule error when v is not in it)."""
    get, put, lt = _list_place(a[0], "remove()", node)
    vf = a[1].f
    _item(c, lt, a[1], "remove()", node)

    def rem(s, e):
        old, v = get(s, e), vf(s, e)
        if v not in old:
            raise RuleError(f"remove(): {v!r} is not in the list")
        i = old.index(v)
        put(s, e, old[:i] + old[i + 1:])
    return X(rem, "none")


def _index(c, a, node):
    """index(L, v): the place of the first v in list L, from 0 (a rule error when v is not in it)."""
    lt = a[0].t
    if not lt.startswith("list:") and lt != "any":
        raise CompileError(f"index() takes a list, not a {lt}", node)
    _item(c, lt, a[1], "index()", node)
    lf, vf = a[0].f, a[1].f

    def idx(s, e):
        items, v = lf(s, e), vf(s, e)
        if v not in items:
            raise RuleError(f"index(): {v!r} is not in the list (ask `v in L` first)")
        return items.index(v)
    return X(idx, "int")


# name -> (build, arguments, refs, effect): the vocabulary registers them (see vocabulary.FUNCTIONS).
LIST_FUNCTIONS = {"append": (_append, 2, (0,), True), "remove": (_remove, 2, (0,), True),
                  "index": (_index, 2, (), False)}
