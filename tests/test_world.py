"""world: the names of a game and the primitives rules call. Here: parameters of a piece class that
`copies` another piece (a tile that works as the tile one of its fields names)."""

from games import make_game, problem_about, problems_of

COPY_GAME = """
game: {id: copying, players: [2]}
parameters:
  reach: {default: 1}
vars:
  global:
    done: {type: bool}
zones:
  global:
    market: {}
  player:
    tableau: {}
components:
  tile:
    zone: market
    fields:
      placed: {type: bool}
    active: "self.placed"
    types:
      long_arm: {modifies: {reach: 2}}
  mimic:
    zone: market
    fields:
      placed: {type: bool}
      copy: {type: piece}
    active: "self.placed"
    copies: copy
    types:
      mirror: {}
flow:
  repeat: {each_player: {step: turn}}
  until: "done"
steps:
  turn:
    actions:
      take:
        choose: {t: market}
        effect: |
          move(t, player.tableau)
          t.placed = true
      aim:
        choose: {m: player.tableau, t: "list(x for x in pieces if x.type == long_arm)"}
        if: "m.type == mirror"
        effect: "m.copy = t"
      unplace:
        choose: {m: player.tableau}
        effect: "m.placed = false"
      wait: {effect: "pass"}
      end: {effect: "done = true"}
"""
# piece ids: long_arm 0, mirror 1


def reach(game, s, player):
    return game.evaluate(s, "player.reach", player=player)


def play(game, *actions):
    s = game.new_game(2)
    for a in actions:
        s = game.apply(s, a)
    return s


def test_a_copying_piece_without_a_target_changes_nothing(tmp_path):
    game = make_game(tmp_path, COPY_GAME)
    s = play(game, "take(t=1)")
    assert reach(game, s, 0) == 1


def test_a_copying_piece_carries_the_modifiers_of_the_piece_it_names(tmp_path):
    game = make_game(tmp_path, COPY_GAME)
    # seat 0 takes the mirror, seat 1 the long arm; seat 0's mirror then copies the long arm of seat 1
    s = play(game, "take(t=1)", "take(t=0)", "aim(m=1,t=0)")
    assert reach(game, s, 0) == 3
    assert reach(game, s, 1) == 3          # the original still works for its owner


def test_an_inactive_copying_piece_lends_nothing(tmp_path):
    game = make_game(tmp_path, COPY_GAME)
    s = play(game, "take(t=1)", "take(t=0)", "aim(m=1,t=0)", "wait", "unplace(m=1)")
    assert reach(game, s, 0) == 1


def test_copies_must_name_a_piece_field_of_the_class(tmp_path):
    problems = problems_of(tmp_path, COPY_GAME.replace("copies: copy", "copies: placed"))
    assert problem_about(problems, "copies must name a piece field of class mimic")
