"""Learning a value model from the definition by self-play (`meeple train`).

    model = train(game, players=[4], minutes=15, jobs=2)
    model.save(root / "models" / "value-4p.json")

Expert iteration with a linear model: the bots of generation k play games against each other with the
model of generation k-1 (`learned` bots, with random moves to see more positions: half of them at first,
falling to 8%); every position of
those games becomes a row per seat — its features as that seat sees them (`features.FeatureSpace.extract`)
and what that seat finally got (its final score, its share of the win); the model of generation k is the
ridge regression of those finals on the rows of every generation so far (older generations count less).
Generation 0 plays with the score so far as its value (the greedy bot's view), so nothing about the game is
given: what a building, a tile or a round is worth is learned from how games between the previous bots
ended.

Everything is seeded: the same game, player counts, seed and budget in games give the same model (a
budget in minutes stops at a generation boundary, so it depends on the machine). The games of a
generation run on local processes (`jobs`) or a Dask cluster, as `simulate` runs them.
"""
from __future__ import annotations

import math
import random
import statistics
import time
from typing import Callable

from ..players.features import OWN_BLOCKS, FeatureSpace
from ..players.learned import LearnedBot
from ..players.valuemodel import ValueModel, rules_hash
from . import parallel

GENERATION_GAMES = 40     # games per generation (per player count)
EXPLORE = 0.08            # the chance of a random move in self-play, at the end of the schedule
EXPLORE_START = 0.5       # in generation 1 (see explore_rate)
EXPLORE_FALL = 0.6        # times this per generation
DECAY = 0.6               # how much an older generation's rows count, per generation
RIDGE = 0.02              # the penalty, relative to each feature's own scale
PRIOR_ROWS = 30.0         # and an absolute one: a feature seen in fewer rows than this is shrunk toward 0
RECORD_EVERY = 2          # every how many decisions a position is kept as rows
LAMBDA = 0.9              # the λ of the targets (1: the final values alone; lower leans on the model)
CHUNK = 2048              # rows summed at once into the normal equations


def initial_model(game, players: list[int]) -> ValueModel:
    """Generation 0's model: a seat's final score is its score so far (the greedy bot's view)."""
    return ValueModel(game.id, rules_hash(game), players, {"score": {f"{b}.score.total": 1.0 for b in OWN_BLOCKS}},
                      length={n: 1.0 for n in players}, scale=1.0,
                      trained={"generations": 0, "games": 0})


def self_play(game, players: int, seed: int, model_json: dict, explore: float, every: int,
              lam: float = 1.0) -> dict:
    """One self-play game: {seed, decisions, rows: [(seat, indices, values)], targets: [(score, result)]
    per row} or {seed, error}. A row's target is the λ-return of its seat: the final score and result
    (λ = 1), or mixed with what the playing model predicted at the positions that followed."""
    model = ValueModel.from_json(model_json)
    space = FeatureSpace.of(game)
    judge = model.bind(game, checked=False)
    bots = [LearnedBot(f"{seed}/{p}", explore=explore, model=model) for p in range(players)]
    kept: list = []
    states: list = []
    try:
        final, outcome = _play(game, players, seed, bots, states, every)
    except Exception as exc:  # one game's fault is a finding of the run, not its end
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}"}
    length = max(1, final.decisions)
    final_values = [(float(outcome["scores"][p]), result_share(outcome, p)) for p in range(players)]
    per_state = []
    for s in states:
        remaining = max(0.0, 1.0 - s.decisions / max(1.0, judge.length(players)))
        scores = game.score_breakdown(s)
        rows = [space.extract(s, seat, remaining, scores) for seat in range(players)]
        predicted = None
        if lam < 1.0:
            predicted = list(zip(judge.head(s, "score", scores), judge.head(s, "result", scores)))
        per_state.append((rows, predicted))
    # λ-returns, from the end backwards: G_t = (1 - λ) V(s_t+1) + λ G_t+1, G_T = the final values
    returns = [list(final_values)]
    for rows, predicted in reversed(per_state[1:]):
        g = returns[-1]
        returns.append([((1 - lam) * predicted[p][0] + lam * g[p][0], (1 - lam) * predicted[p][1] + lam * g[p][1])
                        if predicted is not None else g[p] for p in range(players)])
    returns.reverse()
    targets = []
    for (rows, _), g in zip(per_state, returns):
        for seat, row in enumerate(rows):
            kept.append((seat, tuple(row), tuple(row.values())))
            targets.append(g[seat])
    return {"seed": seed, "decisions": length, "rows": kept, "targets": targets,
            "finals": {p: final_values[p] for p in range(players)}}


