"""Labels everywhere: {expr} holes in the labels of phases, steps, repeats, effects, hooks and events are
checked when the game loads and rendered per seat; labelled effects, hooks and events are narrated."""

from __future__ import annotations

import pytest

from games import make_game
from interpreter.language.labels import for_seat
from interpreter.definition.problems import DefinitionError

GAME = """
    game: {id: told, players: [2]}
    vars:
      global: {round: {init: 0}}
      player:
        coins: {init: 3}
        secret: {init: 7, visible: owner}
    zones:
      global: {deck: {visibility: hidden}}
      player: {hand: {visibility: owner}, table: {}}
    components:
      card:
        zone: deck
        properties: {value: 0}
        types:
          ace: {value: 1, label: Ace}
          king: {value: 13, label: King}
    events:
      paid: {player: player, n: int, label: "{event.player} paid {event.n}"}
    hooks:
      thanks:
        on: paid
        label: "the bank thanks {player} (coins left: {player.coins})"
        do: []
    phases:
      turn:
        label: "Turn of {player} in round {round}"
        flow:
          - step: act
    steps:
      act:
        label: "{player} has {player.coins} coins"
        actions:
          pay:
            effect: |
              player.coins -= 1
              emit paid(player, 1)
            label: "pay 1 (keeping the secret {player.secret})"
          draw:
            effect: "draw(deck, player.hand)"
            label: "draw {top(deck)}"
    flow:
      repeat:
        - effect: |
            round += 1
            best = max(p.coins for p in players)
          label: "round {round} begins; the most coins: {best}"
        - each_player: {call: turn}
      until: "round == 2"
"""


def problems(tmp_path, text):
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, text)
    return [str(p) for p in ex.value.problems]


def play(tmp_path, actions):
    g = make_game(tmp_path, GAME)
    log = []
    s = g.new_game(2, seed=1, log=log)
    for a in actions:
        s = g.apply(s, a, log=log)
    return g, s, log


def test_effect_phase_hook_and_event_labels_are_narrated_with_their_values(tmp_path):
    g, s, log = play(tmp_path, ["pay"])
    texts = [m["en"] for m in log]
    assert texts[:5] == ["round 1 begins; the most coins: 3", "Turn of Player 1 in round 1",
                         "Player 1: pay 1 (keeping the secret ?)", "Player 1 paid 1",
                         "the bank thanks Player 1 (coins left: 2)"]


def test_a_step_label_is_rendered_where_the_position_is_described(tmp_path):
    g, s, log = play(tmp_path, [])
    assert "Turn of Player 1 in round 1 / Player 1 has 3 coins" in g.describe(s)


def test_a_private_value_is_told_to_its_owner_only(tmp_path):
    g, s, log = play(tmp_path, ["pay"])
    told = next(m for m in log if "secret" in m["en"])
    assert for_seat(told, 0, "en") == "Player 1: pay 1 (keeping the secret 7)"
    assert for_seat(told, 1, "en") == "Player 1: pay 1 (keeping the secret ?)"


def test_a_piece_is_named_only_to_a_seat_that_may_see_it(tmp_path):
    g, s, log = play(tmp_path, ["draw"])
    told = next(m for m in log if "draw" in m["en"])
    assert told["en"] == "Player 1: draw a card"       # from the hidden deck: nobody sees which
    assert for_seat(told, 1, "en") == "Player 1: draw a card"


@pytest.mark.parametrize("where,old,new,message", [
    ("phase", "Turn of {player} in round {round}", "Turn of {player} in round {rund}",
     "unknown name 'rund'; did you mean 'round'?"),
    ("step", "{player} has {player.coins} coins", "{player} has {player.coins} {deck}",
     "a label hole shows a number, text, player, piece or kind value, not a zone"),
    ("hook", "(coins left: {player.coins})", "(coins left: {player.coin})",
     "a player has no var, zone or parameter 'coin'; did you mean 'coins'?"),
    ("event", "{event.player} paid {event.n}", "{event.playr} paid {event.n}",
     "the event has no argument 'playr'; did you mean 'player'?"),
    ("effect", "the most coins: {best}", "the most coins: {bset}", "unknown name 'bset'; did you mean 'best'?"),
])
def test_label_holes_are_checked_when_the_game_loads(tmp_path, where, old, new, message):
    out = problems(tmp_path, GAME.replace(old, new))
    assert len(out) == 1 and message in out[0], out


def test_a_menu_label_shows_the_chooser_its_own_private_values_only(tmp_path):
    text = GAME.replace('label: "pay 1 (keeping the secret {player.secret})"',
                        'label: "pay 1 (mine {player.secret}, theirs {players[1].secret})"')
    g = make_game(tmp_path, text)
    s = g.new_game(2, seed=1)
    label = next(a["label"]["en"] for a in g.legal_actions(s) if a["action"] == "pay")
    assert label == "pay 1 (mine 7, theirs ?)"


def test_the_pictures_header_and_the_decision_prompt_fill_the_holes_of_phase_and_step_labels(tmp_path):
    from interpreter.table.presentation import present
    from interpreter.table.terminal import step_label
    text = GAME.replace('label: "{player} has {player.coins} coins"',
                        'label: "{player} has {player.coins} coins (secret {player.secret})"')
    g = make_game(tmp_path, text)
    s = g.new_game(2, seed=1)
    for seat, secret in ((0, "7"), (1, "?")):  # the chooser's own secret, to it only
        line = present(g, g.view(s, seat), "en")["status"]["line"]
        assert line.startswith(f"Turn of Player 1 in round 1 / Player 1 has 3 coins (secret {secret})"), line
        assert step_label(g, s, "en", seat) == f"Player 1 has 3 coins (secret {secret})"
    assert "{" not in step_label(g, s, "en") and step_label(g, s, "en").endswith("(secret ?)")


def test_the_web_page_names_the_step_with_its_holes_filled(tmp_path):
    from interpreter.table.tables import Table
    g = make_game(tmp_path, GAME)
    table = Table(g, "told", 2, 1, ["human", "human"])
    assert table.page(0)["step"] == "Player 1 has 3 coins"


def test_an_event_argument_typed_by_a_kind_is_shown_by_its_label(tmp_path):
    text = (GAME.replace("    events:\n      paid: {player: player, n: int, label: \"{event.player} paid {event.n}\"}",
                         "    kinds:\n      colour: {values: [red], labels: {red: {en: Crimson, zh: 红}}}\n"
                         "    events:\n      paid: {player: player, n: int, c: colour, label: \"{event.player} paid "
                         "in {event.c}\"}")
            .replace("emit paid(player, 1)", "emit paid(player, 1, red)"))
    g = make_game(tmp_path, text)
    log = []
    g.apply(g.new_game(2, seed=1, log=log), "pay", log=log)
    assert "Player 1 paid in Crimson" in [m["en"] for m in log]
    assert "玩家1 paid in 红" in [m["zh"] for m in log]
