"""Bots decide from their seat's view only: states sampled from a view agree with it, and hidden
information planted in the state (a face-down card, another player's secret points) never changes a
bot's choice."""
import random
from pathlib import Path

import pytest

from interpreter.players.bots import GreedyBot, decide, make_bot, margin
from interpreter.players.determinize import Determinizer, knowledge, unrecorded
from interpreter.game import load_game

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
BOT_SPECS = ["random", "greedy", "greedy:depth=1", "mcts:iterations=30"]


@pytest.fixture(scope="module")
def low_cards():
    return load_game(FIXTURES / "low_cards")


@pytest.fixture(scope="module")
def puerto_rico():
    return load_game("puerto_rico")



def with_top_card(game, s, kind):
    """A copy of `s` whose face-down deck has a card of type `kind` on top (the rest in the same order)."""
    t = s.copy(game.layout)
    deck = t.zones[game.layout.gzones["deck"]]
    i = next(i for i, x in enumerate(deck) if t.types[x] == kind)
    deck.insert(0, deck.pop(i))
    return t


def planted_pair(game):
    """Two Low Cards positions that differ only in the face-down deck's top card (a 0 or a 5), with no 0
    in the face-up row: seeing the deck would make drawing blind the best or the worst choice."""
    for seed in range(1, 100):
        s = game.new_game(2, seed)
        row = [s.types[x] for x in s.zones[game.layout.gzones["row"]]]
        if "zero" not in row:
            return with_top_card(game, s, "zero"), with_top_card(game, s, "five")
    raise AssertionError("no seed without a 0 in the row")


def test_the_planted_card_would_change_a_choice_made_from_the_state(low_cards):
    low, high = planted_pair(low_cards)
    sign = -1  # the lowest score wins
    me = low_cards.current_player(low)

    def best_by_state(s):  # what a bot that read the state would do
        acts = low_cards.legal_actions(s)
        return max(acts, key=lambda a: margin(low_cards.scores(low_cards.apply(s, a)), me, sign))["id"]

    assert best_by_state(low) == "blind" != best_by_state(high)


@pytest.mark.parametrize("spec", BOT_SPECS)
def test_a_hidden_card_does_not_change_any_bots_choice(low_cards, spec):
    low, high = planted_pair(low_cards)
    seat = low_cards.current_player(low)
    assert low_cards.view(low, seat) == low_cards.view(high, seat)
    for seed in range(5):
        assert decide(make_bot(spec, seed), low_cards, low)["id"] == decide(make_bot(spec, seed), low_cards, high)["id"]


def test_bots_decide_from_a_view_never_a_state(low_cards):
    s = low_cards.new_game(2, 1)
    with pytest.raises(TypeError, match="view"):
        make_bot("greedy", 1).choose(low_cards, s, low_cards.legal_actions(s))


def pr_position(game, decisions=120, seed=5):
    s = game.new_game(4, seed)
    r = random.Random(seed)
    for _ in range(decisions):
        s = game.apply(s, r.choice(game.legal_actions(s)))
    return s


def secrets_changed(game):
    """(s, t, seat): a Puerto Rico position where `seat` has a choice, and a copy that differs only in
    what the seat cannot see: the other players' VP chips, the plantation deck's order, the RNG."""
    s = pr_position(game)
    while len(game.legal_actions(s)) < 2:
        s = game.apply(s, game.legal_actions(s)[0])
    seat = game.current_player(s)
    t = s.copy(game.layout)
    chips = game.layout.pvars["vp_chips"]
    for pl in range(4):
        if pl != seat:
            t.p[pl][chips] += 7 * (pl + 1)
    t.zones[game.layout.gzones["plantation_deck"]].reverse()
    t.rng ^= 0xABCDEF
    return s, t, seat


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=12"])
def test_other_players_secret_points_and_the_deck_order_do_not_change_a_choice(puerto_rico, spec):
    game = puerto_rico
    s, t, seat = secrets_changed(game)
    assert t != s and game.view(t, seat) == game.view(s, seat)
    assert decide(make_bot(spec, 3), game, s)["id"] == decide(make_bot(spec, 3), game, t)["id"]


