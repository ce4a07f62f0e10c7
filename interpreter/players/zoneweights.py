"""What one zone's pieces add to a value model's head (`evaluator.Evaluator`), without building feature rows:
per zone name the weights of its size, of each piece type and of each field (a text field's by the value
it holds) summed once per head, and the sums of a zone's pieces, kept for a large zone whose pieces recur
decision after decision.
"""
from __future__ import annotations

SEAT_BLOCKS = ("early", "middle", "late", "others")
NONE = (0.0, 0.0, 0.0, 0.0)  # the blocks' weights of a text field's value no weight names


class ZoneWeights:
    """What one zone name adds to a seat's value under one head: per block (`early`, `middle`, `late`,
    `others`) the weight of its size, of each piece type and of each field; and what its owner and the
    other seats see inside it (`features.zone_sight`)."""

    __slots__ = ("offset", "size", "by_type", "fields", "own_seen", "other_seen", "used")

    def __init__(self, shape, w, offsets, offset, own_seen, other_seen):
        self.offset, self.own_seen, self.other_seen = offset, own_seen, other_seen
        blocks = [offsets[b] for b in SEAT_BLOCKS]
        self.size = tuple(w[b + shape.base] for b in blocks)
        types = [[sum(v * w[b + shape.base + o] for o, v in add) for b in blocks] for add in shape.adds]
        self.by_type = [tuple(t) for t in types] if any(any(t) for t in types) else None
        self.fields = []
        for col, kind, per_type in shape.fields:
            if kind == "text":  # {value: the blocks' weights} (a text field counted by its value)
                weights = {v: tuple(w[b + shape.base + o] for b in blocks) for v, o in per_type.items()}
                weights = {v: t for v, t in weights.items() if any(t)}
            else:
                weights = [tuple(sum(m * w[b + shape.base + o] for o, m in add) for b in blocks) for add in per_type]
            if any(any(t) for t in (weights.values() if kind == "text" else weights)):
                self.fields.append((col, kind, weights))
        self.used = any(self.size) or self.by_type is not None or bool(self.fields)


class TableZone:
    __slots__ = ("zone", "size", "by_type", "fields", "seen")

    def __init__(self, shape, w, base, zone, seen):
        self.zone, self.seen = zone, seen
        self.size = w[base + shape.base]
        types = [sum(v * w[base + shape.base + o] for o, v in add) for add in shape.adds]
        self.by_type = types if any(types) else None
        self.fields = []
        for col, kind, per_type in shape.fields:
            if kind == "text":  # {value: weight}
                weights = {v: w[base + shape.base + o] for v, o in per_type.items() if w[base + shape.base + o]}
            else:
                weights = [sum(m * w[base + shape.base + o] for o, m in add) for add in per_type]
            if any(weights.values() if kind == "text" else weights):
                self.fields.append((col, kind, weights))


def kept(memo, where, pieces, weighed, fields, compute, *args):
    """`compute(*args)`, kept in `memo` by `where`, the pieces and the values of the `weighed` fields
    they have: computed each time where a field value is not hashable (a map)."""
    key = where + (tuple(pieces),)
    if weighed:
        key += tuple(tuple(map(fields[col].__getitem__, pieces)) for col, _k, _w in weighed)
    try:
        got = memo.get(key)
    except TypeError:
        return compute(*args)
    if got is None:
        got = memo[key] = compute(*args)
    return got


def zone_sums(pieces, zw, ti, types, fields, own_seen, other_seen) -> tuple:
    """(early, middle, late, others): what the types and fields of `pieces` (a zone's, weighed by `zw`)
    add in each block, as seen (the blocks of the owner's own view if `own_seen`, `others` if `other_seen`)."""
    e = m = l = o = 0.0
    by_type = zw.by_type
    if by_type is not None:
        for y in pieces:
            a, b, d, x = by_type[ti[types[y]]]
            e += a
            m += b
            l += d
            o += x
    for col, kind, weights in zw.fields:
        column = fields[col]
        if kind == "text":  # by the value a piece holds, whatever its type
            for y in pieces:
                v = column[y]
                if type(v) is str and v in weights:
                    a, b, d, x = weights[v]
                    e += a
                    m += b
                    l += d
                    o += x
            continue
        for y in pieces:
            v = column[y]
            if v is None or v is False:
                continue
            v = v if kind == "int" else sum(v.values()) if kind == "map" else 1
            a, b, d, x = weights[ti[types[y]]]
            e += a * v
            m += b * v
            l += d * v
            o += x * v
    return (e, m, l, o) if own_seen and other_seen else (e, m, l, 0.0) if own_seen else (0.0, 0.0, 0.0, o)


def table_sums(pieces, tz, ti, types, fields) -> float:
    """What the types and fields of `pieces` (a table zone's, weighed by `tz`) add."""
    total = 0.0
    by_type = tz.by_type
    if by_type is not None:
        for x in pieces:
            total += by_type[ti[types[x]]]
    for col, kind, weights in tz.fields:
        column = fields[col]
        if kind == "text":  # by the value a piece holds, whatever its type
            for x in pieces:
                v = column[x]
                if type(v) is str:
                    total += weights.get(v, 0.0)
            continue
        for x in pieces:
            v = column[x]
            if v is None or v is False:
                continue
            total += weights[ti[types[x]]] * (v if kind == "int" else sum(v.values()) if kind == "map" else 1)
    return total
