"""vocabulary: the query and effect functions of the DSL, its generators, and parameters with modifiers.

A query is read from a scoring item at the first decision; an effect is run by applying an action of the
first player (seat 0). The deck starts in declaration order: pieces 0, 1, 2 are `small` (vp 1, 1 space),
pieces 3, 4 are `big` (vp 5, 2 spaces).
"""

import pytest

from interpreter.engine import rng
from interpreter.language.compiler import RuleError
from interpreter.engine.invariants import pieces_consistent

from games import evaluate_all, make_game, problem_about, problems_of, split_items

VOCAB_GAME = """
game: {id: vocab, players: [2, 3]}
kinds:
  good: {values: [corn, rice, salt]}
tables:
  nums: [4, 1, 3]
vars:
  global:
    pool: {init: 5, resource: coin}
    got: {type: piece}
    moved: {}
    r: {}
    stock: {of: good, init: {corn: 1, rice: 2, salt: 3}}
  player:
    coins: {init: 1, resource: coin}
zones:
  global:
    deck: {}
    row: {capacity: 2}
    lot: {capacity: 3, size: spaces}
    empty: {}
  player:
    hand: {}
components:
  card:
    zone: deck
    properties: {vp: 0, spaces: 1}
    types:
      small: {count: 3, vp: 1}
      big: {count: 2, vp: 5, spaces: 2}
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      move_end: {effect: "move(top(deck), player.hand)"}
      move_top: {effect: "move(first(c for c in deck if c.type == big), deck, 0)"}
      move_within: {effect: "move(top(deck), deck)"}
      fill_row: {effect: "for c in deck: move(c, row)"}
      two_bigs: {effect: "for c in list(c for c in deck if c.type == big): move(c, lot)"}
      big_and_small: {effect: "move(first(c for c in deck if c.type == big), lot); move(top(deck), lot)"}
      draw: {effect: "got = draw(deck, player.hand)"}
      draw_empty: {effect: "got = draw(empty, player.hand)"}
      shuffle: {effect: "shuffle(deck)"}
      take_3: {effect: "moved = transfer(3, pool, player.coins)"}
      take_10: {effect: "moved = transfer(10, pool, player.coins)"}
      take_negative: {effect: "moved = transfer(0 - 2, pool, player.coins)"}
      pay_into_map: {effect: "moved = transfer(5, player.coins, stock[corn])"}
      roll: {effect: "r = random(6)"}
      roll_zero: {effect: "r = random(0)"}
      move_none: {effect: "move(top(empty), row)"}
scoring:
  items:
%s
"""

