"""Features of a board laid out as a graph: how near each region is to being filled, and where a piece may
go next. What `features.ZoneShape` adds for a zone whose spaces are a graph (`graph:` in their class).

A linear value over counts sees which spaces are built on, each worth its own weight; it cannot see that
the last empty space of a region is worth more than the first (a region completed scores, a region
begun does not), nor that an empty space beside a built one is open to the next piece. So, for each field
the graph's spaces hold (a tile placed, a building) and each text property of theirs (a colour: the
property `region(x, prop)` groups by), per value of the property:

- `field.F.region.P.V.open1` / `open2` / `open3`: regions of value V (connected spaces of one value)
  begun and missing one, two, or three or more pieces;
- `field.F.frontier.P.V`: empty spaces of value V next to a filled one.

A space is filled where its field holds anything (a piece, a number but 0, true). The regions and the
neighbours depend only on which spaces the zone holds (their types, in order); they are found once per
such layout and kept (at most `LAYOUTS_KEPT`, a named limit: then the store starts over).
"""
from __future__ import annotations

LAYOUTS_KEPT = 512  # layouts of a graph zone whose regions and neighbours are kept (see the module doc)
OPEN = ("open1", "open2", "open3")  # regions begun and missing 1, 2, 3 or more


def graph_fields(fs, zone: str) -> list[tuple]:
    """What the graph features of zone `zone` count: [(field, column, prop, values)], the fields held by
    the graph classes that start there and their text properties (those `fs` counts per value)."""
    w = fs.world
    types = [t for t in w.graph_adj if _start_zone(w, t) == zone]
    if not types:
        return []
    classes = {w.class_of.get(t) for t in types}
    out = []
    for fname, (col, _ftype) in w.fields.items():
        if not classes & fs.field_classes.get(fname, set()):
            continue
        for prop in sorted(fs.text_props):
            values = sorted({v for t in types if isinstance(v := w.props[prop].get(t), str)})
            if values:
                out.append((fname, col, prop, values))
    return out


def _start_zone(w, t):
    tdef = w.type_entries.get(t) or {}
    return tdef.get("zone", w.classes[w.class_of[t]].get("zone"))


class GraphCounts:
    """The region and frontier counts of one graph zone's field and property (see the module doc)."""

    __slots__ = ("adjacency", "ids", "table", "layouts")

    def __init__(self, world, prop: str):
        self.adjacency, self.ids = world.graph_adj, world.graph_id
        self.table = world.props[prop]
        self.layouts: dict = {}

    def _layout(self, pieces, types):
        """(regions, neighbours) of a list of pieces: regions [(value, [indices])] of the graph's pieces
        with a value, neighbours [[indices]] per index, as `region()` and `neighbors()` find them."""
        key = tuple(types[y] for y in pieces)
        got = self.layouts.get(key)
        if got is not None:
            return got
        adjacency, ids, table = self.adjacency, self.ids, self.table
        by_id: dict = {}
        for i, t in enumerate(key):
            if t in adjacency:
                by_id.setdefault(ids.get(t), []).append(i)
        near = [[j for g in adjacency.get(t, ()) for j in by_id.get(g, ())] for t in key]
        regions, seen = [], set()
        for i, t in enumerate(key):
            value = table.get(t)
            if i in seen or t not in adjacency or not isinstance(value, str):
                continue
            seen.add(i)
            todo, members = [i], [i]
            while todo:
                for j in near[todo.pop()]:
                    if j not in seen and table.get(key[j]) == value:
                        seen.add(j)
                        todo.append(j)
                        members.append(j)
            regions.append((value, members))
        if len(self.layouts) >= LAYOUTS_KEPT:
            self.layouts.clear()
        got = self.layouts[key] = (regions, near)
        return got

    def counts(self, pieces, types, column) -> list[tuple]:
        """[(value, what, count)] of these pieces, `what` one of OPEN or "frontier", counts above 0."""
        regions, near = self._layout(pieces, types)
        filled = [bool(column[y]) for y in pieces]
        out: dict = {}
        for value, members in regions:
            empty = sum(1 for i in members if not filled[i])
            if empty and empty < len(members):
                k = (value, OPEN[min(empty, 3) - 1])
                out[k] = out.get(k, 0) + 1
        table, types_of = self.table, [types[y] for y in pieces]
        for i, row in enumerate(near):
            if row and not filled[i] and any(filled[j] for j in row):
                value = table.get(types_of[i])
                if isinstance(value, str):
                    k = (value, "frontier")
                    out[k] = out.get(k, 0) + 1
        return [(v, what, n) for (v, what), n in out.items()]
