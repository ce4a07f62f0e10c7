"""Bot games: play one game, or many, and sum them up. Pure functions that return plain dicts.

    record = play_game(game, players=4, seed=1, bots="random")
    summary = simulate(game, players=4, games=100, seed=1, bot="greedy")

`game` is a loaded game or a game's name or directory (loaded once). Seats are 0-based indices here, as in
the Game API (`winners`, lists per seat); what people read numbers them from 1 (seat index 0 is "Player 1").

Game `i` of a simulation is seeded `seed + i`; the bot at each seat is seeded from the game's seed and
the seat, so any single game of a simulation can be played again alone with `play_game`.
"""
from __future__ import annotations

import functools
import inspect
import statistics
import time
from typing import Any, Callable, Sequence

from .bots import Bot, make_bot, seat_seed

MAX_DECISIONS = 100_000  # a game still running after this many decisions counts as an error


class GameTooLong(Exception):
    """A game did not end within its decision limit."""


def as_game(game):
    """A loaded game from a game (returned as it is), a name under gamedefs/ or a directory; TypeError with
    a message for anything else (a DefinitionError propagates for a game that does not load)."""
    if isinstance(game, (str, bytes)) or hasattr(game, "__fspath__"):
        from .game import load_game
        return load_game(game.decode() if isinstance(game, bytes) else game)
    if hasattr(game, "new_game"):
        return game
    raise TypeError(f"expected a game (from load_game) or a game's name or directory, not {type(game).__name__}")


def seat_bots(bots: str | Sequence[str | Bot], players: int, seed: Any) -> list[Bot]:
    """One bot per seat: a name for every seat, or a list of names or Bot objects (one per seat)."""
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


def text(message: Any, lang: str = "en") -> str:
    """A narrative message ({'en': ..., 'zh': ...} or a plain string) in `lang` (English if missing)."""
    if isinstance(message, dict):
        for key in (lang, "en"):
            if isinstance(message.get(key), str):
                return message[key]
        for value in message.values():
            if isinstance(value, str):
                return value
    return str(message)


def play_game(
    game,
    players: int,
    seed: Any,
    bots: str | Sequence[str | Bot] = "random",
    options: dict | None = None,
    log: list | None = None,
    max_decisions: int = MAX_DECISIONS,
    on_decision: Callable[[dict], None] | None = None,
) -> dict:
    """Play one bot game to its end and return its record:

    {"seed", "decisions", "actions": [action ids], "state": final State, "outcome": game.outcome(...)}

    If `log` is a list, the game's narrative is appended to it (what `apply` reports). `on_decision`,
    if given, is called with {"seat", "action", "log": [messages produced by the action]} after each
    decision. Raises GameTooLong past `max_decisions`; errors of the engine propagate.
    """
    game = as_game(game)
    seat_bot = seat_bots(bots, players, seed)
    state = new_game(game, players, seed, options, log)
    legal_actions = action_lister(game)
    actions_taken: list[str] = []
    decisions = 0
    while not game.is_over(state):
        if decisions >= max_decisions:
            raise GameTooLong(f"the game did not end within {max_decisions} decisions")
        seat = game.current_player(state)
        legal = legal_actions(state)
        if seat is None or not legal:
            raise RuntimeError(f"the game is not over but {'nobody' if seat is None else 'no action'} "
                               f"can be chosen (after {decisions} decisions)")
        action = seat_bot[seat].choose(game, state, legal)
        step_log: list | None = [] if (log is not None or on_decision is not None) else None
        state = game.apply(state, action, log=step_log)
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
    }


def simulate(
    game,
    players: int,
    games: int,
    seed: int = 1,
    bot: str | Sequence[str] = "random",
    options: dict | None = None,
    max_decisions: int = MAX_DECISIONS,
    progress: Callable[[int, dict | None], None] | None = None,
) -> dict:
    """Play `games` bot games seeded `seed`, `seed + 1`, ... and sum them up:

    {"game", "players", "games", "seed", "bot", "completed", "seconds",
     "decisions": {"mean", "min", "max"},
     "wins": [per seat, a tie split evenly], "win_rate": [per seat, 0..1],
     "score_mean": [per seat], "score_stdev": [per seat],
     "errors": [{"seed", "error"}]}

    `bot` is a bot name for every seat, or a list of names, one per seat ("bot" in the report is then
    that list). A game that raises (or runs past `max_decisions`) is listed under "errors" with its seed and left
    out of every other figure. `progress(i, record_or_None)` is called after each game.
    """
    game = as_game(game)  # once, before the games: a wrong argument is one error, not one per game
    started = time.perf_counter()
    decisions: list[int] = []
    scores: list[list[int]] = [[] for _ in range(players)]
    wins = [0.0] * players
    errors: list[dict] = []
    for i in range(games):
        game_seed = seed + i
        record = None
        try:
            record = play_game(game, players, game_seed, bot, options=options, max_decisions=max_decisions)
        except Exception as exc:  # an engine or definition fault in one game: report it, go on
            errors.append({"seed": game_seed, "error": f"{type(exc).__name__}: {exc}"})
        if record is not None:
            outcome = record["outcome"]
            decisions.append(record["decisions"])
            for seat, score in enumerate(outcome["scores"]):
                scores[seat].append(score)
            winners = outcome["winners"]
            for seat in winners:
                wins[seat] += 1.0 / len(winners)
        if progress is not None:
            progress(i, record)
    completed = len(decisions)
    return {
        "game": getattr(game, "id", None),
        "players": players,
        "games": games,
        "seed": seed,
        "bot": bot if isinstance(bot, str) else list(bot),
        "completed": completed,
        "seconds": round(time.perf_counter() - started, 3),
        "decisions": {
            "mean": statistics.fmean(decisions) if decisions else 0.0,
            "min": min(decisions) if decisions else 0,
            "max": max(decisions) if decisions else 0,
        },
        "wins": wins,
        "win_rate": [w / completed if completed else 0.0 for w in wins],
        "score_mean": [statistics.fmean(s) if s else 0.0 for s in scores],
        "score_stdev": [statistics.stdev(s) if len(s) > 1 else 0.0 for s in scores],
        "errors": errors,
    }
