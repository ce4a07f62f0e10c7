"""Playing at the terminal: the picture and a stable menu before each decision, undo, save and resume,
records that replay alone, and a Chinese table with no English word."""
import builtins
import io
import re
import sys

import pytest

from interpreter import cli
from interpreter.game import load_game
from interpreter.table.record import read_record
from interpreter.table.terminal import Numbering, Setup, TerminalTable
from interpreter.table.undo import Decision
from test_presentation import SHIPPED, english_words, first_table


class Person:
    """Replies to the table like a person would: the lowest number of the menu last shown (0, pass, only
    when it is the one choice), or the scripted replies first (None in the script: that lowest number)."""

    def __init__(self, stream, script=()):
        self.stream, self.script = stream, list(script)

    def __call__(self, prompt=""):
        self.stream.write(prompt)
        if self.script and self.script[0] is not None:
            return self.script.pop(0)
        if self.script:
            self.script.pop(0)
        shown = self.stream.getvalue()
        menu = shown[shown.rfind("\n", 0, shown.rfind(":\n  ")):]
        numbers = sorted(int(n) for n in re.findall(r"^\s+(\d+)\) ", menu, re.M))
        return str(next((n for n in numbers if n > 0), numbers[0]))


def play_cli(monkeypatch, *argv, script=()):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.setattr(builtins, "input", Person(stream, script))
    code = cli.main(list(argv))
    return code, stream.getvalue()


def test_numbers_stay_with_their_choices_while_a_seat_decides():
    n = Numbering()
    first = n.assign(0, [{"id": "a", "step": "s"}, {"id": "b", "step": "s"}, {"id": "c", "step": "s"},
                         {"id": "pass", "step": "s", "action": "pass"}])
    assert first == {"a": 1, "b": 2, "c": 3, "pass": 0}
    second = n.assign(0, [{"id": "a", "step": "s"}, {"id": "c", "step": "s"}, {"id": "d", "step": "s"}])
    assert second == {"a": 1, "c": 3, "d": 4}                    # b is gone, nothing renumbered
    # c taken: the choice that comes next never gets a number shown for another choice
    assert n.assign(0, [{"id": "a", "step": "s"}, {"id": "e", "step": "s"}]) == {"a": 1, "e": 5}
    # the seat's next step: new choices, new numbers (pressing 5 twice does not take e and then x)
    assert n.assign(0, [{"id": "x", "step": "t"}, {"id": "y", "step": "t"}]) == {"x": 6, "y": 7}
    assert n.assign(1, [{"id": "x", "step": "t"}]) == {"x": 1}   # another seat: from 1 again


@pytest.mark.parametrize("name", SHIPPED)
def test_a_whole_game_in_chinese_shows_no_english_word_and_its_record_replays_alone(monkeypatch, tmp_path, name):
    """Every shipped game played to its end at the terminal in Chinese (a person at seat 1 taking the
    first choice of each menu, after `?` help once): the whole transcript has no English word but the
    proper names of `english_words`; the record it wrote replays with nothing but its file."""
    record = tmp_path / "game.yaml"
    players = 3 if name == "puerto_rico" else first_table(name)
    code, out = play_cli(monkeypatch, "play", name, "--players", str(players), "--seat", "1=human", "--lang", "zh",
                         "--seed", "3", "--narrate", "full", "--record", str(record), script=["?"])
    assert code == 0
    assert "最终得分" in out and "获胜者" in out and "请决定" in out and "悔棋" in out
    assert english_words(out) == []
    result = read_record(record)["result"]
    code, replayed = play_cli(monkeypatch, "replay", str(record))
    assert code == 0
    final = replayed[replayed.index("Final scores:"):].split("\n")
    assert [int(n) for n in re.findall(r"^  Player \d+: (-?\d+)", "\n".join(final), re.M)] == result["scores"]
    assert f"Player {result['winners'][0]}" in next(line for line in final if line.startswith("Winner"))


def test_the_picture_and_a_grouped_menu_come_before_each_decision(monkeypatch):
    code, out = play_cli(monkeypatch, "play", "castles_of_burgundy", "-p", "2", "--seat", "1=human",
                         "--seed", "2", script=["q", "y"])
    assert code == 0
    assert "── Your area — Player 1" in out and "Estate (37):" in out
    assert re.search(r"^  take the … from depot … with the …", out, re.M)      # a group of choices
    assert re.search(r"^\s+1\) take the .+ from depot \d", out, re.M)


