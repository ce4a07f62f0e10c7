"""flow: the turn-and-phase machine (sequence, effect, step, call, if, repeat, each_player) and hooks.

Effects leave a trail in a global var `trace`: each writes a digit (`trace = trace * 10 + d`), so the
value read at the end spells the order in which they ran.
"""

import pytest

from interpreter.language.compiler import RuleError

from games import action_ids, make_game, problem_about, problems_of


def trace(game, s):
    return game.to_json(s)["vars"]["trace"]


def play(game, s, pick=lambda ids: ids[0]):
    """Play to the end; [(seat, step, action id)] of every decision, and the final state."""
    seen = []
    while not game.is_over(s):
        acts = game.legal_actions(s, labels=False)
        a = pick([x["id"] for x in acts])
        step = next(x["step"] for x in acts if x["id"] == a)
        seen.append((game.current_player(s), step, a))
        s = game.apply(s, a)
    return seen, s


def header(players="[2, 3, 4]", indent="    "):
    """The start of a game with the global vars trace, n and start (seat 2), indented like the text it
    is put before (make_game dedents the whole)."""
    text = f"""
game: {{id: flow, players: {players}}}
vars:
  global:
    trace: {{}}
    n: {{}}
    start: {{type: player, init: 2}}
"""
    return "\n".join(indent + line if line else line for line in text.split("\n"))


# ---------------------------------------------------------------- sequence, if, call
def test_a_sequence_runs_in_order_and_the_game_ends_with_the_flow(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      - effect: "trace = trace * 10 + 1"
      - [{effect: "trace = trace * 10 + 2"}, {effect: "trace = trace * 10 + 3"}]
      - effect: "trace = trace * 10 + 4"
    """)
    s = game.new_game(2)
    assert trace(game, s) == 1234
    assert game.is_over(s)
    assert game.current_player(s) is None and game.legal_actions(s) == []


def test_if_then_else(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      - if: "player_count == 2"
        then: {effect: "trace = trace * 10 + 1"}
        else: {effect: "trace = trace * 10 + 2"}
      - if: "player_count == 3"
        then: {effect: "trace = trace * 10 + 3"}
      - effect: "trace = trace * 10 + 9"
    """)
    assert trace(game, game.new_game(2)) == 19
    assert trace(game, game.new_game(3)) == 239


def test_call_enters_a_phase_by_name_or_by_expression(tmp_path):
    game = make_game(tmp_path, header() + """
        which: {type: str, init: "beta if player_count == 2 else alpha"}
    phases:
      alpha: {flow: {effect: "trace = trace * 10 + 1"}}
      beta: {flow: {effect: "trace = trace * 10 + 2"}}
    flow:
      - call: alpha
      - call: "which"
      - call: alpha
    """)
    assert trace(game, game.new_game(2)) == 121
    assert trace(game, game.new_game(3)) == 111


def test_calling_a_phase_that_does_not_exist_is_a_rule_error(tmp_path):
    game = make_game(tmp_path, header() + """
        which: {type: str, init: "alpha if player_count == 2 else none"}
    phases:
      alpha: {flow: []}
    flow:
      call: "which"
    """)
    game.new_game(2)
    with pytest.raises(RuleError, match="no phase named None"):
        game.new_game(3)


def test_phases_may_call_each_other_in_any_order(tmp_path):
    game = make_game(tmp_path, header() + """
    phases:
      outer: {flow: [{effect: "trace = trace * 10 + 1"}, {call: inner}, {effect: "trace = trace * 10 + 3"}]}
      inner: {flow: {effect: "trace = trace * 10 + 2"}}
    flow:
      call: outer
    """)
    assert trace(game, game.new_game(2)) == 123


# ---------------------------------------------------------------- repeat
def test_repeat_until_is_checked_after_each_pass(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      repeat: {effect: "n += 1"}
      until: "true"
    """)
    assert game.to_json(game.new_game(2))["vars"]["n"] == 1


def test_repeat_while_is_checked_before_each_pass(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      - repeat: {effect: "n += 1"}
        while: "n < 3"
      - repeat: {effect: "trace += 1"}
        while: "false"
    """)
    d = game.to_json(game.new_game(2))["vars"]
    assert (d["n"], d["trace"]) == (3, 0)


