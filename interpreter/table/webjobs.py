"""Work the web table does off the request thread: bots thinking, and `verify`/`compare` jobs.

    bots = BotPool(threads=2, saved=store.save)
    bots.kick(table)                  # if a bot is to move, it thinks on a worker thread; the request returns

    jobs = Jobs(workers=1, waiting=4, seconds=300, keep=20, keep_seconds=3600)
    jid = jobs.submit("verify", {"folder": "...", "games": 3}, total=12)   # Busy when too many wait
    jobs.get(jid)                     # its state: waiting, running, done, failed or stopped; progress; result

A bot decides on a copy of the table's state, outside the table's lock (pages of the table are served
meanwhile); its decision is taken only if the table is still at the version it thought about (an undo in
between makes it think again). Each task is one decision, after which the table queues again, so the
tables waiting for their bots take turns on the threads. A job runs in a process of its own (spawned, so that it shares nothing
with the server's threads), reports its progress through a pipe, and is stopped when it runs longer than
its limit; at most `workers` run at once and `waiting` wait, and a finished job's result is kept for
`keep_seconds` (at most `keep` of them).
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor

from .websecurity import new_token


class BotPool:
    def __init__(self, threads: int, saved=None):
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="meeple-bot") if threads > 0 else None
        self.saved = saved or (lambda table: None)
        self.pending: set[str] = set()
        self.lock = threading.Lock()

    def kick(self, table) -> None:
        """Let the bots play at `table` until a person must decide (at once when there are no threads)."""
        if self.executor is None:
            while self._one(table):
                pass
            return
        with self.lock:
            if table.id in self.pending or not table.bot_due():
                return
            self.pending.add(table.id)
        self.executor.submit(self._run, table)

    def _run(self, table) -> None:
        """One bot decision, then the table goes to the back of the queue: a table of bots thinking for
        minutes shares the threads with every other table instead of holding one."""
        try:
            with self.lock:
                if not table.bot_due():
                    self.pending.discard(table.id)
                    return
            self._one(table)
            self.executor.submit(self._run, table)
        except BaseException:
            with self.lock:
                self.pending.discard(table.id)
            raise

    def _one(self, table) -> bool:
        from ..players.bots import decide

        turn = table.bot_turn()
        if turn is None:
            return False
        seat, version, state, legal = turn
        action = decide(table.bots[seat], table.game, state, legal)
        if table.bot_move(seat, version, action):
            self.saved(table)
        return True

    def idle(self, timeout: float = 60.0) -> bool:
        """Wait until no bot is thinking (tests); whether it came to that."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                if not self.pending:
                    return True
            time.sleep(0.01)
        return False

    def shutdown(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


class Busy(Exception):
    """Too many jobs wait already."""


class Job:
    def __init__(self, kind: str, params: dict, total: int):
        self.id = new_token(12)
        self.kind, self.params, self.total = kind, params, max(1, total)
        self.state, self.done = "waiting", 0
        self.result: dict | None = None
        self.error: str | None = None
        self.started = self.finished = None
        self.made = time.time()

    def as_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done, "total": self.total,
                "error": self.error}


class Jobs:
    def __init__(self, workers: int, waiting: int, seconds: float, keep: int, keep_seconds: float):
        self.workers, self.waiting, self.seconds = max(1, workers), waiting, seconds
        self.keep, self.keep_seconds = keep, keep_seconds
        self.queue: deque[Job] = deque()
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.running = 0
        self.lock = threading.Condition()

    def submit(self, kind: str, params: dict, total: int) -> str:
        job = Job(kind, params, total)
        with self.lock:
            self._expire()
            if len(self.queue) >= self.waiting:
                raise Busy()
            self.jobs[job.id] = job
            self.queue.append(job)
            if self.running < self.workers:
                self.running += 1
                threading.Thread(target=self._worker, name="meeple-job", daemon=True).start()
        return job.id

    def get(self, jid: str) -> Job | None:
        with self.lock:
            self._expire()
            return self.jobs.get(jid)

    def _expire(self) -> None:
        now = time.time()
        finished = [j for j in self.jobs.values() if j.finished is not None]
        for j in finished:
            if now - j.finished > self.keep_seconds:
                del self.jobs[j.id]
        finished = [j for j in self.jobs.values() if j.finished is not None]
        for j in finished[:max(0, len(finished) - self.keep)]:
            del self.jobs[j.id]

    def _worker(self) -> None:
        while True:
            with self.lock:
                if not self.queue:
                    self.running -= 1
                    return
                job = self.queue.popleft()
                job.state, job.started = "running", time.time()
            self._run(job)

    def _run(self, job: Job) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        here, there = ctx.Pipe(duplex=False)
        process = ctx.Process(target=job_main, args=(job.kind, job.params, there), daemon=True)
        process.start()
        there.close()
        deadline = time.monotonic() + self.seconds
        state, result, error = "failed", None, "the job ended without a result"
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    state, error = "stopped", f"stopped after {self.seconds:g} s (the server's limit)"
                    break
                if not here.poll(min(left, 1.0)):
                    if not process.is_alive() and not here.poll(0):
                        break
                    continue
                try:
                    kind, value = here.recv()
                except EOFError:
                    break
                if kind == "progress":
                    job.done = min(job.total, job.done + value)
                elif kind == "done":
                    state, result, error = "done", value, None
                    break
                else:
                    error = value
                    break
        finally:
            if process.is_alive():
                process.terminate()
            process.join(5)
            here.close()
        with self.lock:
            job.state, job.result, job.error, job.finished = state, result, error, time.time()


def job_main(kind: str, params: dict, conn) -> None:
    """The body of a job's process: run it, send ("progress", n) as it goes, then ("done", result) or
    ("error", message)."""
    def tick(*_):
        conn.send(("progress", 1))

    try:
        if kind == "verify":
            from ..analysis.verify import report_text, verify

            conn.send(("done", {"report": report_text(verify(params["folder"], games=params["games"],
                                                              progress=tick))}))
        elif kind == "compare":
            conn.send(("done", _compare(params, tick)))
        else:
            conn.send(("error", f"no job of kind {kind}"))
    except Exception as exc:  # the job's own failure: its message, never a traceback
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _compare(params: dict, tick) -> dict:
    import base64
    import tempfile
    from pathlib import Path

    from ..analysis.compare import compare, compare_text, plot
    from ..game import load_game

    base = load_game(params["folder"])
    variant = load_game(params["folder"], variant=[params["variant_file"]])
    result = compare(base, variant, params["players"], params["games"], progress=tick)
    label = base.name.get("en")
    report = compare_text(result, label, params["variant"])
    image = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / "compare.png"
            plot(result, target, base_label=label, variant_label=params["variant"])
            image = base64.b64encode(target.read_bytes()).decode()
    except ImportError:
        report += "\n(matplotlib is not installed: no plot)"
    return {"report": report, "image": image}
