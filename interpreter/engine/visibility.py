"""Who sees what: one rule for zones and private vars, read by the views, the leak checks, the secrecy
checks and the narration, so that they cannot disagree.

A zone's `visibility`: `public` (everyone, the default), `hidden` (no one: only the number of pieces is
shown), `owner` (its owner only: a hand), `others` (everyone but its owner: a hand held facing out), and two
kinds of pile: `contents` (everyone knows which pieces it holds, no one in what order: a player's deck of
cards everyone saw bought) and `top` (only its top piece shows, or its top `top: N`: a discard pile).
A var's `visible`: `public` (the default), `owner` and `others` (player vars, as for zones), `none` (no
one: a hidden global counter, or a player's value nobody may look at).
"""

from __future__ import annotations

ZONE_MODES = ("public", "hidden", "owner", "others", "contents", "top")
CONTENTS, TOP = "contents", "top"
VAR_MODES = ("public", "owner", "others", "none")


def sees(mode, owner, viewer) -> bool:
    """May seat `viewer` (None: a spectator) see what `mode` guards, held by seat `owner` (None: the
    table's)? A global zone or var has no owner: `owner` then means no one, `others` everyone."""
    if mode is None or mode == "public":
        return True
    if mode == "owner":
        return owner is not None and viewer == owner
    if mode == "others":
        return viewer is None or viewer != owner
    return False  # hidden, none


def secret(mode) -> bool:
    """Does `mode` hide something from someone."""
    return mode not in (None, "public")


def zone_mode(game, z: int):
    """The visibility of zone index `z`, and its owner."""
    lay = game.layout
    owner = lay.zone_owner(z)
    return game.world.zone_visibility.get(("global", lay.zone_name(z)) if owner is None
                                          else ("player", lay.zone_name(z))), owner


def top_count(game, z: int) -> int:
    """How many pieces of a `top` zone show."""
    lay = game.layout
    owner = lay.zone_owner(z)
    return game.world.zone_top.get(("global" if owner is None else "player", lay.zone_name(z)), 1)


def zone_seen(game, z: int, viewer) -> bool:
    """May seat `viewer` see zone index `z` as a list of pieces in order (every piece of it, but the pieces
    below the top of a `top` pile; a `contents` pile is seen as the set of its pieces, never in order)."""
    mode, owner = zone_mode(game, z)
    if mode == TOP:
        return True
    return sees(mode, owner, viewer)


def zone_piece_seen(game, s, z: int, x: int, viewer) -> bool:
    """May seat `viewer` see piece x in zone `z` by the zone's rule (which piece it is, with its fields)."""
    mode, owner = zone_mode(game, z)
    if mode == CONTENTS:
        return True
    if mode == TOP:
        return s.zones[z].index(x) < top_count(game, z)
    return sees(mode, owner, viewer)


def zone_view(game, s, z: int, viewer):
    """What a view shows of zone `z` to `viewer`: its pieces in order, `None` for each below the top of a
    `top` pile, `{"hidden": n}` for a zone it may not see, `{"hidden": n, "seen": [ids]}` for a `contents`
    pile (which pieces, not in what order)."""
    pieces = s.zones[z]
    mode, owner = zone_mode(game, z)
    if mode == TOP:
        n = top_count(game, z)
        return pieces[:n] + [None] * max(0, len(pieces) - n)
    if mode == CONTENTS:
        return {"hidden": len(pieces), "seen": sorted(pieces)} if pieces else {"hidden": 0}
    return list(pieces) if sees(mode, owner, viewer) else {"hidden": len(pieces)}


def var_modes(w, scope: str) -> dict:
    """{var name: its `visible` mode} for the vars of `scope` ("global" or "player") that hide something."""
    return {name: v.get("visible") for name, v, t in w.var_defs[scope] if secret(v.get("visible"))}
