"""Boards: spaces with coordinates and directions, and what is connected on them.

A component class may be a **generated board**: `board: {layout: square, size: [5, 4]}` makes one type per
space, `CLASS_COL_ROW`, each with its coordinates in the class's properties `col` and `row` (1-based; row 1
is the top) and its neighbours by direction. Layouts:

- `square`: `size: [cols, rows]` (or one number); directions n, e, s, w, and with `diagonals: true` also
  ne, nw, se, sw;
- `hex`: a rhombus of hexagons, `size: [cols, rows]`, axial coordinates: directions e, w, ne, nw, se, sw
  (ne is up and to the right: col + 1, row − 1);
- `hexagon`: hexagons in a hexagon of `size` cells a side (axial coordinates shifted to start at 1).

A hand-written graph (`graph: {id, edges}`) may leave out `id` (the type's name is its id); an edge written
on either side joins both spaces, so a route that names its two cities is a neighbour of each.

The queries (`BOARD_FUNCTIONS`, registered in the vocabulary): `neighbor(x, dir)`, `directions(x)`, `connected(x, where t:
COND)` (the connected component over the current state), `groups(coll, where t: COND)`, `distance(a, b,
where t: COND)` (the fewest steps, none when no path). Every walk stays inside x's zone, counts the spaces
it visits against the effect's loop budget, and is bounded by `MAX_BOARD_SPACES` spaces a board.
"""

from __future__ import annotations

from .compiler import CompileError, RuleError, X, elem_type
from ..definition.limits import LOOP_BUDGET, MAX_BOARD_SPACES

