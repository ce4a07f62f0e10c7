"""Many bot games summed up: win rates, scores, lengths. Pure functions that return plain dicts.

    summary = simulate(game, players=4, games=100, seed=1, bot="greedy", jobs=2)

`game` is a loaded game or a game's name or directory (loaded once). Seats are 0-based indices here, as in
the Game API (`winners`, lists per seat); what people read numbers them from 1 (seat index 0 is "Player 1").

Game `i` of a simulation is seeded `seed + i`, so any single game of it can be played again alone with
`playout.play_game`; the games run serially, on local processes or on a Dask cluster (`parallel`) with
the same summary.
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable, Sequence

from .parallel import Interrupted, play_many
from ..engine.playout import MAX_DECISIONS, as_game


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


def simulate(
    game,
    players: int,
    games: int,
    seed: int = 1,
    bot: str | Sequence[str] = "random",
    options: dict | None = None,
    max_decisions: int = MAX_DECISIONS,
    progress: Callable[[int, dict], None] | None = None,
    measure: str | None = None,
    jobs: int = 1,
    dask: str | None = None,
    keep_actions: bool = False,
) -> dict:
    """Play `games` bot games seeded `seed`, `seed + 1`, ... and sum them up:

    {"game", "players", "games", "seed", "bot", "completed", "seconds",
     "decisions": {"mean", "min", "max"},
     "wins": [per seat, a tie split evenly], "win_rate": [per seat, 0..1],
     "score_mean": [per seat], "score_stdev": [per seat],
     "ends": {end trigger: games that ended by it},
     "measure": {"expr", "mean", "min", "max"} or None,
     "errors": [{"seed", "error"}]}

    Seats are counted from 0 in the lists. `bot` is a bot name for every seat, or a list of names, one
    per seat ("bot" in the report is then that list). A game that raises (or runs past `max_decisions`)
    is listed under "errors" with its seed and left out of every other figure. `measure` is an
    expression of the game's DSL evaluated on every final state (`game.evaluate`), such as a round
    counter: the length of the games in the game's own terms. `progress(i, record)` is called after
    each game with its record (`parallel.game_record`); with `keep_actions` the record holds the game's
    action ids (to save it). `jobs` local processes, or the Dask scheduler at `dask`, play the games;
    the summary is the same as a serial run's. On Ctrl-C it raises `parallel.Interrupted` holding this
    summary of the games that ended, with `"partial": True`.
    """
    game = as_game(game)  # once, before the games: a wrong argument is one error, not one per game
    started = time.perf_counter()
    decisions: list[int] = []
    scores: list[list[int]] = [[] for _ in range(players)]
    wins = [0.0] * players
    errors: list[dict] = []
    ends: dict[str, int] = {}
    measured: list = []
    seen = 0

    def add(record: dict) -> None:
        nonlocal seen
        if "error" in record:
            errors.append({"seed": record["seed"], "error": record["error"]})
        else:
            decisions.append(record["decisions"])
            for seat, score in enumerate(record["scores"]):
                scores[seat].append(score)
            for seat in record["winners"]:
                wins[seat] += 1.0 / len(record["winners"])
            for trigger in record["ends"]:
                ends[trigger] = ends.get(trigger, 0) + 1
            if measure is not None:
                measured.append(record["measure"])
        if progress is not None:
            progress(seen, record)
        seen += 1

    def summary() -> dict:
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
            "ends": ends,
            "measure": None if measure is None else {
                "expr": measure,
                "mean": statistics.fmean(measured) if measured else 0.0,
                "min": min(measured) if measured else 0,
                "max": max(measured) if measured else 0,
            },
            "errors": errors,
        }

    try:
        play_many(game, players, range(seed, seed + games), bot, options, max_decisions, jobs=jobs, dask=dask,
                  progress=add, measure=measure, keep_actions=keep_actions)
    except Interrupted:  # Ctrl-C: the summary of the games that ended, marked partial
        raise Interrupted(dict(summary(), partial=True)) from None
    return summary()