def result_share(outcome: dict, seat: int) -> float:
    """A seat's result in 0..1: 1 for a win everyone shares (a cooperative game won), a tie's share
    otherwise, 0 for a loss."""
    winners = outcome["winners"]
    if seat not in winners:
        return 0.0
    return 1.0 if outcome.get("shared") == "win" else 1.0 / len(winners)


def explore_rate(generation: int, floor: float) -> float:
    """The chance of a random move in generation `generation` (from 1): half the moves at first, so the
    first models see positions the score so far would never reach (a cooperative game greedy always
    loses), falling to `floor`."""
    return max(floor, EXPLORE_START * EXPLORE_FALL ** (generation - 1))


def _play(game, players, seed, bots, states, every):
    from ..players.bots import SeatView
    state = game.new_game(players=players, seed=seed)
    n = 0
    while not game.is_over(state):
        if n % every == 0:
            states.append(state)
        seat = game.current_player(state)
        legal = game.legal_actions(state, labels=False)
        action = bots[seat].choose(game, SeatView(game, state, seat), legal)
        state = game.apply(state, action["id"])
        n += 1
        if n > 50_000:
            raise RuntimeError("the game did not end within 50,000 decisions")
    return state, game.outcome(state)


def _play_batch(args):
    seeds, task = args
    game = parallel.worker_game()
    return [self_play(game, task["players"], s, task["model"], task["explore"], task["every"], task["lam"])
            for s in seeds]


class Normal:
    """The normal equations of a ridge regression, summed row by row (one matrix for every head), over the
    features that were ever non-zero: a game's feature space is large (every zone by every piece type),
    what its positions use is far smaller, so the matrix grows with what is seen."""

    def __init__(self, heads: tuple[str, ...]):
        import numpy as np
        self.np = np
        self.local: dict[int, int] = {}   # feature index -> row of the matrix
        self.A = np.zeros((0, 0))
        self.b = {h: np.zeros(0) for h in heads}
        self.rows = 0.0

    def _grow(self, cols) -> None:
        np = self.np
        for c in cols:
            if c not in self.local:
                self.local[c] = len(self.local)
        n = len(self.local)
        if n > self.A.shape[0]:
            size = max(n, 2 * self.A.shape[0], 256)
            A = np.zeros((size, size))
            k = self.A.shape[0]
            A[:k, :k] = self.A
            self.A = A
            for h, b in self.b.items():
                nb = np.zeros(size)
                nb[:k] = b
                self.b[h] = nb

    def decay(self, f: float) -> None:
        self.A *= f
        for b in self.b.values():
            b *= f
        self.rows *= f

    def add(self, rows: list, targets: dict[str, list[float]]) -> None:
        np = self.np
        for start in range(0, len(rows), CHUNK):
            part = rows[start:start + CHUNK]
            cols = sorted({i for _, idx, _ in part for i in idx})
            self._grow(cols)
            where = {c: k for k, c in enumerate(cols)}
            X = np.zeros((len(part), len(cols)))
            for r, (_, idx, vals) in enumerate(part):
                X[r, [where[i] for i in idx]] = vals
            at = [self.local[c] for c in cols]
            self.A[np.ix_(at, at)] += X.T @ X
            for h, y in targets.items():
                self.b[h][at] += X.T @ np.asarray(y[start:start + CHUNK])
            self.rows += len(part)

    def solve(self, ridge: float = None, prior: float = None) -> dict[str, dict[int, float]]:
        """{head: {feature index: weight}}: the ridge solution, each feature penalised by `ridge` times its
        own scale plus `prior` (default RIDGE and PRIOR_ROWS: a feature seen in few rows stays near 0)."""
        ridge = RIDGE if ridge is None else ridge
        prior = PRIOR_ROWS if prior is None else prior
        np = self.np
        n = len(self.local)
        features = np.array(sorted(self.local, key=self.local.get), dtype=np.int64)
        A = self.A[:n, :n].copy()
        diag = np.diag(A).copy()
        active = np.nonzero(diag > 1e-12)[0]
        A = A[np.ix_(active, active)]
        A[np.diag_indices_from(A)] += ridge * diag[active] + prior
        out = {}
        for h, b in self.b.items():
            w = np.linalg.solve(A, b[:n][active])
            out[h] = {int(features[i]): float(v) for i, v in zip(active, w) if abs(v) > 1e-12}
        return out


