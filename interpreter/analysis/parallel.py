"""Many bot games at once: on this machine's cores, or on a Dask cluster; the same records either way.

    records = play_many(game, players=4, seeds=range(1, 1001), bot="random", jobs=2)
    records = play_many(game, players=4, seeds=range(1, 1001), dask="tcp://127.0.0.1:8786")

Each game is played where it runs and comes back as a small record (`game_record`: seed, decisions,
scores, winners, end triggers, or seed and error), never as a state, so what a run keeps grows with the
number of games only by a few numbers each. Records come back in seed order whatever finished first,
and every game is seeded by its own seed alone, so a run on N cores or on a cluster gives exactly the
records of a serial run.

Local processes are forked (they inherit the loaded game: nothing is pickled). Where the platform
cannot fork, and on a Dask cluster, each worker loads the game again from the files it was loaded from
(`Game.origin`: the game's directory and its overlay files, which the workers must see at the same
paths) and checks that its copy has the same content hash as the caller's before it plays.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from typing import Any, Callable, Iterable, Sequence

from ..engine.playout import MAX_DECISIONS, play_game

DASK_INSTALL = "pip install 'meeple[dask]', or pip install 'dask[distributed]'"
BATCH_TARGET = 8  # batches per worker: small enough to balance the load, large enough to amortise a task
BATCH_MAX = 256   # games per batch at most: a batch comes back (and its games are kept on Ctrl-C) only once
                  # all of them are played (100,000 quick games on 2 jobs were 16 batches: Ctrl-C 6 s in kept none)


class Interrupted(Exception):
    """Ctrl-C during a run: `partial` holds what was finished (the records of the games that ended, in seed
    order; `simulate` and `ladder` put a summary of them, marked partial, in its place). Local workers
    ignore Ctrl-C (the run stops them), so nothing but the caller speaks."""

    def __init__(self, partial):
        super().__init__("interrupted")
        self.partial = partial


class ParallelError(ValueError):
    """A run that cannot be spread out as asked (bots that are objects, a game not loaded from files,
    Dask missing or unreachable)."""


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def game_record(game, players: int, seed: Any, bot: str | Sequence[str] = "random",
                options: dict | None = None, max_decisions: int = MAX_DECISIONS, measure: str | None = None,
                keep_actions: bool = False, usage: bool = False, timing: bool = False) -> dict:
    """Play one game and keep what a summary needs:
    {seed, decisions, scores, winners, ends} or, when the game raised, {seed, error}; with `measure`,
    also "measure": the value of that expression in the final state; with `keep_actions`, "actions": the
    ids of the actions played (to save the game); with `usage`, what fired, per seat ({key: [count per
    seat]}, see `usage.UsageMeter`), what the setup and the final scoring made fire ("usage_setup",
    "usage_end": {key: count}) and the points
    of each scoring item ("points": {item: [points per seat]}); with `timing`, each seat's thinking time in seconds and its number of
    decisions (think, moves: a measurement, so the only part of a record that differs between runs)."""
    try:
        rec = play_game(game, players, seed, bot, options=options, max_decisions=max_decisions, usage=usage)
        value = game.evaluate(rec["state"], measure) if measure is not None else None
    except Exception as exc:  # one game's fault is a finding of the run, not its end
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}"}
    out = rec["outcome"]
    small = {"seed": seed, "decisions": rec["decisions"], "scores": list(out["scores"]),
             "winners": list(out["winners"]), "ends": list(out.get("ends") or [])}
    if measure is not None:
        small["measure"] = value
    if keep_actions:
        small["actions"] = rec["actions"]
    if timing:
        small["think"] = [round(t, 6) for t in rec["think"]]
        small["moves"] = list(rec["moves"])
    if usage:
        small["usage"] = rec["usage"]
        small["usage_setup"] = rec.get("usage_setup", {})
        small["usage_end"] = rec.get("usage_end", {})
        small["points"] = _points(out.get("breakdown"))
    return small


def _points(breakdown) -> dict:
    """{scoring item: [its points for each seat]} from an outcome's breakdown (an exact share as a float)."""
    points: dict = {}
    for row in breakdown or []:
        for item, v in row.items():
            points.setdefault(item, []).append(v if type(v) in (int, bool) else float(v))
    return points


