"""parallel: games spread over local processes or a Dask cluster give exactly the serial results."""
import pytest

from conftest import ROOT
from interpreter.players.bots import make_bot
from interpreter.cli import main
from interpreter.analysis.compare import compare
from interpreter.game import load_game
from interpreter.analysis.parallel import ParallelError, game_record, play_many
from interpreter.analysis.simulate import simulate

MARKET_DAY = ROOT / "examples" / "market_day"


@pytest.fixture(scope="module")
def market_day():
    return load_game(MARKET_DAY)


def without_time(summary):
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_records_come_back_in_seed_order_whatever_the_number_of_processes(market_day):
    serial = play_many(market_day, 3, range(5, 25), "random", jobs=1)
    spread = play_many(market_day, 3, range(5, 25), "random", jobs=2)
    assert [r["seed"] for r in spread] == list(range(5, 25))
    assert spread == serial


def test_a_record_holds_figures_not_a_state(market_day):
    record = game_record(market_day, 2, seed=3)
    assert set(record) == {"seed", "decisions", "scores", "winners", "ends"}
    assert record["seed"] == 3 and len(record["scores"]) == 2


def test_simulate_on_two_processes_equals_the_serial_run(market_day):
    serial = simulate(market_day, 3, games=16, seed=2, bot="greedy", jobs=1, measure="price[apple]")
    spread = simulate(market_day, 3, games=16, seed=2, bot="greedy", jobs=2, measure="price[apple]")
    assert without_time(spread) == without_time(serial)
    assert serial["measure"]["expr"] == "price[apple]"


def test_progress_is_called_once_per_game_in_seed_order(market_day):
    seen = []
    simulate(market_day, 2, games=6, seed=10, jobs=2, progress=lambda i, record: seen.append((i, record["seed"])))
    assert seen == [(i, 10 + i) for i in range(6)]


def test_compare_on_two_processes_equals_the_serial_run(market_day):
    serial = compare(market_day, market_day, 2, games=8, seed=1, jobs=1)
    spread = compare(market_day, market_day, 2, games=8, seed=1, jobs=2)
    assert spread == serial


def test_a_metered_game_plays_in_other_processes_with_its_meter(market_day, tmp_path):
    from interpreter.analysis import parallel

    bonus = tmp_path / "bonus.yaml"
    bonus.write_text("overlay: {base: market_day, label: Bonus}\nset:\n  parameters.sale_bonus.default: 1\n")
    variant = load_game(MARKET_DAY, [bonus])
    serial = compare(market_day, variant, 2, games=6, seed=1, jobs=1)
    assert compare(market_day, variant, 2, games=6, seed=1, jobs=2) == serial  # forked: the metered game itself
    metered = variant.metered({("param", "sale_bonus")})
    origin = parallel._origin(metered)
    assert origin[3] == (("param", "sale_bonus"),)
    again = parallel._load(*origin)  # where a worker loads the game again (spawn, Dask)
    assert again.meter_names == metered.meter_names and again.world.meter is not None
    assert parallel._play_batch_dask([3], origin, {"players": 2, "bot": "random", "options": None,
                                                   "max_decisions": 10_000, "usage": True})[0]["usage"] == \
        game_record(metered, 2, 3, usage=True)["usage"]


def test_bot_objects_play_only_serially(market_day):
    bots = [make_bot("random", 1), make_bot("random", 2)]
    assert len(play_many(market_day, 2, [1], bots, jobs=1)) == 1
    with pytest.raises(ParallelError, match="bot names"):
        play_many(market_day, 2, [1, 2], bots, jobs=2)


def test_a_game_not_loaded_from_files_cannot_go_to_a_cluster(market_day):
    class Unloaded:
        origin = None

    with pytest.raises(ParallelError, match="not loaded from files"):
        play_many(Unloaded(), 2, [1, 2], dask="tcp://127.0.0.1:1")


@pytest.mark.parametrize("argv, message", [
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--jobs", "2", "--dask", "tcp://127.0.0.1:1"], "exclude each other"),
])
def test_cli_rejects_bad_scale_flags(capsys, argv, message):
    code = main(["simulate", str(MARKET_DAY), "--players", "2", "--games", "2", *argv])
    assert code == 2
    assert message in capsys.readouterr().err


