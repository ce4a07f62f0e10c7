"""Parameters adjusted by the game's state (`parameters.NAME.adjust`): a global event changes a rule for
every player, on top of the modifiers of each player's own pieces."""

from interpreter.game import load_game

from conftest import ROOT
from games import problems_of

DROUGHT = ROOT / "examples" / "mechanisms" / "drought"


def test_a_season_card_changes_the_harvest_of_everyone():
    game = load_game(DROUGHT)
    s = game.new_game(3, seed=2)
    showing = game.evaluate(s, "top(season).type")
    want = 1 if showing == "drought" else 2
    assert [game.evaluate(s, "player.harvest", p) for p in range(3)] == [want] * 3


def test_an_adjustment_that_reads_its_own_parameter_is_refused(tmp_path):
    text = (DROUGHT / "game.yaml").read_text(encoding="utf-8").replace(
        'if: "any(c.type == drought for c in season)"', 'if: "player.harvest > 1"')
    problems = problems_of(tmp_path, text)
    assert any("reads harvest itself" in str(p) for p in problems)