def play_many(game, players: int, seeds: Iterable[int], bot: str | Sequence[str] = "random",
              options: dict | None = None, max_decisions: int = MAX_DECISIONS, jobs: int = 1,
              dask: str | None = None, progress: Callable[[dict], None] | None = None,
              measure: str | None = None, keep_actions: bool = False,
              lineups: Sequence[Sequence[str]] | None = None, usage: bool = False,
              timing: bool = False) -> list[dict]:
    """`game_record` for every seed, in the order of `seeds`: serially (`jobs` 1), on `jobs` local
    processes, or on the Dask scheduler at address `dask`. `progress(record)` is called once per game,
    in seed order. `lineups`, if given, holds one list of bot specs (one per seat) for each seed, in
    place of `bot`. `usage` and `timing` as for `game_record`. Raises ParallelError when the run cannot be spread out as asked."""
    seeds = list(seeds)
    if lineups is not None:
        if len(lineups) != len(seeds):
            raise ValueError(f"{len(lineups)} lineups for {len(seeds)} seeds")
        seeds = [(s, list(lineup)) for s, lineup in zip(seeds, lineups)]
    task = {"players": players, "bot": _bot_names(bot, jobs, dask), "options": options,
            "max_decisions": max_decisions, "measure": measure, "keep_actions": keep_actions,
            "usage": usage, "timing": timing}
    finished: dict = {}  # batches that came back before one they follow (local processes)
    if dask:
        batches = _dask_batches(game, seeds, task, dask)
    elif jobs > 1 and len(seeds) > 1:
        batches = _local_batches(game, seeds, task, jobs, finished)
    else:
        batches = ([_record(game, s, dict(task, bot=bot))] for s in seeds)
    records: list = []

    def keep(batch):
        for rec in batch:
            with _whole():  # a record is kept and reported (saved) whole, or not at all
                records.append(rec)
                if progress is not None:
                    progress(rec)
    try:
        for batch in batches:
            keep(batch)
    except KeyboardInterrupt:
        # Ctrl-C: the games that ended are kept, those that came back ahead of an unfinished batch too
        close = getattr(batches, "close", None)
        if close is not None:
            close()  # stops the workers
        for i in sorted(finished):
            keep(finished.pop(i))
        raise Interrupted(records) from None
    return records


@contextlib.contextmanager
def _whole():
    """Inside, Ctrl-C waits until the block is over (then raises KeyboardInterrupt as usual), so one game's
    record is counted and saved whole or not at all. Only the main thread receives signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    asked: list = []
    before = signal.signal(signal.SIGINT, lambda *_: asked.append(True))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
        if asked:
            raise KeyboardInterrupt


def _bot_names(bot, jobs: int, dask: str | None):
    """The bots as names (what a worker can make again); objects only for a serial run."""
    if isinstance(bot, str) or all(isinstance(b, str) for b in bot):
        return bot if isinstance(bot, str) else list(bot)
    if jobs > 1 or dask:
        raise ParallelError("bots given as objects can only play serially (jobs=1); give bot names")
    return bot


def _split(seeds: list[int], workers: int) -> list[list[int]]:
    size = max(1, min(BATCH_MAX, len(seeds) // (workers * BATCH_TARGET)))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


# ------------------------------------------------------------------------------- local processes

_worker_game = None  # the game a local worker plays (inherited by fork, or loaded by spawn)


def _init_local(game_or_origin) -> None:
    global _worker_game
    # Ctrl-C at the terminal reaches every process of the group: the caller stops the workers and keeps
    # what they finished; a worker that took the interrupt itself would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # forked with Ctrl-C held back (map_local): now it is ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _worker_game = game_or_origin if not isinstance(game_or_origin, tuple) else _load(*game_or_origin)


def _record(game, item, task: dict) -> dict:
    """One game of a batch: `item` is a seed, or (seed, lineup) for a run with lineups."""
    seed, bot = item if isinstance(item, tuple) else (item, task["bot"])
    return game_record(game, seed=seed, **dict(task, bot=bot))


def _play_batch_local(args) -> list[dict]:
    seeds, task = args
    return [_record(_worker_game, s, task) for s in seeds]


def _local_batches(game, seeds, task, jobs, finished: dict | None = None):
    yield from map_local(game, _play_batch_local, [(batch, task) for batch in _split(seeds, jobs)], jobs, finished)


def map_local(game, fn: Callable, work: list, jobs: int, finished: dict | None = None):
    """`fn(item)` for every item of `work` on `jobs` local processes, yielded in the order of `work`.
    `fn` is a module-level function (it is sent by name); in it, `worker_game()` is `game`: inherited
    by fork, or loaded again from `game.origin` where the platform cannot fork. A result that comes back
    before one it follows waits in `finished` (its place in `work` -> result) until it is yielded, so a
    caller interrupted meanwhile still finds it there. The workers ignore Ctrl-C: when the caller stops
    (interrupted or not), they are stopped."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods:
        ctx, init = multiprocessing.get_context("fork"), game
    else:
        ctx, init = multiprocessing.get_context("spawn"), _origin(game)
    finished = {} if finished is None else finished
    # Ctrl-C is held back while the workers are forked: one that arrived inside a fork was lost (Python
    # ignores an exception raised in an at-fork hook, and the run went on to its end); held, it is raised
    # once the pool exists, and the pool is then stopped.
    held = _hold_interrupts()
    try:
        pool = ctx.Pool(processes=max(1, min(jobs, len(work))), initializer=_init_local, initargs=(init,))
    except BaseException:
        _release_interrupts(held)
        raise
    with pool:
        _release_interrupts(held)
        nxt = 0
        for i, result in pool.imap_unordered(_placed, [(i, fn, item) for i, item in enumerate(work)]):
            finished[i] = result
            while nxt in finished:
                yield finished.pop(nxt)
                nxt += 1


