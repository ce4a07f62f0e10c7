"""Learning a value model from the definition by self-play (`meeple train`).

    model = train(game, players=[4], minutes=15, jobs=2)
    model.save(root / "models" / "value-4p.json")

Expert iteration with a linear model: the bots of generation k play games against each other with the
model of generation k-1 (`learned` bots, or with `expert` the search that model guides, `search:iterations=N`:
it looks past what one step shows, an auction's end, a rival's reply; with random moves to see more
positions: half of them at first, falling to 8%); every position of
those games becomes a row per seat — its features as that seat sees them (`features.FeatureSpace.extract`)
and what that seat finally got (its final score, its share of the win), mixed as λ-returns with what the
playing model predicted at the positions that followed (over about a quarter of the game: a game that drags
on is judged by how it ended, not by the model that made it drag); the model of generation k is the ridge regression
of those targets on the rows of every generation so far (older generations count less). The score head is
fitted to the part of the final score still to come, so the penalty pulls a weight toward the score so
far rather than toward nothing (measured on held-out games of a tile-laying game, this and the λ-returns are what let
the features predict better than the score and the time alone).
Generation 0 plays with the score so far as its value (the greedy bot's view), so nothing about the game is
given: what a building, a tile or a round is worth is learned from how games between the previous bots
ended.

Everything is seeded: the same game, player counts, seed and budget in games give the same model (a
budget in minutes stops at a generation boundary, so it depends on the machine). The games of a
generation run on local processes (`jobs`) or a Dask cluster, as `simulate` runs them.
"""
from __future__ import annotations

import math
import statistics
import time
from typing import Callable

from ..players.features import OWN_BLOCKS, FeatureSpace
from ..players.evaluator import result_share
from ..players.learned import STALL_LENGTHS, LearnedBot
from ..players.valuemodel import ValueModel, rules_hash
from . import parallel

GENERATION_GAMES = 40     # games per generation (per player count)
EXPLORE = 0.08            # the chance of a random move in self-play, at the end of the schedule
EXPLORE_START = 0.5       # in generation 1 (see explore_rate)
EXPLORE_FALL = 0.6        # times this per generation
DECAY = 0.6               # how much an older generation's rows count, per generation
RIDGE = 0.02              # the penalty, relative to each feature's own scale
PRIOR_SHARES = (0.005, 0.0005, 0.002, 0.01, 0.03, 0.1, 0.3)  # and one of a share of all rows, whatever the feature's
                          # scale, so a feature seen in few rows stays near 0 (a game's rows share its outcome:
                          # they are few independent samples); the share that errs least on held-out games
HOLD_OUT = 5              # every how many self-play games one is held out to choose the penalty
RECORD_EVERY = 2          # every how many decisions a position is kept as rows
HORIZON = 0.25            # the λ of the targets leans on the model over about this share of a game
                          # (λ per kept position = exp(-1 / (HORIZON * positions kept))): a game that drags
                          # on is judged by how it ended, not by the model that made it drag
CHUNK = 2048              # rows summed at once into the normal equations


def initial_model(game, players: list[int]) -> ValueModel:
    """Generation 0's model: a seat's final score is its score so far (the greedy bot's view)."""
    return ValueModel(game.id, rules_hash(game), players, {"score": {f"{b}.score.total": 1.0 for b in OWN_BLOCKS}},
                      length={n: 1.0 for n in players}, scale=1.0,
                      trained={"generations": 0, "games": 0})


def self_play(game, players: int, seed: int, model_json: dict, explore: float, every: int,
              lam: float | None = 1.0, expert: str | None = None) -> dict:
    """One self-play game: {seed, decisions, rows: [(seat, indices, values)], targets: [(score, result)]
    per row} or {seed, error}. A row's target is the λ-return of its seat: the final score and result
    (λ = 1), or mixed with what the playing model predicted at the positions that followed (λ None: from
    the game's length and HORIZON). Every seat plays the learned bot, or the bot `expert` names (a
    `search` spec: the tree guided by this model), each with random moves at the rate `explore`."""
    model = ValueModel.from_json(model_json)
    space = FeatureSpace.of(game)
    judge = model.bind(game, checked=False)
    if expert is None:
        # (playing for the margin, `win=0`: the shipped models were made so, and the same command makes them)
        bots = [LearnedBot(f"{seed}/{p}", explore=explore, model=model, win=0.0) for p in range(players)]
    else:
        bots = [Exploring(expert_bot(expert, f"{seed}/{p}", model), explore) for p in range(players)]
    kept: list = []
    states: list = []
    # A game the playing model drags past STALL_LENGTHS of its usual length is stopped there and learned
    # from as what it is: nobody wins a game that does not end, and each seat keeps the points it has.
    cap = math.ceil(STALL_LENGTHS * judge.length(players)) if model.trained.get("generations") else None
    try:
        final, outcome = _play(game, players, seed, bots, states, every, cap)
    except Exception as exc:  # one game's fault is a finding of the run, not its end
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}"}
    length = max(1, final.decisions)
    if lam is None:
        lam = math.exp(-1.0 / (HORIZON * max(1, len(states))))
    if outcome is None:
        final_values = [(float(sum(points.values())), 0.0) for points in game.score_breakdown(final)[:players]]
    else:
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
    return {"seed": seed, "decisions": length, "rows": kept, "targets": targets, "stalled": outcome is None,
            "finals": {p: final_values[p] for p in range(players)}}


