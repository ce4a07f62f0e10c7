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

from .bots import Bot, SeatView, make_bot, seat_seed
from .usage import UsageMeter

MAX_DECISIONS = 100_000  # a game still running after this many decisions counts as an error


class GameTooLong(Exception):
    """A game did not end within its decision limit."""


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
     "think": [seconds each seat's bot spent choosing], "moves": [decisions of each seat]}

    With `usage`, the record also has "usage": what fired, per seat (`usage.UsageMeter.counts`).

    If `log` is a list, the game's narrative is appended to it (what `apply` reports). `on_decision`,
    if given, is called with {"seat", "action", "log": [messages produced by the action]} after each
    decision. Raises GameTooLong past `max_decisions`; errors of the engine propagate.
    """
    seat_bot = seat_bots(bots, players, seed)
    state = new_game(game, players, seed, options, log)
    legal_actions = action_lister(game)
    actions_taken: list[str] = []
    decisions = 0
    think = [0.0] * players
    moves = [0] * players
    meter = UsageMeter(game, players) if usage else None
    clock = time.perf_counter
    while not game.is_over(state):
        if decisions >= max_decisions:
            raise GameTooLong(f"the game did not end within {max_decisions} decisions")
        seat = game.current_player(state)
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
            meter.after(seat)
        decisions += 1
        actions_taken.append(action["id"])
        if step_log is not None:
            if log is not None:
                log.extend(step_log)
            if on_decision is not None:
                on_decision({"seat": seat, "action": action, "log": step_log})
    return {
        "seed": seed,
        "decisions": decisions,
        "actions": actions_taken,
        "state": state,
        "outcome": game.outcome(state),
        "think": think,
        "moves": moves,
        **({"usage": meter.counts()} if meter is not None else {}),
    }