def test_a_record_written_by_play_replays_with_the_file_alone(monkeypatch, tmp_path):
    record = tmp_path / "game.yaml"
    code, played = play_cli(monkeypatch, "play", "puerto_rico", "-p", "3", "-s", "4", "--seat", "2=human",
                            "--record", str(record), "--quiet")
    assert code == 0
    rec = read_record(record)
    game = load_game("puerto_rico")
    assert rec["game"] == "puerto_rico" and rec["definition_hash"] == game.content_hash
    assert rec["players"] == 3 and rec["seed"] == 4 and rec["seats"] == ["random", "human", "random"]
    assert all("seconds" in a for a in rec["actions"] if a["seat"] == 2)
    code, replayed = play_cli(monkeypatch, "replay", str(record))
    assert code == 0
    final = played[played.index("Final scores:"):]
    assert final.split("\n")[:4] == replayed[replayed.index("Final scores:"):].split("\n")[:4]


def test_undo_takes_back_the_seats_own_last_decision_only_while_nobody_else_decided(monkeypatch):
    game = load_game("puerto_rico")
    stream = io.StringIO()
    setup = Setup(path="puerto_rico", players=3, seed=7, kinds=["human", "random", "random"], narrate="none")
    # seat 1 (the governor under seed 7) takes a role and decides again at once (the role's own decision): "u" takes the role back;
    # then it takes the role again and its second decision, the bots play, and "u" is refused
    table = TerminalTable(game, setup, out=lambda line: stream.write(line + "\n"),
                          read=Person(stream, ["1", "u", "1", None, "u", "q", "y"]))
    assert table.run() == 0
    out = stream.getvalue()
    assert out.count("Undone: back to your decision") == 1
    assert "Another seat has decided since your last decision: it stands." in out
    mine = [a for a in table.record["actions"] if a["seat"] == 1]
    assert len(mine) == 2 and len(table.record["actions"]) > 2


def test_undo_is_refused_when_the_decision_revealed_something(tmp_path):
    from games import make_game

    game = make_game(tmp_path, TALLY)
    stream = io.StringIO()
    setup = Setup(path="tally", players=2, seed=1, kinds=["human", "human"], narrate="none")
    # seat 1 draws a card into its hidden hand; seat 2 may not take it back, counts; seat 1's "u" cannot
    # take back the draw, which another seat followed
    table = TerminalTable(game, setup, out=lambda line: stream.write(line + "\n"),
                          read=Person(stream, ["2", "u", "1", "u", "q", "y"]))
    assert table.run() == 0
    assert stream.getvalue().count("Another seat has decided since") == 2
    assert len(table.record["actions"]) == 2
    # right after its own decision: a count may be taken back, a draw into a hidden hand may not
    table = TerminalTable(game, setup, out=lambda line: stream.write(line + "\n"), read=Person(stream, ["q"]))
    state = table.start()
    table.runs.add(Decision(0, state, "count", {"actions": 0}))
    assert table.undo(0) is state
    table.runs.add(Decision(0, state, "draw", {"actions": 0}))
    assert table.undo(0) is None and "showed something that was hidden" in stream.getvalue()


