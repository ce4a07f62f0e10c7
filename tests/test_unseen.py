"""A seat's view tells nothing of the pieces it may not see beyond what the definition makes public
(interpreter/engine/unseen.py): a piece in a hidden zone, in another player's hand or face down keeps in the view's
piece table its setup type and no field value; the leak checks report a view that says more; a bot's
sampled state gives those pieces whole values again."""

import random

import pytest

from interpreter.engine.state_types import type_problem
from interpreter.engine import unseen
from interpreter.players.determinize import sample_state
from interpreter.engine.facing import piece_seen
from interpreter.game import load_game
from interpreter.engine.invariants import hidden_leaks

from conftest import ROOT

GAMES = [("castles_of_burgundy", 2), ("puerto_rico", 4), ("la_granja_no_siesta", 2), ("phoenicia", 3),
         (ROOT / "examples" / "mechanisms" / "brow_cards", 3), (ROOT / "examples" / "mechanisms" / "showdown", 3),
         (ROOT / "examples" / "mechanisms" / "towers", 2)]
SHOWDOWN = ROOT / "examples" / "mechanisms" / "showdown"


def _positions(game, players, seed, every=25, count=4):
    """A few positions of a seeded random game."""
    s = game.new_game(players, seed=seed)
    r = random.Random(seed)
    out = []
    for step in range(every * count):
        if game.is_over(s):
            break
        if step % every == every - 1:
            out.append(s)
        s = game.apply(s, r.choice(game.legal_actions(s, labels=False)))
    return out


def _shuffled_unseen(game, s, seat, r):
    """`s` with the pieces `seat` may not see moved among the places it may not see, and their field values
    swapped among pieces of the same class: a state differing only in what the seat may not see."""
    hidden = unseen.unseen_pieces(game, s, seat)
    t = s.copy(game.layout)
    t.zones = [list(z) for z in t.zones]
    t.fields = [list(col) for col in t.fields]
    spots = [(z, i) for z, content in enumerate(t.zones) for i, x in enumerate(content) if x in set(hidden)]
    moved = hidden[:]
    r.shuffle(moved)
    for (z, i), x in zip(spots, moved):
        t.zones[z][i] = x
        t.loc[x] = z
    by_class = {}
    for x in hidden:
        by_class.setdefault(game.world.types[s.types[x]], []).append(x)
    for col in t.fields:
        for xs in by_class.values():
            values = [col[x] for x in xs]
            r.shuffle(values)
            for x, v in zip(xs, values):
                col[x] = v
    if t.faces:  # a face-down piece moved elsewhere: the one now in its place is face down instead
        t.faces = {}
    return t, hidden


@pytest.mark.parametrize("where,players", GAMES, ids=[str(g).rsplit("/", 1)[-1] for g, _ in GAMES])
def test_two_states_differing_only_in_what_a_seat_may_not_see_give_it_the_same_view(where, players):
    game = load_game(where)
    r = random.Random(5)
    tried = 0
    for s in _positions(game, players, seed=7):
        for seat in range(players):
            if s.faces:
                continue  # per-piece faces: covered by tests/test_facing.py
            t, hidden = _shuffled_unseen(game, s, seat, r)
            tried += len(hidden)
            assert game.view(t, seat) == game.view(s, seat), f"seat {seat}"
            assert hidden_leaks(game, s, seat) == []
    assert tried or "mechanisms" in str(where)  # the shipped games all hide pieces at these positions


def test_the_leak_check_reports_the_fields_of_a_piece_in_a_hidden_zone(monkeypatch):
    game = load_game("castles_of_burgundy")
    s = game.new_game(2, seed=3)
    assert hidden_leaks(game, s, 0) == []
    monkeypatch.setattr(unseen, "redact", lambda *a: None)  # the view as it was: every piece's row listed
    leaks = hidden_leaks(game, s, 0)
    assert leaks and all("may not see it, but its" in x for x in leaks)
    x = unseen.unseen_pieces(game, s, 0)[0]
    assert any(x_ .startswith(f"piece {x} ") for x_ in leaks)


def test_a_hidden_pieces_changed_type_is_not_shown_but_its_setup_type(monkeypatch):
    game = load_game(SHOWDOWN)
    s = game.new_game(2, seed=2)
    x = s.zones[game.layout.zone_index("deck")][0]
    assert not piece_seen(game, s, x, 0)
    monkeypatch.setattr(game.world, "becomes", {s.types[x]: frozenset(["other"])})
    monkeypatch.setattr(unseen, "setup_types", lambda g, n, o: ["setup type"] * len(s.types))
    v = game.view(s, 0)
    assert v["pieces"]["types"][x] == "setup type"
    assert all(col[x] is None for col in v["pieces"]["fields"].values())


WAGER = """
game: {id: wager, name: Wager, players: [2], source: "a test"}
zones:
  global:
    deck: {visibility: hidden}
  player:
    hand: {visibility: owner}
    table: {}
components:
  card:
    zone: deck
    properties: {rank: 0}
    fields: {worth: {type: int}}
    types: {low: {rank: 1, count: 3}, high: {rank: 5, count: 3}}
vars:
  player:
    score: {init: 0}
setup: |
  for c in deck:
      c.worth = c.rank * 2
  shuffle(deck)
  for p in players:
      draw(deck, p.hand)
      draw(deck, p.hand)
steps:
  play:
    actions:
      play:
        choose: {c: {from: player.hand}}
        effect: |
          move(c, player.table)
          face_down(c)
  score:
    actions:
      score:
        effect: |
          for p in players:
              p.score = p.score + top(p.table).worth
              reveal(top(p.table))
flow:
  - each_player: {step: play}
  - step: score
"""


def test_a_sampled_state_gives_every_unseen_piece_its_field_values_and_the_lookahead_reads_them(tmp_path):
    from games import make_game
    game = make_game(tmp_path, WAGER)
    s = game.new_game(2, seed=2)
    s = game.apply(s, game.legal_actions(s)[0])  # player 1's card lies face down on the table
    view = game.view(s, 1)
    hidden = unseen.unseen_pieces(game, s, 1)
    assert len(hidden) == 6 - 2 and all(view["pieces"]["fields"]["worth"][x] is None for x in hidden)
    r = random.Random(4)
    worths = set()
    for _ in range(12):
        t = sample_state(game, view, r)
        assert game.view(t, 1) == view
        assert type_problem(game, t) is None  # every piece has a value of its field's type
        assert all(t.fields[game.layout.fields["worth"]][x] == 2 * (1 if t.types[x] == "low" else 5)
                   for x in range(6))  # each unseen piece dealt whole: its own type and worth
        down = t.zones[game.layout.zone_index("table", 0)][0]
        worths.add(t.fields[game.layout.fields["worth"]][down])
        while not game.is_over(t):  # the scoring reads the face-down card's worth
            t = game.apply(t, r.choice(game.legal_actions(t, labels=False)))
        assert t.p[0][game.layout.pvars["score"]] in (2, 10)
    assert worths == {2, 10}  # the face-down card is dealt from the unseen ones, not fixed
