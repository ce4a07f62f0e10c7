"""The learned bots (interpreter/players/learned.py): they decide from the seat's view through a model found
beside the definition, refuse a model of other rules, lend a base game's model to its variants, and learn
by self-play what the score so far cannot show."""

import json
import random
import textwrap

import pytest

from interpreter.game import load_game
from interpreter.players.bots import BotSpecError, decide, make_bot, parse_bot_spec
from interpreter.players.learned import LearnedBot, NoModel, SearchBot, find_model
from interpreter.players.valuemodel import StaleModel, ValueModel, rules_hash
from interpreter.analysis.ladder import play_pair
from interpreter.analysis.train import train

from conftest import ROOT
from games import write_game
from test_determinize import planted_pair, secrets_changed
from test_valuemodel import random_model

# A farm pays one point at the start of every later round; cash pays one point now. The greedy bot, which
# values a position by its score so far, always takes the cash; a player who farms early wins.
INVEST = """
    game: {id: invest, players: [2]}
    vars:
      global: {round: {}}
      player: {points: {}, farms: {}}
    steps:
      work:
        actions:
          cash: {effect: "player.points += 1"}
          farm: {effect: "player.farms += 1"}
    flow:
      - repeat:
          - effect: |
              round += 1
              for p in players:
                  p.points += p.farms
          - each_player: {step: work}
        until: "round == 6"
    scoring:
      items:
        points: {expr: "player.points"}
"""


@pytest.fixture(scope="module")
def invest_model(tmp_path_factory):
    root = write_game(tmp_path_factory.mktemp("invest"), INVEST)
    game = load_game(root)
    model = train(game, [2], seed=1, games=200, generation_games=25)
    model.save(root / "models" / "value-2p.json")
    return root, model


def test_self_play_learns_what_the_score_so_far_cannot_show(invest_model):
    """After training the bot farms in the first round and takes the cash in the last, and beats greedy."""
    root, _ = invest_model
    game = load_game(root)
    s = game.new_game(2, seed=1)
    assert decide(make_bot("learned", 1), game, s)["id"] == "farm"
    assert decide(make_bot("greedy", 1), game, s)["id"] == "cash"
    while game.evaluate(s, "round") < 6:
        s = game.apply(s, "farm")
    assert decide(make_bot("learned", 1), game, s)["id"] == "cash"
    pair = play_pair(game, 2, 6, "learned", "greedy", seed=1)
    assert pair["wins"] == 6


def test_a_model_is_found_beside_the_definition_and_refused_for_other_rules(invest_model, tmp_path):
    root, model = invest_model
    game = load_game(root)
    found, note = find_model(game, 2)
    assert found.rules == model.rules and "the model of invest for 2 players" in note
    changed = write_game(tmp_path, INVEST.replace("p.points += p.farms", "p.points += 2 * p.farms"))
    (changed / "models").mkdir()
    (changed / "models" / "value-2p.json").write_text((root / "models" / "value-2p.json").read_text())
    other = load_game(changed)
    with pytest.raises(StaleModel, match="trained on other rules"):
        find_model(other, 2)
    with pytest.raises(StaleModel):
        decide(make_bot("learned", 1), other, other.new_game(2, seed=1))
    with pytest.raises(NoModel, match="meeple train"):
        find_model(load_game(write_game(tmp_path, INVEST)), 2)


def test_the_model_of_fewest_player_counts_serves_first(invest_model, tmp_path):
    """A model trained for this count alone is preferred to one that also serves others, whatever the
    files' names (value-2-3p.json sorts before value-2p.json)."""
    root, model = invest_model
    copy = write_game(tmp_path, INVEST)
    (copy / "models").mkdir()
    data = json.loads((root / "models" / "value-2p.json").read_text())
    wide = dict(data, players=[2, 3], scale=data["scale"] + 1.0)
    (copy / "models" / "value-2-3p.json").write_text(json.dumps(wide))
    (copy / "models" / "value-2p.json").write_text(json.dumps(data))
    found, _ = find_model(load_game(copy), 2)
    assert found.players == [2] and found.scale == data["scale"]
    (copy / "models" / "value-2p.json").unlink()
    found, _ = find_model(load_game(copy), 2)
    assert found.players == [2, 3]


