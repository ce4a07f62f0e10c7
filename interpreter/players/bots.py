"""Bots: players that pick one of the legal actions of their seat, from what their seat may see.

A bot knows no game, and never receives the state: it gets the seat's view (`game.view(state, seat)`)
and the seat's legal actions. Where it must look ahead it samples full states consistent with the view
(`determinize`), so it cannot read what the rules hide (other players' secret holdings, face-down decks,
the random generator's future).

    bot = make_bot("mcts:iterations=200", seed=7)
    action = decide(bot, game, state)       # the caller holds the state; the bot sees the view only

A bot is named by a spec `NAME` or `NAME:key=value,...` (`parse_bot_spec`):

- `random`: uniform over the legal actions (never looks at the view: the cheapest bot).
- `greedy[:depth=D]`: the best score margin after its own run of decisions (see GreedyBot).
- `mcts[:iterations=N|ms=N,c=C,depth=D]`: information-set Monte Carlo tree search (see `mcts`).
- `learned[:samples=K,replies=N,own=N,win=W,model=NAME]`: one look ahead judged by the game's learned value model (see
  `learned`).
- `search[:iterations=N|ms=N,...,replies=N,wide=1,finish=K,own=N,win=W]`: the MCTS tree with the learned model at its leaves (see
  `learned`).

Each bot owns its random generator, seeded at construction: the same seed, game and views give the same
choices (for `mcts`, with an `iterations` budget; a budget in `ms` depends on the machine).
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, Callable

PASS_ACTION = "pass"  # the action name of the generic `pass` of an optional step
ACTIVITY_BONUS = 0.5  # below one point: it only decides between actions that score the same


class NoLegalAction(Exception):
    """A bot was asked to decide where there is nothing to choose from."""


class BotSpecError(ValueError):
    """A bot spec that names no bot or gives an option it does not take."""


class SeatView(Mapping):
    """The view of one seat, computed the first time a bot reads it (a random bot never does).

    Behaves as the dict `game.view(state, seat)`; the state itself is not part of its interface."""

    __slots__ = ("_make", "_data")

    def __init__(self, game, state, seat: int):
        self._make = (game, state, seat)
        self._data = None

    def _view(self) -> dict:
        if self._data is None:
            game, state, seat = self._make
            self._data = game.view(state, seat)
            self._make = None
        return self._data

    def __getitem__(self, key):
        return self._view()[key]

    def __iter__(self):
        return iter(self._view())

    def __len__(self):
        return len(self._view())

    def dict(self) -> dict:
        return self._view()


def decide(bot: "Bot", game, state, actions: list[dict] | None = None) -> dict:
    """The bot's choice at `state`: it is given the deciding seat's view and legal actions only."""
    seat = game.current_player(state)
    if actions is None:
        actions = game.legal_actions(state)
    return bot.choose(game, SeatView(game, state, seat), actions)


def score_order(game) -> int:
    """+1 where the highest score wins (the default), -1 where the lowest does (`scoring.order: low`)."""
    return -1 if getattr(game, "score_order", "high") == "low" else 1


def margin(scores, seat: int, sign: int = 1) -> float:
    """How far `seat` is ahead of the best other seat, in the game's score order (negative: behind)."""
    others = [sign * s for i, s in enumerate(scores) if i != seat]
    return sign * scores[seat] - (max(others) if others else 0)


