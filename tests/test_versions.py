"""Format versions: every file states the version it was written for; earlier versions keep their meaning; a
later version is refused with one located message (interpreter/definition/versions.py)."""

import json
import textwrap

import pytest

from interpreter.analysis.scenario import load_scenarios, run_game_scenarios
from interpreter.definition import versions
from interpreter.definition.loader import load_yaml
from interpreter.definition.problems import DefinitionError
from interpreter.game import load_game
from interpreter.table.record import FORMAT, RecordError, check_record

from conftest import ROOT, game_dirs
from games import write_game

LATER = versions.CURRENT + 1

GAME = """
game: {id: seats, players: [2], format: FORMAT}
vars:
  global: {first: {type: player}}
  player: {coins: {init: 0}}
components:
  card:
    zone: deck
    fields: {claimed_by: {type: player}}
    types: {ace: {count: 3}}
zones:
  global: {deck: {}, table: {}}
steps:
  turn:
    actions:
      take: {effect: "player.coins += 1\\nfirst = player"}
flow:
  - each_player: {step: turn}
    from: "1"
scoring:
  items: {coins: {expr: "player.coins"}}
"""


def game(tmp_path, fmt=versions.CURRENT):
    return load_game(write_game(tmp_path, GAME.replace("FORMAT", str(fmt))))


def scenario_file(tmp_path, body, fmt=None):
    f = tmp_path / "s.yaml"
    head = f"format: {fmt}\n" if fmt is not None else ""
    f.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return f


# In this game seat 2 moves first: after its action `first` holds seat 2 (index 1 in the API).
FIRST_IS_SEAT_2 = """
scenarios:
  s:
    source: a test
    players: 2
    when: [take]
    then: {first: EXPECTED}
"""


@pytest.mark.parametrize("fmt,expected", [(None, 1), (1, 1), (2, 2), (2, "p2")])
def test_a_player_in_then_is_read_as_the_version_of_its_file_reads_it(tmp_path, fmt, expected):
    f = scenario_file(tmp_path, FIRST_IS_SEAT_2.replace("EXPECTED", str(expected)), fmt)
    (r,) = run_game_scenarios(game(tmp_path), None, [f])
    assert r.passed, r.failures


@pytest.mark.parametrize("fmt,expected", [(None, 2), (2, 1)])
def test_the_other_reading_fails_and_says_so_in_seats_of_its_version(tmp_path, fmt, expected):
    f = scenario_file(tmp_path, FIRST_IS_SEAT_2.replace("EXPECTED", str(expected)), fmt)
    (r,) = run_game_scenarios(game(tmp_path), None, [f])
    assert r.failures == [f"then: first: expected {expected}, got {1 if fmt is None else 2}"]


def test_a_scenario_file_of_a_later_version_is_refused_with_one_located_message(tmp_path):
    f = scenario_file(tmp_path, "scenarios:\n  s: {source: x, whne: []}\n", LATER)
    with pytest.raises(DefinitionError) as info:
        load_scenarios([f])
    (p,) = info.value.problems  # not the unknown key: this engine cannot know what version LATER allows
    assert str(p.location) == f"{f}:1:9" and f"format version {LATER}" in p.message
    assert f"reads versions 1 to {versions.CURRENT}" in p.message


def test_a_definition_of_a_later_version_is_refused_with_one_located_message(tmp_path):
    root = write_game(tmp_path, GAME.replace("FORMAT", str(LATER)) + "display: {nonsense: 1}\n")
    with pytest.raises(DefinitionError) as info:
        load_game(root)
    (p,) = info.value.problems
    assert str(p.location) == f"{root / 'game.yaml'}:1:41" and f"format version {LATER}" in p.message


def test_an_overlay_of_a_later_version_is_refused_with_one_located_message(tmp_path):
    root = write_game(tmp_path, GAME.replace("FORMAT", "1"))
    overlay = tmp_path / "o.yaml"
    overlay.write_text(f"overlay: {{base: seats, format: {LATER}}}\nset: {{no.such.path: 1}}\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(root, variant=[str(overlay)])
    (p,) = info.value.problems
    assert str(p.location) == f"{overlay}:1:32" and f"format version {LATER}" in p.message


def test_a_version_that_is_no_whole_number_is_a_schema_problem(tmp_path):
    root = write_game(tmp_path, GAME.replace("FORMAT", "two"))
    with pytest.raises(DefinitionError) as info:
        load_game(root)
    assert any("format" in str(p) and "integer" in str(p) for p in info.value.problems)


def test_a_record_states_its_version_and_one_of_a_later_version_is_refused():
    record = {"format": FORMAT, "game": "x", "path": "x", "title": "X", "definition_hash": "h", "variants": [],
              "options": {}, "players": 2, "seed": 1, "seats": ["random", "random"], "actions": []}
    assert FORMAT == f"meeple-record/{versions.CURRENT}"
    assert check_record(dict(record, format="meeple-record/1"))["format"] == "meeple-record/1"
    assert check_record({k: v for k, v in record.items() if k != "format"})["format"] == "meeple-record/1"
    with pytest.raises(RecordError, match=f"format version {LATER}, and this meeple reads versions 1 to"):
        check_record(dict(record, format=f"meeple-record/{LATER}"))
    with pytest.raises(RecordError, match="is not a record format"):
        check_record(dict(record, format="meeple-record/x"))


def _shipped_files():
    for d in game_dirs():
        yield from d.glob("*.yaml")
        yield from d.glob("scenarios/*.yaml")
        yield from d.glob("variants/**/*.yaml")
    yield from (ROOT / "examples" / "house_rules").glob("**/*.yaml")


def test_every_shipped_file_states_the_current_version():
    stated = []
    for f in _shipped_files():
        data = load_yaml(f).data or {}
        for header in (None, "game", "overlay"):
            holder = data if header is None else data.get(header)
            if (header is None and "scenarios" in data) or (header and isinstance(holder, dict)):
                stated.append((f.relative_to(ROOT), holder.get("format")))
    assert len(stated) > 70
    assert [s for s in stated if s[1] != versions.CURRENT] == []


@pytest.mark.parametrize("schema,header", [("gamedef", "game"), ("overlay", "overlay"), ("scenario", None)])
def test_each_schema_describes_the_versions_this_engine_reads(schema, header):
    top = json.loads((ROOT / "schemas" / f"{schema}.schema.json").read_text(encoding="utf-8"))
    props = top["properties"] if header is None else top["properties"][header]["properties"]
    assert props["format"]["type"] == "integer"
    assert f"reads versions 1 to {versions.CURRENT}" in props["format"]["description"]


def test_every_version_has_its_history():
    assert sorted(versions.HISTORY) == list(range(1, versions.CURRENT + 1))