def test_a_variant_plays_with_its_base_games_model(invest_model, tmp_path):
    root, model = invest_model
    overlay = tmp_path / "double_cash.yaml"
    overlay.write_text(textwrap.dedent(f"""
        overlay: {{base: {root.name}, label: {{en: Double cash}}}}
        set:
          steps.work.actions.cash.effect: "player.points += 2"
    """), encoding="utf-8")
    variant = load_game(root, variant=[overlay])
    assert rules_hash(variant) != model.rules
    found, note = find_model(variant, 2)
    assert "base game's model" in note
    assert decide(make_bot("learned", 1), variant, variant.new_game(2, seed=1))["id"] in ("cash", "farm")


def test_a_model_is_named_by_its_file_never_by_a_path():
    assert parse_bot_spec("learned:model=value-2p")[1] == {"model": "value-2p"}
    for bad in ("../value", "/etc/passwd", "a/b", "..", "x" * 80):
        with pytest.raises(BotSpecError):
            parse_bot_spec(f"learned:model={bad}")


@pytest.mark.parametrize("kind", ["learned", "search"])
def test_a_hidden_card_does_not_change_a_learned_choice(low_cards, kind):
    model = random_model(low_cards, 2, seed=4)
    low, high = planted_pair(low_cards)
    for seed in range(4):
        a = _bot(kind, seed, model)
        b = _bot(kind, seed, model)
        assert decide(a, low_cards, low)["id"] == decide(b, low_cards, high)["id"]


@pytest.mark.parametrize("kind", ["learned", "search"])
def test_secret_points_and_the_deck_order_do_not_change_a_learned_choice(puerto_rico, kind):
    game = puerto_rico
    model = random_model(game, 4, seed=2, density=0.1)
    s, t, seat = secrets_changed(game)
    assert game.view(t, seat) == game.view(s, seat)
    assert decide(_bot(kind, 3, model), game, s)["id"] == decide(_bot(kind, 3, model), game, t)["id"]


def _bot(kind, seed, model):
    return LearnedBot(seed, model=model) if kind == "learned" else SearchBot(seed, iterations=24, model=model)


@pytest.fixture(scope="module")
def low_cards():
    return load_game(ROOT / "tests" / "fixtures" / "low_cards")


@pytest.fixture(scope="module")
def puerto_rico():
    return load_game("puerto_rico")


BROW = """
    game: {id: brow, players: [2]}
    zones:
      global: {deck: {visibility: hidden}, discard: {}}
      player: {brow: {visibility: others}}
    components:
      card:
        zone: deck
        properties: {high: false}
        types:
          high_card: {count: 16, high: true}
          low_card: {count: 2}
    vars:
      player: {points: {}}
    setup: |
      shuffle(deck)
      for p in players:
          draw(deck, p.brow)
    steps:
      call:
        actions:
          high: {effect: "player.points += 1 if top(player.brow).high else 0\\nnext_card(player)"}
          low: {effect: "player.points += 0 if top(player.brow).high else 1\\nnext_card(player)"}
    procedures:
      "next_card(p: player)": |
        move(top(p.brow), discard)
        if size(deck) > 0:
            draw(deck, p.brow)
    flow:
      - repeat:
          - each_player: {step: call}
        until: "size(deck) == 0"
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_a_seat_that_cannot_see_its_own_card_weighs_the_chances_instead_of_trusting_one_guess(tmp_path):
    """Sixteen high cards and two low: at the first call a seat's own card is low about one time in nine.
    A bot judging one sampled state calls low whenever the sample dealt it a low card (a guess played as
    if known); by default a seat that cannot see some of its own pieces averages BLIND_SAMPLES samples,
    and calls high."""
    game = load_game(write_game(tmp_path, BROW))
    points = {f"{b}.var.points": 1.0 for b in ("early", "middle", "late")}
    model = ValueModel(game.id, rules_hash(game), [2], {"score": points, "result": {}}, {2: 16.0}, scale=1.0)
    lows = {}
    for samples in (None, 1):
        calls = [decide(LearnedBot(seed, model=model, samples=samples), game, game.new_game(2, seed=seed))["id"]
                 for seed in range(60)]
        lows[samples] = calls.count("low")
    assert lows[None] <= 1 and lows[1] >= 3, lows   # expected: 0.3 and 6.7 of 60


LAST_MOVE = """
    game: {id: last_move, players: [2]}
    vars:
      player: {points: {}}
    steps:
      move:
        actions:
          take: {effect: "player.points += 1"}
          leave: {effect: "player.points += 0"}
    flow:
      - each_player: {step: move}
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_the_move_that_ends_the_game_is_judged_by_its_outcome_not_by_the_model(tmp_path):
    """A model that has points backwards (each point predicts one fewer at the end) misleads every move
    but the last: the second seat's move ends the game, and its outcome, not the model, says which wins."""
    game = load_game(write_game(tmp_path, LAST_MOVE))
    backwards = {f"{b}.var.points": -2.0 for b in ("early", "middle", "late")}
    model = ValueModel(game.id, rules_hash(game), [2], {"score": backwards, "result": {}}, {2: 2.0}, scale=1.0)
    s = game.new_game(2, seed=1)
    assert decide(LearnedBot(1, model=model), game, s)["id"] == "leave"   # the model's advice, not over yet
    s = game.apply(s, "take")
    assert decide(LearnedBot(2, model=model), game, s)["id"] == "take"    # ends the game: a tie beats a loss


