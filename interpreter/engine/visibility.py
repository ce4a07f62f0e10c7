"""Who sees what: one rule for zones and private vars, read by the views, the leak checks, the secrecy
checks and the narration, so that they cannot disagree.

A zone's `visibility`: `public` (everyone, the default), `hidden` (no one: only the number of pieces is
shown), `owner` (its owner only: a hand), `others` (everyone but its owner: a hand held facing out).
A var's `visible`: `public` (the default), `owner` and `others` (player vars, as for zones), `none` (no
one: a hidden global counter, or a player's value nobody may look at).
"""

from __future__ import annotations

ZONE_MODES = ("public", "hidden", "owner", "others")
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


def zone_seen(game, z: int, viewer) -> bool:
    """May seat `viewer` see the contents of zone index `z`."""
    lay = game.layout
    owner = lay.zone_owner(z)
    mode = game.world.zone_visibility.get(("global", lay.zone_name(z)) if owner is None
                                          else ("player", lay.zone_name(z)))
    return sees(mode, owner, viewer)


def var_modes(w, scope: str) -> dict:
    """{var name: its `visible` mode} for the vars of `scope` ("global" or "player") that hide something."""
    return {name: v.get("visible") for name, v, t in w.var_defs[scope] if secret(v.get("visible"))}
