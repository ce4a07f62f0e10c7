"""The command line: every command, its output and its exit codes (0 ok, 1 failures, 2 usage/IO)."""
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAME = "puerto_rico"
COMMANDS = ["validate", "play", "simulate", "replay", "bench", "serve", "schema"]


def run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ----------------------------------------------------------------------------------------- help

def test_help_lists_every_command(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s+\S", out, re.M), command


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_help(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and out.startswith(f"usage: meeple {command}")


def test_schema_help_gives_the_editor_line(capsys):
    _, out, _ = run(capsys, "schema", "--help")
    assert "# yaml-language-server: $schema=" in out


def test_module_entry_point_runs():
    done = subprocess.run([sys.executable, "-m", "interpreter", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "simulate" in done.stdout


def test_usage_errors_exit_2(capsys):
    assert run(capsys)[0] == 2
    assert run(capsys, "frobnicate")[0] == 2
    assert run(capsys, "simulate", GAME)[0] == 2  # --players and --games missing


# -------------------------------------------------------------------------------------- validate

def test_validate_missing_path_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "validate", str(tmp_path / "no_such_game"))
    assert code == 2
    assert "no such game or path" in err
    assert "Traceback" not in err


def test_validate_shipped_game_exits_0(capsys):
    code, out, err = run(capsys, "validate", str(ROOT / "gamedefs" / GAME))
    assert code == 0, out + err
    assert "ok" in out


def test_validate_by_name_and_by_file(capsys):
    assert run(capsys, "validate", GAME)[0] == 0
    some_file = sorted((ROOT / "gamedefs" / GAME).glob("*.yaml"))[0]
    assert run(capsys, "validate", str(some_file))[0] == 0


def test_validate_broken_definition_exits_1_with_located_problems(capsys, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(ROOT / "gamedefs" / GAME, broken)
    (broken / "zz_broken.yaml").write_text("tables:\n  oops: [1, 2\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(broken))
    assert code == 1
    assert re.search(r"zz_broken\.yaml:\d+:\d+: error: ", out), out
    assert "Traceback" not in out + err


def test_validate_mixed_paths_exit_with_the_worst_code(capsys, tmp_path):
    code, out, _ = run(capsys, "validate", GAME, str(tmp_path / "missing"))
    assert code == 2 and "ok" in out


# ------------------------------------------------------------------------------------------ play

def test_play_all_bots_narrates_and_scores(capsys, tmp_path):
    record = tmp_path / "actions.txt"
    code, out, err = run(capsys, "play", GAME, "--players", "3", "--seed", "2", "--record", str(record))
    assert code == 0, err
    assert re.search(r"^  Player [123]: \S", out, re.M)
    assert "Final scores:" in out and "Winner" in out
    assert len(record.read_text().split("\n- seat:")) > 10   # a record with its actions


def test_play_ends_with_the_rating_of_a_game_that_rates_its_scores(capsys):
    code, out, err = run(capsys, "play", "la_granja_no_siesta", "--players", "1", "--seed", "3", "--quiet",
                         "--lang", "zh")
    assert code == 0, err
    assert re.search(r"^玩家1的评级：\S", out, re.M)
    assert "練習" in out or "農夫" in out or "大莊園" in out or "另眼相看" in out


def test_play_bad_players_is_a_usage_error(capsys):
    code, _, err = run(capsys, "play", GAME, "--players", "1")
    assert code == 2 and "players" in err


def test_play_bad_seat_is_a_usage_error(capsys):
    assert run(capsys, "play", GAME, "--players", "3", "--seat", "9=human")[0] == 2
    assert run(capsys, "play", GAME, "--players", "3", "--seat", "1=wizard")[0] == 2


def test_play_human_menu_help_view_reprompt_quit(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("?\nv\nbanana\n999\n1\nq\n"))
    code, out, _ = run(capsys, "play", GAME, "--players", "3", "--seed", "1", "--seat", "1=human",
                       "--seat", "2=human", "--seat", "3=human")
    assert code == 0
    assert re.search(r"^\s+1\) \S", out, re.M)           # a numbered menu with labels
    assert "type the number of a choice" in out.lower()   # ? help
    assert out.count("Please type one of the numbers") == 2  # banana, 999
    assert "Game abandoned after 1 decision(s)." in out


def test_play_human_input_ending_exits_1(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, out, _ = run(capsys, "play", GAME, "--players", "3", "--seed", "1", "--seat", "1=human")
    assert code == 1 and "Game abandoned" in out


# -------------------------------------------------------------------------------------- simulate

def test_simulate_small_run_completes(capsys):
    code, out, err = run(capsys, "simulate", GAME, "--players", "4", "--games", "2", "--seed", "5", "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["completed"] == 2 and summary["errors"] == []
    assert sum(summary["win_rate"]) == pytest.approx(1.0)
    assert len(summary["score_mean"]) == 4
    assert 0 < summary["decisions"]["min"] <= summary["decisions"]["mean"] <= summary["decisions"]["max"]


def test_simulate_text_report(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "-p", "3", "--games", "1", "--bot", "greedy")
    assert code == 0
    assert "completed: 1/1" in out and "win rate" in out and "errors: none" in out


def test_simulate_mixed_seats(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "-p", "3", "--games", "1", "--bot", "random", "--seat", "2=greedy",
                       "--json")
    assert code == 0
    assert json.loads(out)["bot"] == ["random", "greedy", "random"]


def test_simulate_without_a_bot_plays_the_strongest_that_fits_and_says_which(capsys, tmp_path):
    """The learned bot where the game has a model for the count, else greedy looking one decision on."""
    import shutil
    game = tmp_path / "market_day"
    shutil.copytree(ROOT / "examples" / "market_day", game)
    code, out, err = run(capsys, "simulate", str(game), "-p", "2", "--games", "1", "--json")
    assert code == 0 and json.loads(out)["bot"] == "greedy:depth=1"
    assert "bots: greedy:depth=1 (no trained model for market_day at 2 players" in err
    assert run(capsys, "train", str(game), "-p", "2", "--games", "4", "--generation-games", "2", "--jobs", "1")[0] == 0
    code, out, err = run(capsys, "simulate", str(game), "-p", "2", "--games", "1", "--json")
    assert code == 0 and json.loads(out)["bot"] == "learned"
    assert "bots: learned, with the model of market_day for 2 players" in err
    assert run(capsys, "simulate", GAME, "-p", "3", "--games", "1", "--seat", "2=human")[0] == 2


# ---------------------------------------------------------------------------------------- replay

def test_replay_reproduces_the_original_final_state(capsys, tmp_path):
    from interpreter.game import load_game
    from interpreter.engine.playout import play_game

    game = load_game(GAME)
    original = play_game(game, 4, seed=9, bots="random")
    actions = tmp_path / "actions.txt"
    actions.write_text("# a recorded game\n" + "\n".join(original["actions"]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", GAME, "--players", "4", "--seed", "9", "--actions", str(actions),
                         "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["over"] is True
    assert report["applied"] == len(original["actions"])
    assert report["state"] == json.loads(json.dumps(game.to_json(original["state"])))
    assert report["outcome"]["scores"] == original["outcome"]["scores"]


def test_play_record_replays_to_the_same_end(capsys, tmp_path):
    record = tmp_path / "rec.txt"
    code, played, _ = run(capsys, "play", GAME, "-p", "3", "-s", "4", "--record", str(record), "--quiet")
    assert code == 0
    code, replayed, err = run(capsys, "replay", GAME, "-p", "3", "-s", "4", "--actions", str(record))
    assert code == 0, err
    final = played[played.index("Final scores:"):played.index(" decisions.")].rsplit("\n", 1)[0]
    assert final in replayed


def test_replay_json_list_of_a_prefix_leaves_the_game_going(capsys, tmp_path):
    from interpreter.game import load_game

    game = load_game(GAME)
    first = game.legal_actions(game.new_game(players=3, seed=1))[0]
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([first]), encoding="utf-8")
    code, out, err = run(capsys, "replay", GAME, "-p", "3", "-s", "1", "-a", str(actions))
    assert code == 0, err
    assert "The game goes on" in out


def test_replay_illegal_action_reports_index_and_exits_1(capsys, tmp_path):
    from interpreter.game import load_game

    game = load_game(GAME)
    first = game.legal_actions(game.new_game(players=3, seed=1))[0]["id"]
    actions = tmp_path / "bad.txt"
    actions.write_text(f"{first}\nno_such_action(x=1)\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", GAME, "-p", "3", "-s", "1", "-a", str(actions))
    assert code == 1
    assert "action 2 (no_such_action(x=1)): illegal" in err


def test_replay_unreadable_file_exits_2(capsys, tmp_path):
    assert run(capsys, "replay", GAME, "-p", "3", "-s", "1", "-a", str(tmp_path / "none.txt"))[0] == 2
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    assert run(capsys, "replay", GAME, "-p", "3", "-s", "1", "-a", str(bad))[0] == 2


# ----------------------------------------------------------------------------------------- bench

def test_bench_prints_its_figures(capsys):
    code, out, err = run(capsys, "bench", GAME, "--players", "3", "--games", "1")
    assert code == 0, err
    for figure in ("load + compile", "decisions/s", "games/s", "µs per decision", "peak RSS"):
        assert figure in out


def test_bench_json(capsys):
    code, out, _ = run(capsys, "bench", GAME, "-p", "4", "-k", "1", "--json")
    assert code == 0
    figures = json.loads(out)
    assert figures["decisions"] > 0 and figures["decisions_per_second"] > 0 and figures["load_ms"] > 0


# ---------------------------------------------------------------------------------------- schema

def test_schema_prints_json(capsys):
    code, out, _ = run(capsys, "schema")
    assert code == 0
    assert isinstance(json.loads(out), dict)


def test_schema_output_file(capsys, tmp_path):
    target = tmp_path / "gamedef.schema.json"
    code, _, err = run(capsys, "schema", "--output", str(target))
    assert code == 0 and json.loads(target.read_text(encoding="utf-8"))
    assert f"$schema={target}" in err
    assert run(capsys, "schema", "--output", str(tmp_path / "no" / "dir" / "x.json"))[0] == 2


def test_a_person_at_a_seat_does_not_see_the_others_hidden_chips(monkeypatch, capsys):
    from interpreter.game import load_game
    game = load_game("puerto_rico")
    s = game.new_game(3, seed=1)
    # give every seat some chips, then describe the position for seat 1
    slot = game.world.pvars["vp_chips"][0]
    for row in s.p:
        row[slot] = 7
    text = game.describe(s, viewer=0)
    lines = [ln for ln in text.splitlines() if ln.strip().startswith("Player")]
    assert "vp_chips=7" in lines[0]
    assert all("vp_chips" not in ln for ln in lines[1:])
    assert all("vp_chips=7" in ln for ln in game.describe(s).splitlines()[1:])


def test_simulate_reports_the_end_triggers_and_a_measure_of_the_final_states(capsys):
    code, out, _ = run(capsys, "simulate", "phoenicia", "-p", "2", "--games", "3", "--measure", "round", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["ends"] == {"vp_target_reached": 3}
    m = summary["measure"]
    assert m["expr"] == "round" and 1 <= m["min"] <= m["mean"] <= m["max"]
    code, out, _ = run(capsys, "simulate", "phoenicia", "-p", "2", "--games", "1", "--measure", "round")
    assert "ends: vp_target_reached 1" in out and "round at the end: mean" in out


def test_simulate_measure_with_a_mistake_is_a_usage_error(capsys):
    code, _, err = run(capsys, "simulate", "phoenicia", "-p", "2", "--games", "1", "--measure", "roundd")
    assert code == 2 and "--measure: 'roundd': unknown name 'roundd'; did you mean 'round'?" in err


# ------------------------------------------------------------------------------- a stranger's record

MARKET = str(ROOT / "examples" / "market_day")


@pytest.fixture(scope="module")
def market_record(tmp_path_factory):
    """A finished two-player game of Market Day with random bots, as a record's text."""
    path = tmp_path_factory.mktemp("record") / "game.yaml"
    assert main(["play", MARKET, "--players", "2", "--seed", "3", "--quiet", "--record", str(path)]) == 0
    return path.read_text(encoding="utf-8")


def changed(tmp_path, text, old, new, name="bad.yaml"):
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


BAD_RECORDS = [  # (what is changed, into what, exit code, the words of the message)
    ("  id: draw", "  id: fly_away", 1, "action 1 (fly_away): illegal: "),
    ("seed: 3", "seed: [1, 2]", 2, "the seed must be a whole number"),
    ("options: {}", "options: {nope: 3}", 2, "unknown option 'nope'"),
    ("players: 2\nseed: 3\nseats:\n- random\n- random", "players: 9\nseed: 3\nseats: [" + ", ".join(["random"] * 9) + "]", 2,
     "players, not 9"),
    ("path: " + MARKET, "path: nowhere", None, None),  # falls back on the game's id: fine
    ("game: market_day", "game: nothing_at_all", None, None),
]


@pytest.mark.parametrize("old, new, code, words", BAD_RECORDS)
def test_play_resume_answers_a_bad_record_as_replay_does(capsys, tmp_path, market_record, old, new, code, words):
    if old.startswith("path: "):
        old = next(line for line in market_record.splitlines() if line.startswith("path: "))
    path = changed(tmp_path, market_record, old, new)
    resumed = run(capsys, "play", "--resume", str(path), "--quiet")
    replayed = run(capsys, "replay", str(path))
    assert "internal error" not in resumed[2] + replayed[2]
    if code is None:
        return
    assert resumed[0] == replayed[0] == code
    line = text_line(path, new.splitlines()[0])
    for c, _, message in (resumed, replayed):
        assert re.search(rf"{re.escape(str(path))}:{line}:\d+: .*{re.escape(words)}", message), message


def text_line(path, text):
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_play_resume_locates_a_seat_that_is_no_player_kind(capsys, tmp_path, market_record):
    path = changed(tmp_path, market_record, "- random\n- random", "- random\n- wizard")
    code, _, message = run(capsys, "play", "--resume", str(path), "--quiet")
    assert code == 2 and f"{path}:{text_line(path, 'wizard')}:3: unknown bot 'wizard'" in message


def test_a_record_asks_a_bot_for_no_more_than_the_record_limits(capsys, tmp_path, market_record, monkeypatch):
    seats = []
    unfinished = market_record[:market_record.index("actions:")] + "actions: []\n"  # no decision made yet
    path = changed(tmp_path, unfinished, "- random\n- random", "- mcts:ms=20000,c=0.5\n- greedy:depth=50")

    class Stop(Exception):
        pass

    def caught(self, resume=None):
        seats.extend(self.setup.kinds)
        raise Stop
    monkeypatch.setattr("interpreter.table.terminal.TerminalTable.run", caught)
    with pytest.raises(Stop):
        main(["--debug", "play", "--resume", str(path), "--quiet"])
    assert seats == ["mcts:ms=1000,c=0.5", "greedy:depth=10"]
    message = capsys.readouterr().err
    assert f"{path}:{text_line(path, 'mcts')}:3: the record's bot mcts:ms=20000,c=0.5 may think longer" in message
    seats.clear()  # the command line chooses any bot, for the seat it names; the other keeps the record's
    with pytest.raises(Stop):
        main(["--debug", "play", "--resume", str(path), "--quiet", "--seat", "1=mcts:ms=5000"])
    assert seats == ["mcts:ms=5000", "greedy:depth=10"]


@pytest.mark.parametrize("command", ["play", "replay"])
def test_a_records_control_characters_are_shown_escaped_and_a_long_id_cut(capsys, tmp_path, market_record, command):
    path = changed(tmp_path, market_record, "  id: draw", '  id: "draw\\e[2J\\e[31m\\u202e\\a' + "x" * 5000 + '"')
    code, out, message = run(capsys, *(["play", "--resume"] if command == "play" else ["replay"]), str(path))
    assert code == 1
    assert "\x1b" not in out + message and "\x07" not in message and "\u202e" not in message
    assert "draw\\x1b[2J\\x1b[31m\\u202e\\x07xxx" in message and "… (5015 characters)" in message
    assert len(message) < 1000
    path = changed(tmp_path, market_record, "game: market_day", 'game: "g\\e[31m"', "game.yaml")
    path.write_text(path.read_text(encoding="utf-8").replace(f"path: {MARKET}", "path: nowhere"), encoding="utf-8")
    code, _, message = run(capsys, *(["play", "--resume"] if command == "play" else ["replay"]), str(path))
    assert code == 2 and "\x1b" not in message and "g\\x1b[31m" in message


@pytest.mark.parametrize("command", ["simulate", "ladder"])
def test_ctrl_c_during_a_parallel_run_keeps_the_games_that_ended_and_prints_a_partial_report(tmp_path, command):
    """Ctrl-C at the terminal (SIGINT to the whole process group): no worker's traceback, every game that
    ended is kept (simulate saves each record as it ends) and the report of them is printed, marked partial."""
    import os
    import signal
    import time
    saved = tmp_path / "games"
    argv = [sys.executable, "-m", "interpreter.cli", command, str(ROOT / "examples" / "market_day"), "--players", "2",
            "--games", "4000" if command == "simulate" else "100000", "--jobs", "2"]  # a ladder: ~1,000 games/s
    argv += ["--save-games", str(saved)] if command == "simulate" else ["--bots", "random,greedy"]
    # (Ctrl-C as at a terminal: a suite run as a shell's background job inherits SIGINT ignored, and
    # Python then never turns it into KeyboardInterrupt: the run went on to its end)
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until some games have ended
            time.sleep(0.5)
            if command == "ladder" or (saved.is_dir() and len(list(saved.glob("*.yaml"))) >= 20):
                if command == "ladder":
                    time.sleep(3)
                break
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "interrupted" in err
    assert "PARTIAL: interrupted" in out
    if command == "simulate":
        done = int(re.search(r"completed: (\d+)/4000", out).group(1))
        records = sorted(saved.glob("*.yaml"))
        assert 20 <= done < 4000 and len(records) == done
        assert not list(saved.glob(".record-*"))  # no half-written record
        assert main(["replay", str(records[-1])]) == 0
    else:
        # (which games ended before the interrupt depends on the machine: the ladder's figures keep them,
        # tests/test_parallel.py checks how many)
        assert 0 <= int(re.search(r"greedy against random: (\d+)/100000", out).group(1)) < 100000


def test_save_games_refuses_a_folder_that_holds_files_unless_overwrite(capsys, tmp_path):
    (tmp_path / "other-run.yaml").write_text("x", encoding="utf-8")
    args = ["simulate", str(ROOT / "examples" / "market_day"), "--players", "2", "--games", "2",
            "--save-games", str(tmp_path)]
    code, out, message = run(capsys, *args)
    assert code == 2 and "not empty" in message and "--overwrite" in message and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-run.yaml"]
    code, _, _ = run(capsys, *args, "--overwrite")
    assert code == 0 and len(list(tmp_path.glob("*.yaml"))) == 3
