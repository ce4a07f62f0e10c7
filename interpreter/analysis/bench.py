"""Speed and memory of the engine on random play. Pure functions that return plain dicts.

    figures = bench("some_game", players=4, games=20, seed=1)

The timed loop is the engine alone plus the cheapest possible bot (one float draw per decision), on
the fast playout path (`fastpath`: count the legal decisions, pick an index, apply it in place); a game
object without that path is played through `legal_actions`, pick, `apply`, `is_over`. tracemalloc is off while timing; memory is
measured apart: the process's peak resident set size, and the peak of Python allocations during one
extra game run under tracemalloc.
"""
from __future__ import annotations

import gc
import json
import random
import resource
import sys
import time
import tracemalloc
from typing import Any

from ..engine import fastpath
from ..engine.playout import action_lister


def load(game_ref: str, **kwargs) -> tuple[Any, float]:
    """Load a game (name or path) and return (game, milliseconds taken by load and compile)."""
    from ..game import load_game

    started = time.perf_counter()
    game = load_game(game_ref, **kwargs)
    return game, (time.perf_counter() - started) * 1000.0


def random_playout(game, players: int, seed: int, rng: random.Random, options: dict | None = None,
                   max_decisions: int = 1_000_000) -> tuple[Any, int]:
    """Play one game with uniform random choices; return (final state, decisions)."""
    draw = rng.random
    state = game.new_game(players=players, seed=seed, options=options)
    decisions = 0
    if fastpath.supports(game):
        # The index path (see fastpath): the same choices as below, no action dicts, no copies.
        count, play = fastpath.legal_count, fastpath.apply_index
        while state.flow:
            state = play(game, state, int(draw() * count(game, state)), True)
            decisions += 1
            if decisions >= max_decisions:
                raise RuntimeError(f"game seeded {seed} did not end within {max_decisions} decisions")
        return state, decisions
    legal_actions, apply, is_over = action_lister(game), game.apply, game.is_over
    while not is_over(state):
        actions = legal_actions(state)
        state = apply(state, actions[int(draw() * len(actions))])
        decisions += 1
        if decisions >= max_decisions:
            raise RuntimeError(f"game seeded {seed} did not end within {max_decisions} decisions")
    return state, decisions


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB on Linux


def bench_game(game, players: int, games: int, seed: int = 1, options: dict | None = None) -> dict:
    """Time `games` random games seeded seed, seed+1, ... of a loaded game; see the module doc."""
    if tracemalloc.is_tracing():
        tracemalloc.stop()
    rng = random.Random(seed)
    decisions = 0
    state = None
    gc.collect()
    started = time.perf_counter()
    for i in range(games):
        state, n = random_playout(game, players, seed + i, rng, options)
        decisions += n
    seconds = time.perf_counter() - started

    # Memory, apart from the timing: one more game under tracemalloc.
    tracemalloc.start()
    final, _ = random_playout(game, players, seed, random.Random(seed), options)
    traced_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    try:
        state_bytes = len(json.dumps(game.to_json(final), separators=(",", ":")))
    except Exception:  # to_json is optional for this figure
        state_bytes = None

    return {
        "game": getattr(game, "id", None),
        "players": players,
        "games": games,
        "seed": seed,
        "decisions": decisions,
        "seconds": seconds,
        "decisions_per_second": decisions / seconds if seconds > 0 else 0.0,
        "games_per_second": games / seconds if seconds > 0 else 0.0,
        "us_per_decision": seconds / decisions * 1e6 if decisions else 0.0,
        "decisions_per_game": decisions / games if games else 0.0,
        "peak_rss_mib": peak_rss_mib(),
        "one_game_traced_peak_kib": traced_peak / 1024,
        "final_state_json_bytes": state_bytes,
    }


def load_times(game) -> dict:
    """How long loading `game` takes each way, measured again in this process: "first_load_ms" from its
    files with the cache off, "cache_load_ms" from the per-user cache (None when the cache is off or has no
    entry). The process's memos of parsed rules and generated code are emptied before each load, so each
    pays what a new process would (except importing the engine)."""
    import os

    from ..language import compiler

    from ..language import dsl
    from ..game import load_game

    out = {"load_source": getattr(game, "load_source", None), "first_load_ms": None, "cache_load_ms": None}
    if getattr(game, "origin", None) is None:
        return out
    root, overlays = game.origin
    saved = os.environ.get("MEEPLE_CACHE")
    for key, switch in (("first_load_ms", "off"), ("cache_load_ms", saved)):
        dsl.TREES.clear()
        compiler.CODES.clear()
        if switch is None:
            os.environ.pop("MEEPLE_CACHE", None)
        else:
            os.environ["MEEPLE_CACHE"] = switch
        try:
            started = time.perf_counter()
            again = load_game(root, list(overlays))
            ms = (time.perf_counter() - started) * 1000.0
        finally:
            if saved is None:
                os.environ.pop("MEEPLE_CACHE", None)
            else:
                os.environ["MEEPLE_CACHE"] = saved
        if key == "first_load_ms" or again.load_source == "cache":
            out[key] = ms
    return out


def bench(game_ref: str, players: int, games: int, seed: int = 1, options: dict | None = None) -> dict:
    """Load (timed) and bench a game by name or path: bench_game's figures plus "load_ms"."""
    game, load_ms = load(game_ref)
    figures = bench_game(game, players, games, seed, options)
    figures["load_ms"] = load_ms
    figures.update(load_times(game))
    return figures