def test_repeat_may_run_exactly_its_max(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      repeat: {effect: "n += 1"}
      until: "n == 5"
      max: 5
    """)
    assert game.to_json(game.new_game(2))["vars"]["n"] == 5


def test_repeat_beyond_its_max_is_a_rule_error(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      repeat: {effect: "n += 1"}
      until: "n > 100"
      max: 5
    """)
    with pytest.raises(RuleError, match="a repeat ran 5 times \\(its max\\)"):
        game.new_game(2)


def test_repeat_has_a_default_guard(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      repeat: {effect: "n += 1"}
      until: "false"
    """)
    with pytest.raises(RuleError, match="1000 times"):
        game.new_game(2)


# ---------------------------------------------------------------- each_player
EACH = header(indent="") + """
flow:
  - each_player: {step: s}
    from: start
  - each_player: {step: s}
    from: start
    direction: counterclockwise
  - each_player: {step: s}
steps:
  s:
    actions:
      go: {}
"""


def test_each_player_goes_around_from_a_given_player(tmp_path):
    game = make_game(tmp_path, EACH)
    seats = [p for p, _, _ in play(game, game.new_game(4))[0]]
    assert seats[:4] == [2, 3, 0, 1]        # clockwise from seat 2
    assert seats[4:8] == [2, 1, 0, 3]       # counterclockwise from seat 2
    assert seats[8:] == [0, 1, 2, 3]        # no current player: from seat 0


def test_each_player_wraps_for_any_player_count(tmp_path):
    game = make_game(tmp_path, EACH)
    seats = [p for p, _, _ in play(game, game.new_game(3))[0]]
    assert seats == [2, 0, 1, 2, 1, 0, 0, 1, 2]


def test_nested_each_player_starts_from_the_current_player(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      each_player:
        each_player: {step: s}
    steps:
      s:
        actions:
          go: {}
    """)
    seats = [p for p, _, _ in play(game, game.new_game(3))[0]]
    assert seats == [0, 1, 2, 1, 2, 0, 2, 0, 1]


AUCTION = header(indent="") + """
flow:
  each_player: {step: bid}
  from: "1"
  until: all_pass
steps:
  bid:
    optional: true
    actions:
      raise:
        if: "n < 5"
        effect: "n += 1"
"""


def test_all_pass_goes_around_until_a_full_round_of_passes(tmp_path):
    game = make_game(tmp_path, AUCTION)
    script = iter(["raise", "pass", "pass", "raise", "pass", "pass", "pass", "pass"])
    seen, end = play(game, game.new_game(3), lambda ids: next(script))
    assert [(p, a) for p, _, a in seen] == [
        (1, "raise"), (2, "pass"), (0, "pass"),
        (1, "raise"),                               # acting again resets the count of passes
        (2, "pass"), (0, "pass"), (1, "pass")]      # a full round of passes ends it
    assert game.to_json(end)["vars"]["n"] == 2


def test_all_pass_ends_at_once_when_nobody_acts(tmp_path):
    game = make_game(tmp_path, AUCTION)
    seen, _ = play(game, game.new_game(4), lambda ids: "pass")
    assert [p for p, _, _ in seen] == [1, 2, 3, 0]


def test_all_pass_counts_a_skipped_step_as_a_pass(tmp_path):
    game = make_game(tmp_path, AUCTION)
    seen, end = play(game, game.new_game(2), lambda ids: "raise" if "raise" in ids else ids[0])
    assert [(p, a) for p, _, a in seen] == [(1, "raise"), (0, "raise"), (1, "raise"), (0, "raise"),
                                            (1, "raise")]
    assert game.to_json(end)["vars"]["n"] == 5


def test_an_action_marked_pass_counts_as_a_pass(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      each_player: {step: bid}
      until: all_pass
    steps:
      bid:
        actions:
          raise: {if: "n < 1", effect: "n += 1"}
          wait: {pass: true}
    """)
    seen, _ = play(game, game.new_game(2), lambda ids: ids[0])
    assert [(p, a) for p, _, a in seen] == [(0, "raise"), (1, "wait"), (0, "wait")]


def test_each_player_has_a_guard_against_endless_rounds(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      each_player: {step: s}
      until: all_pass
    steps:
      s:
        actions:
          act: {}
    """)
    s = game.new_game(2)
    for _ in range(2 * 1000 - 1):
        s = game.apply(s, "act")
    with pytest.raises(RuleError, match="went around 1000 times"):
        game.apply(s, "act")


