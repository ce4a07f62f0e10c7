"""Work off the request thread: a bot thinks on a worker thread while the request that handed it the
turn has returned (and its decision is dropped when the position is gone); verify and compare jobs run
in processes of their own, limited in number and in time, with their progress."""
import threading
import time

import pytest

from interpreter.table.tables import Table
from interpreter.table.webjobs import BotPool, Busy, Jobs
from test_terminal_table import TALLY


def test_a_bot_thinks_off_the_request_thread_and_a_gone_position_drops_its_decision(tmp_path, monkeypatch):
    from games import make_game

    table = Table(make_game(tmp_path, TALLY), "tally", 2, 1, ["human", "random"], bots_now=False)
    thinking, go = threading.Event(), threading.Event()

    def slow_decide(bot, game, state, legal):
        thinking.set()
        go.wait(10)
        return legal[0]

    monkeypatch.setattr("interpreter.players.bots.decide", slow_decide)
    pool = BotPool(threads=1)
    table.act(0, 1)
    started = time.perf_counter()
    pool.kick(table)
    assert time.perf_counter() - started < 0.5       # kick returns while the bot thinks
    assert thinking.wait(10)
    pool.kick(table)                                 # kicked again while it thinks: still one bot at work
    assert pool.pending == {table.id} and pool.executor._work_queue.qsize() == 0
    table.undo(0)                                    # the position the bot thinks about is gone
    go.set()
    assert pool.idle(10)
    assert table.to_move() == 0 and [a["seat"] for a in table.record["actions"]] == []
    pool.shutdown()


def wait(jobs, jid, timeout=120):
    end = time.monotonic() + timeout
    while jobs.get(jid).state in ("waiting", "running") and time.monotonic() < end:
        time.sleep(0.1)
    return jobs.get(jid)


def test_a_job_runs_in_its_own_process_with_its_progress_and_result():
    from interpreter.game import find_game

    jobs = Jobs(workers=1, waiting=2, seconds=120, keep=5, keep_seconds=600)
    jid = jobs.submit("verify", {"folder": str(find_game("phoenicia")), "games": 1}, total=5)
    job = wait(jobs, jid)
    assert job.state == "done" and "meeple verify phoenicia" in job.result["report"] and job.done >= 1


def test_jobs_are_limited_in_number_and_in_time():
    from interpreter.game import find_game

    jobs = Jobs(workers=1, waiting=1, seconds=1, keep=5, keep_seconds=600)
    folder = str(find_game("puerto_rico"))
    first = jobs.submit("verify", {"folder": folder, "games": 20}, total=60)
    time.sleep(0.2)                                   # the first is running; one may wait
    jobs.submit("verify", {"folder": folder, "games": 20}, total=60)
    with pytest.raises(Busy):
        jobs.submit("verify", {"folder": folder, "games": 20}, total=60)
    job = wait(jobs, first)
    assert job.state == "stopped" and "limit" in job.error


def test_finished_jobs_are_kept_a_while_and_in_number():
    jobs = Jobs(workers=1, waiting=5, seconds=10, keep=1, keep_seconds=600)
    a = jobs.submit("nothing", {}, 1)
    wait(jobs, a)
    b = jobs.submit("nothing", {}, 1)
    wait(jobs, b)
    assert jobs.get(a) is None and jobs.get(b).state == "failed"
    jobs.keep_seconds = -1
    assert jobs.get(b) is None


def test_tables_of_bots_take_turns_on_the_threads(tmp_path, monkeypatch):
    from games import make_game
    from interpreter.players import bots

    game = make_game(tmp_path, TALLY)
    tables = [Table(game, "tally", 2, seed, ["random", "random"], bots_now=False) for seed in (1, 2)]
    order = []
    real = bots.decide
    kicked = threading.Event()  # the first decision waits until both tables are queued (a loaded machine
                                # could otherwise play the first table's game before the second is kicked)

    def noted(bot, game, state, legal):
        kicked.wait(10)
        order.append(next(t.id for t in tables if t.bots[state.flow[-1][1]] is bot))
        return real(bot, game, state, legal)

    monkeypatch.setattr(bots, "decide", noted)
    pool = BotPool(threads=1)
    for t in tables:
        pool.kick(t)
    kicked.set()
    assert pool.idle(30) and all(t.over for t in tables)
    first = order[:6]
    assert set(first) == {t.id for t in tables}, "one table held the thread"
    pool.shutdown()
