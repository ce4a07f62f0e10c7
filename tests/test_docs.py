"""The documents for authors stay true to the engine."""

from __future__ import annotations

import re

from conftest import ROOT
from interpreter.language.vocabulary import AGGREGATES, FUNCTIONS

REFERENCE = (ROOT / "docs" / "dsl-reference.md").read_text(encoding="utf-8")


def table_names(heading):
    """The names in the first column of the table under a `## heading` of the reference."""
    part = REFERENCE.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    names = set()
    for line in part.splitlines():
        m = re.match(r"^\| `([a-z_]+)", line)
        if m:
            names.add(m.group(1))
    return names


def test_the_reference_lists_every_function_of_the_vocabulary_and_no_other():
    assert table_names("Functions") == set(FUNCTIONS)


def test_the_reference_lists_every_aggregate_and_no_other():
    assert table_names("Aggregates") == set(AGGREGATES)


def test_every_listed_function_has_a_meaning_and_an_example():
    part = REFERENCE.split("## Functions\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in part.splitlines() if line.startswith("| `")]
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 3 and cells[1] and cells[2].startswith("`"), row


def test_the_bounds_in_the_reference_are_the_engine_s():
    from interpreter.engine.flow import ADVANCE_GUARD, DEFAULT_MAX
    from interpreter.analysis.simulate import MAX_DECISIONS
    from interpreter.analysis.verify import MAX_DECISIONS as VERIFY_DECISIONS
    from interpreter.language.world import STEP_BUDGET
    assert f"default {DEFAULT_MAX:,}" in REFERENCE
    assert f"{ADVANCE_GUARD:,} nodes" in REFERENCE
    assert f"{STEP_BUDGET:,} per effect" in REFERENCE
    assert f"{MAX_DECISIONS:,} decisions per game" in REFERENCE
    assert f"{VERIFY_DECISIONS:,} decisions per random game" in REFERENCE


def test_the_authoring_guide_s_snippets_make_a_game_that_plays_and_passes_its_scenario(tmp_path):
    from interpreter.game import load_game
    from interpreter.analysis.scenario import run_game_scenarios
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", guide, re.S)
    game_dir = tmp_path / "high_card"
    (game_dir / "scenarios").mkdir(parents=True)
    # step 1 (its empty flow is replaced in step 4), then steps 2 to 6, in the order of the guide
    text = blocks[0].replace("flow: []\n", "") + "".join(blocks[1:6])
    (game_dir / "game.yaml").write_text(text, encoding="utf-8")
    (game_dir / "scenarios" / "rounds.yaml").write_text(blocks[6], encoding="utf-8")
    game = load_game(game_dir)
    s = game.new_game(3, seed=2)
    while not game.is_over(s):
        s = game.apply(s, game.legal_actions(s)[0])
    assert sum(game.scores(s)) == 1 + 2 + 3 + 4 + 5
    assert [r.failures for r in run_game_scenarios(game, game_dir)] == [[]]
