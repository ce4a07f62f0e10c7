"""Disputed rules as data: a rule whose sources disagree names its readings, bound to a game option.

The definition section `disputes` is checked at load (interpreter/definition/disputes.py); `meeple verify` lists every
dispute with its readings and sources, and `--alternatives` runs the scenarios under every reading and names
the scenarios that tell the readings apart.
"""

import json
import shutil

import pytest

from interpreter.cli import main
from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError
from interpreter.analysis.verify import report_text, verify

from conftest import ROOT

# The disputes the issue names, by game: dispute id -> option.
NAMED = {
    "puerto_rico": {"mayor_privilege_empty_supply": "mayor_privilege_from_ship",
                    "hospice_on_quarry": "hospice_on_quarry",
                    "craftsman_privilege": "craftsman_privilege_voluntary",
                    "limited_bank": "limited_bank",
                    "large_building_count": "large_buildings_one_per_column"},
    "castles_of_burgundy": {"phase_start_leftover_tiles": "remove_all_hex_tiles",
                            "tie_break_direction": "tiebreak_most_empty",
                            "knowledge7_reading": "knowledge7_per_placed_tile",
                            "declining_an_extra_action": "extra_action_may_be_declined"},
    "phoenicia": {"change_from_an_empty_pile": "change_always_given", "display_refill": "display_refill"},
    "la_granja_no_siesta": {"storage_goods_at_once": "storage_goods_until_phase_end",
                            "loose_commodity_in_a_trade": "loose_commodity_in_trade",
                            "solo_siesta_lead": "solo_lead_scores_anywhere", "two_disc_minimum": "keep_two_discs"},
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_the_shipped_games_declare_the_disputes_of_their_sources(name):
    game = load_game(name)
    got = {d.id: d.option for d in game.disputes}
    assert NAMED[name].items() <= got.items()
    for d in game.disputes:
        assert d.default.value == game.options[d.option]["default"]
        assert {repr(a.value) for a in d.alternatives} == {repr(v) for v in game.options[d.option]["values"]}
        for a in d.alternatives:
            assert a.source and a.says["en"] and a.says["zh"]
        assert d.default.default_reason["en"] and d.default.default_reason["zh"]


def _game_with(tmp_path, disputes_yaml):
    root = tmp_path / "market_day"
    shutil.copytree(ROOT / "examples/market_day", root)
    (root / "disputes.yaml").write_text(disputes_yaml, encoding="utf-8")
    return root


GOOD = """
disputes:
  game_length:
    label: {en: "How long is the game?", zh: "游戏多长?"}
    option: short_game
    rules: [flow]
    alternatives:
      - value: false
        source: "rules.txt §End"
        says: {en: The whole deck is played., zh: 打完整副牌。}
        default: {en: The rulebook says so., zh: 规则书如此。}
      - value: true
        source: "faq.txt §Short"
        says: {en: Fewer cards., zh: 牌更少。}
"""


def test_a_dispute_binds_its_readings_to_an_option(tmp_path):
    game = load_game(_game_with(tmp_path, GOOD))
    (d,) = game.disputes
    assert (d.id, d.option, d.rules) == ("game_length", "short_game", ("flow",))
    assert [a.value for a in d.alternatives] == [False, True]
    assert d.default.value is False and d.default.default_reason["zh"] == "规则书如此。"


@pytest.mark.parametrize("change,message", [
    (("option: short_game", "option: short_gam"), "names the option 'short_gam', which the game does not declare"),
    (("- value: true", "- value: 3"), "has the value 3, which is not a value of option 'short_game'"),
    (("- value: true", "- value: false"), "two alternatives of dispute 'game_length' have the value False"),
    (("        says: {en: Fewer cards., zh: 牌更少。}",
      "        says: {en: Fewer cards., zh: 牌更少。}\n        default: also"), "must mark exactly one alternative"),
    (("rules: [flow]", "rules: [phases.nothing]"), "names the rule 'phases.nothing', which is not a path"),
])
def test_a_dispute_that_does_not_fit_its_option_is_a_load_error(tmp_path, change, message):
    with pytest.raises(DefinitionError) as ex:
        load_game(_game_with(tmp_path, GOOD.replace(*change)))
    text = "\n".join(str(p) for p in ex.value.problems)
    assert message in text
    assert "disputes.yaml:" in text  # located in the file that says it


def test_the_default_reading_must_be_the_option_default(tmp_path):
    yaml = GOOD.replace("        default: {en: The rulebook says so., zh: 规则书如此。}\n", "").replace(
        "says: {en: Fewer cards., zh: 牌更少。}", "says: {en: Fewer cards., zh: 牌更少。}\n        default: why")
    with pytest.raises(DefinitionError) as ex:
        load_game(_game_with(tmp_path, yaml))
    assert "has the value True, but option 'short_game' defaults to False" in str(ex.value.problems[0])


def test_every_value_of_the_option_needs_a_reading(tmp_path):
    root = _game_with(tmp_path, GOOD)
    game_yaml = root / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("values: [false, true]",
                                                                       "values: [false, true, 7]"),
                         encoding="utf-8")
    with pytest.raises(DefinitionError) as ex:
        load_game(root)
    assert "the value 7 of option 'short_game' is no alternative of dispute 'game_length'" in str(ex.value)