QUERIES = {
    "len_zone": ("len(deck)", 5),
    "size_zone": ("size(deck)", 5),
    "len_list": ("len(nums)", 3),
    "count_list": ("count(nums)", 3),
    "free_capped": ("free(row)", 2),
    "free_sized": ("free(lot)", 3),
    "capacity": ("capacity(row)", 2),
    "used_sized": ("used(lot)", 0),
    "top": ("top(deck)", 0),
    "top_empty": ("top(empty)", None),
    "owner_global": ("owner(top(deck))", None),
    "zone_of": ("zone_of(top(deck)) == deck", True),
    "in_zone": ("top(deck) in deck", True),
    "in_other_zone": ("top(deck) in row", False),
    "not_in_zone": ("top(deck) not in row", True),
    "next_player": ("next_player(player)", 1),
    "next_player_k": ("next_player(player, 2)", 2),
    "next_player_wraps": ("next_player(2)", 0),
    "range_1": ("range(3)", [0, 1, 2]),
    "range_2": ("range(2, 5)", [2, 3, 4]),
    "values": ("values(good)", ["corn", "rice", "salt"]),
    "total": ("total(stock)", 6),
    "abs": ("abs(0 - 3)", 3),
    "min_args": ("min(4, 2, 9)", 2),
    "max_args": ("max(4, 2, 9)", 9),
    "min_list": ("min(nums)", 1),
    "clamp_high": ("clamp(12, 0, 10)", 10),
    "clamp_low": ("clamp(0 - 5, 0, 10)", 0),
    "type": ("top(deck).type", "small"),
    "class": ("top(deck).class", "card"),
    "property": ("first(c for c in deck if c.type == big).vp", 5),
    "is_active_without_rule": ("is_active(top(deck))", True),
    # generators
    "sum": ("sum(c.vp for c in deck)", 13),
    "sum_if": ("sum(c.vp for c in deck if c.type == small)", 3),
    "count": ("count(c for c in deck)", 5),
    "count_if": ("count(c for c in deck if c.vp > 1)", 2),
    "count_bool": ("count(c.vp > 1 for c in deck)", 2),
    "any": ("any(c.vp > 4 for c in deck)", True),
    "any_if": ("any(c.vp > 4 for c in deck if c.type == small)", False),
    "all": ("all(c.vp > 0 for c in deck)", True),
    "all_if": ("all(c.vp == 5 for c in deck if c.type == big)", True),
    "min_gen": ("min(c.vp for c in deck)", 1),
    "max_gen_if": ("max(c.vp for c in deck if c.type == small)", 1),
    "first": ("first(c for c in deck)", 0),
    "first_if": ("first(c for c in deck if c.vp == 5)", 3),
    "list": ("list(c.vp for c in deck)", [1, 1, 1, 5, 5]),
    "list_if": ("list(c for c in deck if c.type == big)", [3, 4]),
    "over_list": ("sum(n * n for n in nums if n > 1)", 25),
    "nested": ("sum(count(d for d in deck if d.vp == c.vp) for c in deck)", 13),
    "empty_sum": ("sum(c.vp for c in empty)", 0),
    "empty_min": ("min(c.vp for c in empty, default = 0)", 0),
    "empty_max_default": ("max(c.vp for c in empty, default = -1)", -1),
    "empty_any": ("any(c.vp > 0 for c in empty)", False),
    "empty_all": ("all(c.vp > 0 for c in empty)", True),
    "empty_first": ("first(c for c in empty)", None),
    "empty_list": ("list(c for c in empty)", []),
}


@pytest.fixture(scope="module")
def vocab(tmp_path_factory):
    items = "\n".join(f"    {k}: {{expr: {e!r}}}" for k, (e, _) in QUERIES.items())
    text, exprs = split_items(VOCAB_GAME % items)
    game = make_game(tmp_path_factory.mktemp("vocab"), text)
    game.test_exprs = exprs
    return game


@pytest.fixture(scope="module")
def queries(vocab):
    return evaluate_all(vocab, vocab.new_game(3), vocab.test_exprs)


@pytest.mark.parametrize("key", list(QUERIES))
def test_query(queries, key):
    expr, want = QUERIES[key]
    assert queries[key] == want, expr


def run(game, action, players=2, seed=0):
    """(state before, state after) of the first player's `action`."""
    s = game.new_game(players, seed=seed)
    t = game.apply(s, action)
    assert pieces_consistent(t) is None
    return s, t


def zones(game, s):
    d = game.to_json(s)
    return d["zones"], d["player_zones"]


# ---------------------------------------------------------------- move
def test_move_puts_the_piece_at_the_end(vocab):
    _, t = run(vocab, "move_end")
    g, p = zones(vocab, t)
    assert g["deck"] == [1, 2, 3, 4] and p[0]["hand"] == [0]


def test_move_with_position_zero_puts_it_on_top(vocab):
    _, t = run(vocab, "move_top")
    assert zones(vocab, t)[0]["deck"] == [3, 0, 1, 2, 4]


def test_move_within_a_zone_to_its_end_leaves_it_in_place(vocab):
    _, t = run(vocab, "move_within")
    assert zones(vocab, t)[0]["deck"] == [0, 1, 2, 3, 4]


def test_move_into_a_full_zone_is_a_rule_error(vocab):
    s = vocab.new_game(2)
    with pytest.raises(RuleError, match="zone row is full"):
        vocab.apply(s, "fill_row")


def test_a_sized_zone_counts_the_size_property(vocab):
    with pytest.raises(RuleError, match="zone lot is full: no room for big"):
        vocab.apply(vocab.new_game(2), "two_bigs")
    _, t = run(vocab, "big_and_small")
    assert zones(vocab, t)[0]["lot"] == [3, 0]


def test_moving_none_is_a_rule_error(vocab):
    with pytest.raises(RuleError, match="no piece to move"):
        vocab.apply(vocab.new_game(2), "move_none")


