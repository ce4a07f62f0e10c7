"""What a seat may not see of a piece it may not see: its fields and its changed type.

A view lists pieces by id in a table (`pieces.types`, `pieces.fields`) next to the zones. A piece the seat
may not see (in a hidden zone, another player's owner-only zone, or face down: `facing.piece_seen`) is listed
in no zone — a hidden zone shows a count, a face-down piece a `None` — but its row of the table would still
tell its fields (a card's value, which holder a tile was dealt to) and a type it changed to since the setup
(`becomes`), which can tell which piece is where. So for such a piece the view keeps only what the
definition makes public: its type as the setup makes it (pieces are made in the definition's order, the same
for every seed) and no field value (`None`). Two states that differ only in the pieces a seat may not see
then give that seat the same view (tests/test_unseen.py), and `invariants.hidden_leaks` reports a view
that does not.
"""

from __future__ import annotations

from .facing import piece_seen
from .visibility import secret, zone_mode


def setup_types(game, n: int, opts: dict) -> list:
    """The piece types a new game with `n` players and these options starts with, by piece id (cached)."""
    key = (n, tuple(sorted((k, repr(v)) for k, v in (opts or {}).items())))
    cache = game.__dict__.setdefault("_unseen_setup_types", {})
    if key not in cache:
        cache[key] = list(game.new_game(n, seed=0, options=dict(opts or {})).types)
    return cache[key]


def unseen_pieces(game, s, viewer) -> list[int]:
    """The pieces seat `viewer` may not see, in id order."""
    out = set()
    for z, content in enumerate(s.zones):
        if content and secret(zone_mode(game, z)[0]):
            out.update(x for x in content if not piece_seen(game, s, x, viewer))
    for x in (s.faces or ()):
        if not piece_seen(game, s, x, viewer):
            out.add(x)
    return sorted(out)


def public_type(game, s, x) -> str:
    """The type of piece x anyone may know: the setup's (a piece's type changes only where `becomes` allows)."""
    if not game.world.becomes:
        return s.types[x]
    return setup_types(game, s.n, s.opts)[x]


def redact(game, s, d: dict, viewer) -> None:
    """Blank, in view data `d`, the fields and changed type of every piece `viewer` may not see."""
    hidden = unseen_pieces(game, s, viewer)
    if not hidden:
        return
    types, fields = d["pieces"]["types"], d["pieces"]["fields"].values()
    for x in hidden:
        types[x] = public_type(game, s, x)
        for column in fields:
            column[x] = None


def leaks(game, s, viewer, view: dict) -> list[str]:
    """What `view` tells of the pieces `viewer` may not see beyond what `redact` leaves."""
    out = []
    for x in unseen_pieces(game, s, viewer):
        shown = [f for f, column in view["pieces"]["fields"].items() if column[x] is not None]
        if shown:
            out.append(f"piece {x} ({s.types[x]}) is where player {viewer + 1} may not see it, but its "
                       f"{', '.join(shown)} {'is' if len(shown) == 1 else 'are'} shown")
        if view["pieces"]["types"][x] != public_type(game, s, x):
            out.append(f"piece {x} is where player {viewer + 1} may not see it, but its changed type "
                       f"({view['pieces']['types'][x]}) is shown")
    return out