SQUARE = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
DIAGONAL = {"ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1)}
HEX = {"e": (1, 0), "w": (-1, 0), "ne": (1, -1), "nw": (0, -1), "se": (0, 1), "sw": (-1, 1)}
LAYOUTS = ("square", "hex", "hexagon")


def too_many_spaces(n: int) -> str:
    return f"a board has at most {MAX_BOARD_SPACES} spaces (MAX_BOARD_SPACES; this one would have {n})"


def board_cells(spec):
    """The (col, row) of every space of a board spec and its direction table, or a message."""
    layout = spec.get("layout", "square")
    size = spec.get("size")
    if layout not in LAYOUTS:
        return None, None, f"a board's layout is one of {', '.join(LAYOUTS)}, not {layout!r}"
    if layout == "hexagon":
        if type(size) is not int or size < 1:
            return None, None, "a hexagon board's size is the number of cells on a side (a number >= 1)"
        r = size - 1
        if 3 * r * (r + 1) + 1 > MAX_BOARD_SPACES:  # counted before any space is made
            return None, None, too_many_spaces(3 * r * (r + 1) + 1)
        cells = [(q + size, p + size) for p in range(-r, r + 1) for q in range(-r, r + 1) if abs(q + p) <= r]
        return cells, HEX, None
    if type(size) is int:
        size = [size, size]
    if not (isinstance(size, list) and len(size) == 2 and all(type(v) is int and v >= 1 for v in size)):
        return None, None, "a board's size is [columns, rows] (or one number for a square): numbers >= 1"
    cols, rows = size
    if cols * rows > MAX_BOARD_SPACES:
        return None, None, too_many_spaces(cols * rows)
    dirs = HEX if layout == "hex" else dict(SQUARE, **(DIAGONAL if spec.get("diagonals") else {}))
    return [(c, r) for r in range(1, rows + 1) for c in range(1, cols + 1)], dirs, None


def expand(world, cname, cls, types):
    """The class's types, with the spaces of its `board:` added (one type per space); records the
    directions of each space in `world.board_steps` and `world.board_dirs`."""
    spec = cls.get("board")
    if not isinstance(spec, dict):
        return types
    path = ("components", cname, "board")
    cells, dirs, problem = board_cells(spec)
    schema_says = spec.get("layout", "square") not in LAYOUTS or not isinstance(spec.get("size"), (int, list))
    if problem is not None and not schema_says:  # a layout or size the schema refuses is reported there
        world.error(problem, path)
    props = cls.get("properties") or {}
    missing = [p for p in ("col", "row") if p not in props]
    if missing:
        world.error(f"board: class {cname} declares no propert{'y' if len(missing) == 1 else 'ies'} "
                    f"{' and '.join(missing)} to hold a space's coordinates", path,
                    "add `col: 0, row: 0` to the class's properties")
    if problem is not None or missing:
        return types
    lab = cls.get("label")
    lab = lab if isinstance(lab, dict) else {"en": lab or cname, "zh": lab or cname}
    base = {"en": lab.get("en") or cname, "zh": lab.get("zh") or lab.get("en") or cname}
    name = {cell: f"{cname}_{cell[0]}_{cell[1]}" for cell in cells}
    out = dict(types)
    for (c, r), tname in name.items():
        out[tname] = {"col": c, "row": r, "label": {"en": f"{base['en']} {c},{r}", "zh": f"{base['zh']}{c},{r}"}}
        world.board_steps[tname] = {d: name[(c + dc, r + dr)] for d, (dc, dr) in dirs.items()
                                    if (c + dc, r + dr) in name}
        world.board_dirs[tname] = list(dirs)
    return out


def install(world):
    """After the hand-written graphs are read: generated spaces join the graph (their type name is their id,
    their neighbours by direction their edges), and every edge is made to go both ways between the classes
    that start in one zone (two boards in two zones may number their spaces alike)."""
    for tname, steps in world.board_steps.items():
        world.graph_id[tname] = tname
        world.graph_adj[tname] = frozenset(steps.values())

    def zone(tname):
        return world.classes[world.types[tname]].get("zone")
    by_id: dict = {}
    for tname, gid in world.graph_id.items():
        by_id.setdefault((zone(tname), gid), []).append(tname)
    back: dict = {}
    for tname, adj in world.graph_adj.items():
        z = zone(tname)
        unknown = sorted(str(g) for g in adj if (z, g) not in by_id)
        if unknown:  # a misspelt town would silently join nothing
            from ..definition.problems import did_you_mean
            cname = world.types[tname]
            edges = (world.classes[cname].get("graph") or {}).get("edges")
            world.error(f"type '{tname}': {edges} names {', '.join(unknown)}, which is no space's id",
                        ("components", cname, "types", tname, edges),
                        did_you_mean(unknown[0], [str(g) for zz, g in by_id if zz == z]))
        for g in adj:
            for other in by_id.get((z, g), ()):
                back.setdefault(other, set()).add(world.graph_id[tname])
    for tname, ids in back.items():
        if tname in world.graph_adj and not ids <= world.graph_adj[tname]:
            world.graph_adj[tname] = world.graph_adj[tname] | ids


# ------------------------------------------------------------------ walking a board
class Walk:
    """The spaces of one zone indexed by graph id, for the walks of one query (the state does not change
    while a query runs)."""

    def __init__(self, world, s, x, what):
        if world.graph_adj.get(s.types[x]) is None:
            raise RuleError(f"{what}: {s.types[x]} is not a space of a board (its class has no board: or graph:)")
        self.w, self.s = world, s
        self.zone = s.loc[x]
        gid, types = world.graph_id, s.types
        self.by_id: dict = {}
        for y in s.zones[self.zone]:
            self.by_id.setdefault(gid.get(types[y]), []).append(y)

    def neighbours(self, y):
        adj = self.w.graph_adj.get(self.s.types[y], ())
        return [z for g in adj for z in self.by_id.get(g, ())]

    def charge(self, n):
        _charge(self.s, n)


def _charge(s, n):
    s.budget += n
    if s.budget > LOOP_BUDGET:
        raise RuleError(f"an effect ran more than {LOOP_BUDGET} loop steps (walking a board)")


def _ok(cond, slot, s, e, y):
    if cond is None:
        return True
    e[slot] = y
    return bool(cond(s, e))


def component(world, s, e, x, cond, slot, walk=None):
    """x and every space joined to it through neighbours for which cond holds (x included only if it holds),
    in piece order. The condition is asked once a space."""
    if x is None:
        return []
    walk = walk or Walk(world, s, x, "connected()")
    if not _ok(cond, slot, s, e, x):
        return []
    seen, todo, refused = {x}, [x], set()
    while todo:
        y = todo.pop()
        for z in walk.neighbours(y):
            if z in seen or z in refused:
                continue
            if _ok(cond, slot, s, e, z):
                seen.add(z)
                todo.append(z)
            else:
                refused.add(z)
    walk.charge(len(seen) + len(refused))
    return sorted(seen)


def components(world, s, e, items, cond, slot):
    """The connected groups of the spaces among `items` for which cond holds (each asked once), in the
    order of their first space."""
    walks: dict = {}
    keep = set()
    _charge(s, len(items))
    for y in items:
        if _ok(cond, slot, s, e, y):
            keep.add(y)
    out, done = [], set()
    for y in sorted(keep):
        if y in done:
            continue
        z0 = s.loc[y]
        walk = walks.get(z0) or walks.setdefault(z0, Walk(world, s, y, "groups()"))
        group, todo = {y}, [y]
        while todo:
            u = todo.pop()
            for v in walk.neighbours(u):
                if v in keep and v not in group:
                    group.add(v)
                    todo.append(v)
        walk.charge(len(group))
        done |= group
        out.append(sorted(group))
    return out


def distance(world, s, e, a, b, cond, slot):
    """The fewest steps from a to b through neighbours for which cond holds (b included, a not), or None."""
    if a is None or b is None:
        return None
    if a == b:
        return 0
    walk = Walk(world, s, a, "distance()")
    seen, frontier, d, refused = {a}, [a], 0, set()
    while frontier:
        d += 1
        nxt = []
        for y in frontier:
            for z in walk.neighbours(y):
                if z in seen or z in refused:
                    continue
                if not _ok(cond, slot, s, e, z):
                    refused.add(z)
                    continue
                if z == b:
                    walk.charge(len(seen) + len(refused))
                    return d
                seen.add(z)
                nxt.append(z)
        frontier = nxt
    walk.charge(len(seen) + len(refused))
    return None


# ------------------------------------------------------------------ the DSL's functions
def _want(x: X, types, what, node):
    if x.t not in types and x.t != "any":
        raise CompileError(f"{what}: expected {' or '.join(types)}, got {x.t}", node)


def _piece(a, what, node):
    _want(a, ("piece",), what, node)
    return a.f


def _where(c, args, var, cond_node, sc, node, name):
    """The compiled condition of a `where t: COND` clause: (function, slot)."""
    if var is None:
        return None, None
    inner = sc.child()
    slot = inner.bind(str(var), "piece")
    cond = c.expr(cond_node, inner)
    if cond.t not in ("bool", "any"):
        raise CompileError(f"{name}(..., where {var}: COND): the condition must be true or false, not a {cond.t}",
                           cond_node)
    return cond.f, slot


def _connected(c, a, node, var=None, cond_node=None, sc=None):
    """connected(x, where t: COND): x and every space joined to it through neighbours t for which COND holds
    (empty when x itself does not satisfy it); without `where`, every space joined to x."""
    xf = _piece(a[0], "connected()", node)
    cond, slot = _where(c, a, var, cond_node, sc, node, "connected")
    w = c.w
    return X(lambda s, e: component(w, s, e, xf(s, e), cond, slot), "list:piece")


def _groups(c, a, node, var=None, cond_node=None, sc=None):
    """groups(coll, where t: COND): the connected groups of the spaces of coll for which COND holds (joined
    through such spaces of coll only), each a list of spaces; groups in the order of their first space."""
    coll = a[0]
    if elem_type(coll.t) not in ("piece", "any"):
        raise CompileError(f"groups() takes a zone or a list of spaces, got a {coll.t}", node)
    cf = coll.f
    is_zone = coll.t == "zone"
    cond, slot = _where(c, a, var, cond_node, sc, node, "groups")
    w = c.w

    def groups(s, e):
        items = s.zones[cf(s, e)] if is_zone else cf(s, e)
        return components(w, s, e, items, cond, slot) if items else []
    return X(groups, "list:list:piece")


def _distance(c, a, node, var=None, cond_node=None, sc=None):
    """distance(a, b, where t: COND): the fewest steps from a to b through spaces t for which COND holds (b
    must satisfy it too), or none when there is no such path; without `where`, through any spaces."""
    af = _piece(a[0], "distance()", node)
    bf = _piece(a[1], "distance()", node)
    cond, slot = _where(c, a, var, cond_node, sc, node, "distance")
    w = c.w
    return X(lambda s, e: distance(w, s, e, af(s, e), bf(s, e), cond, slot), "int")


def _dir_arg(c, d, node):
    _want(d, ("str",), "a direction", node)
    known = {x for dirs in c.w.board_dirs.values() for x in dirs} or set(SQUARE) | set(DIAGONAL)
    if isinstance(d.c, str) and d.c not in known:
        from ..definition.problems import did_you_mean
        raise CompileError(f"'{d.c}' is not a direction of this game's boards ({', '.join(sorted(known))})",
                           node, did_you_mean(d.c, known))
    return d.f


def _neighbor(c, a, node):
    """neighbor(x, dir): the space next to x in direction dir ('n', 'ne', ...), or none at the edge."""
    xf = _piece(a[0], "neighbor()", node)
    df = _dir_arg(c, a[1], node)
    w = c.w

    def step(s, e):
        x = xf(s, e)
        if x is None:
            return None
        steps = w.board_steps.get(s.types[x])
        if steps is None:
            raise RuleError(f"neighbor(): {s.types[x]} is not a space of a generated board (its class has no board:)")
        d = df(s, e)
        if d not in w.board_dirs[s.types[x]]:
            raise RuleError(f"neighbor(): {d!r} is not a direction of this board "
                            f"({', '.join(w.board_dirs[s.types[x]])})")
        t = steps.get(d)
        if t is None:
            return None
        for y in s.zones[s.loc[x]]:
            if s.types[y] == t:
                return y
        return None
    return X(step, "piece")


def _directions(c, a, node):
    """directions(x): the directions of the board x is a space of, in the layout's order."""
    xf = _piece(a[0], "directions()", node)
    w = c.w

    def dirs(s, e):
        x = xf(s, e)
        return list(w.board_dirs.get(s.types[x], ())) if x is not None else []
    return X(dirs, "list:str")


# The functions that take a `where t: COND` clause (grammar: call_where), built with the clause's name and
# condition; called without one, they are ordinary functions.
WHERE = {"connected": (_connected, 1), "groups": (_groups, 1), "distance": (_distance, 2)}
# name -> (build, least and most arguments): the vocabulary registers them (see vocabulary.FUNCTIONS).
BOARD_FUNCTIONS = {"connected": (_connected, 1, 1), "groups": (_groups, 1, 1), "distance": (_distance, 2, 2),
                   "neighbor": (_neighbor, 2, 2), "directions": (_directions, 1, 1)}


def call_where(c, n, sc):
    """Compile `NAME(args, where t: COND)`."""
    name_tok, *rest = n.children
    name = str(name_tok)
    args, var, cond_node = rest[:-2], rest[-2], rest[-1]
    entry = WHERE.get(name)
    if entry is None:
        from ..definition.problems import did_you_mean
        raise CompileError(f"'{name}' takes no `where` clause (only {', '.join(WHERE)} do)", name_tok,
                           did_you_mean(name, WHERE))
    build, nargs = entry
    if len(args) != nargs:
        raise CompileError(f"{name}() takes {nargs} argument(s) before `where`, got {len(args)}", n)
    compiled = [c.expr(x, sc) for x in args]
    return build(c, compiled, n, var, cond_node, sc)
