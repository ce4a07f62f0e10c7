"""owner(x) of a piece in a zone held by a piece (a stack on a player's board) is the owner of that holder,
down through holders of holders; a piece on a board space of the table has no owner."""

from games import make_game

STACKS = """
game: {id: stacks, name: Stacks, players: [2], source: "a test"}
zones:
  global:
    bases: {}
    chips: {}
    row: {}
  player:
    mat: {}
  piece:
    pile: {of: base}
components:
  base:
    zone: bases
    types: {base: {count: 3}}
  chip:
    zone: chips
    types: {chip: {count: 2}}
vars:
  global:
    seen_owner: {type: player}
    row_owner: {type: player, init: 0}
setup: |
  move(top(bases), players[1].mat)
  move(top(bases), row)
  move(top(bases), top(players[1].mat).pile)
  move(top(chips), top(top(players[1].mat).pile).pile)
  move(top(chips), top(row).pile)
  seen_owner = owner(top(top(top(players[1].mat).pile).pile))
  row_owner = owner(top(top(row).pile))
steps: {}
flow: []
"""


def test_a_piece_on_a_stack_belongs_to_the_owner_of_what_holds_the_stack(tmp_path):
    game = make_game(tmp_path, STACKS)
    s = game.new_game(2, seed=1)
    assert s.g[game.layout.gvars["seen_owner"]] == 1  # chip on a base on a base on player 2's mat
    assert s.g[game.layout.gvars["row_owner"]] is None  # chip on a base in the table's row
