"""What undo may take back, at the terminal and at the web table: only the seat's own last decision, only
while no other seat has decided since, and only if that decision revealed nothing hidden to anyone.

    why = refusal(game, runs, seat)     # None when `seat` may take back its last decision, else why not

A decision *revealed* something to a seat when that seat's view after it is not determined by its view
before it and the decision: a card drawn from a face-down deck, a die rolled, a tile turned up, another
seat's hidden card played. It is tested the way a bot looks ahead (`determinize`): for every player, a few
states consistent with that player's view before the decision are sampled (the hidden pieces dealt again,
the random generator reseeded) and the decision is taken in each; if it cannot be taken in one, or leads
to a view that differs from the real one (pieces compared by what they are, not by their ids), something
was revealed and the decision stands. Taking such a decision back would let a person look at a card and
choose again. A decision that moved a piece nobody could tell from its likes (a worker from a supply)
may be taken back.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

SAMPLES = 3          # states sampled per player; a decision that reveals is caught unless every sample
                     # happens to hold the same hidden thing in the same place as the real state


def _piece(types: list, fields: dict, x):
    if x is None:
        return None
    return [types[x], {f: col[x] for f, col in fields.items() if col[x] is not None}]


def _zone(types, fields, content):
    if isinstance(content, dict):
        return {"hidden": content.get("hidden"), "seen": [_piece(types, fields, x) for x in content.get("seen", ())]}
    return [_piece(types, fields, x) for x in content]


def seen(view: dict) -> str:
    """What a view shows, with each piece as what it is (its type and the fields the view gives), so two
    views that show the same things in the same places compare equal whatever the pieces' ids."""
    types, fields = view["pieces"]["types"], view["pieces"]["fields"]
    shown = {k: v for k, v in view.items() if k not in ("pieces", "zones", "player_zones")}
    shown["zones"] = {n: _zone(types, fields, c) for n, c in view["zones"].items()}
    shown["player_zones"] = [{n: _zone(types, fields, c) for n, c in row.items()} for row in view["player_zones"]]
    return json.dumps(shown, sort_keys=True, default=str)


def reveals(game, before, action_id: str, samples: int = SAMPLES, seed: int = 0) -> bool:
    """Whether taking `action_id` in state `before` showed some player something hidden (see the module)."""
    from ..players.determinize import Determinizer, unrecorded

    after = game.apply(before, action_id)
    r = random.Random(seed)
    with unrecorded(game):
        for k in range(before.n):
            real = seen(game.view(after, k))
            sampler = Determinizer.of(game, game.view(before, k))
            for _ in range(samples):
                try:
                    other = game.apply(sampler.sample(r), action_id)
                except Exception:  # not legal, or not playable, where the hidden part differs: it told
                    return True
                if seen(game.view(other, k)) != real:
                    return True
    return False


@dataclass
class Decision:
    """A decision that may be taken back: who took it, the state before it, its action's id, what the
    table must cut back with it (`marks`: the record's and logs' lengths before it), and whether it
    revealed something (found once, when first asked)."""
    seat: int
    before: Any
    action_id: str
    marks: dict = field(default_factory=dict)
    revealed: bool | None = None


class Runs(list):
    """The decisions since another seat last decided (the last seat's run), oldest first."""

    def add(self, decision: Decision) -> None:
        if self and self[-1].seat != decision.seat:
            self.clear()   # another seat decides: what came before can no longer be taken back
        self.append(decision)


def refusal(game, runs: Runs, seat: int) -> str | None:
    """Why `seat` may not take back its last decision now (a key of the table's words), or None."""
    if not runs:
        return "nothing_to_undo"
    last = runs[-1]
    if last.seat != seat:
        return "others_decided"
    if last.revealed is None:
        last.revealed = reveals(game, last.before, last.action_id)
    return "it_revealed" if last.revealed else None
