"""Indexed generators: `x for x in ZONE if x.PROP == VALUE and ...` walks only the pieces that match.

A generator over a zone whose condition starts with an equality between a property of the loop's piece
(a value of its type, fixed for the whole game; or its type itself) and a value that does not depend on the piece is the
shape of most "the spaces of this colour", "the buildings of that kind" filters. Evaluated as written it
tests every piece of the zone; here the compiler walks the zone's pieces that have that property value,
looked up in an index of the zone by the property. Within a menu (the state cannot change while it is
computed: `s.pcache`) the index is built once per zone and property and shared by every such generator,
and kept for the next menu while the zone holds the same pieces in the same order. Outside a menu (an
effect, a flow condition) the kept index answers when the zone's pieces are still the same, and is
extended when pieces were only put on the zone since (a move appends); otherwise the zone is filtered
directly (which still saves the rest of the condition's machinery for the pieces that do not match), and
indexed the next time it is filtered with the same pieces (or those and more). A generator that may stop
at its first match (`first`, `any`, `all`) walks such a zone lazily instead, and stops where it stops.

The pieces come in zone order, as the generator would find them, so the value of the generator is the
same. What the rest of the condition, the element and the loop budget see are the matching pieces only:
the equality that was true of them is not tested again, and the pieces it rejected are neither tested
nor counted against the loop budget (a limit, never reached by a menu that stays within it as written).
The value compared is computed once, before the walk, and only when the zone holds a piece (as written it
is computed for the first piece).
"""
from __future__ import annotations

from lark import Token, Tree

from .codegen import charge

SCALAR = ("int", "str", "bool")


def leftmost(cond):
    """The first conjunct of an `and` chain (the node itself if it is not one), and the chain without it
    (None when the chain was that one conjunct)."""
    if not (isinstance(cond, Tree) and cond.data == "and_"):
        return cond, None
    left, right = cond.children
    first, rest = leftmost(left)
    return first, (right if rest is None else Tree("and_", [rest, right], meta=cond.meta))


def mentions(node, name: str) -> bool:
    """Whether the name appears anywhere in the expression (conservative: a shadowing inner loop counts)."""
    if isinstance(node, Token):
        return node.type == "NAME" and str(node) == name
    if isinstance(node, Tree):
        return any(mentions(c, name) for c in node.children)
    return False


def prop_equality(w, cond, var: str):
    """For a condition whose first conjunct is `var.PROP == VALUE` (either way round) with PROP a scalar
    property of pieces or `type`, and VALUE not reading `var`: (PROP, the VALUE node, the rest of the condition or
    None); otherwise None."""
    first, rest = leftmost(cond)
    if not (isinstance(first, Tree) and first.data == "compare" and len(first.children) == 3
            and str(first.children[1]) == "=="):
        return None
    a, _, b = first.children
    for side, other in ((a, b), (b, a)):
        if (isinstance(side, Tree) and side.data == "attr" and isinstance(side.children[0], Tree)
                and side.children[0].data == "name" and str(side.children[0].children[0]) == var):
            prop = str(side.children[1])
            if w.meter is not None and w.meter.metered("prop", prop):
                return None  # its reads are counted: the filter reads it as written (see meters)
            if prop == "type" or (prop in w.props and prop not in w.fields and w.prop_types.get(prop) in SCALAR):
                if not mentions(other, var):
                    return prop, other, rest
    return None


def property_table(w, prop) -> dict:
    """type -> the value of `prop` for pieces of that type (`type`: the type itself)."""
    return {t: t for t in w.types} if prop == "type" else w.props[prop]