def expert_bot(spec: str, seed, model: ValueModel | None):
    """The bot `spec` names (`learned[:...]` or `search[:...]`), playing with `model`; ValueError (a
    BotSpecError among them) for a spec that names no bot, or one that plays with no model."""
    from ..players.bots import make_bot
    bot = make_bot(spec, seed=seed)
    if not hasattr(bot, "model"):
        raise ValueError(f"{spec!r} plays with no model: learned or search is expected")
    bot.model = model
    return bot


class Exploring:
    """A bot that plays a uniformly random move at the rate `explore` (drawn from the bot's own seeded
    generator), else as `bot` does."""

    def __init__(self, bot, explore: float):
        self.bot, self.explore = bot, explore

    def choose(self, game, view, actions):
        if len(actions) > 1 and self.explore and self.bot.rng.random() < self.explore:
            return actions[self.bot.rng.randrange(len(actions))]
        return self.bot.choose(game, view, actions)


def explore_rate(generation: int, floor: float) -> float:
    """The chance of a random move in generation `generation` (from 1): half the moves at first, so the
    first models see positions the score so far would never reach (a cooperative game greedy always
    loses), falling to `floor`."""
    return max(floor, EXPLORE_START * EXPLORE_FALL ** (generation - 1))


def _play(game, players, seed, bots, states, every, cap=None):
    """Play one game with `bots` (each deciding from its seat's view), keeping every `every`-th position in
    `states`: (the final state, its outcome), or (the state reached, None) when the game is still on after
    `cap` decisions. The positions are the learner's rows (`playout.play_game` keeps none)."""
    from ..players.bots import SeatView
    state = game.new_game(players=players, seed=seed)
    n = 0
    while not game.is_over(state):
        if cap is not None and n >= cap:
            return state, None
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
    return _train_batch(parallel.worker_game(), args)


def _train_batch(game, args):
    """The self-play games of one batch (seeds, task), on a local worker or a Dask worker."""
    seeds, task = args
    return [self_play(game, task["players"], s, task["model"], task["explore"], task["every"], task["lam"],
                      task.get("expert")) for s in seeds]


