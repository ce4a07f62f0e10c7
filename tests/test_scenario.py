"""Scenarios: a rulebook's worked examples written as given / when / then, run against the rules."""

import functools
import textwrap

import pytest

from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError
from interpreter.analysis.scenario import load_scenarios, run_game_scenarios, scenario_files

from conftest import ROOT, game_dirs

SHIPPED = [(d, name) for d in game_dirs() for name, _, _ in load_scenarios(scenario_files(d))]


@functools.lru_cache(maxsize=None)
def results(game_dir):
    """Every scenario of a game, run once (a test per scenario reads its result)."""
    return {r.name: r for r in run_game_scenarios(load_game(game_dir), game_dir)}


@pytest.mark.parametrize("game_dir,name", SHIPPED, ids=[f"{d.name}:{n}" for d, n in SHIPPED])
def test_every_shipped_scenario_passes(game_dir, name):
    result = results(game_dir)[name]
    assert result.passed, "\n".join(result.failures + result.trace)


def run(tmp_path, text, game="examples/market_day"):
    f = tmp_path / "s.yaml"
    f.write_text(textwrap.dedent(text), encoding="utf-8")
    return run_game_scenarios(load_game(ROOT / game), None, [f])


def test_a_wrong_expectation_says_what_was_expected_what_happened_and_the_trace(tmp_path):
    (r,) = run(tmp_path, """
    scenarios:
      wrong:
        source: "a test"
        players: 2
        given:
          players:
            1: {vars: {coins: 0}, zones: {hand: [apple_card, apple_card]}}
          start: {step: turn, player: 1}
        when: [sell(k=apple)]
        then: {p1.coins: 7}
    """)
    assert not r.passed
    assert r.failures == ["then: p1.coins: expected 7, got 6"]
    assert r.trace == ["sell(k=apple): Player 1: sell 2 apple for 6"]


def test_an_illegal_step_in_when_fails_with_the_reason_and_the_legal_menu(tmp_path):
    (r,) = run(tmp_path, """
    scenarios:
      illegal:
        source: "a test"
        players: 2
        given: {start: {step: turn, player: 2}}
        when: [sell(k=plum)]
    """)
    assert not r.passed
    assert "illegal action 'sell(k=plum)'" in r.failures[0]
    assert r.trace[-1].startswith("legal then: draw")


def test_mistakes_in_given_are_reported_with_a_did_you_mean(tmp_path):
    (r,) = run(tmp_path, """
    scenarios:
      typos:
        source: "a test"
        players: 2
        given:
          vars: {prize: 3}
          players:
            1: {vars: {coin: 1}, zones: {hand: [apple_crad]}}
    """)
    text = "\n".join(r.failures)
    assert "unknown var 'prize'; did you mean 'price'?" in text
    assert "unknown player var 'coin'; did you mean 'coins'?" in text
    assert "unknown component type 'apple_crad'; did you mean 'apple_card'?" in text


def test_given_zones_hold_exactly_the_listed_pieces_with_their_fields(tmp_path):
    (r,) = run(tmp_path, """
    scenarios:
      placed:
        source: "a test"
        players: 2
        given:
          players:
            2: {zones: {yard: [{cart: {uses: 3}}], hand: [pear_card]}}
        then:
          "size(p2.hand)": 1
          "first(x.uses for x in p2.yard)": 3
          "size(p1.hand)": 0
    """)
    assert r.passed, r.failures


