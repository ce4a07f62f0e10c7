"""Training a value model (interpreter/analysis/train.py, `meeple train`): reproducible, targets that are
the seat's own outcome, and a command that writes the model beside the game."""

import json
import subprocess
import sys

import pytest

from interpreter.game import load_game
from interpreter.analysis.train import Normal, self_play, train, initial_model

from games import write_game
from test_learned import INVEST


@pytest.fixture(scope="module")
def invest(tmp_path_factory):
    return write_game(tmp_path_factory.mktemp("train"), INVEST)


def test_the_same_seed_and_games_give_the_same_model_on_any_number_of_processes(invest):
    game = load_game(invest)
    one = train(game, [2], seed=3, games=24, generation_games=8, jobs=1)
    two = train(game, [2], seed=3, games=24, generation_games=8, jobs=2)
    assert one.heads == two.heads and one.length == two.length
    other = train(game, [2], seed=4, games=24, generation_games=8, jobs=1)
    assert other.heads != one.heads


def test_a_budget_of_whole_generations_plays_whole_generations_at_every_count(tmp_path):
    """Sixteen games at 2 and 3 players, four per count and generation: two generations of eight, the
    same games a time budget stopping after two generations plays (the counts' shares are taken from
    what the budget leaves at the generation's start: taken count by count, the 3-player games of the
    second generation were cut to two and a third generation of two games followed)."""
    game = load_game(write_game(tmp_path, INVEST.replace("players: [2]", "players: [2, 3]")))
    model = train(game, [2, 3], seed=3, games=16, generation_games=4, jobs=1)
    assert [h["games"] for h in model.trained["history"]] == [8, 16]


