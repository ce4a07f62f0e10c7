"""Simultaneous decisions: sealed choices that no other seat can see until every seat has chosen.

The example game Lantern Bids (examples/lantern_bids) has one: every player plays a bid card at once.
"""

from __future__ import annotations

import itertools
import json

import pytest

from conftest import ROOT
from interpreter.engine import simultaneous
from interpreter.players.bots import decide, make_bot
from interpreter.game import IllegalAction, load_game
from interpreter.analysis.secrecy import sealed_leaks
from interpreter.analysis.verify import verify

LANTERNS = ROOT / "examples" / "lantern_bids"
LEAKY = ROOT / "tests" / "fixtures" / "leaky_sealed"


@pytest.fixture(scope="module")
def game():
    return load_game(LANTERNS)


def bid(game, s, seat, value):
    """The id of seat's action that plays its bid card of that value."""
    return next(a["id"] for a in game.legal_actions(s, player=seat)
                if game.evaluate(s, "c.value".replace("c", f"pieces[{a['args']['c']}]")) == value)


def perceived(game, s, seat, narration):
    """Everything `seat` perceives before it chooses: its view, its menu with labels, the narration so far."""
    from interpreter.language.labels import for_seat
    view = game.view(s, seat)
    view.pop("decisions")
    menu = game.legal_actions(s, player=seat)
    told = [(for_seat(m, seat, "en"), for_seat(m, seat, "zh")) for m in narration]
    return json.dumps([view, menu, told], sort_keys=True)


def test_a_later_chooser_perceives_the_same_whatever_the_earlier_choices(game):
    s0 = game.new_game(3, seed=5)
    seen = set()
    for v1, v2 in itertools.product(range(1, 6), repeat=2):
        log = []
        s = game.apply(s0, bid(game, s0, 0, v1), player=0, log=log)
        s = game.apply(s, bid(game, s, 1, v2), player=1, log=log)
        seen.add(perceived(game, s, 2, log))
    assert len(seen) == 1


def test_a_bot_chooses_the_same_whatever_the_earlier_choices(game):
    s0 = game.new_game(3, seed=5)
    picks = set()
    for v1 in range(1, 6):
        s = game.apply(s0, bid(game, s0, 0, v1), player=0)
        s = game.apply(s, bid(game, s, 1, 3), player=1)
        picks.add(decide(make_bot("greedy", seed=1), game, s)["id"])
    assert len(picks) == 1


def test_nothing_changes_before_the_reveal_and_every_choice_counts_after(game):
    s0 = game.new_game(3, seed=5)
    s = game.apply(s0, bid(game, s0, 1, 4), player=1)
    assert game.evaluate(s, "size(spent)") == 0
    assert game.pending_players(s) == [0, 2]
    assert game.current_player(s) == 0
    s = game.apply(s, bid(game, s, 2, 4), player=2)
    log = []
    s = game.apply(s, bid(game, s, 0, 1), log=log)
    assert game.evaluate(s, "size(spent)") == 3
    assert [x["en"] for x in log[:4]] == ["Player 1: has chosen", "Player 1: bid 1", "Player 2: bid 4",
                                          "Player 3: bid 4"]
    assert game.evaluate(s, "size(p.won)".replace("p", "players[0]")) == 1  # the 4s cancel: the 1 wins


def test_the_order_of_the_choices_does_not_matter(game):
    s0 = game.new_game(3, seed=9)
    finals = set()
    for order in itertools.permutations(range(3)):
        s = s0
        for seat in order:
            s = game.apply(s, bid(game, s, seat, seat + 2), player=seat)
        finals.add(json.dumps(game.to_json(s), sort_keys=True, default=str).replace('"decisions"', ""))
    assert len(finals) == 1


def test_a_view_shows_only_that_another_seat_has_chosen(game):
    s0 = game.new_game(2, seed=1)
    s = game.apply(s0, bid(game, s0, 0, 5), player=0)
    mine = game.view(s, 0)["flow"][-1][5]
    theirs = game.view(s, 1)["flow"][-1][5]
    assert mine[0].startswith("play(") and mine[1] is None
    assert theirs == [simultaneous.CHOSEN, None]


def test_pending_choices_survive_save_and_load(game):
    s0 = game.new_game(3, seed=2)
    s = game.apply(s0, bid(game, s0, 1, 2), player=1)
    back = game.from_json(json.loads(json.dumps(game.to_json(s))))
    assert back == s
    t = game.apply(back, bid(game, back, 0, 3), player=0)
    t = game.apply(t, bid(game, t, 2, 3), player=2)
    assert game.evaluate(t, "size(spent)") == 3


def test_only_a_seat_still_to_choose_may_choose(game):
    s0 = game.new_game(2, seed=1)
    s = game.apply(s0, bid(game, s0, 0, 5), player=0)
    with pytest.raises(IllegalAction, match="no choice to make"):
        game.legal_actions(s, player=0)
    with pytest.raises(IllegalAction):
        game.apply(s, "play(c=0)", player=0)


