"""Phoenicia as encoded: the register of unsourced values, the overlay that corrects them, and how games end.

The worked examples of the rulebook are scenarios (gamedefs/phoenicia/scenarios, run by test_scenario.py);
the invariants of random play are checked for every game by test_playouts.py. These tests pin what is
particular to this encoding: which values no source gives, and that games end by the VP target.
"""

import random

from interpreter.game import load_game
from interpreter.analysis.lint import lint

from conftest import ROOT

GAME = ROOT / "gamedefs" / "phoenicia"
CARD_VALUES = GAME / "variants" / "card_values.yaml"

# Every value no source gives (reference/phoenicia.md P2.2), and nothing else.
UNSOURCED = {
    "components.development_card.types.refugees",
    "components.development_card.types.tradefleet",
    "components.development_card.types.port",
    "components.development_card.types.city_walls",
    "components.development_card.types.temple",          # the 19th type
    "components.production_card.types.production_4",     # the 4/5/6 split
    "components.production_card.types.production_5",
    "components.production_card.types.production_6",
    "components.development_card.types.caravan",         # discount steps after the first
    "components.development_card.types.smelter",
    "components.development_card.types.public_works",
    "components.development_card.types.ships",
    "phases.new_overlord",                               # the Overlord rule
    "scoring",                                           # the tie-breaker
    "phases.new_cards",                                  # how the display is refilled
    "steps.buy_and_adjust.actions.buy_tool",             # how a bought tool is used
    "tables.city_center_vp_most",                        # the City Center's 3 VP counted per turn
    "tables.stand_in_count",                             # the stand-ins of the option change_always_given
}


def register(game):
    return {f.message.removesuffix(" is provisional").split(" (")[0] for f in lint(game) if f.code == "provisional"}


def test_the_provisional_register_lists_every_unsourced_value_and_nothing_else():
    assert register(load_game(GAME)) == UNSOURCED


def test_the_card_values_overlay_changes_nothing_as_shipped():
    base, over = load_game(GAME), load_game(GAME, variant=CARD_VALUES)
    for players, seed in ((2, 3), (5, 4)):
        a, b = base.new_game(players, seed=seed), over.new_game(players, seed=seed)
        r = random.Random(seed)
        while not base.is_over(a):
            ids = [x["id"] for x in base.legal_actions(a, labels=False)]
            assert ids == [x["id"] for x in over.legal_actions(b, labels=False)]
            pick = r.choice(ids)
            a, b = base.apply(a, pick), over.apply(b, pick)
        assert over.is_over(b) and base.scores(a) == over.scores(b)


def test_a_correction_on_top_of_the_overlay_changes_the_value_and_leaves_the_register(tmp_path):
    fix = tmp_path / "refugees.yaml"
    fix.write_text(
        "overlay: {base: phoenicia}\n"
        "set:\n  components.development_card.types.refugees.vp: 3\n"
        "remove:\n  - components.development_card.types.refugees.provisional\n", encoding="utf-8")
    game = load_game(GAME, variant=[CARD_VALUES, fix])
    assert register(game) == UNSOURCED - {"components.development_card.types.refugees"}
    s = game.new_game(4, seed=1)
    assert game.evaluate(s, "first(x for x in pieces if x.type == refugees).vp") == 3


def test_random_games_end_by_the_vp_target_at_every_player_count():
    game = load_game(GAME)
    for players in (2, 3, 4, 5):
        for seed in (5, 6):
            s = game.new_game(players, seed=seed)
            r = random.Random(seed)
            while not game.is_over(s):
                s = game.apply(s, r.choice(game.legal_actions(s, labels=False)))
            out = game.outcome(s)
            assert out["ends"] == ["vp_target_reached"]
            assert max(out["scores"]) >= 32
            assert 5 <= game.evaluate(s, "round") <= 40


OTHER_READINGS = [
    {"vp_target_reading": "more_than"},
    {"one_card_limit": "per_turn"},
    {"one_card_limit": "per_round"},
    {"treasury_limit_before_income": True},
    {"disk_conversion": "more_than_four"},
    {"disk_conversion": "optional"},
    {"first_game_preset_cards": True},
]


def test_every_option_plays_to_the_vp_target_and_conserves_disks_workers_and_storehouses():
    from interpreter.engine.invariants import check_state, resource_totals
    game = load_game(GAME)
    for k, options in enumerate(OTHER_READINGS):
        s = game.new_game(3, seed=20 + k, options=options)
        totals0 = resource_totals(game, s)
        assert set(totals0) == {"disk", "worker", "storehouse"}
        r = random.Random(k)
        while not game.is_over(s):
            s = game.apply(s, r.choice(game.legal_actions(s, labels=False)))
            assert check_state(game, s, totals0) == [], options
        assert game.outcome(s)["ends"] == ["vp_target_reached"], options
