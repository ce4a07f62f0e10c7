"""Knowledge without sight: what a seat has been told of a piece it may not see.

A hint ("these two cards of yours are red") is attached to the pieces themselves:

- `tell(p, x, 'colour')`: seat p learns x's colour as it is now (a field, a property, or 'type');
- `tell(p, x, 'colour', red)`: seat p learns whether x's colour is red: "red" if it is, "not red" if it is
  not (negative facts add up: "not red, not blue");
- `knows(p, x, 'colour')`: does p know x's colour (a positive fact).

The state keeps `s.told`: {piece: {seat: {name: {"is": v} | {"not": [v, ...]}}}}, replaced, never changed
in place (copies of a state may share it); in JSON only when someone was told something. What a seat was
told lasts while the piece stays in its zone: moving it to another zone, or shuffling its zone, makes it a
card among others again (the seat can no longer follow it), and the facts are forgotten.

A view shows a seat what it knows of each piece it may not see, by place, never by piece (an id would tell
the piece's setup type): `view["known"]` lists `{"player": owner or None, "zone": name, "at": position,
"facts": {name: fact}}`. The presentation draws it ("Red ?"); bots' samples deal to each such place only a
piece that fits every fact (`determinize`), so the leak checks that resample a seat's hidden pieces keep
finding the same view, labels and narration — and a label that shows a told value is no leak.
"""

from __future__ import annotations

from ..language.codegen import RuleError

IS, NOT = "is", "not"
MAX_NOT = 64  # negative facts kept per piece, seat and name (a kind has fewer values than that)


def value_of(w, s, x, name):
    """The value of `name` (a field, a property or 'type') of piece x now."""
    if name == "type":
        return s.types[x]
    col = w.layout.fields.get(name)
    if col is not None:
        return s.fields[col][x]
    return w.props[name].get(s.types[x])


def tell(w, s, seat, x, name, value=None, compare=False) -> None:
    """Seat `seat` learns piece x's `name`; with `compare`, whether it equals `value`."""
    if x is None:
        raise RuleError("tell(): there is no piece (none)")
    if not (type(seat) is int and 0 <= seat < s.n):
        raise RuleError(f"tell(): {seat!r} is not a player")
    actual = value_of(w, s, x, name)
    if isinstance(actual, (dict, list)):
        raise RuleError(f"tell(): the {name} of {s.types[x]} is not one value")
    by_seat = s.told.get(x, {})
    facts = dict(by_seat.get(seat, {}))
    old = facts.get(name)
    if not compare or actual == value:
        facts[name] = {IS: actual}
    elif old is None or NOT in old or old[IS] == value:
        nots = [] if old is None or IS in old else list(old[NOT])
        if value not in nots:
            nots.append(value)
        facts[name] = {NOT: nots[-MAX_NOT:]}
    else:
        return  # it is known to be something else already
    told = dict(s.told)
    by_seat = dict(by_seat)
    by_seat[seat] = facts
    told[x] = by_seat
    s.told = told


def knows(s, seat, x, name) -> bool:
    """Does seat `seat` know the value of piece x's `name`."""
    fact = s.told.get(x, {}).get(seat, {}).get(name) if s.told else None
    return fact is not None and IS in fact


def forget(s, pieces) -> None:
    """Everything told of these pieces is forgotten (they moved, or their zone was shuffled)."""
    if not s.told:
        return
    gone = [x for x in pieces if x in s.told]
    if gone:
        told = dict(s.told)
        for x in gone:
            del told[x]
        s.told = told


def fits(fact: dict, value) -> bool:
    """Does `value` agree with a fact."""
    return fact[IS] == value if IS in fact else value not in fact[NOT]


def known_places(game, s, viewer) -> list[dict]:
    """What seat `viewer` knows of the pieces it may not see, by place (see the module doc)."""
    if not s.told or viewer is None:
        return []
    from .facing import piece_seen
    lay = game.layout
    out = []
    for x, by_seat in s.told.items():
        facts = by_seat.get(viewer)
        if not facts or piece_seen(game, s, x, viewer):
            continue
        z = s.loc[x]
        out.append({"player": lay.zone_owner(z), "zone": lay.zone_name(z), "at": s.zones[z].index(x),
                    "facts": {k: dict(v) for k, v in sorted(facts.items())}})
    out.sort(key=lambda e: (-1 if e["player"] is None else e["player"], e["zone"], e["at"]))
    return out


def place_leaks(game, s, viewer, view) -> list[str]:
    """A view's `known` that is not what the seat was told (of the pieces it may not see)."""
    if view.get("known", []) != known_places(game, s, viewer):
        return [f"the view tells player {viewer + 1} facts about pieces it may not see that it was not told"]
    return []


def to_json(told: dict) -> dict:
    return {str(x): {str(seat): {k: dict(v) for k, v in facts.items()} for seat, facts in sorted(by.items())}
            for x, by in sorted(told.items())}


def from_json(data, npieces: int, players: int) -> dict:
    """`told` of saved data, checked: piece numbers, seats, facts."""
    if not isinstance(data, dict):
        raise ValueError("told must be a mapping")
    out = {}
    for k, by in data.items():
        x = int(k)
        if not (0 <= x < npieces and str(x) == k) or not isinstance(by, dict):
            raise ValueError(f"told: no piece {k!r}")
        seats = {}
        for sk, facts in by.items():
            seat = int(sk)
            if not (0 <= seat < players and str(seat) == sk) or not isinstance(facts, dict):
                raise ValueError(f"told: piece {k}: no seat {sk!r}")
            checked = {}
            for name, fact in facts.items():
                if not (isinstance(name, str) and isinstance(fact, dict) and len(fact) == 1
                        and (IS in fact and _plain(fact[IS]) or NOT in fact and isinstance(fact[NOT], list)
                             and len(fact[NOT]) <= MAX_NOT and all(_plain(v) for v in fact[NOT]))):
                    raise ValueError(f"told: piece {k}, seat {sk}: {name!r}: {{is: v}} or {{not: [v]}}, "
                                     f"not {fact!r:.60}")
                checked[name] = dict(fact)
            seats[seat] = checked
        out[x] = seats
    return out


def _plain(v) -> bool:
    return v is None or type(v) in (int, str, bool)