def test_scenario_files_are_checked_against_their_schema(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("scenarios:\n  x:\n    players: 2\n    whne: []\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_scenarios([f])
    text = "\n".join(map(str, info.value.problems))
    assert "bad.yaml:" in text and "'whne'" in text and "source" in text


def test_given_effect_finishes_the_position_with_statements(tmp_path):
    (r,) = run(tmp_path, """
    scenarios:
      effect:
        source: "a test"
        players: 2
        given:
          players:
            1: {zones: {yard: [cart]}}
          effect: |
            first(x for x in p1.yard).uses = 4
            p2.coins += 10
        then:
          "first(x.uses for x in p1.yard)": 4
          p2.coins: 13
    """)
    assert r.passed, r.failures


# ---------------------------------------------------------------- fixed random draws and resuming the flow
DICE = ROOT / "examples" / "dice_cave"


def run_one(game_dir, tmp_path, text):
    """Run the scenarios of one scenario file written in tmp_path against a game directory."""
    from interpreter.game import load_game
    from interpreter.analysis.scenario import run_game_scenarios
    f = tmp_path / "s.yaml"
    f.write_text(textwrap.dedent(text), encoding="utf-8")
    return run_game_scenarios(load_game(game_dir), game_dir, [f])


def test_given_random_fixes_the_next_draws_and_start_resume_goes_on_with_the_flow(tmp_path):
    res = run_one(DICE, tmp_path, """
        scenarios:
          four_then_six:
            source: "x"
            given: {random: [3, 5], start: {step: press, player: 1, resume: true}}
            when: [roll, roll, stop]
            then: {p1.banked: 10, to_move: 2}
          other_dice_other_result:
            source: "x"
            given: {random: [3, 4], start: {step: press, player: 1, resume: true}}
            when: [roll, roll, stop]
            then: {p1.banked: 10}
    """)
    assert res[0].passed, res[0].failures
    assert res[1].failures == ["then: p1.banked: expected 10, got 9"]


def test_without_resume_the_game_ends_after_the_started_step(tmp_path):
    res = run_one(DICE, tmp_path, """
        scenarios:
          one_step:
            source: "x"
            given: {random: [3], start: {step: press, player: 1}}
            when: [roll]
            then: {over: true}
    """)
    assert res[0].passed, res[0].failures


def test_a_fixed_draw_of_the_wrong_sort_is_reported(tmp_path):
    res = run_one(DICE, tmp_path, """
        scenarios:
          too_big:
            source: "x"
            given: {random: [6], start: {step: press, player: 1}}
            when: [roll]
          a_shuffle_order_for_a_die:
            source: "x"
            given: {random: [[nothing]], start: {step: press, player: 1}}
    """)
    assert "random(6) gives 0..5" in res[0].failures[0]
    assert res[1].failures == ["given.random[0]: unknown component type 'nothing'"]


def test_resuming_inside_an_each_player_loop_follows_its_order(tmp_path):
    from interpreter.game import load_game
    from interpreter.analysis.scenario import run_game_scenarios
    root = tmp_path / "g"
    root.mkdir()
    (root / "game.yaml").write_text(textwrap.dedent("""
        game: {id: order, players: [3]}
        tables: {turn_order: [2, 0, 1]}
        vars: {global: {turns: {}}}
        steps:
          turn: {actions: {go: {effect: "turns += 1"}}}
        flow:
          each_player: {step: turn}
          order: turn_order
    """), encoding="utf-8")
    f = tmp_path / "s.yaml"
    f.write_text(textwrap.dedent("""
        scenarios:
          from_the_first_in_the_order:
            source: "x"
            players: 3
            given: {start: {step: turn, player: 3, resume: true}}
            when: [go]
            then: {to_move: 1}
          the_last_in_the_order_ends_the_round:
            source: "x"
            players: 3
            given: {start: {step: turn, player: 2, resume: true}}
            when: [go]
            then: {over: true}
    """), encoding="utf-8")
    res = run_game_scenarios(load_game(root), root, [f])
    assert [r.failures for r in res] == [[], []]
def test_total_checks_the_sum_of_a_players_scoring_items(tmp_path):
    ok, wrong = run(tmp_path, """
    scenarios:
      right:
        source: "a test"
        players: 2
        given:
          players:
            1: {vars: {coins: 9}}
        then: {total: {p1: 9, p2: 3}}        # market day: everybody starts with 3 coins
      wrong:
        source: "a test"
        players: 2
        given:
          players:
            1: {vars: {coins: 9}}
        then: {total: {p1: 10}}
    """)
    assert ok.passed, ok.failures
    assert wrong.failures == ["then: total score of p1: expected 10, got 9"]


def test_regression_a_piece_named_by_a_type_spelt_like_a_seat_is_a_piece(tmp_path):
    """A component type may be named `p02`: in a scenario action it names that piece, as it did when the
    argument checks came in (it is a seat only where the argument takes a player)."""
    from games import write_game
    root = write_game(tmp_path, """
        game: {id: offers, players: [2]}
        zones:
          global: {pool: {}}
          player: {kept: {}}
        components:
          tile:
            zone: pool
            types: {p01: {}, p02: {}, p03: {}}
        steps:
          offer:
            actions:
              offer:
                choose: {x: pool}
                effect: "move(x, player.kept)"
        flow:
          - each_player: {step: offer}
        scoring:
          items:
            kept: {expr: "size(player.kept)"}
    """)
    (root / "scenarios").mkdir()
    (root / "scenarios" / "offers.yaml").write_text(textwrap.dedent("""
        scenarios:
          offer_by_type:
            source: "a test"
            players: 2
            when: [offer(x=p02), offer(x=p01)]
            then: {"all(x.type == p02 for x in p1.kept)": true, "all(x.type == p01 for x in p2.kept)": true,
                   size(pool): 1}
          a_seat_is_not_a_piece:
            source: "a test"
            players: 2
            when: [offer(x=p2)]
    """), encoding="utf-8")
    by_name = {r.name: r for r in run_game_scenarios(load_game(root), root)}
    assert by_name["offer_by_type"].passed, by_name["offer_by_type"].failures
    assert not by_name["a_seat_is_not_a_piece"].passed
    assert "cannot be argument x, which takes a piece" in by_name["a_seat_is_not_a_piece"].failures[0]


# ---------------------------------------------------------------- scenarios mean what they say (format 2)
SEATS = """
    game: {id: seats, players: [2, 3], format: 2}
    vars:
      global: {first: {type: player}, round: {init: 0}}
      player: {coins: {init: 0}}
    components:
      card:
        zone: deck
        fields: {claimed_by: {type: player}}
        types: {ace: {count: 3}, king: {count: 2}}
    zones:
      global: {deck: {}, table: {}, discard: {}}
    steps:
      turn:
        actions:
          take: {effect: "player.coins += 1\\nfirst = player"}
          give:
            choose: {q: {from: players}}
            if: "q != player"
            effect: "q.coins += 2"
    phases:
      morning: {flow: {each_player: {step: turn}}}
      evening: {flow: {each_player: {step: turn}}}
    flow:
      repeat: [{call: morning}, {call: evening}, {effect: "round += 1"}]
      max: 2
    scoring:
      items: {coins: {expr: "player.coins"}}
"""


def seats(tmp_path, body, fmt=2):
    """The results of scenarios (YAML text, format `fmt`) run against the SEATS game."""
    from games import write_game
    root = write_game(tmp_path, SEATS)
    f = tmp_path / "s.yaml"
    f.write_text((f"format: {fmt}\n" if fmt else "") + textwrap.dedent(body), encoding="utf-8")
    return {r.name: r for r in run_game_scenarios(load_game(root), root, [f])}


def test_a_player_is_its_seat_from_1_in_then_fields_and_arguments(tmp_path):
    r = seats(tmp_path, """
    scenarios:
      s:
        source: x
        players: 3
        given:
          zones: {table: [{ace: {claimed_by: p3}}, {king: {claimed_by: 2}}], deck: {top: []}}
        when: [take, give(q=3), {then: {"list(p for p in players if p.coins > 0)": [1, 3]}}]
        then:
          first: 1
          "first(x.claimed_by for x in table)": p3
          "list(x.claimed_by for x in table)": [3, 2]
          p3.coins: 2
    """)["s"]
    assert r.passed, r.failures


def test_in_format_1_a_field_given_as_pN_is_a_player_and_a_number_is_read_as_then(tmp_path):
    r = seats(tmp_path, """
    scenarios:
      s:
        source: x
        players: 3
        given: {zones: {table: [{ace: {claimed_by: p3}}, {king: {claimed_by: 1}}]}}
        then: {"list(x.claimed_by for x in table)": [2, 1]}
    """, fmt=None)["s"]
    assert r.passed, r.failures


def test_a_listed_zone_holds_exactly_its_listed_pieces(tmp_path):
    res = seats(tmp_path, """
    scenarios:
      one_card_the_rest_discarded:
        source: x
        players: 2
        given: {zones: {deck: {top: [king], rest: discard}}}
        then: {"size(deck)": 1, "top(deck).type": king, "size(discard)": 4}
      one_card_on_top_of_the_others:
        source: x
        players: 2
        given: {zones: {deck: {top: [king]}}}
        then: {"size(deck)": 5, "top(deck).type": king}
      the_others_listed_elsewhere:
        source: x
        players: 2
        given: {zones: {deck: [king], table: [ace, ace, ace, king]}}
        then: {"size(deck)": 1}
      the_others_nowhere:
        source: x
        players: 2
        given: {zones: {deck: [king]}}
        then: {"size(deck)": 1}
    """)
    for name in ("one_card_the_rest_discarded", "one_card_on_top_of_the_others", "the_others_listed_elsewhere"):
        assert res[name].passed, (name, res[name].failures)
    assert res["the_others_nowhere"].failures == [
        "given.zones.deck holds exactly the listed pieces, but 4 piece(s) that start in this zone are listed "
        "nowhere (ace, king): list them in another zone, write {top: [...], rest: ZONE} to put them there, or "
        "{top: [...]} to keep them below the listed ones"]


def test_a_resuming_start_at_a_step_taken_in_two_places_must_say_which(tmp_path):
    res = seats(tmp_path, """
    scenarios:
      ambiguous:
        source: x
        players: 2
        given: {start: {step: turn, player: 2, resume: true}}
        then: {to_move: 2}
      named:
        source: x
        players: 2
        given: {start: {step: turn, in: evening, player: 2, resume: true}}
        when: [take]
        then: {round: 1}
      alone:
        source: x
        players: 2
        given: {start: {step: turn, player: 2}}
        when: [take]
        then: {over: true}
    """)
    (failure,) = res["ambiguous"].failures
    assert failure.startswith(f"{tmp_path / 's.yaml'}:7:")  # the start of the scenario that is ambiguous
    assert "step 'turn' is taken in 2 places of the flow" in failure and "in morning;" in failure
    assert "say which with `in:`" in failure
    assert res["named"].passed and res["alone"].passed, (res["named"].failures, res["alone"].failures)


@pytest.mark.parametrize("bad", ["give q=2", "give(q=2", "give(q=2))", "give(q=2, q=1)", "give(q)", "give(=2)"])
def test_a_malformed_action_id_is_a_scenario_mistake_never_refused_as_expected(tmp_path, bad):
    res = seats(tmp_path, f"""
    scenarios:
      s:
        source: x
        players: 2
        when: [{{illegal: "{bad}"}}]
    """)
    (failure,) = res["s"].failures
    assert failure.startswith("scenario mistake:") and bad in failure


@pytest.mark.parametrize("expected,ok", [("1", True), ("1.0", False), ("true", False)])
def test_numbers_compare_by_type_as_the_dsl_does(tmp_path, expected, ok):
    res = seats(tmp_path, f"""
    scenarios:
      s:
        source: x
        players: 2
        when: [take]
        then: {{p1.coins: {expected}}}
    """)
    assert res["s"].passed is ok, res["s"].failures


def test_a_step_whose_rule_fails_fails_the_scenario_with_the_trace_of_that_step(tmp_path):
    from games import write_game
    root = write_game(tmp_path, """
        game: {id: failing, players: [2]}
        vars:
          player: {coins: {init: 0}}
        steps:
          turn:
            actions:
              go: {effect: "player.coins += 1", label: "go on"}
        phases:
          reckoning:
            label: The reckoning
            flow: {effect: "players[0].coins = 10 // (players[0].coins - 1)"}
        flow: [{each_player: {step: turn}}, {call: reckoning}]
        scoring:
          items: {coins: {expr: "player.coins"}}
    """)
    f = tmp_path / "s.yaml"
    f.write_text("format: 2\nscenarios:\n  s: {source: x, players: 2, when: [go, go], then: {over: true}}\n",
                 encoding="utf-8")
    (r,) = run_game_scenarios(load_game(root), root, [f])
    (failure,) = r.failures
    assert failure.startswith(f"when[1] go: a rule failed: {root / 'game.yaml'}:11:")
    assert failure.endswith("division by zero (during phase reckoning)")
    assert r.trace[:3] == ["go: Player 1: go on", "go: Player 2: go on", "  [The reckoning]"]
    assert r.trace[3].startswith("go: raised ") and len(r.trace) == 4