class Bot:
    """The interface: `choose(game, view, actions) -> action` (one of `actions`, the seat's legal
    action dicts; `view` is the seat's view, a mapping as `game.view` returns)."""

    name = "bot"
    options: dict[str, type] = {}

    def __init__(self, seed: Any = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game, view, actions: list[dict]) -> dict:
        raise NotImplementedError

    @staticmethod
    def _actions(view, actions):
        if not isinstance(view, Mapping):
            raise TypeError("a bot decides from its seat's view (a mapping, as game.view returns), "
                            f"not from a {type(view).__name__}; use bots.decide(bot, game, state)")
        if not actions:
            raise NoLegalAction("no legal action to choose from")
        return actions

    def spec(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class RandomBot(Bot):
    """Uniform over the legal actions. Cheap: one draw of its generator per decision; reads no view."""

    name = "random"

    def __init__(self, seed: Any = None) -> None:
        super().__init__(seed)
        self._random: Callable[[], float] = self.rng.random

    def choose(self, game, view, actions: list[dict]) -> dict:
        actions = self._actions(view, actions)
        return actions[int(self._random() * len(actions))]

    def choose_index(self, n: int) -> int:
        """The index of the choice among `n` legal actions: the same draw as `choose` (the fast path)."""
        return int(self._random() * n)


class GreedyBot(Bot):
    """The best score margin at the end of its own run of decisions, seen from its view.

    What it optimises: `my score - the best other score` in the definition's score order (where the
    lowest score wins, the sign is reversed: it plays to be lowest), measured with the definition's
    scoring on one state sampled from its view (`determinize`: what it cannot see is dealt at random).
    Each legal action is tried; when the same seat decides again right after (a turn of several
    decisions: take a tile, then place it), it follows on with its best immediate choice, for up to
    `depth` more decisions, so points a turn's later decisions bring count for the
    decision that makes them possible (default 0: one ply; each level multiplies the work by the menu's
    size). It values a position as if the game ended there: whatever the scoring counts at the end
    (leftover resources, say) counts at face value, so it takes points now over a plan for later; the
    search bot (`mcts`) is the one that plans. A pass loses to any action of equal value (a bonus below
    one point); equal values are broken at random.
    """

    name = "greedy"
    options = {"depth": int}

    def __init__(self, seed: Any = None, depth: int = 0) -> None:
        super().__init__(seed)
        if depth < 0:
            raise BotSpecError("greedy: depth must be 0 or more")
        self.depth = depth

    def spec(self) -> str:
        return "greedy" if self.depth == 0 else f"greedy:depth={self.depth}"

    def choose(self, game, view, actions: list[dict]) -> dict:
        actions = self._actions(view, actions)
        if len(actions) == 1:
            return actions[0]
        from .determinize import sample_state, unrecorded

        me = view["viewer"]
        sign = score_order(game)
        with unrecorded(game):
            state = sample_state(game, view.dict() if isinstance(view, SeatView) else view, self.rng)
            sealed = bool(getattr(game, "is_simultaneous", None) and game.is_simultaneous(state))
            if sealed:  # a sealed choice: only this seat's own choice is known (others' are pending)
                state = game.conceal(state, me)
            best: list[dict] = []
            best_value = None
            from ..language.compiler import RuleError
            for action in actions:
                try:
                    value = self.value(game, state, action, me, sign, self.depth, sealed)
                except RuleError:  # the sample is one the rules cannot play on here: no measure of it
                    value = -math.inf
                if best_value is None or value > best_value:
                    best_value, best = value, [action]
                elif value == best_value:
                    best.append(action)
        return best[self.rng.randrange(len(best))] if len(best) > 1 else best[0]

    @staticmethod
    def value(game, state, action: dict, me: int, sign: int = 1, depth: int = 0, sealed: bool = False) -> float:
        """The margin after `action` (and up to `depth` of my best immediate follow-ups); `sealed`: the
        action is my choice in a simultaneous decision."""
        aid = action["id"] if isinstance(action, dict) else action
        after = game.apply(state, aid, player=me) if sealed else game.apply(state, aid)
        value = GreedyBot._follow(game, after, me, sign, depth)
        if not isinstance(action, dict) or action.get("action") != PASS_ACTION:
            value += ACTIVITY_BONUS
        return value

    @staticmethod
    def _follow(game, state, me, sign, depth) -> float:
        while depth > 0 and not game.is_over(state) and game.current_player(state) == me:
            legal = _legal(game, state)
            best_state, best = None, None
            for a in legal:
                t = game.apply(state, a["id"])
                v = margin(game.scores(t), me, sign) + (ACTIVITY_BONUS if a.get("action") != PASS_ACTION else 0)
                if best is None or v > best:
                    best, best_state = v, t
            if best_state is None:
                break
            state = best_state
            depth -= 1
        return margin(game.scores(state), me, sign)


def _legal(game, state) -> list[dict]:
    try:
        return game.legal_actions(state, labels=False)
    except TypeError:  # a stand-in game without the labels switch
        return game.legal_actions(state)


def _mcts_bot(seed: Any = None, **options) -> Bot:
    from .mcts import MctsBot

    return MctsBot(seed, **options)


def model_name(text: str) -> str:
    """A model named by its file's stem in the game's `models/` folder (letters, digits, `-`, `_`, `.`; never
    a path)."""
    import re
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", text) or ".." in text:
        raise ValueError(text)
    return text


def _learned_bot(seed: Any = None, **options) -> Bot:
    from .learned import LearnedBot

    return LearnedBot(seed, **options)


def _search_bot(seed: Any = None, **options) -> Bot:
    from .learned import SearchBot

    return SearchBot(seed, **options)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": _mcts_bot,
                                       "learned": _learned_bot, "search": _search_bot}
