"""One bot game, played to its end: the loop every command that plays bots shares.

    record = play_game(game, players=4, seed=1, bots="random")

The bot at each seat is seeded from the game's seed and the seat, so a game is fully determined by
its seed, bots and options, and can be played again alone. Bots are given their seat's view and legal
actions (`bots.decide`), never the state; what a bot tries while thinking is not counted as play
(`determinize.unrecorded`).
"""
from __future__ import annotations

import functools
import inspect
import time
from typing import Any, Callable, Sequence

from . import fastpath
from .flow import where_now
from ..players.bots import Bot, SeatView, make_bot, seat_seed
from ..analysis.usage import UsageMeter

MAX_DECISIONS = 100_000  # a game still running after this many decisions counts as an error


class GameTooLong(Exception):
    """A game did not end within its decision limit."""


def as_game(game):
    """A loaded game from a game (returned as it is), a name under gamedefs/ or a directory; TypeError with
    a message for anything else (a DefinitionError propagates for a game that does not load)."""
    if isinstance(game, (str, bytes)) or hasattr(game, "__fspath__"):
        from ..game import load_game
        return load_game(game.decode() if isinstance(game, bytes) else game)
    if hasattr(game, "new_game"):
        return game
    raise TypeError(f"expected a game (from load_game) or a game's name or directory, not {type(game).__name__}")


def seat_bots(bots: str | Sequence[str | Bot], players: int, seed: Any) -> list[Bot]:
    """One bot per seat: a bot spec (`greedy`, `mcts:ms=500`) for every seat, or a list of specs or Bot
    objects (one per seat)."""
    if isinstance(bots, str):
        bots = [bots] * players
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    return [b if isinstance(b, Bot) else make_bot(b, seat_seed(seed, seat)) for seat, b in enumerate(bots)]


def action_lister(game, labels: bool = False) -> Callable:
    """`game.legal_actions`, without rendering labels when the game can skip them (bots need none)."""
    try:
        takes_labels = "labels" in inspect.signature(game.legal_actions).parameters
    except (TypeError, ValueError):
        takes_labels = False
    return functools.partial(game.legal_actions, labels=labels) if takes_labels else game.legal_actions


def new_game(game, players: int, seed: Any, options: dict | None = None, log: list | None = None):
    """`game.new_game`, passing `log` (the narrative of the setup) when the game takes one."""
    if log is not None:
        try:
            takes_log = "log" in inspect.signature(game.new_game).parameters
        except (TypeError, ValueError):
            takes_log = False
        if takes_log:
            return game.new_game(players=players, seed=seed, options=options, log=log)
    return game.new_game(players=players, seed=seed, options=options)


def play_game(
    game,
    players: int,
    seed: Any,
    bots: str | Sequence[str | Bot] = "random",
    options: dict | None = None,
    log: list | None = None,
    max_decisions: int = MAX_DECISIONS,
    on_decision: Callable[[dict], None] | None = None,
    usage: bool = False,
) -> dict:
    """Play one bot game to its end and return its record:

    {"seed", "decisions", "actions": [action ids], "state": final State, "outcome": game.outcome(...),
     "think": [CPU seconds each seat's bot spent choosing], "moves": [decisions of each seat]}

    With `usage`, the record also has "usage": what fired, per seat (`usage.UsageMeter.counts`), and
    "usage_setup" and "usage_end": what the setup and the final scoring made fire (`UsageMeter.apart`).

    If `log` is a list, the game's narrative is appended to it (what `apply` reports). `on_decision`,
    if given, is called with {"seat", "action", "log": [messages produced by the action]} after each
    decision. Raises GameTooLong past `max_decisions`; errors of the engine propagate.
    """
    game = as_game(game)
    seat_bot = seat_bots(bots, players, seed)
    meter = UsageMeter(game, players) if usage else None
    if meter is not None:
        meter.before()
    state = new_game(game, players, seed, options, log)
    if meter is not None:
        meter.after_apart("setup")
    legal_actions = action_lister(game)
    actions_taken: list[str] = []
    decisions = 0
    fast = fastpath.supports(game)
    think = [0.0] * players
    moves = [0] * players
    clock = time.process_time  # CPU time: a loaded machine slows the bots' clock less than the wall's
    while not game.is_over(state):
        if decisions >= max_decisions:
            raise GameTooLong(f"the game did not end within {max_decisions} decisions{where_now(game, state)}")
        seat = game.current_player(state)
        bot = seat_bot[seat] if seat is not None else None
        if fast and hasattr(bot, "choose_index"):
            # The index path: the same choice as from the action dicts, without building them; this
            # loop made `state` (new_game or apply), so the decision may be played on it in place.
            n = fastpath.legal_count(game, state)
            if not n:
                from ..language.compiler import RuleError
                raise RuleError(f"the game is not over but no action can be chosen (after {decisions} decisions)"
                                f"{where_now(game, state)}")
            started = clock()
            i = bot.choose_index(n)
            think[seat] += clock() - started
            moves[seat] += 1
            actions_taken.append(fastpath.action_id(game, state, i))
            action = fastpath.action_dict(game, state, i) if on_decision is not None else None
            step_log = [] if (log is not None or on_decision is not None) else None
            if meter is not None:
                meter.before()
            state = fastpath.apply_index(game, state, i, owned=True, log=step_log)
            if meter is not None:
                meter.after(seat, game.current_player(state))
            decisions += 1
            if step_log is not None:
                if log is not None:
                    log.extend(step_log)
                if on_decision is not None:
                    on_decision({"seat": seat, "action": action, "log": step_log})
            continue
        legal = legal_actions(state)
        if seat is None or not legal:
            raise RuntimeError(f"the game is not over but {'nobody' if seat is None else 'no action'} "
                               f"can be chosen (after {decisions} decisions)")
        started = clock()
        action = seat_bot[seat].choose(game, SeatView(game, state, seat), legal)
        think[seat] += clock() - started
        moves[seat] += 1
        step_log: list | None = [] if (log is not None or on_decision is not None) else None
        if meter is not None:
            meter.before()
        state = game.apply(state, action, log=step_log)
        if meter is not None:
            meter.after(seat, game.current_player(state))
        decisions += 1
        actions_taken.append(action["id"])
        if step_log is not None:
            if log is not None:
                log.extend(step_log)
            if on_decision is not None:
                on_decision({"seat": seat, "action": action, "log": step_log})
    if meter is not None:
        meter.before()
    outcome = game.outcome(state)
    if meter is not None:
        meter.after_apart("end")
    return {
        "seed": seed,
        "decisions": decisions,
        "actions": actions_taken,
        "state": state,
        "outcome": outcome,
        "think": think,
        "moves": moves,
        **({"usage": meter.counts(), "usage_setup": meter.apart_counts("setup"),
            "usage_end": meter.apart_counts("end")} if meter is not None else {}),
    }
