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


ORDERED = """
game: {id: ordered, players: [2]}
parameters:
  limit: {default: 5}
zones:
  global:
    supply: {}
  player:
    tableau: {}
    reserve: {}
components:
  building:
    zone: supply
    types:
      low: {modifies: {limit: {set: 3}}}
      high: {modifies: {limit: {set: 7}}}
      plain: {count: 3}
flow: []
"""


def test_modifiers_that_set_a_parameter_apply_in_zone_order_the_last_one_counts(tmp_path):
    from games import make_game
    game = make_game(tmp_path, ORDERED)
    w = game.world
    s = game.new_game(2)
    piece = {s.types[x]: x for x in range(len(s.types))}
    tableau, reserve = game.layout.zone_index("tableau", 0), game.layout.zone_index("reserve", 0)
    assert game.evaluate(s, "player.limit", 0) == 5
    t = s.copy(game.layout)
    w.move(t, piece["high"], tableau, None)
    w.move(t, piece["low"], reserve, None)  # a later zone: its modifier comes last
    assert game.evaluate(t, "player.limit", 0) == 3
    u = s.copy(game.layout)
    w.move(u, piece["low"], tableau, None)
    w.move(u, piece["high"], tableau, None)  # the same zone: later in it
    assert game.evaluate(u, "player.limit", 0) == 7
    assert game.evaluate(u, "player.limit", 1) == 5  # the other player's pieces are not counted


ADDED = """
game: {id: added, players: [2]}
parameters:
  limit: {default: 5}
  reach: {default: 0}
zones:
  global:
    supply: {}
  player:
    tableau: {}
    reserve: {}
components:
  building:
    zone: supply
    active: "zone_of(self) == owner(self).tableau"
    types:
      plus1: {count: 2, modifies: {limit: 1}}
      plus2: {modifies: {limit: 2, reach: 1}}
      far: {modifies: {reach: {set: 4}}}
flow: []
"""


def test_added_modifiers_count_each_active_piece_of_the_player_whatever_its_type(tmp_path):
    from games import make_game
    game = make_game(tmp_path, ADDED)
    w = game.world
    s = game.new_game(2)
    ones = [x for x in range(len(s.types)) if s.types[x] == "plus1"]
    two, far = s.types.index("plus2"), s.types.index("far")
    t = s.copy(game.layout)
    w.move(t, ones[0], game.layout.zone_index("tableau", 0), None)
    w.move(t, ones[1], game.layout.zone_index("reserve", 0), None)  # not active there
    w.move(t, two, game.layout.zone_index("tableau", 0), None)
    w.move(t, far, game.layout.zone_index("tableau", 1), None)
    assert [game.evaluate(t, "player.limit", p) for p in (0, 1)] == [8, 5]
    assert [game.evaluate(t, "player.reach", p) for p in (0, 1)] == [1, 4]
    w.move(t, ones[1], game.layout.zone_index("tableau", 0), None)
    assert game.evaluate(t, "player.limit", 0) == 9
    assert game.evaluate(s, "player.limit", 0) == 5  # the state it was copied from is as it was


def test_a_piece_that_becomes_a_modifying_type_counts_from_then_on(tmp_path):
    # The modifying pieces of a parameter are found once per list of piece types; `become` replaces the
    # list (promotion.become), and the next reading finds them again.
    from games import make_game
    game = make_game(tmp_path, ADDED.replace("      far: {modifies: {reach: {set: 4}}}",
                                             "      far: {modifies: {reach: {set: 4}}}\n      plain: {}"))
    w = game.world
    s = game.new_game(2)
    plain = s.types.index("plain")
    w.move(s, plain, game.layout.zone_index("tableau", 0), None)
    assert game.evaluate(s, "player.limit", 0) == 5
    s.types = list(s.types)
    s.types[plain] = "plus2"
    assert game.evaluate(s, "player.limit", 0) == 7
