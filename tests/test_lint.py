"""The lint: what a rulebook encoding writes but never reads, never uses, can never reach."""

from interpreter.game import load_game
from interpreter.analysis.lint import lint

from conftest import ROOT


def findings(path, code=None):
    return [f for f in lint(load_game(path)) if code is None or f.code == code]


def test_a_counter_that_rules_set_but_never_read_is_found():
    (f,) = findings(ROOT / "tests/fixtures/lint_planted", "written-not-read")
    assert "player var 'tips' is set by rules but no rule or scoring item reads it" in f.message
    assert f.location.file.endswith("game.yaml") and f.location.line > 0


def test_a_component_nothing_uses_is_found():
    (f,) = findings(ROOT / "tests/fixtures/lint_planted", "unused-component")
    assert "'golden_goose' is never used" in f.message


def test_the_unplanted_game_has_neither():
    codes = {f.code for f in findings(ROOT / "examples/market_day")}
    assert "written-not-read" not in codes and "unused-component" not in codes


def test_puerto_rico_lints_clean_and_lists_its_provisional_values():
    fs = findings(ROOT / "gamedefs/puerto_rico")
    assert [f for f in fs if f.severity in ("error", "warning")] == []
    prov = [f for f in fs if f.code == "provisional"]
    assert prov and all(f.note for f in prov)


def test_unreachable_steps_events_and_end_triggers(tmp_path):
    (tmp_path / "g.yaml").write_text("""
game: {id: t, players: [2]}
events:
  rang: {player: player}
hooks:
  on_rang: {on: rang, do: {effect: "pass"}}
end:
  triggers:
    never_set: {}
flow:
  each_player: {step: used}
steps:
  used:
    actions:
      go: {effect: "pass"}
  orphan:
    actions:
      go: {effect: "pass"}
""", encoding="utf-8")
    text = "\n".join(f.message for f in findings(tmp_path))
    assert "step 'orphan' is in no flow" in text
    assert "hook 'on_rang' listens to 'rang', which no rule emits" in text
    assert "end trigger 'never_set' is never set" in text


def test_event_cycles_are_found(tmp_path):
    (tmp_path / "g.yaml").write_text("""
game: {id: t, players: [2]}
events:
  ping: {}
  pong: {}
hooks:
  a: {on: ping, do: {effect: "emit pong()"}}
  b: {on: pong, do: {effect: "emit ping()"}}
flow: {effect: "emit ping()"}
""", encoding="utf-8")
    (f,) = findings(tmp_path, "cycle")
    assert "ping -> pong -> ping" in f.message or "pong -> ping -> pong" in f.message


def test_counts_against_the_box(tmp_path):
    (tmp_path / "g.yaml").write_text("""
game: {id: t, players: [2, 3]}
zones:
  global:
    bag: {}
components:
  tile:
    zone: bag
    box: 10
    types:
      a: {count: 4}
      b: {count: {by_players: {2: 3, 3: 5}}}
flow: {effect: "pass"}
""", encoding="utf-8")
    (f,) = findings(tmp_path, "box")
    assert "add up to 9, but the box holds 10" in f.message


def test_a_local_that_is_set_but_never_read_is_found(tmp_path):
    (tmp_path / "g.yaml").write_text("""
game: {id: t, players: [2]}
vars:
  global:
    total: {}
flow:
  effect: |
    totl = 3
    n = 2
    total = n
""", encoding="utf-8")
    fs = findings(tmp_path, "written-not-read")
    assert [f.message for f in fs if "local" in f.message] == ["local 'totl' is set but never read"]
    (f,) = [f for f in fs if "local" in f.message]
    assert (f.location.line, f.location.col) == (8, 5)


def test_a_transfers_source_is_read_and_its_destination_only_written(tmp_path):
    """transfer(n, src, dst) moves up to what src holds: it reads src; dst alone is written."""
    from games import make_game
    game = make_game(tmp_path, """
        game: {id: t, players: [2]}
        resources: {coin: {box: 10, conserved: true}}
        vars:
          global: {bank: {init: 10, resource: coin}, stand_in: {resource: coin}}
          player: {purse: {resource: coin}}
        setup: |
          stand_in = 5
        flow:
          - effect: |
              for p in players:
                  transfer(3, bank, p.purse)
                  transfer(1, stand_in, p.purse)
    """)
    unread = [f.message for f in lint(game) if f.code == "written-not-read"]
    assert unread == ["player var 'purse' is set by rules but no rule or scoring item reads it"]


def test_a_name_without_a_label_in_a_language_of_the_game_is_a_finding(tmp_path):
    from games import make_game
    game = make_game(tmp_path, """
        game: {id: t, players: [2]}
        tables:
          goal: {value: 3, label: {en: Goal, zh: 目标}}
          step_size: 1
          bonus: {value: 2, provisional: "a guess"}
        labels:
          bonus: {en: Bonus}
        vars: {player: {pos: {label: {en: Position, zh: 位置}}}}
        flow:
          - effect: |
              for p in players:
                  p.pos += step_size + bonus - goal
    """)
    got = sorted((f.message, f.note) for f in lint(game) if f.code == "label-missing")
    assert got == [("table 'bonus' has no zh label", "add zh: ... to its label"),
                   ("table 'step_size' has no label", "give it a `label:`, or list it under `labels:`"),
                   ("the provisional note of tables.bonus has no zh text", "write it as {en: ..., zh: ...}")]
