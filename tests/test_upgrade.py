"""`meeple upgrade`: a file of an earlier format version rewritten to the current one, meaning the same, with
every change listed at its file:line:col, comments and layout kept (interpreter/analysis/upgrade.py)."""

import textwrap

from interpreter.analysis.scenario import run_game_scenarios
from interpreter.analysis.upgrade import upgrade
from interpreter.cli import main
from interpreter.definition import versions
from interpreter.game import load_game

from games import write_game

GAME = """
game: {id: ups, players: [2, 3]}
vars:
  global: {first: {type: player}}
  player: {coins: {init: 0}}
components:
  card:
    zone: deck
    fields: {claimed_by: {type: player}}
    types: {ace: {count: 3}, king: {count: 2}}
zones:
  global: {deck: {}, table: {}}
steps:
  turn:
    actions:
      take: {effect: "player.coins += 1\\nfirst = player"}
      give:
        choose: {q: {from: players}}
        if: "q != player"
        effect: "q.coins += 2"
phases:
  morning: {flow: {each_player: {step: turn}}}
  evening: {flow: {each_player: {step: turn}}}
flow:
  repeat: [{call: morning}, {call: evening}]
  max: 2
scoring:
  items: {coins: {expr: "player.coins"}}
"""

# Written for format 1: `first: 1` is seat 2 (from 0), `q=0` is seat 1, the deck keeps its other pieces below
# the listed king, `claimed_by: 1` is seat 2, and `start` resumes at the first `turn` (in morning).
SCENARIOS = """\
# a comment that stays
scenarios:
  everything:
    source: a test   # and this one
    players: 2
    given:
      zones:
        deck: [king]
        table: [{ace: {claimed_by: 1}}]
      start: {step: turn, player: 2, resume: true}
    when:
      - take
      - {then: {first: 1, "list(p for p in players if p.coins > 0)": [1]}}
      - give(q=0)
    then:
      "size(deck)": 4
      "first(x.claimed_by for x in table)": 1
      p1.coins: 2
      not_legal: ["give(q=0)"]
"""


def setup(tmp_path):
    root = write_game(tmp_path, GAME)
    (root / "scenarios").mkdir()
    f = root / "scenarios" / "s.yaml"
    f.write_text(SCENARIOS, encoding="utf-8")
    return root, f


def results(root, f):
    return run_game_scenarios(load_game(root), root, [f])


def test_an_upgraded_scenario_file_means_what_it_meant(tmp_path):
    root, f = setup(tmp_path)
    (before,) = results(root, f)
    assert before.passed, before.failures
    report = upgrade(f)
    assert report.problems == [] and report.rewritten == [str(f)]
    (after,) = results(root, f)
    assert after.passed, after.failures
    text = f.read_text(encoding="utf-8")
    assert text.startswith("# a comment that stays\nformat: 2\nscenarios:\n") and "# and this one" in text
    assert "deck: {top: [king]}" in text and "{ace: {claimed_by: 2}}" in text
    assert "start: {step: turn, in: morning, player: 2, resume: true}" in text  # the place format 1 took
    assert "{then: {first: 2, \"list(p for p in players if p.coins > 0)\": [2]}}" in text
    assert "give(q=p1)" in text and '"first(x.claimed_by for x in table)": 2' in text


def test_the_file_only_stamped_with_the_new_version_would_mean_something_else(tmp_path):
    root, f = setup(tmp_path)
    f.write_text(f"format: {versions.CURRENT}\n" + SCENARIOS, encoding="utf-8")
    (r,) = results(root, f)
    text = "\n".join(r.failures)
    assert "holds exactly the listed pieces" in text  # the deck of one king still holds the aces
    assert "taken in 2 places" in text and "in: morning" not in text


def test_every_change_is_listed_where_it_was_made(tmp_path):
    root, f = setup(tmp_path)
    report = upgrade(f, check=True)
    listed = {str(c).split(": ", 1)[0].rsplit(":", 2)[-2]: c.what for c in report.changes}
    assert listed["2"].startswith("scenario file of format 1")
    assert "{top: [...]}" in listed["8"] and "claimed_by: 1 → 2" in listed["9"] and "in: morning" in listed["10"]
    assert "action give(q=0) → give(q=p1)" in listed["14"]
    assert f.read_text(encoding="utf-8") == SCENARIOS  # check writes nothing


def test_a_second_upgrade_changes_nothing(tmp_path):
    root, f = setup(tmp_path)
    upgrade(root)
    text = {p: p.read_text(encoding="utf-8") for p in root.rglob("*.yaml")}
    report = upgrade(root)
    assert report.changes == [] and len(report.current) == 2
    assert {p: p.read_text(encoding="utf-8") for p in root.rglob("*.yaml")} == text
    assert "game: {format: 2, id: ups" in (root / "game.yaml").read_text(encoding="utf-8")


def test_an_overlay_and_its_scenarios_are_upgraded_together(tmp_path):
    root, _ = setup(tmp_path)
    (root / "variants").mkdir()
    (root / "variants" / "v.yaml").write_text(textwrap.dedent("""\
        overlay:
          base: ups
          scenarios: [vs.yaml]
        set: {components.card.types.ace.count: 4}
        """), encoding="utf-8")
    (root / "variants" / "vs.yaml").write_text(
        "scenarios:\n  four_aces:\n    source: x\n    players: 2\n    when: [take]\n    then: {first: 1, \"size(deck)\": 6}\n",
        encoding="utf-8")
    report = upgrade(root / "variants" / "v.yaml")
    assert report.problems == [], report.problems
    head = (root / "variants" / "v.yaml").read_text(encoding="utf-8")
    assert head.startswith("overlay:\n  format: 2\n  base: ups\n")
    assert "first: 2" in (root / "variants" / "vs.yaml").read_text(encoding="utf-8")


def test_a_record_is_upgraded_and_a_file_of_a_later_version_is_left_alone(tmp_path):
    record = tmp_path / "r.yaml"
    record.write_text("format: meeple-record/1\ngame: x\npath: x\ntitle: X\ndefinition_hash: h\nvariants: []\n"
                      "options: {}\nplayers: 2\nseed: 1\nseats: [random, random]\nactions: []\n", encoding="utf-8")
    upgrade(record)
    assert record.read_text(encoding="utf-8").startswith(f"format: meeple-record/{versions.CURRENT}\n")
    later = tmp_path / "later.yaml"
    later.write_text(f"format: {versions.CURRENT + 1}\nscenarios: {{}}\n", encoding="utf-8")
    report = upgrade(later, game=str(write_game(tmp_path, GAME)))
    assert report.rewritten == [] and "format version" in str(report.problems[0])


def test_the_command_lists_the_changes_and_check_fails_on_a_file_not_current(tmp_path, capsys):
    root, f = setup(tmp_path)
    assert main(["upgrade", "--check", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{f}:8:" in out or "s.yaml:8:" in out
    assert "would rewrite 2 file(s) to format 2" in out
    assert main(["upgrade", str(root)]) == 0
    assert main(["upgrade", "--check", str(root)]) == 0
    assert main(["upgrade", str(tmp_path / "nothing")]) == 2