def test_a_rows_targets_are_its_seats_final_score_and_share_of_the_win(invest):
    game = load_game(invest)
    model = initial_model(game, [2])
    rec = self_play(game, 2, seed=5, model_json=model.to_json(), explore=0.0, every=1, lam=1.0)
    finals = rec["finals"]
    assert len(rec["rows"]) == len(rec["targets"]) == 2 * rec["decisions"]
    for (seat, _idx, _vals), target in zip(rec["rows"], rec["targets"]):
        assert target == finals[seat]
    assert sorted(f[1] for f in finals.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_lambda_returns_lean_on_the_model_for_the_positions_that_follow(invest):
    """With λ < 1 an early row's target mixes in what the model predicted later; the last rows' targets
    are still the final values."""
    game = load_game(invest)
    model = initial_model(game, [2])
    mc = self_play(game, 2, seed=5, model_json=model.to_json(), explore=0.0, every=1, lam=1.0)
    td = self_play(game, 2, seed=5, model_json=model.to_json(), explore=0.0, every=1, lam=0.5)
    assert [r[1] for r in mc["rows"]] == [r[1] for r in td["rows"]]  # the same game
    assert td["targets"][-2:] == mc["targets"][-2:]
    assert td["targets"][0] != mc["targets"][0]


def test_the_normal_equations_solve_a_known_regression():
    """y = 2 x0 - 3 x1 + 1 on exact rows: the ridge solution comes close (the penalty is small)."""
    normal = Normal(("score",))
    rows, ys = [], []
    for i in range(400):
        x0, x1 = (i % 7) / 3.0, (i % 11) / 5.0
        rows.append((0, (0, 1, 2), (x0, x1, 1.0)))
        ys.append(2 * x0 - 3 * x1 + 1)
    normal.add(rows, {"score": ys})
    w = normal.solve(1e-6, prior=0.0)["score"]
    assert w[0] == pytest.approx(2, abs=0.05) and w[1] == pytest.approx(-3, abs=0.05) and w[2] == pytest.approx(1, abs=0.1)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_train_command_writes_the_model_beside_the_game_and_says_how_it_was_made(invest):
    r = run_cli("train", str(invest), "--players", "2", "--games", "8", "--generation-games", "4", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    path = invest / "models" / "value-2p.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"] == [2] and data["trained"]["games"] == 8 and data["trained"]["generations"] == 2
    assert data["trained"]["command"].startswith("meeple train ") and "--games 8" in data["trained"]["command"]
    assert "value model for 2 players" in r.stdout


def test_expert_iteration_plays_the_later_generations_with_the_search_the_model_guides(invest):
    """With an expert the games after the first generation are the search bot's (other games than the
    learned bot's, the same on any number of processes), and the model says it was made so."""
    game = load_game(invest)
    model = initial_model(game, [2]).to_json()
    learned = self_play(game, 2, seed=5, model_json=model, explore=0.0, every=1)
    searched = self_play(game, 2, seed=5, model_json=model, explore=0.0, every=1, expert="search:iterations=8")
    again = self_play(game, 2, seed=5, model_json=model, explore=0.0, every=1, expert="search:iterations=8")
    assert [r[1:] for r in searched["rows"]] == [r[1:] for r in again["rows"]]
    assert [r[1:] for r in searched["rows"]] != [r[1:] for r in learned["rows"]]
    one = train(game, [2], seed=3, games=16, generation_games=8, jobs=1, expert="search:iterations=8")
    two = train(game, [2], seed=3, games=16, generation_games=8, jobs=2, expert="search:iterations=8")
    plain = train(game, [2], seed=3, games=16, generation_games=8, jobs=1)
    assert one.heads == two.heads != plain.heads
    assert one.trained["expert"] == "search:iterations=8" and "expert" not in plain.trained


@pytest.mark.parametrize("args, words", [
    (["--players", "2", "--expert", "greedy"], "learned or search"),
    (["--players", "2", "--expert", "search:depth=x"], "--expert: bot"),
    (["--players", "9"], "takes 2 players"),
    (["--players", "two"], "a count or counts"),
    (["--players", "2", "--games", "0"], "--games must be at least 1"),
    (["--players", "2", "--minutes", "-1"], "--minutes must be positive"),
    (["--players", "2", "--average", "run1.json", "--games", "8"], "--average plays no game: --games"),
])
def test_the_train_command_refuses_bad_arguments_with_a_message(invest, args, words):
    r = run_cli("train", str(invest), *args)
    assert r.returncode == 2 and words in r.stderr


def test_a_local_dask_cluster_trains_the_model_of_a_serial_run(invest):
    distributed = pytest.importorskip("distributed")
    game = load_game(invest)
    serial = train(game, [2], seed=3, games=16, generation_games=8, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        spread = train(game, [2], seed=3, games=16, generation_games=8, dask=cluster.scheduler_address)
    assert spread.heads == serial.heads


def test_a_self_play_game_that_would_not_end_is_stopped_and_nobody_wins_it(tmp_path):
    """Two bots whose model prefers waiting would play until the round limit; self-play stops the game at
    STALL_LENGTHS of the model's usual length and learns from it: nobody wins, each keeps its points."""
    from interpreter.players.valuemodel import ValueModel, rules_hash
    from test_learned import STALL
    game = load_game(write_game(tmp_path, STALL))
    hate_going = {f"{b}.var.goes": -1.0 for b in ("early", "middle", "late")}
    model = ValueModel(game.id, rules_hash(game), [2], {"score": hate_going, "result": {}}, {2: 10.0}, scale=1.0,
                       trained={"generations": 1, "games": 10})
    rec = self_play(game, 2, 1, model.to_json(), explore=0.0, every=1, lam=1.0)
    assert rec["stalled"] and rec["decisions"] == 30
    assert all(result == 0.0 for _, result in rec["targets"]) and rec["targets"]
    untrained = ValueModel(game.id, rules_hash(game), [2], {"score": hate_going, "result": {}}, {2: 10.0},
                           scale=1.0, trained={"generations": 0})  # generation 1's: its length is no measure
    rec = self_play(game, 2, 1, untrained.to_json(), explore=0.0, every=1, lam=1.0)
    assert not rec["stalled"] and rec["decisions"] > 30   # played on (until the bots' own random moves end it)


def test_the_train_command_averages_models_of_other_seeds_and_says_what_it_averaged(invest, tmp_path):
    """`--average` writes the mean of models made before (each checked against the rules and the counts),
    naming each one's command, instead of playing."""
    files = []
    for seed in (1, 2):
        files.append(tmp_path / f"run{seed}.json")
        r = run_cli("train", str(invest), "--players", "2", "--games", "8", "--generation-games", "4",
                    "--seed", str(seed), "--jobs", "1", "--output", str(files[-1]))
        assert r.returncode == 0, r.stderr
    out = tmp_path / "mean.json"
    r = run_cli("train", str(invest), "--players", "2", "--average", *map(str, files), "--output", str(out))
    assert r.returncode == 0, r.stderr
    assert "the mean of 2 models" in r.stdout
    runs = [json.loads(f.read_text(encoding="utf-8")) for f in files]
    mean = json.loads(out.read_text(encoding="utf-8"))
    for name, w in mean["heads"]["score"].items():
        assert w == pytest.approx(sum(run["heads"]["score"].get(name, 0.0) for run in runs) / 2, abs=1e-8)
    assert [a["command"] for a in mean["trained"]["averaged"]] == [run["trained"]["command"] for run in runs]
    assert mean["trained"]["games"] == 16 and "--average run1.json run2.json" in mean["trained"]["command"]
    r = run_cli("train", str(invest), "--players", "3", "--average", str(files[0]))
    assert r.returncode == 2 and "takes 2 players" in r.stderr
    runs[1]["rules_hash"] = "0" * 64
    files[1].write_text(json.dumps(runs[1]), encoding="utf-8")
    r = run_cli("train", str(invest), "--players", "2", "--average", *map(str, files))
    assert r.returncode == 2 and "--average" in r.stderr and "other rules" in r.stderr