def zone_index(table):
    """index(s, zone, value): the pieces of the zone whose type has `value` for the property `table`
    (type -> value), in zone order; see the module doc."""
    key = object()  # a key of the menu's memo no game name can collide with
    # Across menus: per zone, the last index built, with the zone's pieces and the list of piece types it
    # was built from. A zone whose pieces rarely change (a player's board of spaces) is indexed once, not
    # once per menu; any other zone costs one comparison of its piece list. One entry per zone number:
    # bounded by the layout.
    last: dict = {}

    def build(zone, types):
        by_value: dict = {}
        for x in zone:
            v = table[types[x]]
            got = by_value.get(v)
            if got is None:
                by_value[v] = [x]
            else:
                got.append(x)
        return by_value

    def indexed(s, z, now):
        """The zone's index: the one kept, while the zone holds the same pieces (or those and more after
        them: the index is extended); else one built now, when `now` (a menu) or when the zone is filtered
        again with the pieces it had last time (or those and more); else None."""
        zone, types = s.zones[z], s.types
        kept = last.get(z)
        same = grown = False
        old = kept[0] if kept is not None else None
        if kept is not None and (kept[1] is types or kept[1] == types):  # (or the same types in another list)
            same = old == zone
            # pieces put on the zone since (a move appends): the old ones first, as they were
            grown = not same and len(zone) > len(old) and zone[:len(old)] == old
        if same and kept[2] is not None:
            return kept[2]
        if grown and kept[2] is not None:
            by_value = dict(kept[2])  # (new lists for the values that grew: a list handed out never changes)
            for x in zone[len(old):]:
                v = table[types[x]]
                by_value[v] = by_value.get(v, []) + [x]
            last[z] = (zone[:], types, by_value)
            return by_value
        if now or same or grown:
            by_value = build(zone, types)
            last[z] = (old if same else zone[:], types, by_value)
            return by_value
        last[z] = (zone[:], types, None)  # the pieces, to know the zone when it is filtered again
        return None

    def index(s, z, value):
        memo = s.pcache
        if memo is None:  # outside a menu (an effect, a flow condition)
            by_value = indexed(s, z, False)
            if by_value is None:
                types = s.types
                return [x for x in s.zones[z] if table[types[x]] == value]
            return by_value.get(value, ())
        by_value = memo.get((key, z))
        if by_value is None:
            by_value = memo[(key, z)] = indexed(s, z, True)
        return by_value.get(value, ())

    def first_ones(s, z, value):
        """The matching pieces for a generator that may stop at the first (`first`, `any`, `all`), charged
        against the loop budget: the index's when there is one to use; else, outside a menu, the zone is
        walked lazily, charged for all its pieces as the generator as written is, and the walk stops where
        the generator stops."""
        if s.pcache is None:
            by_value = indexed(s, z, False)
            if by_value is None:
                zone, types = s.zones[z], s.types
                charge(s, zone)
                return (x for x in zone if table[types[x]] == value)
            return charge(s, by_value.get(value, ()))
        return charge(s, index(s, z, value))

    index.first_ones = first_ones
    return index


def indexed_walk(c, coll, var, cond_node, sc, inner, early=False):
    """For the compiler `c`: (the iterable's source, the rest of the condition compiled, the slots the
    iterable reads) for a generator over the zone `coll` whose condition starts with `var.PROP == VALUE`,
    or None for any other shape (the generator is then compiled as written). `sc` is the generator's
    scope, `inner` its loop's; `early`: the generator may stop at its first match (see first_ones)."""
    found = prop_equality(c.w, cond_node, var)
    if found is None:
        return None
    prop, value_node, rest_node = found
    first, _ = leftmost(cond_node)
    c.expr(first, inner)  # the equality as written: its mistakes are the author's to see
    value = c.expr(value_node, sc)
    if value.t not in SCALAR:
        return None
    rest = c.expr(rest_node, inner) if rest_node is not None else None
    made = c.w.__dict__.setdefault("zone_indexes", {})  # one per property, shared by every walk
    ix = made.get(prop)
    if ix is None:
        ix = made[prop] = zone_index(property_table(c.w, prop))
    if early:
        pieces = f"{c.pool.ref(ix.first_ones)}(s, _z, {c.src(value)})"
    else:
        pieces = f"{c.pool.ref(charge)}(s, {c.pool.ref(ix)}(s, _z, {c.src(value)}))"
    walk = c.pool.define("s, e", [f"_z = {c.src(coll)}", f"return {pieces} if s.zones[_z] else ()"])
    return c.pool.ref(walk) + "(s, e)", rest, (coll.deps or frozenset()) | (value.deps or frozenset())