def test_verify_lists_every_dispute_with_its_readings_and_sources(capsys):
    assert main(["verify", "puerto_rico", "--games", "0"]) == 0
    text = capsys.readouterr().out
    assert "disputed rules: 6" in text
    assert "mayor_privilege_empty_supply: The mayor's privilege when the colonist supply is empty" in text
    assert "* mayor_privilege_from_ship=false: The mayor takes his privilege colonist from the supply only" in text
    assert "source: puerto-rico.zh-hans.txt §市长 (提示: 如果公共堆里的拓荒者用光" in text
    assert "source: puerto-rico-summary.zh-hant.txt §市長 (特權" in text
    assert main(["verify", "puerto_rico", "--games", "0", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    mayor = next(d for d in data["disputes"] if d["id"] == "mayor_privilege_empty_supply")
    assert [a["default"] for a in mayor["alternatives"]] == [True, False]
    assert "alternatives" not in data


@pytest.mark.parametrize("name", sorted(NAMED))
def test_alternatives_name_the_scenarios_that_tell_each_dispute_apart(name):
    rep = verify(name, games=0, alternatives=True)
    assert rep.ok, report_text(rep)
    by_id = {a["dispute"]: a for a in rep.alternatives}
    for did in NAMED[name]:
        apart = by_id[did]["told_apart_by"]
        # one scenario for the default reading and one for the other
        assert {len(t["passes_under"]) for t in apart} == {1}, did
        assert len({json.dumps(t["passes_under"]) for t in apart}) == 2, did
    text = report_text(rep)
    assert "told apart by:" in text and "no scenario" not in text


def test_alternatives_play_random_games_under_each_reading(tmp_path, capsys):
    assert main(["verify", str(_game_with(tmp_path, GOOD)), "--games", "2", "--players", "3",
                 "--alternatives"]) == 0
    text = capsys.readouterr().out
    assert "game_length (option short_game): How long is the game?" in text
    assert "short_game=false [default]: scenarios 3/3 passed; random play 2/2 completed, 0 violation(s)" in text
    assert "short_game=true: scenarios" in text
    assert "told apart by: no scenario" in text      # the example game has no scenario for the short game
    assert main(["verify", str(_game_with(tmp_path / "again", GOOD)), "--games", "1", "--players", "3",
                 "--alternatives", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (entry,) = data["alternatives"]
    assert [row["value"] for row in entry["alternatives"]] == [False, True]
    assert all(row["random_play"]["3"]["completed"] == 1 for row in entry["alternatives"])


def test_alternatives_fail_verify_when_play_under_one_reading_breaks_a_rule(tmp_path, capsys):
    root = _game_with(tmp_path, GOOD)
    game_yaml = root / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "          draw(deck, discard)\n" in text
    # the other reading's setup fails while it runs (a die of no faces)
    game_yaml.write_text(text.replace("          draw(deck, discard)\n",
                                      "          draw(deck, discard)\n      first_player = random(player_count - player_count)\n"),
                         encoding="utf-8")
    rep = verify(root, games=2, players=[3], alternatives=True)
    assert not rep.ok
    (entry,) = rep.alternatives
    default, other = entry["alternatives"]
    assert not default["violations"] and other["violations"]
    assert main(["verify", str(root), "--games", "2", "--players", "3", "--alternatives"]) == 1
    assert "VIOLATION" in capsys.readouterr().out


def test_one_option_cannot_choose_the_readings_of_two_disputes(tmp_path):
    twice = GOOD + GOOD.replace("disputes:\n", "").replace("  game_length:", "  game_length_again:")
    with pytest.raises(DefinitionError) as ex:
        load_game(_game_with(tmp_path, twice))
    assert "the option 'short_game' already chooses the reading of dispute 'game_length'" in str(ex.value)