def test_cli_simulate_with_jobs_prints_the_serial_figures(capsys):
    outputs = []
    for jobs in ("1", "2"):
        assert main(["simulate", str(MARKET_DAY), "--players", "3", "--games", "6", "--json", "--jobs", jobs]) == 0
        outputs.append(without_time(__import__("json").loads(capsys.readouterr().out)))
    assert outputs[0] == outputs[1]


def test_a_local_dask_cluster_gives_the_serial_results(market_day):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_cluster = simulate(market_day, 3, games=12, seed=4, jobs=1, dask=cluster.scheduler_address)
        records = play_many(market_day, 3, range(4, 16), "random", dask=cluster.scheduler_address)
    assert without_time(on_cluster) == without_time(simulate(market_day, 3, games=12, seed=4, jobs=1))
    # the records themselves, in seed order (a summary would not see two games' records swapped)
    assert records == play_many(market_day, 3, range(4, 16), "random", jobs=1)


def test_a_worker_with_another_copy_of_the_game_refuses_to_play(market_day, tmp_path):
    from interpreter.analysis import parallel

    root, variants, digest, meter = parallel._origin(market_day)
    assert meter == ()  # a game without a read meter
    with pytest.raises(ParallelError, match="differs"):
        parallel._play_batch_dask([1], (root, variants, "0" * 64), {"players": 2, "bot": "random", "options": None, "max_decisions": 100})
    assert parallel._play_batch_dask([1], (root, variants, digest), {"players": 2, "bot": "random", "options": None, "max_decisions": 10_000})[0]["seed"] == 1


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_the_records_of_the_games_that_ended(market_day, jobs):
    from interpreter.analysis.parallel import Interrupted
    seen = []

    def progress(record):
        seen.append(record["seed"])
        if len(seen) == 5:
            raise KeyboardInterrupt
    with pytest.raises(Interrupted) as stop:
        play_many(market_day, 2, range(1, 41), "random", jobs=jobs, progress=progress)
    kept = [r["seed"] for r in stop.value.partial]
    assert kept == seen and kept[:5] == [1, 2, 3, 4, 5] and kept == sorted(kept)
    full = {r["seed"]: r for r in play_many(market_day, 2, range(1, 41), "random", jobs=1)}
    assert all(r == full[r["seed"]] for r in stop.value.partial)


def test_an_interrupted_simulation_reports_the_games_that_ended_marked_partial(market_day):
    from interpreter.analysis.parallel import Interrupted
    from interpreter.analysis.ladder import ladder

    def progress(i, record):
        if i == 3:
            raise KeyboardInterrupt
    with pytest.raises(Interrupted) as stop:
        simulate(market_day, 2, games=20, seed=1, progress=progress)
    partial = stop.value.partial
    assert partial["partial"] is True and partial["completed"] == 4 and partial["games"] == 20
    assert without_time(dict(partial, partial=None)) == without_time(dict(simulate(market_day, 2, games=4, seed=1),
                                                                        games=20, partial=None))
    calls = []

    def count(record):
        calls.append(record)
        if len(calls) == 7:
            raise KeyboardInterrupt
    with pytest.raises(Interrupted) as stop:
        ladder(market_day, 2, 4, ["random", "greedy", "greedy:depth=1"], progress=count)
    result = stop.value.partial
    assert result["partial"] is True and [p["completed"] for p in result["pairs"]] == [4, 3]


def test_a_long_run_comes_back_in_batches_small_enough_to_keep_on_an_interrupt():
    """About BATCH_TARGET batches per worker, but never more than BATCH_MAX games in one: a batch comes
    back (and is kept when the run is interrupted) only once all its games are played."""
    from interpreter.analysis.parallel import BATCH_MAX, BATCH_TARGET, split
    seeds = list(range(1, 100_001))
    batches = split(seeds, 2)
    assert max(len(b) for b in batches) == BATCH_MAX
    assert [s for b in batches for s in b] == seeds
    few = split(list(range(1, 41)), 2)  # 40 // (2 workers x BATCH_TARGET) games a batch
    assert [len(b) for b in few] == [40 // (2 * BATCH_TARGET)] * 20
    assert [s for b in few for s in b] == list(range(1, 41))