STALL = """
    game: {id: stall, players: [2]}
    vars:
      global: {round: {}}
      player: {goes: {}}
    steps:
      move:
        actions:
          wait: {effect: "round += 0"}
          go: {effect: "player.goes += 1"}
      close:
        actions:
          done: {effect: "round += 0"}
    flow:
      - repeat:
          - effect: "round += 1"
          - each_player: {step: move}
        until: "any(p.goes > 0 for p in players)"
        max: 400
      - each_player: {step: close}   # so going is never the move that ends the game (that one is judged exactly)
    scoring:
      items:
        goes: {expr: "player.goes"}
"""


@pytest.mark.parametrize("kind", [LearnedBot, SearchBot])
def test_bots_that_would_wait_forever_end_the_game_past_three_usual_lengths(tmp_path, kind):
    """A model that prefers waiting, at both seats, would run into the round limit; past STALL_LENGTHS
    times the usual length each bot (the learned one, the search on its model) plays a random move now
    and then (seeded), so the game ends."""
    game = load_game(write_game(tmp_path, STALL))
    hate_going = {f"{b}.var.goes": -1.0 for b in ("early", "middle", "late")}
    model = ValueModel(game.id, rules_hash(game), [2], {"score": hate_going, "result": {}}, {2: 10.0}, scale=1.0)
    ends = []
    for seed in range(3):
        bots = [kind(seed * 10 + p, model=model) for p in range(2)]
        s = game.new_game(2, seed=seed)
        while not game.is_over(s):
            seat = game.current_player(s)
            choice = decide(bots[seat], game, s)["id"]
            assert choice == "wait" or s.decisions > 30   # before three usual lengths, always waits
            s = game.apply(s, choice)
        ends.append(s.decisions)
    assert all(30 < n < 400 for n in ends), ends


@pytest.mark.parametrize("normalize", [True, False])
def test_the_search_tree_is_walked_alike_whatever_the_scale_of_its_values(puerto_rico, normalize):
    """A model's values early in a game lie close together (each a chance to come out ahead, far from
    the end); the search bot compares each child's mean with its siblings' range, so its walk and its
    visits do not depend on how close: values squeezed a hundredfold walk the same tree. Comparing the
    raw means (`normalize` off, as `mcts` does with its 0..1 outcomes) lets the exploration term swamp them."""
    from interpreter.players.determinize import Determinizer
    from interpreter.players.mcts import MctsBot, reward

    game = puerto_rico
    s = game.new_game(4, seed=3)
    seat = game.current_player(s)
    view = game.view(s, seat)
    ids = {a["id"]: a for a in game.legal_actions(s)}
    visits = []
    for squeeze in (1.0, 0.01):
        bot = MctsBot(5, iterations=120, depth=0, normalize=normalize)
        bot.value = lambda g, st, sign, over, k=squeeze: [0.5 + k * (v - 0.5) for v in reward(g, st, sign, over)]
        root = bot.search(game, Determinizer.of(game, view), seat, ids)
        visits.append({aid: child.visits for aid, child in root.children.items()})
    assert (visits[0] == visits[1]) == normalize, visits


