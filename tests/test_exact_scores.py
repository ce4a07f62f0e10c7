"""Exact scores (interpreter/engine/exact.py): a scoring item `divided_by` a number is an exact share — a Fraction
when not whole — compared exactly, and written "n/d" wherever scores leave the engine as JSON."""

import json
from fractions import Fraction

import pytest

from interpreter.language.compiler import RuleError
from interpreter.engine.exact import plain, share, text
from interpreter.game import load_game
from interpreter.table.presentation import present
from interpreter.table.record import finish

from conftest import ROOT

TOWERS = ROOT / "examples" / "mechanisms" / "towers"


def _tied(game):
    """A position where each player commands a one-disc tower: both tied for the tallest."""
    s = game.new_game(2)
    s = game.apply(s, {"id": "place(sp=%d)" % game.evaluate(s, "first(x for x in row if x.type == 's1')")})
    return game.apply(s, {"id": "place(sp=%d)" % game.evaluate(s, "first(x for x in row if x.type == 's4')")})


def test_a_share_is_exact_and_whole_shares_stay_integers():
    assert share("bonus", 3, 2) == Fraction(3, 2)
    assert type(share("bonus", 4, 2)) is int and share("bonus", 0, 0) == 0
    with pytest.raises(RuleError, match="divided by 0"):
        share("bonus", 3, 0)
    assert plain(Fraction(7, 2)) == "7/2" and plain(5) == 5
    assert text(Fraction(7, 2)) == "3 1/2" and text(Fraction(-1, 3)) == "-1/3"


def test_tied_players_share_a_bonus_exactly_and_both_win():
    game = load_game(TOWERS)
    s = _tied(game)
    out = game.outcome(s)
    assert out["scores"] == [Fraction(5, 2), Fraction(5, 2)]
    assert out["breakdown"][0]["tallest"] == Fraction(3, 2)
    assert out["winners"] == [0, 1]


def test_a_fractional_score_is_written_as_text_in_records_and_pictures():
    game = load_game(TOWERS)
    s = _tied(game)
    record = {}
    finish(record, game.outcome(s))
    assert record["result"]["scores"] == ["5/2", "5/2"]
    model = present(game, game.view(s, 0), "en", outcome=game.outcome(s))
    assert [r["score"] for r in model["outcome"]["rows"]] == ["5/2", "5/2"]
    json.dumps(model)


def test_the_generated_rules_say_the_share():
    from interpreter.readback.rules_text import rulebook
    game = load_game(TOWERS)
    en = json.dumps(rulebook(game, "en"), ensure_ascii=False)
    zh = json.dumps(rulebook(game, "zh"), ensure_ascii=False)
    assert "divided by" in en and "exactly" in en
    assert "除以" in zh and "精确计算" in zh


def test_a_divisor_that_is_not_a_number_is_refused_at_load(tmp_path):
    import shutil

    from interpreter.definition.problems import DefinitionError
    d = tmp_path / "towers"
    shutil.copytree(TOWERS, d)
    text = (d / "game.yaml").read_text()
    (d / "game.yaml").write_text(text.replace('divided_by: "count(p for p in players if has_tallest(p))"',
                                              'divided_by: "has_tallest(player)"'))
    with pytest.raises(DefinitionError, match="divided_by is a whole number, not a bool"):
        load_game(d)
