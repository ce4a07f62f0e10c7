"""La Granja: No Siesta as a rulebook verifier sees it.

The translation's end-scoring list (遊戲結束計分) names six items and leaves out two that the original rules
have: 2 VP per completed long-distance trade and the circled cart VP (a reader's comment under the
translation points it out). A copy of the game encoded literally from that list still records both
during play, so `meeple verify`'s lint names them as state written but never read.
"""

import random
import shutil

from interpreter.game import load_game
from interpreter.analysis.verify import verify

from conftest import ROOT

GAME = ROOT / "gamedefs" / "la_granja_no_siesta"


def literal_copy(tmp_path):
    """The game with only the translation's six end-scoring items (no scenarios: they assume all eight)."""
    copy = tmp_path / "la_granja_literal"
    shutil.copytree(GAME, copy, ignore=shutil.ignore_patterns("scenarios", "variants"))
    scoring = copy / "scoring.yaml"
    text = scoring.read_text(encoding="utf-8")
    start, end = text.index("    trades:\n"), text.index("  tiebreak:\n")
    scoring.write_text(text[:start] + text[end:], encoding="utf-8")
    return copy


def written_not_read(report):
    return [f.message for f in report.findings if f.code == "written-not-read"]


def test_the_full_game_reads_everything_it_writes():
    assert written_not_read(verify(GAME, games=0)) == []


def test_the_translations_scoring_list_leaves_the_trade_and_cart_points_unread(tmp_path):
    report = verify(literal_copy(tmp_path), games=0)
    found = written_not_read(report)
    assert any("'trade_points'" in m for m in found), found
    assert any("'cart_points'" in m for m in found), found
    assert len(found) == 2, found


def test_a_solo_game_ends_with_its_rating():
    game = load_game(GAME)
    r = random.Random(5)
    s = game.new_game(1, seed=5)
    while not game.is_over(s):
        s = game.apply(s, r.choice(game.legal_actions(s, labels=False))["id"])
    out = game.outcome(s)
    (rating,) = out["ratings"]
    assert set(rating) == {"en", "zh"}
    assert out["scores"][0] > 20 or rating["en"].startswith("Practise")


def test_the_solo_neutral_player_is_a_scripted_seat():
    """§單人遊戲: the neutral player makes no decisions; his disc races the player's on the siesta track and
    his discs block market boxes; the solo siesta scoring compares the two discs."""
    game = load_game(GAME)
    r = random.Random(7)
    s = game.new_game(1, seed=7)
    assert game.evaluate(s, "neutral") == 1 and game.evaluate(s, "count(d for d in market if d.colour == neutral)") == 1
    while not game.is_over(s):
        assert game.current_player(s) == 0                     # never the neutral seat
        s = game.apply(s, r.choice(game.legal_actions(s, labels=False))["id"])
    assert game.evaluate(s, "neutral.siesta") > 1               # his scripted moves ran
    out = game.outcome(s)
    assert out["winners"] == [0] and len(out["scores"]) == 1
    assert out["breakdown"][0]["siesta"] == game.evaluate(s, "first(p.siesta for p in players) - neutral.siesta")
    assert game.evaluate(game.new_game(2, seed=1), "neutral") is None


def test_a_game_of_several_players_has_no_rating():
    game = load_game(GAME)
    s = game.new_game(2, seed=1)
    assert "ratings" not in game.outcome(s)


def test_the_two_player_original_variant_rolls_the_dice_once():
    game = load_game(GAME)
    s = game.new_game(2, seed=3, options={"two_player_original": True})
    rolled = sorted(game.evaluate(s, "list(d.face for d in pool)"))
    taken = []
    while game.legal_actions(s, labels=False)[0]["step"] != "shared_die":
        act = game.legal_actions(s, labels=False)[0]
        taken.append(game.evaluate(s, f"first(d.face for d in pool if d == {act['args']['d']})"))
        s = game.apply(s, act["id"])
    assert len(taken) == 4
    (last,) = game.evaluate(s, "list(d.face for d in pool)")
    assert sorted(taken + [last]) == rolled


SHEET = GAME / "variants" / "score_sheet.yaml"
ADVANCED = GAME / "variants" / "advanced.yaml"


def play_out(game, players, seed):
    r = random.Random(seed)
    s = game.new_game(players, seed=seed)
    while not game.is_over(s):
        s = game.apply(s, r.choice(game.legal_actions(s, labels=False))["id"])
    return game.to_json(s)


def test_the_score_sheet_skeleton_as_shipped_changes_nothing():
    assert play_out(load_game(GAME, variant=[SHEET]), 2, 4) == play_out(load_game(GAME), 2, 4)


def test_every_provisional_value_is_a_score_sheet_value_the_skeleton_sets():
    report = verify(GAME, games=0, variant=[SHEET])
    assert report.ok
    provisional = [f.message.split(" is provisional")[0] for f in report.findings if f.code == "provisional"]
    sheet = SHEET.read_text(encoding="utf-8")
    assert len(provisional) == 19
    for path in provisional:     # each is set by the skeleton and has its `remove` line
        assert f"#   - {path}.provisional" in sheet, path
        assert path.startswith("kinds.") or path + "." in sheet.split("# Once a value")[0], path


def test_the_advanced_game_verifies_and_plays_the_grey_helpers():
    report = verify(GAME, games=2, players=[4], variant=[ADVANCED])
    assert report.ok
    mods = report.coverage["modifiers"]
    assert set(mods["never"]) <= set(mods.get("scenarios_only", [])), mods["never"]
    assert any(k.startswith("grey_") and v for k, v in mods["counts"].items())


def test_the_solo_side_gives_each_market_box_one_die_face_and_the_counter_rounds_to_the_track():
    """The solo values re-derived from what the sources say (score_sheet.yaml notes): the die that places the
    neutral player's disc is rerolled until it shows an open box, so each of the six boxes has one of the six
    faces and every box can be blocked; the neutral disc, one space a round from the first space, reaches the
    last one when the 18 counter rounds are over; his cart spaces split that run into three equal legs."""
    game = load_game(GAME)
    s = game.new_game(1, seed=1)
    boxes = game.evaluate(s, "solo_market_box")
    assert sorted(boxes) == game.evaluate(s, "list(b for b in market_box)") and len(boxes) == 6
    last, rounds = game.evaluate(s, "solo_last"), game.evaluate(s, "solo_round_tiles")
    assert last == 1 + rounds
    assert game.evaluate(s, "solo_cart_spaces") == [1 + rounds // 3, 1 + 2 * rounds // 3]
