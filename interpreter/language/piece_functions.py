"""The DSL functions of pieces' own state: what zone a piece is held by, what a piece has become, who sees it,
what a seat was told of it.

Registered in the vocabulary (`vocabulary.FUNCTIONS`) like every other function; the concepts live in
`zonevalues` (zones held by pieces), `promotion` (types that change), `facing` (visibility per piece) and
`knowledge` (what a seat was told of a piece it may not see).
"""

from __future__ import annotations

from ..engine import facing, knowledge
from .codegen import NOCONST
from .compiler import CompileError, X
from .promotion import become
from .vocabulary import _want, _zone, fn


@fn("holder", 1)
def _holder(c, a, node):
    """holder(zone): the piece that holds the zone (a stack's carrier, a board space), or none."""
    zf = _zone(c, a[0], node, "holder()")
    rt = c.w.piece_zone_rt
    return X(lambda s, e: rt.holder(s, zf(s, e)), "piece")


@fn("become", 2, effect=True)
def _become(c, a, node):
    """become(x, type): piece x turns into another type its own type lists in `becomes:`."""
    _want(a[0], ("piece",), "become() piece", node)
    _want(a[1], ("str",), "become() type", node)
    w = c.w
    if a[1].c is not None and isinstance(a[1].c, str) and a[1].c not in w.types:
        raise CompileError(f"become(): unknown component type '{a[1].c}'", node)
    xf, tf = a[0].f, a[1].f

    def f(s, e):
        become(w, s, xf(s, e), tf(s, e))
    return X(f, "none")


@fn("reveal", 1, 2, effect=True)
def _reveal(c, a, node):
    """reveal(x): every seat sees piece x, wherever it is; reveal(x, p): seat p sees it too."""
    _want(a[0], ("piece",), "reveal() piece", node)
    xf = a[0].f
    if len(a) == 1:
        return X(lambda s, e: facing.set_face(s, xf(s, e), facing.UP), "none")
    _want(a[1], ("player",), "reveal() seat", node)
    pf = a[1].f
    return X(lambda s, e: facing.set_face(s, xf(s, e), None, pf(s, e)), "none")


@fn("face_down", 1, effect=True)
def _face_down(c, a, node):
    """face_down(x): no seat sees piece x, wherever it is (until it is revealed, hidden or moved)."""
    _want(a[0], ("piece",), "face_down() piece", node)
    xf = a[0].f
    return X(lambda s, e: facing.set_face(s, xf(s, e), facing.DOWN), "none")


@fn("hide", 1, effect=True)
def _hide(c, a, node):
    """hide(x): piece x follows its zone's visibility again (its reveals and face_down forgotten)."""
    _want(a[0], ("piece",), "hide() piece", node)
    xf = a[0].f

    def f(s, e):
        facing.forget(s, xf(s, e))
    return X(f, "none")


@fn("sees", 2)
def _sees(c, a, node):
    """sees(p, x): may seat p see piece x where it is now (its zone's visibility and its own)."""
    _want(a[0], ("player",), "sees() seat", node)
    _want(a[1], ("piece",), "sees() piece", node)
    pf, xf = a[0].f, a[1].f
    game = c.w  # zone_seen reads game.layout and game.world: the world answers both

    def f(s, e):
        return facing.piece_seen(_GameOf(game), s, xf(s, e), pf(s, e))
    return X(f, "bool")


def _told_name(c, x, node, what) -> str:
    """The name in quotes of a field, a property or 'type' (what a seat can be told of a piece)."""
    w = c.w
    names = ["type"] + [f for f, (col, t) in w.fields.items() if t != "map"] + list(w.props)
    if x.c is NOCONST or x.c not in names:
        from ..definition.problems import did_you_mean
        raise CompileError(f"{what} takes the name of a field or property in quotes, e.g. 'colour'", node,
                           did_you_mean(str(x.c), names) if x.c is not NOCONST else None)
    w.reads.add(("field", x.c) if x.c in w.fields else ("prop", x.c))
    return x.c


@fn("tell", 3, 4, effect=True)
def _tell(c, a, node):
    """tell(p, x, 'field'): seat p learns piece x's field (or property, or 'type') as it is now, even
    where it may not see x; tell(p, x, 'field', v): p learns whether it is v ("v" or "not v")."""
    _want(a[0], ("player",), "tell() seat", node)
    _want(a[1], ("piece",), "tell() piece", node)
    name = _told_name(c, a[2], node, "tell()")
    w, pf, xf = c.w, a[0].f, a[1].f
    if len(a) == 3:
        return X(lambda s, e: knowledge.tell(w, s, pf(s, e), xf(s, e), name), "none")
    vf = a[3].f
    return X(lambda s, e: knowledge.tell(w, s, pf(s, e), xf(s, e), name, vf(s, e), True), "none")


@fn("knows", 3)
def _knows(c, a, node):
    """knows(p, x, 'field'): does seat p know piece x's field (it sees x, or was told it)."""
    _want(a[0], ("player",), "knows() seat", node)
    _want(a[1], ("piece",), "knows() piece", node)
    name = _told_name(c, a[2], node, "knows()")
    pf, xf = a[0].f, a[1].f
    game = _GameOf(c.w)

    def f(s, e):
        p, x = pf(s, e), xf(s, e)
        return knowledge.knows(s, p, x, name) or facing.piece_seen(game, s, x, p)
    return X(f, "bool")


class _GameOf:
    """What `visibility.zone_seen` reads of a game, from its world (rules run without the Game)."""
    __slots__ = ("layout", "world")

    def __init__(self, w):
        self.layout, self.world = w.layout, w