# ---------------------------------------------------------------- steps
STEPS = header(indent="") + """
flow:
  each_player:
    - step: never
    - step: closed
    - step: maybe
    - step: must
steps:
  never:
    actions:
      a: {if: "false"}
  closed:
    if: "player != 0"
    actions:
      a: {}
  maybe:
    optional: true
    actions:
      a: {if: "player == 1"}
  must:
    actions:
      a: {}
"""


def test_a_step_with_an_empty_menu_or_a_false_if_is_skipped(tmp_path):
    game = make_game(tmp_path, STEPS)
    seen, _ = play(game, game.new_game(2))
    assert [(p, step) for p, step, _ in seen] == [(0, "must"), (1, "closed"), (1, "maybe"), (1, "must")]


def test_optional_adds_pass_only_when_something_else_is_possible(tmp_path):
    game = make_game(tmp_path, STEPS)
    s = game.new_game(2)
    s = game.apply(s, "a")                # seat 0: must (maybe had nothing to offer, so no pass either)
    s = game.apply(s, "a")                # seat 1: closed
    assert action_ids(game, s) == ["a", "pass"]
    t = game.apply(s, "pass")
    assert game.current_player(t) == 1 and action_ids(game, t) == ["a"]


def test_a_step_decides_for_the_flows_player(tmp_path):
    game = make_game(tmp_path, STEPS)
    assert game.current_player(game.new_game(2)) == 0


def test_actions_run_their_effect_then_the_flow_goes_on(tmp_path):
    game = make_game(tmp_path, header() + """
    flow:
      - each_player: {step: s}
      - effect: "trace = trace * 10 + 9"
    steps:
      s:
        actions:
          a: {effect: "n += 1; trace = trace * 10 + n"}
    """)
    _, end = play(game, game.new_game(3))
    assert trace(game, end) == 1239


# ---------------------------------------------------------------- hooks
HOOKS = header("[2, 3]", indent="") + """
events:
  bumped: {who: player, by: int}
  other: {by: int}
hooks:
  big_bump:
    on: bumped
    if: "event.by > 1"
    do:
      - effect: "trace = trace * 10 + event.by"
      - step: react
  any_bump:
    on: bumped
    do: {effect: "trace = trace * 10 + 8"}
  other_hook:
    on: other
    player: "next_player(0)"
    do: {step: react}
flow:
  - each_player: {step: s}
  - effect: "emit other(1)"
steps:
  s:
    actions:
      bump:
        choose: {k: "range(1, 4)"}
        effect: |
          emit bumped(player, k)
          trace = trace * 10 + 5
  react:
    actions:
      ok: {effect: "trace = trace * 10 + (1 if player == 1 else 0)"}
"""


def test_a_hook_runs_after_the_effect_that_emitted_with_the_event_bound(tmp_path):
    game = make_game(tmp_path, HOOKS)
    s = game.apply(game.new_game(2), "bump(k=3)")
    assert trace(game, s) == 53            # the effect ends (5), then the first hook's flow (3) ...
    assert action_ids(game, s) == ["ok"]   # ... which stops at its step
    s = game.apply(s, "ok")
    assert trace(game, s) == 5308          # then the second hook runs (8)


def test_a_hook_if_filters_events(tmp_path):
    game = make_game(tmp_path, HOOKS)
    s = game.apply(game.new_game(2), "bump(k=1)")
    assert trace(game, s) == 58
    assert game.current_player(s) == 1 and action_ids(game, s)[0] == "bump(k=1)"


def test_a_hook_with_a_step_makes_a_real_decision_for_the_event_player(tmp_path):
    game = make_game(tmp_path, HOOKS)
    s = game.new_game(2)
    s = game.apply(s, "bump(k=1)")        # seat 0: no reaction
    s = game.apply(s, "bump(k=2)")        # seat 1: the hook asks seat 1 to react
    assert game.current_player(s) == 1 and action_ids(game, s) == ["ok"]
    s = game.apply(s, "ok")
    assert trace(game, s) == 58_5218       # seat 0: 5, 8; seat 1: 5, 2, reacts (1), 8


def test_a_hook_player_expression_chooses_who_decides(tmp_path):
    game = make_game(tmp_path, HOOKS)
    s = game.new_game(2)
    s = game.apply(s, "bump(k=1)")
    s = game.apply(s, "bump(k=1)")
    assert game.current_player(s) == 1 and action_ids(game, s) == ["ok"]   # other_hook: next_player(0)
    s = game.apply(s, "ok")
    assert game.is_over(s)


