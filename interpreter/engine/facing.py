"""Visibility per piece: a piece face up, face down, or shown to some seats, whatever its zone says.

A piece follows its zone's visibility (`visibility.zone_seen`) until an effect changes it:
- `reveal(x)`: face up — every seat sees x, even in a hidden zone or another player's hand;
- `reveal(x, p)`: seat p sees x too (a card shown to one player); several seats may be added;
- `face_down(x)`: no seat sees x, even in a public zone or its owner's hand (seats it is then revealed to
  see it again);
- `hide(x)`: x follows its zone again (every reveal and face_down forgotten).
Moving a piece forgets what was set on it: it takes its new zone's visibility (a revealed card shuffled back
into the deck is hidden again; a card played face down is moved, then turned: `move(c, table)` then
`face_down(c)`).

The state keeps `s.faces`: {piece: [mode, seats]} with mode `up`, `down` or `zone` and the seats that see the
piece besides; only the pieces with their own visibility are listed (the dict is replaced, never changed in
place, so copies of a state may share it). `piece_seen` is the one rule every output asks; `redact` applies it
to a view: a piece the seat may not see in a zone it sees is listed as `None` (face down), a piece it sees in
a zone it may not see is listed under the zone's `seen`.
"""

from __future__ import annotations

from ..language.compiler import RuleError
from .visibility import zone_piece_seen

UP, DOWN, ZONE = "up", "down", "zone"


def set_face(s, x, mode=None, seat=None) -> None:
    """Set piece x's own visibility: a mode (UP or DOWN, dropping the seats it was shown to) and/or one more
    seat that sees it."""
    if x is None:
        raise RuleError("there is no piece (none) to reveal or hide")
    old = s.faces.get(x, (ZONE, []))
    seats = [] if mode is not None else list(old[1])
    if seat is not None:
        if not (type(seat) is int and 0 <= seat < s.n):
            raise RuleError(f"reveal(): {seat!r} is not a player")
        if seat not in seats:
            seats = sorted(seats + [seat])
    faces = dict(s.faces)
    faces[x] = [mode or old[0], seats]
    s.faces = faces


def forget(s, x) -> None:
    """Piece x follows its zone's visibility again."""
    if x in s.faces:
        faces = dict(s.faces)
        del faces[x]
        s.faces = faces


def piece_seen(game, s, x, viewer) -> bool:
    """May seat `viewer` (None: a spectator, who sees what everyone sees) see piece x where it is now?"""
    face = s.faces.get(x) if s.faces else None
    if face is not None:
        if viewer is not None and viewer in face[1]:
            return True
        if face[0] == UP:
            return True
        if face[0] == DOWN:
            return False
    return zone_piece_seen(game, s, s.loc[x], x, viewer)


def redact(game, s, d: dict, viewer) -> None:
    """Apply the pieces' own visibility to view data `d` (zones already redacted by their rules)."""
    d.pop("faces", None)
    if not s.faces:
        return
    lay = game.layout
    for x in s.faces:
        z = s.loc[x]
        owner, name = lay.zone_owner(z), lay.zone_name(z)
        row = d["zones"] if owner is None else d["player_zones"][owner]
        content = row[name]
        seen = piece_seen(game, s, x, viewer)
        if not seen:  # its fields would tell which piece lies face down
            for column in d["pieces"]["fields"].values():
                column[x] = None
        if isinstance(content, list):
            if not seen:
                row[name] = [None if y == x else y for y in content]
            elif x not in content:  # face up below the top of a pile that shows its top only
                at = s.zones[z].index(x)
                row[name] = content[:at] + [x] + content[at + 1:]
        elif seen and x not in content.get("seen", ()):
            row[name] = dict(content, seen=sorted(content.get("seen", []) + [x]))


def to_json(faces: dict) -> dict:
    return {str(x): [m, list(seats)] for x, (m, seats) in sorted(faces.items())}


def from_json(data, npieces: int, players: int) -> dict:
    """`faces` of saved data, checked: piece numbers, modes, seats."""
    if not isinstance(data, dict):
        raise ValueError("faces must be a mapping")
    out = {}
    for k, v in data.items():
        x = int(k)
        if not (0 <= x < npieces and str(x) == k):
            raise ValueError(f"faces: no piece {k!r}")
        if not (isinstance(v, list) and len(v) == 2 and v[0] in (UP, DOWN, ZONE) and isinstance(v[1], list)
                and all(type(p) is int and 0 <= p < players for p in v[1])):
            raise ValueError(f"faces: piece {k}: [up|down|zone, [seats]], not {v!r:.60}")
        out[x] = [v[0], sorted(set(v[1]))]
    return out
