"""A strength ladder: bots played against each other on seeded games, with win rates and intervals.

    result = ladder(game, players=2, games=40, bots=["random", "greedy", "mcts:iterations=200"], jobs=2)
    print(ladder_text(result))

For every pair of bots (A, B), in the order given, K games are played: game i is seeded `seed + i`,
A sits at seat `i mod N` and B at every other seat, so A's seat rotates and each seat's advantage
cancels out over N games. Reported for A against B: A's win rate (a shared win is split) with its Wilson
95% interval, beside the share a bot of B's strength would win (1/N); the mean score of A and of the
B seats; the time per decision of each bot (CPU seconds of thinking over its decisions, one-action decisions
included); and per game its seed, A's seat, the scores, the winners and A's share of the win, so a lost
game can be looked at again. Plain data, except `ladder_text` (a table for people, with the games A did not
win outright).
"""
from __future__ import annotations

import statistics
from typing import Callable, Sequence

from .compare import wilson
from .parallel import Interrupted, play_many
from ..engine.playout import MAX_DECISIONS


def lineups(a: str, b: str, players: int, games: int) -> list[list[str]]:
    """The bots of each game: `a` at seat i mod N in game i, `b` at the other seats."""
    return [[a if seat == i % players else b for seat in range(players)] for i in range(games)]


def play_pair(game, players: int, games: int, a: str, b: str, seed: int = 1, options: dict | None = None,
              jobs: int = 1, dask: str | None = None, progress: Callable[[dict], None] | None = None,
              max_decisions: int = MAX_DECISIONS) -> dict:
    """K games of `a` (one rotating seat) against `b` (the others), summed up (see the module doc)."""
    seats = lineups(a, b, players, games)
    try:
        records = play_many(game, players, range(seed, seed + games), "random", options, max_decisions,
                            jobs=jobs, dask=dask, progress=progress, lineups=seats, timing=True)
    except Interrupted as stop:  # Ctrl-C: the pair's figures over the games that ended, marked partial
        raise Interrupted(dict(pair_figures(a, b, players, games, seed, stop.partial), partial=True)) from None
    return pair_figures(a, b, players, games, seed, records)


def pair_figures(a: str, b: str, players: int, games: int, seed: int, records: list) -> dict:
    """A pair's figures from the records of its games (game i, seeded seed + i, had `a` at seat i mod N); a
    run cut short gives the records of the games that ended."""
    wins = 0.0
    a_scores, b_scores = [], []
    think = {a: 0.0, b: 0.0}
    moves = {a: 0, b: 0}
    errors = []
    done = 0
    per_game = []
    for rec in records:
        if "error" in rec:
            errors.append({"seed": rec["seed"], "error": rec["error"]})
            continue
        done += 1
        mine = (rec["seed"] - seed) % players
        won = 1.0 / len(rec["winners"]) if mine in rec["winners"] else 0.0
        wins += won
        per_game.append({"seed": rec["seed"], "seat": mine, "won": won, "scores": list(rec["scores"]),
                         "winners": list(rec["winners"])})
        for seat, score in enumerate(rec["scores"]):
            (a_scores if seat == mine else b_scores).append(score)
            who = a if seat == mine else b
            think[who] += rec["think"][seat]
            moves[who] += rec["moves"][seat]
    low, high = wilson(wins, done)
    per_decision = {k: (think[k] / moves[k] if moves[k] else 0.0) for k in think}
    return {"a": a, "b": b, "games": games, "completed": done, "wins": wins,
            "win_rate": wins / done if done else 0.0, "ci95": [low, high], "fair_share": 1.0 / players,
            "score_a": statistics.fmean(a_scores) if a_scores else None,
            "score_b": statistics.fmean(b_scores) if b_scores else None,
            "seconds_per_decision": per_decision, "errors": errors, "per_game": per_game}


def ladder(game, players: int, games: int, bots: Sequence[str] = ("random", "greedy", "mcts"), seed: int = 1,
           options: dict | None = None, jobs: int = 1, dask: str | None = None,
           progress: Callable[[dict], None] | None = None) -> dict:
    """Every pair of `bots` (each earlier one against each later one, the later one as A: the stronger
    bot is usually listed later), K games each; see the module doc."""
    bots = list(dict.fromkeys(bots))
    if len(bots) < 2:
        raise ValueError("a ladder needs at least two different bots")
    pairs = []
    result = {"game": getattr(game, "id", None), "players": players, "games": games, "seed": seed,
              "bots": bots, "pairs": pairs}
    for j in range(1, len(bots)):
        for i in range(j):
            try:
                pairs.append(play_pair(game, players, games, bots[j], bots[i], seed, options, jobs, dask, progress))
            except Interrupted as stop:  # Ctrl-C: the pairs played, and the figures of the one under way
                pairs.append(stop.partial)
                raise Interrupted(dict(result, partial=True)) from None
    return result


def ladder_text(result: dict, title: str = "") -> str:
    """The ladder as a table for people."""
    k = result["games"]
    head = [f"{title or result['game']}: {result['players']} players, {k} games per pair "
            f"(seeds {result['seed']}..{result['seed'] + k - 1}), the first bot at one rotating seat", ""]
    if result.get("partial"):
        head.insert(1, "PARTIAL: interrupted; the figures are those of the games that ended "
                       + ", ".join(f"({p['a']} against {p['b']}: {p['completed']}/{k})" for p in result["pairs"]))
    rows = [["bot", "against", "win rate (95% interval)", "fair share", "mean score", "s per decision"]]
    for p in result["pairs"]:
        lo, hi = p["ci95"]
        rows.append([p["a"], p["b"], f"{100 * p['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]",
                     f"{100 * p['fair_share']:.0f}%",
                     f"{_num(p['score_a'])} vs {_num(p['score_b'])}",
                     f"{p['seconds_per_decision'][p['a']]:.4f} vs {p['seconds_per_decision'][p['b']]:.4f}"])
    widths = [max(len(r[i]) for r in rows) + 2 for i in range(len(rows[0]) - 1)]
    lines = head + ["".join(c.ljust(w) for c, w in zip(r, widths)) + r[-1] for r in rows]
    for p in result["pairs"]:
        lost = [g for g in p["per_game"] if g["won"] < 1.0]
        if lost:  # the games to look at again; seats numbered from 1, as --seat numbers them
            lines.append(f"{p['a']} against {p['b']} did not win outright: " + ", ".join(
                f"seed {g['seed']} (seat {g['seat'] + 1}, {_num(g['scores'][g['seat']])} against "
                f"{_num(max(x for j, x in enumerate(g['scores']) if j != g['seat']))})" for g in lost))
        for e in p["errors"]:
            lines.append(f"ERROR {p['a']} vs {p['b']} seed {e['seed']}: {e['error']}")
    return "\n".join(line.rstrip() for line in lines)


def _num(x) -> str:
    return "-" if x is None else f"{x:.1f}"