# ---------------------------------------------------------------- draw
def test_draw_moves_the_top_piece_and_returns_it(vocab):
    _, t = run(vocab, "draw")
    d = vocab.to_json(t)
    assert d["vars"]["got"] == 0
    assert d["zones"]["deck"] == [1, 2, 3, 4] and d["player_zones"][0]["hand"] == [0]


def test_draw_from_an_empty_zone_gives_none_and_moves_nothing(vocab):
    s, t = run(vocab, "draw_empty")
    assert vocab.to_json(t)["vars"]["got"] is None
    assert zones(vocab, t) == zones(vocab, s)


# ---------------------------------------------------------------- shuffle and random
def test_shuffle_uses_the_games_generator(vocab):
    s, t = run(vocab, "shuffle", seed=11)
    expected = [0, 1, 2, 3, 4]
    state = rng.shuffle(s.rng, expected)
    assert zones(vocab, t)[0]["deck"] == expected
    assert t.rng == state


def test_shuffle_is_deterministic_per_seed(vocab):
    decks = {seed: tuple(zones(vocab, run(vocab, "shuffle", seed=seed)[1])[0]["deck"]) for seed in range(6)}
    again = {seed: tuple(zones(vocab, run(vocab, "shuffle", seed=seed)[1])[0]["deck"]) for seed in range(6)}
    assert decks == again
    assert len(set(decks.values())) > 1, "different seeds give different orders"
    assert all(sorted(d) == [0, 1, 2, 3, 4] for d in decks.values())


def test_random_draws_from_the_games_generator(vocab):
    s, t = run(vocab, "roll", seed=5)
    state, value = rng.below(s.rng, 6)
    assert vocab.to_json(t)["vars"]["r"] == value and t.rng == state


def test_random_of_zero_is_a_rule_error(vocab):
    with pytest.raises(RuleError, match="must be positive"):
        vocab.apply(vocab.new_game(2), "roll_zero")


# ---------------------------------------------------------------- transfer
@pytest.mark.parametrize("action,moved,pool,coins", [
    ("take_3", 3, 2, 4),
    ("take_10", 5, 0, 6),        # at most what there is
    ("take_negative", 0, 5, 1),  # never backwards
])
def test_transfer_moves_at_most_what_there_is(vocab, action, moved, pool, coins):
    _, t = run(vocab, action)
    d = vocab.to_json(t)
    assert (d["vars"]["moved"], d["vars"]["pool"], d["player_vars"][0]["coins"]) == (moved, pool, coins)


def test_transfer_into_a_map_entry(vocab):
    _, t = run(vocab, "pay_into_map")
    d = vocab.to_json(t)
    assert d["vars"]["moved"] == 1
    assert d["player_vars"][0]["coins"] == 0 and d["vars"]["stock"]["corn"] == 2


def test_transfer_needs_assignable_places(tmp_path):
    problem_about(problems_of(tmp_path, """
    game: {id: t, players: [2]}
    vars:
      global:
        pool: {}
    flow:
      effect: "transfer(1, pool, 3)"
    """), "cannot be assigned to")


# ---------------------------------------------------------------- arity and argument types
@pytest.mark.parametrize("expr,message", [
    ("len(deck, deck)", "len() takes 1 argument(s), got 2"),
    ("clamp(1, 2)", "clamp() takes 3 argument(s), got 2"),
    ("next_player()", "next_player() takes 1 to 2 argument(s), got 0"),
    ("free(3)", "free(): expected zone, got int"),
    ("owns(player, dragon)", "unknown name 'dragon'"),
    ("owns(player, 'dragon')", "'dragon' is not a component type"),
    ("len(3)", "len() of a int"),
    ("avg(c.vp for c in deck)", "'avg' does not take a generator"),
    ("sum(c for c in 3)", "cannot iterate over a int"),
])
def test_bad_calls_are_refused_at_load(tmp_path, expr, message):
    problem_about(problems_of(tmp_path, f"""
    game: {{id: t, players: [2]}}
    zones:
      global:
        deck: {{}}
    components:
      card:
        zone: deck
        properties: {{vp: 0}}
        types:
          small: {{}}
    flow: []
    scoring:
      items:
        x: {{expr: "{expr}"}}
    """), message)