# A seller's offer is answered by the other player, who pays 2 points to the seller; keeping pays 1 point
# at once. One step judges an offer before it is answered (nothing yet); played through, it is worth 2.
OFFER = """
    game: {id: offer, players: [2]}
    vars:
      global: {round: {}, seller: {type: player}}
      player: {points: {}}
    steps:
      trade:
        actions:
          keep: {effect: "player.points += 1"}
          sell: {effect: "seller = player"}
      answer:
        actions:
          pay: {effect: "seller.points += 2"}
    phases:
      turn:
        flow:
          - step: trade
          - if: "seller != none"
            then: {call: offer}
      offer:
        flow:
          - each_player: {step: answer}
            order: "[next_player(seller)]"
          - effect: "seller = none"
    flow:
      - repeat:
          - effect: "round += 1"
          - each_player: {call: turn}
        until: "round == 3"
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_the_learned_bot_plays_through_what_its_action_hands_to_another_seat(tmp_path):
    """By the score so far, an offer is worth nothing until it is answered: the bot plays the answer
    through (the other seat's own one-step choice) and sells; with no replies it keeps the sure point."""
    from interpreter.analysis.train import initial_model
    game = load_game(write_game(tmp_path, OFFER))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    assert decide(LearnedBot(1, model=model), game, s)["id"] == "sell"
    assert decide(LearnedBot(1, model=model, replies=0), game, s)["id"] == "keep"
    assert LearnedBot(1, replies=0).spec() == "learned:replies=0" and LearnedBot(1).spec() == "learned"


def test_a_seat_that_answers_plays_its_own_best_answer_in_the_play_through(tmp_path):
    """Where the answering seat may refuse (paying would put the seller 2 points further ahead of it),
    the seller plays the answer through as that seat would, expects a refusal and keeps the sure point;
    the answering seat does refuse. (Judging every answer from the position the play-through started
    at matters: taking the first answer judged as the new position while the others were still being
    made from it chose otherwise.)"""
    from interpreter.analysis.train import initial_model
    text = OFFER.replace('''          pay: {effect: "seller.points += 2"}''',
                         '''          pay: {effect: "seller.points += 2"}
          refuse: {effect: "player.points += 0"}''')
    game = load_game(write_game(tmp_path, text))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    assert decide(LearnedBot(1, model=model), game, s)["id"] == "keep"
    s = game.apply(s, "sell")
    assert decide(LearnedBot(1, model=model), game, s)["id"] == "refuse"


def test_the_search_bot_values_its_leaves_after_the_same_play_through(tmp_path):
    """The search tree's leaves and its first look at each action are judged as the learned bot judges
    them, once what an action handed to another seat is played through: with one iteration the search
    sells (the answer's 2 points are counted from the start); with no replies (its default) its first
    look keeps the sure point and the one iteration goes there too."""
    from interpreter.analysis.train import initial_model
    game = load_game(write_game(tmp_path, OFFER))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    assert decide(SearchBot(1, model=model, iterations=1, replies=8), game, s)["id"] == "sell"
    assert decide(SearchBot(1, model=model, iterations=1), game, s)["id"] == "keep"
    assert SearchBot(1, replies=8).spec() == "search:iterations=100,replies=8"


@pytest.mark.parametrize("wide", [0, 1])
def test_a_wide_search_gives_each_node_it_meets_a_child_for_every_action(tmp_path, wide):
    """With `wide=1` the first visit to a node primes it as the root is primed: a child for each legal
    action, with `prior` visits worth the position right after it, the walk going on from the best for
    the seat deciding there; by default one untried action is tried per visit."""
    from interpreter.analysis.train import initial_model
    from interpreter.players.determinize import Determinizer
    game = load_game(write_game(tmp_path, OFFER))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    seat = game.current_player(s)
    ids = {a["id"]: a for a in game.legal_actions(s)}
    bot = SearchBot(1, model=model, iterations=1, wide=wide)
    bot.bind(game, 2)
    root = bot.tree.search(game, Determinizer.of(game, game.view(s, seat)), seat, ids)
    assert sorted(root.children) == ["keep", "sell"]
    walked = root.children["keep"]  # the one look's best: the one iteration goes there
    assert walked.visits == 5
    if wide:
        assert sorted(walked.children) == ["keep", "sell"]  # the other seat's trade, both priced
        assert sorted(ch.visits for ch in walked.children.values()) == [4, 5]
    else:
        assert [ch.visits for ch in walked.children.values()] == [1]
    assert bot.spec() == ("search:iterations=1" + (",wide=1" if wide else ""))


LAST_ROUND = """
    game: {id: last_round, players: [2]}
    vars:
      global: {round: {}}
      player: {points: {}}
    end:
      triggers:
        bell: {}
    steps:
      move:
        actions:
          take: {effect: "player.points += 1"}
          leave: {effect: "player.points += 0"}
    flow:
      - repeat:
          - effect: "round += 1"
          - {if: "round == 3", then: {effect: "end_game(bell)"}}
          - each_player: {step: move}
        until: "game_ending"
        max: 10
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_past_the_end_trigger_the_search_plays_the_rest_out_and_values_how_it_ends(tmp_path):
    """A model that has points backwards misleads the search at every leaf it judges; with `finish=1`
    a leaf past the end trigger (round 3, the last: the bell rang as it began) is played out at random to the
    end and valued by the outcome, so in the last round the search takes the point; before the bell the
    model still decides, and without `finish` it leaves the point in the last round too."""
    game = load_game(write_game(tmp_path, LAST_ROUND))
    backwards = {f"{b}.var.points": -2.0 for b in ("early", "middle", "late")}
    model = ValueModel(game.id, rules_hash(game), [2], {"score": backwards, "result": {}}, {2: 6.0}, scale=1.0)
    s = game.new_game(2, seed=1)
    for _ in range(4):   # rounds 1 and 2: nobody takes; the bell rings as round 3 begins
        s = game.apply(s, "leave")
    assert s.ends == ["bell"] and not game.is_over(s)
    first = game.new_game(2, seed=1)
    assert decide(SearchBot(1, model=model, iterations=30, finish=1), game, first)["id"] == "leave"
    assert decide(SearchBot(1, model=model, iterations=30, finish=1), game, s)["id"] == "take"
    assert decide(SearchBot(1, model=model, iterations=30), game, s)["id"] == "leave"
    assert SearchBot(1, finish=1).spec() == "search:iterations=100,finish=1"
    with pytest.raises(BotSpecError):
        make_bot("search:finish=-1", seed=1)


# A turn is two decisions of the same step: a coin is a point now; a tile taken is nothing until the
# turn's next decision places it for three (a tile not placed by the turn's end is lost).
TWO_DECISIONS = """
    game: {id: two_decisions, players: [2]}
    vars:
      global: {round: {}}
      player: {points: {}, held: {}}
    steps:
      act:
        actions:
          coin: {effect: "player.points += 1"}
          take: {if: "player.held == 0", effect: "player.held += 1"}
          place:
            if: "player.held > 0"
            effect: |
              player.held -= 1
              player.points += 3
    phases:
      turn:
        flow:
          - step: act
          - step: act
          - effect: |
              for p in players:
                  p.held = 0
    flow:
      - repeat:
          - effect: "round += 1"
          - each_player: {call: turn}
        until: "round == 3"
    scoring:
      items:
        points: {expr: "player.points"}
"""


def test_with_own_the_learned_bot_plays_on_its_turns_later_decisions_before_judging(tmp_path):
    """By the score so far a coin (1) beats a tile taken (0); played on through the turn's next decision
    of the same step, the tile is placed for 3, the coin is followed by another coin (2): `own=1` takes
    the tile, the one-step look the coin. The search bot's leaves and first looks are judged alike."""
    from interpreter.analysis.train import initial_model
    game = load_game(write_game(tmp_path, TWO_DECISIONS))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    assert decide(LearnedBot(1, model=model), game, s)["id"] == "coin"
    assert decide(LearnedBot(1, model=model, own=1), game, s)["id"] == "take"
    assert decide(SearchBot(1, model=model, iterations=1), game, s)["id"] == "coin"
    assert decide(SearchBot(1, model=model, iterations=1, own=1), game, s)["id"] == "take"
    assert LearnedBot(1, own=2).spec() == "learned:own=2" and SearchBot(1, own=2).spec() == "search:iterations=100,own=2"
    with pytest.raises(BotSpecError):
        make_bot("learned:own=-1")


def test_the_own_run_stops_where_the_turn_moves_on_to_another_step(tmp_path):
    """A look one decision further down one action's line than down another's favours the action that
    keeps the turn: here waiting leads to a step that pays 2 to a seat without points, while a coin pays
    1 and is followed by the same step for nothing. The own run goes deeper into what the seat decides
    and through the same step again, never into the turn's next step, so the coin is taken."""
    from interpreter.analysis.train import initial_model
    text = TWO_DECISIONS.replace('''          - step: act
          - step: act''', '''          - step: choose
          - step: work''').replace('''    steps:
      act:''', '''    steps:
      choose:
        actions:
          coin: {effect: "player.points += 1"}
          wait: {effect: "player.held += 0"}
      work:
        actions:
          work: {effect: "player.points += 2 if player.points == 0 else 0"}
      act:''')
    game = load_game(write_game(tmp_path, text))
    model = initial_model(game, [2])
    s = game.new_game(2, seed=1)
    assert decide(LearnedBot(1, model=model, own=3), game, s)["id"] == "coin"


# A point now, or an edge: what the model's result head says wins games (in La Granja, the siesta track:
# its points are few, but it breaks ties and ends the game when its holder leads).
POINT_OR_EDGE = """
    game: {id: point_or_edge, players: [2]}
    vars:
      global: {round: {}}
      player: {points: {}, edge: {}}
    steps:
      act:
        actions:
          point: {effect: "player.points += 1"}
          edge: {effect: "player.edge += 1"}
    flow:
      - repeat:
          - effect: "round += 1"
          - each_player: {step: act}
        until: "round == 3"
    scoring:
      items:
        points: {expr: "player.points"}
"""


def edge_model(game) -> ValueModel:
    """The score head counts the points, the result head half a win per edge."""
    blocks = ("early", "middle", "late")
    heads = {"score": {f"{b}.score.total": 1.0 for b in blocks}, "result": {f"{b}.var.edge": 0.5 for b in blocks}}
    return ValueModel(game.id, rules_hash(game), [2], heads, {2: 6.0}, scale=1.0)


@pytest.mark.parametrize("kind", [LearnedBot, SearchBot])
def test_with_win_a_seat_weighs_its_chance_to_win_beside_its_margin(tmp_path, kind):
    """The score head counts the points, the result head the edge (half a win each): by the margin alone
    (`win=0`) a point is worth more; by default (`win=4`) the chance to win, at four times the score
    scale, outweighs it."""
    game = load_game(write_game(tmp_path, POINT_OR_EDGE))
    model = edge_model(game)
    s = game.new_game(2, seed=1)
    options = {"iterations": 1} if kind is SearchBot else {}
    assert decide(kind(1, model=model, win=0, **options), game, s)["id"] == "point"
    assert decide(kind(1, model=model, **options), game, s)["id"] == "edge"
    assert decide(kind(1, model=model, win=1, **options), game, s)["id"] == "point"   # 1 × 0.5 < 1 point
    assert kind(1, win=0).spec().endswith("win=0") and "win" not in kind(1, win=4).spec()
    for bad in ("-1", "nan", "1e9"):
        with pytest.raises(BotSpecError):
            make_bot(f"{kind.name}:win={bad}")


def test_the_chance_to_win_counts_only_where_seats_compete(tmp_path):
    """In a cooperative game the shared result already comes first: `win` leaves its utilities as they are;
    at the end of a game the outcome's shares are weighed as the result head's prediction would be."""
    game = load_game(write_game(tmp_path, POINT_OR_EDGE))
    judge = edge_model(game).bind(game)
    s = game.new_game(2, seed=1)
    s = game.apply(s, "edge")
    assert judge.aiming(4).utilities(s)[0] == pytest.approx(judge.utilities(s)[0] + 4 * 0.5)
    assert judge.aiming(0) is judge and judge.aiming(4) is judge.aiming(4) and judge.aiming(4).aiming(0) is judge
    for _ in range(5):
        s = game.apply(s, "point")
    assert game.is_over(s)   # seat 1: 2 points, seat 2: 3 points, a loss and a win
    assert judge.aiming(4).utilities(s) == pytest.approx([-1 - 4, 1 + 4])
    low = load_game(write_game(tmp_path / "low", POINT_OR_EDGE.replace("    scoring:\n", "    scoring:\n      order: low\n")))
    judge = edge_model(low).bind(low)
    s = low.apply(low.new_game(2, seed=1), "edge")   # where the fewest points win, an edge is still worth a win
    assert judge.aiming(4).utilities(s)[0] == pytest.approx(judge.utilities(s)[0] + 4 * 0.5)
    levee = load_game(ROOT / "examples" / "mechanisms" / "levee")
    shared = find_model(levee, 2)[0].bind(levee)
    s = levee.new_game(2, seed=1)
    s = levee.apply(s, levee.legal_actions(s)[0]["id"])
    assert shared.aiming(4).utilities(s) == shared.utilities(s)
