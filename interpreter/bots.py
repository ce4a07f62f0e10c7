"""Bots: players that pick one of the legal actions of a decision.

A bot knows no game. It sees what every caller of the public API sees: `game.legal_actions(state)`,
`game.apply(state, action)`, `game.scores(state)` and `game.current_player(state)`.

    bot = make_bot("greedy", seed=7)
    action = bot.choose(game, state)        # one of game.legal_actions(state)

Each bot owns its random generator, seeded at construction: the same seed, game and states give the
same choices.
"""
from __future__ import annotations

import random
from typing import Any, Callable

PASS_ACTION = "pass"  # the action name of the generic `pass` of an optional step
ACTIVITY_BONUS = 0.5  # below one point: it only decides between actions that score the same


class NoLegalAction(Exception):
    """A bot was asked to decide where there is nothing to choose from."""


class Bot:
    """The interface: `choose(game, state, actions=None) -> action` (one of the legal action dicts)."""

    name = "bot"

    def __init__(self, seed: Any = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game, state, actions: list[dict] | None = None) -> dict:
        raise NotImplementedError

    def _actions(self, game, state, actions):
        if actions is None:
            actions = game.legal_actions(state)
        if not actions:
            raise NoLegalAction("no legal action to choose from")
        return actions

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """Uniform over the legal actions. Cheap: one draw of its generator per decision."""

    name = "random"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self._random: Callable[[], float] = self.rng.random

    def choose(self, game, state, actions: list[dict] | None = None) -> dict:
        actions = self._actions(game, state, actions)
        return actions[int(self._random() * len(actions))]

    def choose_index(self, n: int) -> int:
        """The index of the choice among `n` legal actions: the same draw as `choose` (the fast path)."""
        return int(self._random() * n)


class GreedyBot(Bot):
    """One-ply lookahead on the score margin.

    Each legal action is applied to a copy (the state is immutable: `apply` returns a new one) and valued
    as `my score - the best other score` after it, plus a bonus below one point for any action that is
    not a pass. The best value wins; equal values are broken at random.
    """

    name = "greedy"

    def choose(self, game, state, actions: list[dict] | None = None) -> dict:
        actions = self._actions(game, state, actions)
        if len(actions) == 1:
            return actions[0]
        me = game.current_player(state)
        if getattr(game, "is_simultaneous", None) and game.is_simultaneous(state):
            # A sealed choice: look ahead only from what this seat knows (not the others' pending choices).
            state = game.conceal(state, me)
            sealed = me
        else:
            sealed = None
        best: list[dict] = []
        best_value = None
        for action in actions:
            value = self.value(game, state, action, me, sealed)
            if best_value is None or value > best_value:
                best_value, best = value, [action]
            elif value == best_value:
                best.append(action)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    @staticmethod
    def value(game, state, action: dict, me: int | None, seat: int | None = None) -> float:
        after = game.apply(state, action) if seat is None else game.apply(state, action, player=seat)
        scores = game.scores(after)
        value: float = 0.0
        if me is not None and 0 <= me < len(scores):
            others = [s for seat, s in enumerate(scores) if seat != me]
            value = scores[me] - (max(others) if others else 0)
        if action.get("action") != PASS_ACTION:
            value += ACTIVITY_BONUS
        return value


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: Any = None) -> Bot:
    """A bot by name (`random` or `greedy`); ValueError for another name."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; expected one of: {', '.join(BOTS)}") from None
    return cls(seed)


def seat_seed(seed: Any, seat: int) -> str:
    """The seed of the bot at `seat` in a game seeded with `seed`: distinct per seat, reproducible."""
    return f"{seed}/{seat}"