def test_the_sealed_check_sees_a_view_that_shows_pending_choices(game, monkeypatch):
    s0 = game.new_game(3, seed=5)
    s = game.apply(s0, bid(game, s0, 0, 2), player=0)
    assert sealed_leaks(game, s) == []
    monkeypatch.setattr(simultaneous, "redact", lambda game, flow, viewer: flow)
    leaks = sealed_leaks(game, s)
    assert leaks and "player 2's view depends on player 1's pending choice" in leaks[0]


def test_verify_passes_the_sealed_game_and_rejects_the_leaky_encoding():
    assert verify(LANTERNS, games=5).ok
    rep = verify(LEAKY, games=3)
    assert not rep.ok
    assert any("can tell which piece it was from what is left in hand of player 1" in v for v in rep.violations)


def test_only_some_seats_may_choose_and_a_wrong_list_is_refused(tmp_path):
    from games import make_game
    from interpreter.definition.problems import DefinitionError
    text = """
        game: {id: some, players: [3]}
        vars: {player: {n: {}}}
        steps:
          pick: {actions: {pick: {choose: {k: "range(1, 3)"}, effect: "player.n = k"}}}
        flow:
          - simultaneous: pick
            players: "list(p for p in players if p != 1)"
    """
    g = make_game(tmp_path, text)
    s = g.new_game(3)
    assert g.pending_players(s) == [0, 2]
    s = g.apply(s, "pick(k=2)", player=2)
    s = g.apply(s, "pick(k=1)")
    assert g.is_over(s) and g.evaluate(s, "list(p.n for p in players)") == [1, 0, 2]
    with pytest.raises(DefinitionError, match="players is the list of the seats that choose, not a int"):
        make_game(tmp_path, text.replace('"list(p for p in players if p != 1)"', '"3"'))


def test_the_narration_of_a_sealed_choice_tells_it_to_the_chooser_only(game):
    from interpreter.language.labels import for_seat
    s0 = game.new_game(3, seed=5)
    log = []
    game.apply(s0, bid(game, s0, 1, 4), player=1, log=log)
    assert for_seat(log[0], 1, "en") == "Player 2: bid 4 (sealed)"
    assert for_seat(log[0], 0, "en") == for_seat(log[0], 2, "en") == log[0]["en"] == "Player 2: has chosen"


def test_the_sealed_check_sees_narration_that_tells_a_waiting_seat_a_pending_choice(game, monkeypatch):
    """What a seat still to choose is told when it chooses is compared too: a narration of its own choice
    that repeats the others' pending choices is a leak."""
    s0 = game.new_game(3, seed=5)
    s = game.apply(s0, bid(game, s0, 0, 2), player=0)
    assert sealed_leaks(game, s) == []
    told = simultaneous.choose

    def telling(game, t, fr, act, vals, player, log):
        told(game, t, fr, act, vals, player, log)
        if log is not None:
            log.append({"en": f"so far: {fr[5]}", "zh": f"so far: {fr[5]}"})
    monkeypatch.setattr(simultaneous, "choose", telling)
    leaks = sealed_leaks(game, s)
    assert leaks and "narration depends on player 1's pending choice" in leaks[0]


def test_a_concealed_state_keeps_the_seats_own_choice_and_forgets_the_others(game):
    s0 = game.new_game(3, seed=5)
    s = game.apply(s0, bid(game, s0, 0, 2), player=0)
    s = game.apply(s, bid(game, s, 1, 3), player=1)
    mine = s.flow[-1][5][1]
    assert game.conceal(s, 1).flow[-1][5] == [None, mine, None]
    assert game.conceal(s, 2).flow[-1][5] == [None, None, None]
    assert s.flow[-1][5][0] is not None  # the state itself keeps every choice


SOME_CHOOSE = """
    game: {id: some_choose, players: [3]}
    vars: {player: {n: {}, can: {type: bool, init: true}}}
    steps:
      pick: {actions: {pick: {if: "player.can", choose: {k: "range(1, 3)"}, effect: "player.n = k"}}}
    setup: "players[1].can = false"
    flow:
      - simultaneous: pick
"""


def test_a_seat_with_nothing_to_choose_is_not_waited_for(tmp_path):
    from games import make_game
    g = make_game(tmp_path, SOME_CHOOSE)
    s = g.new_game(3)
    assert g.pending_players(s) == [0, 2] and s.flow[-1][4] == [0, 2]
    s = g.apply(s, "pick(k=2)", player=2)
    s = g.apply(s, "pick(k=1)", player=0)
    assert g.is_over(s) and g.evaluate(s, "list(p.n for p in players)") == [1, 0, 2]


@pytest.mark.parametrize("change, words", [
    (lambda fr: fr.__setitem__(5, ["pick(k=1)", "pick(k=2)"]), "every choice in"),
    (lambda fr: (fr.__setitem__(4, [0, 0]), fr.__setitem__(5, [None, None])), "names a seat twice"),
    (lambda fr: fr.__setitem__(4, [0, 2, 1]), "one choice"),
])
def test_a_saved_simultaneous_frame_must_be_one_the_rules_can_go_on_from(tmp_path, change, words):
    from games import make_game
    from interpreter.engine.state import StateFormatError
    g = make_game(tmp_path, SOME_CHOOSE)
    d = json.loads(json.dumps(g.to_json(g.new_game(3))))
    g.from_json(d)
    change(d["flow"][-1])
    with pytest.raises(StateFormatError, match=words):
        g.from_json(d)