# ---------------------------------------------------------------- parameters, activity, ownership
PARAMS_GAME = """
game: {id: params, players: [2]}
parameters:
  bonus: {default: 1}
  limit: {default: 5}
vars:
  global:
    done: {type: bool}
zones:
  global:
    supply: {}
  player:
    tableau: {}
    reserve: {}
components:
  building:
    zone: supply
    fields: {workers: {}}
    active: "self.workers > 0"
    types:
      market: {count: 2, modifies: {bonus: 2}}
      bank: {modifies: {limit: {set: 9}}}
      hut: {}
  coin:
    zone: supply
    types:
      charm: {modifies: {bonus: 10}}
flow:
  repeat:
    each_player: {step: s}
  until: done
  max: 50
steps:
  s:
    if: "player == 0"
    actions:
      take:
        choose: {b: supply}
        effect: "move(b, player.tableau)"
      reserve:
        choose: {b: supply}
        effect: "move(b, player.reserve)"
      give:
        choose: {b: supply}
        effect: "move(b, next_player(player).tableau)"
      work:
        choose: {b: player.tableau}
        if: "b.workers == 0"
        effect: "b.workers += 1"
      work_all:
        effect: |
          for p in players:
              for b in p.tableau:
                  if b.class == 'building':
                      b.workers += 1
      end: {effect: "done = true"}
scoring:
  items:
    bonus: {expr: "player.bonus"}
    limit: {expr: "player.limit"}
    owns_market: {expr: "owns(player, market)"}
    active_market: {expr: "active(player, market)"}
    market: {expr: "piece_of(player, market)"}
    hut_active: {expr: "active(player, hut)"}
"""
# piece ids: market 0, 1; bank 2; hut 3; charm 4


@pytest.fixture(scope="module")
def params(tmp_path_factory):
    text, exprs = split_items(PARAMS_GAME)
    game = make_game(tmp_path_factory.mktemp("params"), text)
    game.test_exprs = exprs
    return game


def seat0(game, *actions):
    s = game.new_game(2)
    for a in actions:
        s = game.apply(s, a)
    return evaluate_all(game, s, game.test_exprs, player=0)


def test_parameters_start_at_their_default(params):
    assert seat0(params) == {"bonus": 1, "limit": 5, "owns_market": False, "active_market": False,
                             "market": None, "hut_active": False}


def test_an_inactive_piece_is_owned_but_does_not_modify(params):
    row = seat0(params, "take(b=0)")
    assert (row["owns_market"], row["active_market"], row["market"], row["bonus"]) == (True, False, 0, 1)


def test_an_active_piece_adds_its_modifier(params):
    row = seat0(params, "take(b=0)", "work(b=0)")
    assert (row["active_market"], row["bonus"]) == (True, 3)


def test_modifiers_of_several_active_pieces_add_up(params):
    assert seat0(params, "take(b=0)", "take(b=1)", "work_all")["bonus"] == 5


def test_a_set_modifier_replaces_the_value(params):
    assert seat0(params, "take(b=2)")["limit"] == 5
    assert seat0(params, "take(b=2)", "work(b=2)")["limit"] == 9


def test_a_class_without_an_active_rule_is_always_active(params):
    assert seat0(params, "take(b=4)")["bonus"] == 11


def test_any_zone_of_the_player_counts(params):
    assert seat0(params, "reserve(b=4)")["bonus"] == 11


def test_pieces_of_others_and_in_global_zones_do_not_count(params):
    row = seat0(params, "give(b=0)", "give(b=4)", "work_all")
    assert (row["bonus"], row["owns_market"], row["market"]) == (1, False, None)
    s = params.new_game(2)
    for a in ("give(b=0)", "give(b=4)", "work_all"):
        s = params.apply(s, a)
    assert params.evaluate(s, params.test_exprs["bonus"], player=1) == 13


def test_piece_of_gives_the_players_first_piece_of_a_type(params):
    assert seat0(params, "take(b=1)", "take(b=0)")["market"] == 1


def test_a_modifier_of_an_unknown_parameter_is_refused(tmp_path):
    p = problem_about(problems_of(tmp_path, """
    game: {id: t, players: [2]}
    parameters:
      bonus: {default: 0}
    zones:
      global:
        supply: {}
    components:
      building:
        zone: supply
        types:
          market: {modifies: {bonsu: 1}}
    flow: []
    """), "unknown parameter 'bonsu'")
    assert p.hint == "did you mean 'bonus'?"
