"""Saved states are untrusted: `from_json` checks their meaning (interpreter/engine/consistency.py).

A tamper run takes reachable states of every shipped game and changes their JSON one field at a time (a
value up or down, negative, of another type, huge; an entry removed or added; two pieces swapped; a flow
frame changed). Each mutant is either rejected with a StateFormatError, or accepted only if it is a state
the rules could be in: it round-trips exactly, conserves every resource, and play goes on from it.
"""

import copy
import json
import random

import pytest

from interpreter.language.compiler import RuleError
from interpreter.game import StateFormatError, load_game
from interpreter.engine.invariants import check_state, resource_totals

from conftest import ROOT
from games import run_random

GAMES = [("puerto_rico", 3), ("castles_of_burgundy", 2), ("market_day", 2)]


def load(name):
    return load_game(ROOT / "examples" / name if name == "market_day" else name)


def paths(d, prefix=()):
    """Every leaf and container path of a JSON value."""
    yield prefix
    if isinstance(d, dict):
        for k, v in d.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from paths(v, prefix + (i,))


def get(d, path):
    for p in path:
        d = d[p]
    return d


def mutants(d, r):
    """(description, mutated copy) for a sample of one-field changes of state JSON `d`."""
    all_paths = [p for p in paths(d) if p]
    r.shuffle(all_paths)
    for path in all_paths[:60]:
        v = get(d, path)
        changes = []
        if type(v) is int:
            changes = [v + 1, v - 1, -1, -v - 7, 2 ** 60, str(v), True, None, 1.5]
        elif type(v) is bool:
            changes = [not v, 1, "true"]
        elif isinstance(v, str):
            changes = [v + "x", "", 3, None]
        elif isinstance(v, list):
            changes = [v[:-1], v + v[-1:] if v else [0], "x", list(reversed(v))] if v else [[0], "x"]
        elif isinstance(v, dict):
            changes = [{}, [], {**v, "extra": 1}]
        elif v is None:
            changes = [0, "x", [1]]
        for new in changes:
            m = copy.deepcopy(d)
            parent = get(m, path[:-1])
            parent[path[-1]] = new
            yield f"{'.'.join(map(str, path))} = {json.dumps(new)[:40]}", m
    # structural changes: a key removed, two piece types swapped, a player added
    for key in list(d):
        m = copy.deepcopy(d)
        del m[key]
        yield f"without {key}", m
    types = d["pieces"]["types"]
    i = next((i for i in range(1, len(types)) if types[i] != types[0]), None)
    if i is not None:
        m = copy.deepcopy(d)
        m["pieces"]["types"][0], m["pieces"]["types"][i] = types[i], types[0]
        yield "two piece types swapped", m
    m = copy.deepcopy(d)
    m["players"] += 1
    m["player_vars"].append(copy.deepcopy(m["player_vars"][-1]))
    m["player_zones"].append({k: [] for k in m["player_zones"][-1]})
    yield "a player added", m


def accepted_is_sound(game, d, totals0):
    s = game.from_json(d)
    assert json.loads(json.dumps(game.to_json(s))) == json.loads(json.dumps(d)), "not an exact round trip"
    assert check_state(game, s, totals0) == []
    for _ in range(3):
        if game.is_over(s):
            break
        s = game.apply(s, game.legal_actions(s, labels=False)[0])


@pytest.mark.parametrize("name, players", GAMES)
def test_tampered_states_are_rejected_or_sound(name, players):
    game = load(name)
    r = random.Random(5)
    play = run_random(game, players, seed=5)
    totals0 = resource_totals(game, play.states[0])
    rejected = accepted = 0
    for s in r.sample(play.states[:-1], 3) + [play.states[-1]]:
        d = json.loads(json.dumps(game.to_json(s)))
        for what, m in mutants(d, r):
            try:
                game.from_json(m)
            except StateFormatError:
                rejected += 1
                continue
            try:
                accepted_is_sound(game, m, totals0)
            except RuleError:
                # A value its type allows (none in a player or piece var): the rules themselves must cope
                # with it; the state is consistent data.
                assert "null" in what, what
                accepted += 1
                continue
            except Exception as ex:
                pytest.fail(f"{name}: accepted a tampered state ({what}) that is not sound: {ex!r}")
            accepted += 1
    assert rejected > 10 * max(accepted, 1) / 2, (rejected, accepted)


