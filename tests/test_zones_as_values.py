"""Zones as values (interpreter/language/zonevalues.py): a zone family per kind, zone-valued vars, zones held by
pieces (stacks that move with their holder, or are left behind), and piece types that change where the
definition allows it (interpreter/language/promotion.py)."""

import textwrap

import pytest

from interpreter.language.compiler import RuleError
from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError

from conftest import ROOT

TOWERS = ROOT / "examples" / "mechanisms" / "towers"

SORTER = """
game: {id: sorter, name: Sorter, players: [2], source: "a test"}
kinds:
  suit: {values: [red, blue]}
zones:
  global:
    deck: {}
    discard: {per: suit}
  player:
    tucked: {per: suit}
  piece:
    under: {of: tray, carry: false}
components:
  card:
    zone: deck
    properties: {suit: red}
    types:
      r: {count: 2}
      b: {count: 2, suit: blue}
      pawn: {count: 1, becomes: [queen]}
      queen: {count: 0}
  tray:
    zone: deck
    types: {tray: {count: 2}}
vars:
  global:
    pile: {type: zone, init: "discard[blue]"}
steps:
  sort:
    actions:
      sort:
        choose: {c: {from: deck}}
        if: "c.class == 'card' and c.type != 'pawn'"
        effect: "move(c, discard[c.suit])"
      tuck:
        choose: {c: {from: deck}}
        if: "c.type == 'r'"
        effect: "move(c, player.tucked[c.suit])"
      to_pile:
        choose: {c: {from: deck}}
        if: "c.type == 'b'"
        effect: "move(c, pile)"
      promote:
        choose: {c: {from: deck}}
        if: "c.type == 'pawn' or c.type == 'r'"
        effect: "become(c, 'queen')"
      stack:
        choose: {t: {from: deck}}
        if: "t.type == 'tray'"
        effect: |
          move(first(x for x in deck if x.type == 'r'), t.under)
          move(t, discard[red])
      nest:
        choose: {t: {from: deck}}
        if: "t.type == 'tray'"
        effect: "move(t, t.under)"
flow:
  repeat: {each_player: {step: sort}}
  max: 3
"""


def _game(tmp_path, text=SORTER):
    d = tmp_path / "sorter"
    d.mkdir(exist_ok=True)
    (d / "game.yaml").write_text(textwrap.dedent(text))
    return load_game(d)


def _act(game, s, prefix):
    return next(a for a in game.legal_actions(s) if a["id"].startswith(prefix))


def test_a_zone_family_gives_one_zone_per_kind_value_chosen_by_data(tmp_path):
    game = _game(tmp_path)
    s = game.new_game(2)
    assert "discard[red]" in game.to_json(s)["zones"] and "tucked[blue]" in game.to_json(s)["player_zones"][0]
    s = game.apply(s, _act(game, s, "sort(c=2"))  # a blue card, by its own suit
    assert game.evaluate(s, "size(discard[blue])") == 1 and game.evaluate(s, "size(discard[red])") == 0
    s = game.apply(s, _act(game, s, "tuck"))
    assert game.evaluate(s, "size(player.tucked[red])", player=1) == 1  # the second seat tucked it
    # a family is also the list of its zones
    assert game.evaluate(s, "count(z for z in discard if size(z) > 0)") == 1
    assert game.evaluate(s, "sum(size(z) for z in player.tucked)", player=1) == 1
    assert game.evaluate(s, "zone_of(first(x for x in pieces if x.type == 'b' and zone_of(x) != deck)) in discard")


def test_a_family_indexed_by_a_value_not_of_its_kind_is_refused_at_load(tmp_path):
    bad = SORTER.replace('effect: "move(c, discard[c.suit])"', 'effect: "move(c, discard[green])"')
    with pytest.raises(DefinitionError) as ex:
        _game(tmp_path, bad)
    assert "green" in str(ex.value)


def test_a_zone_var_holds_a_zone(tmp_path):
    game = _game(tmp_path)
    s = game.new_game(2)
    s = game.apply(s, _act(game, s, "to_pile"))
    assert game.evaluate(s, "size(discard[blue])") == 1
    assert game.from_json(game.to_json(s)) == s


def test_a_type_changes_only_as_its_definition_allows(tmp_path):
    game = _game(tmp_path)
    s = game.new_game(2)
    pawn = game.evaluate(s, "first(x for x in deck if x.type == 'pawn')")
    s2 = game.apply(s, _act(game, s, f"promote(c={pawn}"))
    assert s2.types[pawn] == "queen" and s.types[pawn] == "pawn"  # the first state is untouched
    assert game.from_json(game.to_json(s2)) == s2  # a promoted piece is a consistent state
    with pytest.raises(RuleError, match="may not become 'queen'"):
        game.apply(s, _act(game, s, "promote(c=0"))  # an r lists no becomes
    data = game.to_json(s)
    data["pieces"]["types"][0] = "queen"
    with pytest.raises(Exception, match="cannot become"):
        game.from_json(data)


def test_a_holder_that_does_not_carry_leaves_its_stack_where_it_was(tmp_path):
    game = _game(tmp_path)
    s = game.new_game(2)
    s = game.apply(s, _act(game, s, "stack"))
    tray = game.evaluate(s, "first(x for x in discard[red] if x.type == 'tray')")
    assert game.evaluate(s, f"size(zone_of({tray}))") == 1
    # the red card it held went back into the deck, where the tray was
    assert game.evaluate(s, "count(x for x in deck if x.type == 'r')") == 2


def test_a_piece_never_holds_itself(tmp_path):
    game = _game(tmp_path)
    s = game.new_game(2)
    with pytest.raises(RuleError, match="never holds itself"):
        game.apply(s, _act(game, s, "nest"))


def test_a_tower_moves_with_its_base_and_its_top_commands():
    game = load_game(TOWERS)
    s = game.new_game(2)
    s = game.apply(s, {"id": "place(sp=%d)" % game.evaluate(s, "first(x for x in row if x.type == 's1')")})
    s = game.apply(s, next(a for a in game.legal_actions(s) if a["id"].startswith("place")))
    assert game.evaluate(s, "holder(top(row).spot)") == game.evaluate(s, "top(row)")
    assert game.evaluate(s, "holder(row)") is None  # a zone no piece holds
    assert game.from_json(game.to_json(s)) == s
    assert any(name.startswith("tower#") for name in game.to_json(s)["zones"])


@pytest.mark.parametrize("change, words", [
    (("discard: {per: suit}", "discard: {per: colour}"), "unknown kind 'colour'"),
    (("under: {of: tray, carry: false}", "under: {of: trays, carry: false}"), "unknown class 'trays'"),
    (("becomes: [queen]", "becomes: [tray]"), "'tray' is of class tray, not card"),
    (("becomes: [queen]", "becomes: [quen]"), "unknown component type 'quen'"),
])
def test_mistakes_in_the_new_declarations_are_reported_where_written(tmp_path, change, words):
    with pytest.raises(DefinitionError) as ex:
        _game(tmp_path, SORTER.replace(*change))
    assert words in str(ex.value) and "game.yaml:" in str(ex.value)