BOT_OPTIONS: dict[str, dict[str, type]] = {
    "random": {}, "greedy": {"depth": int},
    "mcts": {"iterations": int, "ms": float, "c": float, "depth": int, "prior": int},
    "learned": {"samples": int, "explore": float, "model": model_name, "replies": int, "own": int, "win": float},
    "search": {"iterations": int, "ms": float, "c": float, "depth": int, "prior": int, "model": model_name,
               "replies": int, "wide": int, "finish": int, "own": int, "win": float},
}
BOT_HELP = ("random | greedy[:depth=D] | mcts[:iterations=N|ms=N,c=C,depth=D,prior=P] | learned[:samples=K,replies=N,own=N,win=W] | "
            "search[:iterations=N|ms=N] (e.g. mcts:ms=500; iterations is reproducible, ms depends on the machine; "
            "learned and search need the game's trained model: meeple train)")


def parse_bot_spec(spec: str) -> tuple[str, dict]:
    """`NAME` or `NAME:key=value,...` as (name, options); BotSpecError for anything else."""
    name, _, rest = str(spec).strip().partition(":")
    name = name.strip().lower()
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r}; expected one of: {', '.join(BOTS)}")
    allowed = BOT_OPTIONS[name]
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in allowed:
            known = ", ".join(allowed) or "no options"
            raise BotSpecError(f"bot {spec!r}: {part!r} is not an option of {name} (it takes {known}), "
                               f"written NAME:key=value,...")
        try:
            options[key] = allowed[key](value.strip())
        except ValueError:
            raise BotSpecError(f"bot {spec!r}: {key} must be a {allowed[key].__name__}, not {value!r}") from None
        if isinstance(options[key], float) and not math.isfinite(options[key]):
            raise BotSpecError(f"bot {spec!r}: {key} must be a finite number, not {value.strip()!r}")
        if isinstance(options[key], (int, float)) and options[key] < 0:
            raise BotSpecError(f"bot {spec!r}: {key} must not be negative")
    if name in ("mcts", "search") and "iterations" in options and "ms" in options:
        raise BotSpecError(f"bot {spec!r}: give iterations or ms, not both")
    return name, options


def make_bot(spec: str, seed: Any = None) -> Bot:
    """A bot from its spec (`random`, `greedy`, `mcts:ms=500`, ...); BotSpecError (a ValueError) for
    an unknown name or option."""
    name, options = parse_bot_spec(spec)
    return BOTS[name](seed, **options)


def seat_seed(seed: Any, seat: int) -> str:
    """The seed of the bot at `seat` in a game seeded with `seed`: distinct per seat, reproducible."""
    return f"{seed}/{seat}"