def test_a_state_checker_catches_each_kind_of_corruption():
    """Negative tests of the consistency checks, one per kind."""
    game = load("puerto_rico")
    s = run_random(game, 3, seed=2).states[20]
    good = json.loads(json.dumps(game.to_json(s)))
    game.from_json(good)

    def rejected(change, words):
        m = copy.deepcopy(good)
        change(m)
        with pytest.raises(StateFormatError, match=words):
            game.from_json(m)

    rejected(lambda m: m.__setitem__("rng", 2 ** 64), "64-bit")
    rejected(lambda m: m.__setitem__("rng", -1), "64-bit")
    rejected(lambda m: m["vars"].__setitem__("colonist_supply", -3), "below its minimum")
    rejected(lambda m: m["vars"].__setitem__("vp_supply", m["vars"]["vp_supply"] + 5), "totals")
    rejected(lambda m: m["pieces"]["types"].reverse(), "piece types|wrong value")

    def swap_same_class(m):  # two pieces of one class (same fields) exchange their types: only the plan tells
        types, cls = m["pieces"]["types"], game.world.types
        x, y = next((x, y) for x in range(len(types)) for y in range(x + 1, len(types))
                    if cls[types[x]] == cls[types[y]] and types[x] != types[y])
        types[x], types[y] = types[y], types[x]
    rejected(swap_same_class, "piece types")
    rejected(lambda m: m.__setitem__("flow", m["flow"] + [m["flow"][-1]]), "cannot follow")
    rejected(lambda m: m["flow"].__setitem__(0, [m["flow"][-1][0]] + m["flow"][0][1:]), "flow")
    rejected(lambda m: m["flow"][-1].__setitem__(3, -1), "counters")
    rejected(lambda m: m.__setitem__("options", {"nope": 1}), "options")
    rejected(lambda m: m["zones"][next(iter(m["zones"]))].clear(), "zone")
    rejected(lambda m: m.__setitem__("decisions", -1), "decision count")


@pytest.mark.parametrize("key, value", [("rng", "5"), ("decisions", "3"), ("players", "2"), ("rng", True),
                                        ("decisions", 1.0)])
def test_the_shape_check_refuses_numbers_written_otherwise(key, value):
    """state.from_json itself (before the meaning checks) wants whole numbers, not text or floats."""
    from interpreter.engine.state import from_json
    game = load("market_day")
    d = json.loads(json.dumps(game.to_json(game.new_game(2, seed=1))))
    d[key] = value
    with pytest.raises(StateFormatError, match="whole number"):
        from_json(d, game.layout, game.id)


def test_regression_a_game_whose_flow_is_a_call_of_a_phase_saves_and_loads(tmp_path):
    """A state the engine made is always a valid saved state: a top-level flow that is `call: PHASE`
    (and a hook whose flow is a call) leaves no frame of its own, so the stack starts at the phase's."""
    from games import make_game
    game = make_game(tmp_path, """
        game: {id: callroot, players: [2]}
        vars:
          player: {points: {type: int, init: 0}, bonus: {type: int, init: 0}}
        phases:
          main:
            flow:
              - repeat:
                  each_player: {step: play}
                until: "sum(p.points for p in players) >= 6"
                max: 10
          reward:
            flow:
              - step: bonus
        steps:
          play:
            actions:
              score: {effect: "player.points += 1\\nemit scored(player)"}
              rest: {effect: "player.bonus += 0"}
          bonus:
            actions:
              take: {effect: "player.bonus += 1"}
        events:
          scored: {seat: player}
        hooks:
          rewarded: {on: scored, do: {call: reward}}
        flow: {call: main}
        scoring:
          items:
            points: {expr: "player.points + player.bonus"}
    """)
    for seed in range(4):
        for s in run_random(game, 2, seed).states:
            assert game.to_json(game.from_json(json.loads(json.dumps(game.to_json(s))))) == game.to_json(s)


def saved_positions(game, players, seed, count=60):
    """Saved states (JSON) of a random game, one per decision."""
    return [json.loads(json.dumps(game.to_json(s))) for s in run_random(game, players, seed=seed).states[:count]]


def test_a_save_that_hands_the_turn_to_another_seat_of_the_round_is_refused():
    """The turn goes to the seat whose turn it is, not to any seat of the round: in Puerto Rico's
    builder phase, seat 1 building in seat 3's place (and seat 3 never building that round) is refused."""
    from interpreter.engine.flow import EACH
    game = load("puerto_rico")
    refused = 0
    for d in saved_positions(game, 3, seed=4):
        flow = d["flow"]
        for k in range(1, len(flow)):
            below, fr = flow[k - 1], flow[k]
            if game.nodes[below[0]].kind != EACH or not isinstance(below[4], list):
                continue
            for other in sorted(set(below[4]) - {fr[1]}):
                m = copy.deepcopy(d)
                for f in m["flow"][k:]:  # the turn's frames are all for the seat it is handed to
                    if f[1] == fr[1]:
                        f[1] = other
                with pytest.raises(StateFormatError, match="whose turn it is"):
                    game.from_json(m)
                refused += 1
    assert refused > 20


def test_a_frame_for_another_player_than_the_frame_below_or_a_sequence_past_its_end_is_refused():
    from interpreter.engine.flow import EACH, SEQ
    game = load("puerto_rico")
    other_player = past_end = 0
    for d in saved_positions(game, 3, seed=6):
        flow = d["flow"]
        for k in range(1, len(flow)):
            below, fr = flow[k - 1], flow[k]
            if game.nodes[below[0]].kind != EACH and fr[1] is not None:
                m = copy.deepcopy(d)
                for f in m["flow"][k:]:
                    if f[1] == fr[1]:
                        f[1] = (fr[1] + 1) % 3
                with pytest.raises(StateFormatError, match="another player"):
                    game.from_json(m)
                other_player += 1
        for k, fr in enumerate(flow):
            if game.nodes[fr[0]].kind == SEQ:
                m = copy.deepcopy(d)
                m["flow"][k][3] = len(game.nodes[fr[0]].children) + 1
                with pytest.raises(StateFormatError, match="past the end"):
                    game.from_json(m)
                past_end += 1
    assert other_player > 10 and past_end > 10