TALLY = """
    game: {id: tally, name: {en: Tally}, players: [2]}
    vars:
      player:
        points: {label: {en: Points}}
    zones:
      global:
        deck: {visibility: hidden}
      player:
        hand: {visibility: owner}
    components:
      card:
        zone: deck
        types:
          a: {count: 3}
          b: {count: 3}
    setup: "shuffle(deck)"
    flow:
      repeat:
        each_player: {step: turn}
      until: "size(deck) == 0"
      max: 20
    steps:
      turn:
        actions:
          count: {effect: "player.points += 1", label: {en: count one}}
          draw:
            if: "size(deck) > 0"
            effect: "draw(deck, player.hand)"
            label: {en: draw a card}
          roll: {effect: "player.points += random(6)", label: {en: roll a die}}
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_save_and_resume(monkeypatch, tmp_path):
    saved = tmp_path / "saved.yaml"
    code, out = play_cli(monkeypatch, "play", "puerto_rico", "-p", "3", "-s", "6", "--seat", "1=human",
                         "--quiet", script=["1", "1", "s", str(saved), "q", "y"])
    assert code == 0 and f"Saved to {saved}" in out
    kept = read_record(saved)["actions"]
    code, out = play_cli(monkeypatch, "play", "--resume", str(saved), "--quiet")
    assert code == 0 and f"Resumed after {len(kept)} decision(s)." in out and "Final scores:" in out


def test_pace_waits_between_bot_decisions():
    game = load_game("puerto_rico")
    waits = []
    setup = Setup(path="puerto_rico", players=3, seed=1, kinds=["random"] * 3, narrate="none", quiet=True,
                  pace=0.25)
    TerminalTable(game, setup, out=lambda line: None, sleep=waits.append).run()
    assert waits and set(waits) == {0.25}


def test_a_bad_record_is_reported_where_it_is_wrong(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: meeple-record/1\ngame: puerto_rico\nplayers: three\n", encoding="utf-8")
    assert cli.main(["replay", str(bad)]) == 2
    assert "lacks" in capsys.readouterr().err


def test_simulate_saves_each_game_as_a_record_that_replays(tmp_path, capsys):
    folder = tmp_path / "games"
    assert cli.main(["simulate", "puerto_rico", "-p", "3", "-k", "2", "-s", "11", "-j", "1", "--bot", "random",
                     "--save-games", str(folder)]) == 0
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["puerto_rico-seed11.yaml", "puerto_rico-seed12.yaml"]
    rec = read_record(folder / files[0])
    assert rec["seed"] == 11 and rec["seats"] == ["random"] * 3 and rec["result"]["winners"]
    capsys.readouterr()
    assert cli.main(["replay", str(folder / files[0])]) == 0
    assert "Final scores:" in capsys.readouterr().out


def test_what_a_decision_changed_is_told_under_it_before_the_next_heading(monkeypatch):
    """Narration keeps to the order of play: the buildings a player builds are told right under the
    decision (before the next round's or phase's heading, before the next player's line)."""
    code, out = play_cli(monkeypatch, "play", "puerto_rico", "--players", "3", "--seed", "3", "--narrate", "full")
    assert code == 0
    lines = out.splitlines()
    builds = [(i, m) for i, line in enumerate(lines) if (m := re.match(r"  (Player \d): build the (.+?) \(", line))]
    assert len(builds) > 10
    for i, m in builds:
        told = []
        for line in lines[i + 1:]:
            if not line.startswith("      · "):
                break
            told.append(line)
        assert f"      · {m.group(1)}: City + {m.group(2)}" in told, (lines[i], told)


def test_q_asks_before_leaving_a_game_in_progress_and_offers_to_save_it(monkeypatch, tmp_path):
    saved = tmp_path / "left.yaml"
    code, out = play_cli(monkeypatch, "play", "phoenicia", "-p", "2", "-s", "3", "--seat", "1=human", "--quiet",
                         script=["q", "n", "q", "s", str(saved)])
    assert code == 0 and out.count("Leave this game?") == 2 and f"Saved to {saved}" in out
    assert read_record(saved)["players"] == 2


def test_resume_shows_the_headings_of_the_position_it_resumes_not_of_the_start():
    from interpreter.engine.playout import new_game
    from interpreter.players.bots import decide, make_bot

    game = load_game("puerto_rico")
    state, log, ids = new_game(game, 3, 6), [], []
    bot = make_bot("random", 1)
    while sum(1 for m in log if isinstance(m, dict) and m.get("heading")) < 3:
        action = decide(bot, game, state)
        ids.append(action["id"])
        state = game.apply(state, action, log=log)
    headings = [m["en"] for m in log if isinstance(m, dict) and m.get("heading") and m.get("player") is None]
    lines = []
    setup = Setup(path="puerto_rico", players=3, seed=6, kinds=["human", "random", "random"], narrate="none")
    TerminalTable(game, setup, out=lines.append, read=lambda prompt: "q").start(resume=ids)
    shown = "\n".join(lines)
    assert headings[-1] in shown and f"Resumed after {len(ids)} decision(s)." in shown
    assert shown.count("## ") == 1