@pytest.mark.parametrize("name,players", [("puerto_rico", 4), ("castles_of_burgundy", 2)])
def test_a_sampled_state_shows_the_seat_exactly_its_view_and_plays_on(name, players):
    game = load_game(name)
    s = pr_position(game, decisions=90, seed=2) if name == "puerto_rico" else None
    if s is None:
        s = game.new_game(players, 2)
        r = random.Random(2)
        for _ in range(40):
            s = game.apply(s, r.choice(game.legal_actions(s)))
    seat = game.current_player(s)
    view = game.view(s, seat)
    sampler = Determinizer(game, view)
    r = random.Random(1)
    samples = [sampler.sample(r) for _ in range(4)]
    for x in samples:
        assert game.view(x, seat) == view
        assert [a["id"] for a in game.legal_actions(x)] == [a["id"] for a in game.legal_actions(s)]
    assert len({tuple(map(tuple, x.zones)) for x in samples}) > 1  # the hidden parts really vary
    x = samples[0]
    while not game.is_over(x):  # a sample is a state the rules can play to the end
        x = game.apply(x, r.choice(game.legal_actions(x, labels=False)))


def test_hidden_conserved_points_are_shared_out_from_what_the_view_leaves(puerto_rico):
    game = puerto_rico
    s = pr_position(game, decisions=400)
    seat = game.current_player(s) or 0
    chips = game.layout.pvars["vp_chips"]
    sample = Determinizer(game, game.view(s, seat)).sample(random.Random(4))
    others = [pl for pl in range(4) if pl != seat]
    assert sum(sample.p[pl][chips] for pl in others) == sum(s.p[pl][chips] for pl in others)
    assert sample.p[seat][chips] == s.p[seat][chips]


def test_what_a_bot_tries_in_its_head_is_not_counted_as_play(low_cards):
    s = low_cards.new_game(2, 3)
    before = dict(low_cards.fired)
    with unrecorded(low_cards):
        low_cards.apply(s, low_cards.legal_actions(s)[0])
    assert low_cards.fired == before
    decide(make_bot("mcts:iterations=20", 1), low_cards, s)
    assert low_cards.fired == before


def test_what_hidden_zones_hold_is_learned_from_the_definition(low_cards):
    k = knowledge(low_cards, 2, None)
    deck = low_cards.layout.gzones["deck"]
    assert k.can_hold(deck) == {"zero", "one", "two", "three", "four", "five"}


def test_every_sample_has_its_own_random_future():
    """Each sampled state gets a generator of its own, drawn from the caller's: the samples do not share
    one future (a die rolled in the lookahead rolls differently from sample to sample), and the bot's seed
    makes them again."""
    game = load_game(ROOT / "examples" / "dice_cave")
    s = game.new_game(2, seed=3)
    sampler = Determinizer(game, game.view(s, game.current_player(s)))
    r = random.Random(5)
    samples = [sampler.sample(r) for _ in range(12)]
    assert len({x.rng for x in samples}) == 12
    pack = game.layout.gvars["pack"]
    rolled = {game.apply(x, "roll").g[pack] for x in samples}  # 0 after a 1, else the face
    assert len(rolled) >= 3
    again = random.Random(5)
    assert [sampler.sample(again).rng for _ in range(12)] == [x.rng for x in samples]


def test_a_search_plays_each_iteration_on_a_sample_of_its_own():
    game = load_game(ROOT / "examples" / "dice_cave")
    s = game.new_game(2, seed=3)
    s = game.apply(s, "roll")
    while game.current_player(s) != 0 or len(game.legal_actions(s)) < 2:
        s = game.apply(s, game.legal_actions(s)[0])
    view = game.view(s, 0)
    futures = []

    class Recording(Determinizer):
        def sample(self, r):
            x = super().sample(r)
            futures.append(x.rng)
            return x

    bot = make_bot("mcts:iterations=20,prior=0", 1)
    bot.search(game, Recording(game, view), 0, {a["id"]: a for a in game.legal_actions(s)})
    assert len(futures) == 20 and len(set(futures)) == 20