def test_a_hook_on_an_unknown_event_is_refused(tmp_path):
    p = problem_about(problems_of(tmp_path, header() + """
    events:
      sold: {who: player}
    hooks:
      h: {on: sodl, do: []}
    flow: []
    """), "unknown event 'sodl'")
    assert p.hint == "did you mean 'sold'?"


def test_emit_checks_the_event_and_its_arguments(tmp_path):
    problems = problems_of(tmp_path, header() + """
    events:
      sold: {who: player, n: int}
    flow:
      - effect: "emit sodl(1)"
      - effect: "emit sold(1)"
    """)
    assert problem_about(problems, "unknown event 'sodl'").hint == "did you mean 'sold'?"
    problem_about(problems, "event sold has 2 argument(s) (who, n), got 1")


# ---------------------------------------------------------------- load-time checks of the flow
@pytest.mark.parametrize("flow,message", [
    ("{step: nope}", "unknown step 'nope'"),
    ("{each_player: [], direction: sideways}", "direction must be clockwise or counterclockwise"),
    ("{each_player: [], until: forever}", "each_player until must be once, all_pass or one_left"),
    ("{call: nowhere}", "unknown name 'nowhere'"),
])
def test_flow_mistakes_are_reported_at_load(tmp_path, flow, message):
    problem_about(problems_of(tmp_path, header() + f"""
    steps:
      step_one: {{actions: {{a: {{}}}}}}
    flow: {flow}
    """), message)


def test_a_game_without_flow_is_refused(tmp_path):
    problem_about(problems_of(tmp_path, header()), "the game has no flow")


def test_the_flow_position_is_part_of_the_state(tmp_path):
    game = make_game(tmp_path, EACH)
    s = game.apply(game.apply(game.new_game(4), "go"), "go")
    t = game.from_json(game.to_json(s))
    assert [p for p, _, _ in play(game, t)[0]] == [p for p, _, _ in play(game, s)[0]]


def test_a_mistake_in_a_step_used_by_a_hook_is_reported_once(tmp_path):
    problems = problems_of(tmp_path, header() + """
    events:
      e: {who: player}
    hooks:
      h: {on: e, do: {step: s}}
    flow:
      each_player: {step: s}
    steps:
      s:
        actions:
          a: {effect: "nope += 1"}
    """)
    assert len(problems) == 1


BIDDING = """
game: {id: auction, players: [2, 3, 4]}
vars:
  global:
    bid: {}
    high: {type: player}
  player:
    coins: {init: 5}
flow:
  - each_player: {step: bid}
    from: "0"
    until: one_left
  - effect: "high.coins -= bid"
steps:
  bid:
    optional: true
    actions:
      raise:
        if: "bid < player.coins and player != high"
        effect: |
          bid += 1
          high = player
scoring:
  items:
    coins: {expr: "player.coins"}
"""


def test_one_left_goes_around_until_all_but_one_have_passed(tmp_path):
    game = make_game(tmp_path, BIDDING)
    s = game.new_game(3)
    seen = []
    # seat 1 raises, seat 2 raises, seat 3 passes (out), seat 1 passes (out): seat 2 wins at 2
    for choice in ("raise", "raise", "pass", "pass"):
        seen.append(game.current_player(s))
        s = game.apply(s, choice)
    assert seen == [0, 1, 2, 0]
    assert game.is_over(s)
    assert game.scores(s) == [5, 3, 5]


def test_a_player_who_passed_in_an_auction_is_not_asked_again(tmp_path):
    game = make_game(tmp_path, BIDDING)
    s = game.new_game(4)
    order = []
    for choice in ("pass", "raise", "raise", "raise", "raise", "pass", "pass"):
        order.append(game.current_player(s))
        s = game.apply(s, choice)
    # seat 1 passes first and never comes back; 2, 3, 4 raise; 2 raises again; 3 and 4 pass
    assert order == [0, 1, 2, 3, 1, 2, 3]
    assert game.is_over(s) and game.scores(s)[1] == 1


def test_one_left_honours_its_max(tmp_path):
    # Two players who always raise would bid forever: `max: 2` stops the auction after two times around.
    game = make_game(tmp_path, BIDDING.replace("until: one_left", "until: one_left\n    max: 2")
                     .replace("coins: {init: 5}", "coins: {init: 5000}")
                     .replace("player != high", "true"))
    s = game.new_game(2)
    with pytest.raises(Exception, match=r"went around 2 times \(its max\)"):
        for _ in range(10):
            s = game.apply(s, "raise")