class Normal:
    """The normal equations of a ridge regression, summed row by row (one matrix for every head), over the
    features that were ever non-zero: a game's feature space is large (every zone by every piece type),
    what its positions use is far smaller, so the matrix grows with what is seen.

    Rows come in two parts: those fitted, and those of held-out games (`check=True`) that choose the
    penalty (`choose_prior`): the sums of the held-out rows (XᵀX, Xᵀy, yᵀy) give the error of any weights
    on them without keeping a row. The final fit uses both parts."""

    PARTS = ("fit", "check")

    def __init__(self, heads: tuple[str, ...]):
        import numpy as np
        self.np = np
        self.heads = heads
        self.local: dict[int, int] = {}   # feature index -> row of the matrix
        self.A = {p: np.zeros((0, 0)) for p in self.PARTS}
        self.b = {p: {h: np.zeros(0) for h in heads} for p in self.PARTS}
        self.yy = {p: {h: 0.0 for h in heads} for p in self.PARTS}
        self.count = {p: 0.0 for p in self.PARTS}

    @property
    def rows(self) -> float:
        return self.count["fit"] + self.count["check"]

    def _grow(self, cols) -> None:
        np = self.np
        for c in cols:
            if c not in self.local:
                self.local[c] = len(self.local)
        n = len(self.local)
        k = self.A["fit"].shape[0]
        if n > k:
            size = max(n, 2 * k, 256)
            for p in self.PARTS:
                A = np.zeros((size, size))
                A[:k, :k] = self.A[p]
                self.A[p] = A
                for h, b in self.b[p].items():
                    nb = np.zeros(size)
                    nb[:k] = b
                    self.b[p][h] = nb

    def decay(self, f: float) -> None:
        for p in self.PARTS:
            self.A[p] *= f
            for h in self.heads:
                self.b[p][h] *= f
                self.yy[p][h] *= f
            self.count[p] *= f

    def add(self, rows: list, targets: dict[str, list[float]], check: bool = False) -> None:
        np = self.np
        part_name = "check" if check else "fit"
        for start in range(0, len(rows), CHUNK):
            part = rows[start:start + CHUNK]
            cols = sorted({i for _, idx, _ in part for i in idx})
            self._grow(cols)
            where = {c: k for k, c in enumerate(cols)}
            X = np.zeros((len(part), len(cols)))
            for r, (_, idx, vals) in enumerate(part):
                X[r, [where[i] for i in idx]] = vals
            at = [self.local[c] for c in cols]
            self.A[part_name][np.ix_(at, at)] += X.T @ X
            for h, y in targets.items():
                y = np.asarray(y[start:start + CHUNK], dtype=float)
                self.b[part_name][h][at] += X.T @ y
                self.yy[part_name][h] += float(y @ y)
            self.count[part_name] += len(part)

    def _system(self, parts):
        np = self.np
        n = len(self.local)
        A = sum(self.A[p][:n, :n] for p in parts)
        b = {h: sum(self.b[p][h][:n] for p in parts) for h in self.heads}
        return A, b

    def _weights(self, A, b, ridge, prior):
        np = self.np
        diag = np.diag(A).copy()
        active = np.nonzero(diag > 1e-12)[0]
        M = A[np.ix_(active, active)].copy()
        M[np.diag_indices_from(M)] += ridge * diag[active] + prior + 1e-9 * max(1.0, float(diag.max(initial=1.0)))
        return active, {h: np.linalg.solve(M, v[active]) for h, v in b.items()}

    def choose_prior(self, ridge: float = None, shares=PRIOR_SHARES, head: str = "score") -> float:
        """The share of the rows (see `solve`) whose penalty, fitted on the fitted rows, errs least on the
        held-out ones (the first share where nothing is held out)."""
        ridge = RIDGE if ridge is None else ridge
        if not self.count["check"] or not self.count["fit"]:
            return shares[0]
        np = self.np
        n = len(self.local)
        A, b = self._system(("fit",))
        Ac, bc, yy = self.A["check"][:n, :n], self.b["check"][head][:n], self.yy["check"][head]
        best, best_err = shares[0], None
        for share in shares:
            active, w = self._weights(A, {head: b[head]}, ridge, share * self.count["fit"])
            full = np.zeros(n)
            full[active] = w[head]
            err = float(full @ Ac @ full - 2 * full @ bc + yy)
            if best_err is None or err < best_err:
                best, best_err = share, err
        return best

    def solve(self, ridge: float = None, prior: float = None) -> dict[str, dict[int, float]]:
        """{head: {feature index: weight}}: the ridge solution on every row, each feature penalised by
        `ridge` times its own scale plus `prior` (default RIDGE, and PRIOR_SHARES[0] of the rows summed: a
        feature seen in few rows stays near 0)."""
        ridge = RIDGE if ridge is None else ridge
        prior = PRIOR_SHARES[0] * self.rows if prior is None else prior
        np = self.np
        features = np.array(sorted(self.local, key=self.local.get), dtype=np.int64)
        A, b = self._system(self.PARTS)
        active, w = self._weights(A, b, ridge, prior)
        return {h: {int(features[i]): float(v) for i, v in zip(active, w[h]) if abs(v) > 1e-12} for h in self.heads}


