"""Pieces laid out as a graph: `neighbors(x)` and `region(x, prop)`, remembered per layout of a zone.

A class with `graph: {id: PROP, edges: PROP}` places its pieces on a graph: a piece's neighbours are the
pieces of its own zone whose graph id is one of its edges. What the neighbours of a piece are depends only
on which pieces the zone holds (in which order) and on their types, and that rarely changes: an estate's
spaces, a map's regions stay where they are for the whole game. So the answers are kept per layout of a
zone (its pieces in order, with the state's list of piece types) and found again in any later state with
the same layout, instead of walking the zone at every menu. At most `MAX_LAYOUTS` layouts are kept (a
named limit: the memory this costs stays bounded whatever the game does; past it the store starts over).

The neighbours come in zone order; a region is its pieces in increasing piece number (as before).
"""
from __future__ import annotations

from .compiler import RuleError

MAX_LAYOUTS = 2048  # zone layouts whose neighbours are remembered (see the module doc)


class Layout:
    """One layout of a zone: its pieces by graph id, and the answers found so far."""
    __slots__ = ("types", "by_id", "found")

    def __init__(self, types, by_id):
        self.types = types    # the state's piece types when the layout was indexed (a list never changed
        self.by_id = by_id    # in place: `become` replaces it)
        self.found: dict = {}  # x -> neighbours; (x, prop) -> region


class ZoneGraphs:
    """neighbors and region for the graph classes of one game (`adjacency`: type -> frozenset of the ids of
    its neighbours; `ids`: type -> its own graph id; `props`: the game's property tables)."""

    def __init__(self, adjacency: dict, ids: dict, props: dict):
        self.adjacency, self.ids, self.props = adjacency, ids, props
        self.layouts: dict = {}
        self._menu_key = object()  # a key of a menu's memo (s.pcache) no game name can collide with

    def _layout(self, s, z) -> Layout:
        memo = s.pcache  # within a menu the state cannot change: the zone's layout is looked up once
        if memo is not None:
            hit = memo.get((self._menu_key, z))
            if hit is not None:
                return hit
        pieces = s.zones[z]
        key = (z, tuple(pieces))
        lay = self.layouts.get(key)
        types = s.types
        if lay is not None and lay.types is not types:
            if lay.types == types:  # the same types in another list (another game, a loaded state)
                lay.types = types
            else:
                lay = None
        if lay is None:
            gid = self.ids
            by_id: dict = {}
            for i, y in enumerate(pieces):
                by_id.setdefault(gid.get(types[y]), []).append((i, y))
            if len(self.layouts) >= MAX_LAYOUTS:
                self.layouts.clear()
            lay = self.layouts[key] = Layout(types, by_id)
        if memo is not None:
            memo[(self._menu_key, z)] = lay
        return lay

    def neighbors(self, s, x) -> list:
        """The pieces of x's zone whose graph id is one of x's edges, in zone order."""
        memo, z = s.pcache, s.loc[x]
        lay = memo.get((self._menu_key, z)) if memo is not None else None  # (_layout's look-up, inline)
        if lay is None:
            if s.types[x] not in self.adjacency:
                self._not_a_graph(s, x)
            lay = self._layout(s, z)
        out = lay.found.get(x)  # (a piece found here is of a graph class: its neighbours were found once)
        if out is None:
            adj = self.adjacency.get(s.types[x])
            if adj is None:
                self._not_a_graph(s, x)
            index = lay.by_id
            found = [iy for g in adj for iy in index.get(g, ())]
            found.sort()
            out = lay.found[x] = [y for _, y in found]
        return out

    @staticmethod
    def _not_a_graph(s, x):
        raise RuleError(f"neighbors(): {s.types[x]} is not laid out as a graph (its class has no graph:)")

    def region(self, s, x, prop) -> list:
        """x and every piece connected to it through neighbours with the same value of `prop`."""
        lay = self._layout(s, s.loc[x])
        out = lay.found.get((x, prop))
        if out is not None:
            return out
        table = self.props[prop]
        types = s.types
        want = table.get(types[x])
        seen = {x}
        todo = [x]
        out = [x]
        while todo:
            y = todo.pop()
            for z in self.neighbors(s, y):
                if z not in seen and table.get(types[z]) == want:
                    seen.add(z)
                    todo.append(z)
                    out.append(z)
        out.sort()
        lay.found[(x, prop)] = out
        return out