# ---------------------------------------------------------------- no Python error reaches an author
FAULTS = """
    game: {id: faults, players: [2]}
    kinds:
      mishap: {values: [ok, field_of_none, order, zero, scores, endless]}
    options:
      fault: {default: ok, values: [ok, field_of_none, order, zero, scores, endless]}
    vars:
      global: {who: {type: player}}
      player: {coins: {init: 0}}
    zones:
      global: {deck: {}}
    components:
      card:
        zone: deck
        fields: {worth: {init: 1}}
        types: {ace: {count: 2}}
    steps:
      turn:
        actions:
          take:
            effect: |
              x = first(c for c in deck if c.worth > 5)
              if option.fault == field_of_none:
                  player.coins += x.worth
              if option.fault == zero:
                  player.coins += 10 // player.coins
              player.coins += 1
    phases:
      rounds:
        flow:
          repeat:
            each_player: {step: turn}
            order: "[who, who] if option.fault == order else players"
          until: "option.fault != endless and player.coins > 0"
    flow: {call: rounds}
    scoring:
      items:
        coins: {expr: "player.coins // (0 if option.fault == scores else 1)"}
"""


def fault(tmp_path, which):
    """The RuleError the FAULTS game raises with option fault=`which` (in a new game or its first move)."""
    from games import write_game
    from interpreter.game import load_game
    root = write_game(tmp_path, FAULTS)
    game = load_game(root)
    with pytest.raises(RuleError) as info:
        s = game.new_game(2, seed=1, options={"fault": which})
        s = game.apply(s, game.legal_actions(s)[0])
        game.scores(s)
    return root / "game.yaml", info.value


@pytest.mark.parametrize("which,at,words,during", [
    ("field_of_none", "player.coins += x.worth", "a value is none where a piece", "step turn, action take, Player 1"),
    ("zero", "player.coins += 10 //", "division by zero", "step turn, action take, Player 1"),
    ("order", "each_player: {step", "each_player: its order lists [none, none]: every item must be a player",
     "phase rounds"),
    ("scores", "player.coins // (0", "division by zero", "the scores, Player 1"),
])
def test_a_rule_that_fails_while_running_names_its_place_and_what_ran_it(tmp_path, which, at, words, during):
    from games import position_of
    file, ex = fault(tmp_path, which)
    line, col = position_of(FAULTS, at)
    assert str(ex).startswith(f"{file}:{line}:") and words in ex.message, str(ex)
    assert ex.during == during and str(ex).endswith(f"(during {during})")
    assert "NoneType" not in str(ex) and "TypeError" not in str(ex)


def test_a_game_that_goes_on_too_long_says_where_its_flow_is(tmp_path):
    from games import write_game
    from interpreter.engine.playout import GameTooLong, play_game
    from interpreter.game import load_game
    root = write_game(tmp_path, FAULTS)
    with pytest.raises(GameTooLong) as info:
        play_game(load_game(root), 2, 1, options={"fault": "endless"}, max_decisions=20)
    from games import position_of
    line, _ = position_of(FAULTS, "each_player: {step")
    assert f"the flow is at {root / 'game.yaml'}:{line}:" in str(info.value) and "(phase rounds" in str(info.value)


def test_an_optional_step_marked_always_asks_a_seat_that_can_only_pass(tmp_path):
    """`optional: true` passes over a seat with nothing to do; `optional: always` asks it with pass alone,
    so whether it could act is not told to the others."""
    text = """
        game: {id: ask, players: [2]}
        vars:
          player: {coins: {init: 0}}
        steps:
          raise:
            optional: MODE
            actions:
              raise:
                if: "player.coins > 0"
                effect: "player.coins -= 1"
        flow:
          - each_player: {step: raise}
    """
    passed_over = make_game(tmp_path, text.replace("MODE", "true"))
    assert passed_over.is_over(passed_over.new_game(2, seed=1))
    asked = make_game(tmp_path, text.replace("MODE", "always"))
    s = asked.new_game(2, seed=1)
    assert [a["id"] for a in asked.legal_actions(s)] == ["pass"]
    s = asked.apply(s, "pass")
    assert asked.current_player(s) == 1 and [a["id"] for a in asked.legal_actions(s)] == ["pass"]