def train(game, players: list[int], seed: int = 1, games: int | None = None, minutes: float | None = None,
          generation_games: int = GENERATION_GAMES, jobs: int = 1, dask: str | None = None,
          progress: Callable[[dict], None] | None = None, explore: float = EXPLORE,
          lam: float | None = None, decay: float = DECAY, expert: str | None = None) -> ValueModel:
    """Train a value model of `game` for the player counts `players` (see the module doc): generations
    of `generation_games` games per count until `games` games in all were played or `minutes` passed;
    with `expert` (a bot spec, `search:iterations=N`), generations after the first are played by that
    bot guided by the previous generation's model."""
    if games is None and minutes is None:
        games = 8 * generation_games * len(players)
    space = FeatureSpace.of(game)
    heads = ("score", "result")
    normal = Normal(heads)
    totals = [space.index[f"{b}.score.total"] for b in OWN_BLOCKS]
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
        stalled = 0
        gen_rows: dict[bool, list] = {False: [], True: []}   # fitted rows, held-out rows
        gen_targets = {part: {h: [] for h in heads} for part in (False, True)}
        finals_all = []
        # each count gets the same share of what the budget leaves (`played` grows inside the loop below)
        share_left = None if games is None else max(1, (games - played) // len(players))
        for n in players:
            count = generation_games if games is None else min(generation_games, share_left)
            seeds = [seed + 100_000 * generation + 1000 * n + i for i in range(count)]
            task = {"players": n, "model": model.to_json(), "explore": explore_rate(generation, explore),
                    "every": RECORD_EVERY, "expert": expert if generation > 1 else None,
                    "lam": lam if generation > 1 else 1.0}  # generation 1's model knows nothing to lean on
            records = _run(game, seeds, task, jobs, dask)
            for k, rec in enumerate(records):
                if "error" in rec:
                    errors.append(rec)
                    continue
                if rec["stalled"]:
                    stalled += 1
                else:  # the usual length is that of the games that end
                    lengths.setdefault(n, []).append(rec["decisions"])
                held = k % HOLD_OUT == HOLD_OUT - 1
                for (seat, idx, vals), (score, result) in zip(rec["rows"], rec["targets"]):
                    gen_rows[held].append((seat, idx, vals))
                    gen_targets[held]["score"].append(score - score_so_far(idx, vals, totals))
                    gen_targets[held]["result"].append(result)
                finals_all.extend(v[0] for v in rec["finals"].values())
            played += len(seeds)
        normal.decay(decay)
        for held in (False, True):
            normal.add(gen_rows[held], gen_targets[held], check=held)
        share = normal.choose_prior()
        solved = normal.solve(prior=share * normal.rows)
        for i in totals:  # the score head was fitted to what is still to come: add the score so far back
            solved["score"][i] = solved["score"].get(i, 0.0) + 1.0
        heads_by_name = {h: {space.names[i]: w for i, w in ws.items()} for h, ws in solved.items()}
        length = {n: statistics.fmean(v) for n, v in lengths.items()} or model.length
        scale = statistics.pstdev(finals_all) if len(finals_all) > 1 else model.scale
        mean_score = statistics.fmean(finals_all) if finals_all else 0.0
        info = {"generation": generation, "games": played, "errors": len(errors), "stalled": stalled,
                "mean_final_score": mean_score,
                "mean_length": {n: round(v, 1) for n, v in length.items()},
                "rows": len(gen_rows[False]) + len(gen_rows[True]), "prior_share": share,
                "seconds": round(time.perf_counter() - started, 1)}
        history.append(info)
        model = ValueModel(game.id, rules_hash(game), players, heads_by_name, length, max(1.0, scale),
                           trained={"generations": generation, "games": played, "seed": seed,
                                    "generation_games": generation_games, "explore": explore,
                                    **({"expert": expert} if expert else {}),
                                    "seconds": round(time.perf_counter() - started, 1),
                                    "cpu_seconds_coordinator": round(time.process_time() - cpu0, 1),
                                    "jobs": jobs, "history": history})
        if progress is not None:
            progress(info)
    return model


def score_so_far(idx, vals, totals) -> float:
    """The seat's own total score in a row (its three time blocks sum to it), 0 where the row leaves it
    out: the score head is fitted to the rest of the final score, so the penalty pulls it toward the
    score so far (the greedy bot's view) rather than toward 0."""
    if not totals:
        return 0.0
    return sum(v for i, v in zip(idx, vals) if i in totals)


def _run(game, seeds, task, jobs, dask):
    if dask:
        out = []
        batches = [(b, task) for b in parallel.split(seeds, parallel.dask_workers(dask))]
        for batch in parallel.map_dask(game, _train_batch, batches, dask):
            out.extend(batch)
        return out
    if jobs > 1 and len(seeds) > 1:
        out = []
        for batch in parallel.map_local(game, _play_batch, [(b, task) for b in parallel.split(seeds, jobs)], jobs):
            out.extend(batch)
        return out
    return [self_play(game, task["players"], s, task["model"], task["explore"], task["every"], task["lam"],
                      task.get("expert")) for s in seeds]