def _hold_interrupts():
    """Block SIGINT for the main thread (and the threads and processes it starts); the mask before, or
    None where signals cannot be blocked or this is not the main thread."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def _release_interrupts(held) -> None:
    """Restore the mask `_hold_interrupts` returned: a SIGINT that came meanwhile is delivered now."""
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _placed(args):
    """`fn(item)` with the item's place, for map_local."""
    i, fn, item = args
    return i, fn(item)


def worker_game():
    """The game a local worker of `map_local` plays."""
    return _worker_game


def split(items: list, jobs: int) -> list[list]:
    """`items` in consecutive batches, about BATCH_TARGET per worker, at most BATCH_MAX items each."""
    return _split(items, jobs)


# ----------------------------------------------------------------------------------------- Dask

def _client(address: str):
    """A Dask client of the scheduler at `address`, or a ParallelError saying why not."""
    try:
        from distributed import Client
    except ImportError:
        raise ParallelError(f"--dask needs Dask distributed: {DASK_INSTALL}") from None
    try:
        return Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise ParallelError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def _in_order(futures):
    """Each future's result, in the order of the work: one is yielded once it and all before it are in
    (as_completed would reorder); each is released once read."""
    for future in futures:
        yield future.result()
        future.release()


def _dask_batches(game, seeds, task, address):
    origin = _origin(game)
    client = _client(address)
    try:
        workers = max(1, sum(client.nthreads().values()))
        batches = _split(seeds, workers)
        yield from _in_order(client.map(_play_batch_dask, batches, origin=origin, task=task, pure=False))
    finally:
        client.close()


def map_dask(game, fn: Callable, work: list, address: str):
    """`fn(game, item)` for every item of `work` on the Dask cluster at `address`, yielded in the order of
    `work`; each worker loads `game` again from its files (`Game.origin`) and checks its content hash.
    `fn` is a module-level function (workers import it)."""
    origin = _origin(game)
    client = _client(address)
    try:
        yield from _in_order(client.map(_call_dask, work, fn=fn, origin=origin, pure=False))
    finally:
        client.close()


def dask_workers(address: str) -> int:
    """The threads of the Dask cluster at `address` (how many batches to cut a run into)."""
    from distributed import Client
    with Client(address, timeout="10s") as client:
        return max(1, sum(client.nthreads().values()))


def _call_dask(item, fn, origin):
    return fn(_load(*origin), item)


def _play_batch_dask(seeds, origin, task) -> list[dict]:
    game = _load(*origin)
    return [_record(game, s, task) for s in seeds]


_loaded: dict = {}


def _load(root: str, variants: tuple, digest: str | None, meter: tuple = ()):
    """The game at `root` with `variants`, loaded once per worker process, checked against `digest`, and
    compiled with a read meter of the names `meter` when it lists any (see `Game.metered`)."""
    key = (root, variants, meter)
    if key not in _loaded:
        from ..game import load_game

        game = load_game(root, list(variants))
        _loaded[key] = game.metered(meter) if meter else game
    game = _loaded[key]
    if digest is not None and game.content_hash != digest:
        raise ParallelError(f"the worker's copy of {root} differs from the caller's "
                            f"(content hash {game.content_hash[:12]} against {digest[:12]})")
    return game


def _origin(game) -> tuple:
    origin = getattr(game, "origin", None)
    if origin is None:
        raise ParallelError("this game was not loaded from files (load_game), so other processes "
                            "cannot load it again; play it with jobs=1")
    root, variants = origin
    meter = tuple(sorted(getattr(game, "meter_names", None) or ()))
    return str(root), tuple(str(v) for v in variants), getattr(game, "content_hash", None), meter
