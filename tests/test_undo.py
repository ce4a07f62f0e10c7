"""What undo may take back: a decision revealed something to a seat when that seat's view after it is not
determined by its view before it (a card drawn from a face-down deck, a die rolled); the seat's own last
decision only, while no other seat has decided since."""
from interpreter.game import load_game
from interpreter.table.undo import Decision, Runs, refusal, reveals, seen
from test_terminal_table import TALLY


def tally(tmp_path):
    from games import make_game

    game = make_game(tmp_path, TALLY)
    return game, game.new_game(players=2, seed=1)


def test_a_public_decision_reveals_nothing_a_draw_or_a_roll_does(tmp_path):
    game, state = tally(tmp_path)
    assert reveals(game, state, "count") is False
    assert reveals(game, state, "draw") is True           # the drawer sees a card of the face-down deck
    assert reveals(game, state, "roll") is True           # a die rolled: the future was hidden


def test_shipped_games_opening_choices_reveal_nothing():
    game = load_game("castles_of_burgundy")
    state = game.new_game(players=2, seed=1)
    assert not any(reveals(game, state, a["id"]) for a in game.legal_actions(state)[:3])


def test_views_compare_by_what_pieces_are_not_their_ids(tmp_path):
    game, state = tally(tmp_path)
    view = game.view(state, 0)
    same_kind = dict(view, zones=dict(view["zones"]))
    types = view["pieces"]["types"]
    a = [x for x in range(len(types)) if types[x] == "a"]
    shown = dict(view, zones={"deck": {"hidden": 6}}, player_zones=[{"hand": [a[0]]}, {"hand": {"hidden": 0}}])
    other = dict(shown, player_zones=[{"hand": [a[1]]}, {"hand": {"hidden": 0}}])
    assert seen(shown) == seen(other) and seen(same_kind) == seen(view)
    b = types.index("b")
    assert seen(dict(shown, player_zones=[{"hand": [b]}, {"hand": {"hidden": 0}}])) != seen(shown)


def test_only_the_last_seats_run_can_be_taken_back(tmp_path):
    game, state = tally(tmp_path)
    runs = Runs()
    assert refusal(game, runs, 0) == "nothing_to_undo"
    runs.add(Decision(0, state, "count"))
    runs.add(Decision(0, state, "count"))
    assert len(runs) == 2 and refusal(game, runs, 0) is None and refusal(game, runs, 1) == "others_decided"
    runs.add(Decision(1, state, "count"))
    assert len(runs) == 1 and refusal(game, runs, 0) == "others_decided"
    runs.add(Decision(1, state, "draw"))
    assert refusal(game, runs, 1) == "it_revealed" and runs[-1].revealed is True