def train(game, players: list[int], seed: int = 1, games: int | None = None, minutes: float | None = None,
          generation_games: int = GENERATION_GAMES, jobs: int = 1, dask: str | None = None,
          progress: Callable[[dict], None] | None = None, explore: float = EXPLORE,
          lam: float = LAMBDA) -> ValueModel:
    """Train a value model of `game` for the player counts `players` (see the module doc): generations
    of `generation_games` games per count until `games` games in all were played or `minutes` passed."""
    if games is None and minutes is None:
        games = 8 * generation_games * len(players)
    space = FeatureSpace.of(game)
    heads = ("score", "result")
    normal = Normal(heads)
    model = initial_model(game, players)
    started = time.perf_counter()
    cpu0 = time.process_time()
    played = 0
    generation = 0
    history = []
    while True:
        if games is not None and played >= games:
            break
        if minutes is not None and time.perf_counter() - started >= 60 * minutes:
            break
        generation += 1
        lengths: dict[int, list[int]] = {}
        errors = []
        gen_rows: list = []
        gen_targets: dict[str, list[float]] = {h: [] for h in heads}
        finals_all = []
        for n in players:
            count = generation_games if games is None else min(generation_games, max(1, (games - played) // len(players)))
            seeds = [seed + 100_000 * generation + 1000 * n + i for i in range(count)]
            task = {"players": n, "model": model.to_json(), "explore": explore_rate(generation, explore),
                    "every": RECORD_EVERY,
                    "lam": lam if generation > 1 else 1.0}
            records = _run(game, seeds, task, jobs, dask)
            for rec in records:
                if "error" in rec:
                    errors.append(rec)
                    continue
                lengths.setdefault(n, []).append(rec["decisions"])
                for (seat, idx, vals), (score, result) in zip(rec["rows"], rec["targets"]):
                    gen_rows.append((seat, idx, vals))
                    gen_targets["score"].append(score)
                    gen_targets["result"].append(result)
                finals_all.extend(v[0] for v in rec["finals"].values())
            played += len(seeds)
        normal.decay(DECAY)
        normal.add(gen_rows, gen_targets)
        solved = normal.solve()
        heads_by_name = {h: {space.names[i]: w for i, w in ws.items()} for h, ws in solved.items()}
        length = {n: statistics.fmean(v) for n, v in lengths.items()} or model.length
        scale = statistics.pstdev(finals_all) if len(finals_all) > 1 else model.scale
        mean_score = statistics.fmean(finals_all) if finals_all else 0.0
        info = {"generation": generation, "games": played, "errors": len(errors), "mean_final_score": mean_score,
                "mean_length": {n: round(v, 1) for n, v in length.items()}, "rows": len(gen_rows),
                "seconds": round(time.perf_counter() - started, 1)}
        history.append(info)
        model = ValueModel(game.id, rules_hash(game), players, heads_by_name, length, max(1.0, scale),
                           trained={"generations": generation, "games": played, "seed": seed,
                                    "generation_games": generation_games, "explore": explore,
                                    "seconds": round(time.perf_counter() - started, 1),
                                    "cpu_seconds_coordinator": round(time.process_time() - cpu0, 1),
                                    "jobs": jobs, "history": history})
        if progress is not None:
            progress(info)
    return model


def _run(game, seeds, task, jobs, dask):
    if dask:
        raise parallel.ParallelError("train --dask: not available yet")
    if jobs > 1 and len(seeds) > 1:
        out = []
        for batch in parallel.map_local(game, _play_batch, [(b, task) for b in parallel.split(seeds, jobs)], jobs):
            out.extend(batch)
        return out
    return [self_play(game, task["players"], s, task["model"], task["explore"], task["every"], task["lam"])
            for s in seeds]
