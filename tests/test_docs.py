"""The documents for authors stay true to the engine."""

from __future__ import annotations

import re

from conftest import ROOT
from interpreter.vocabulary import AGGREGATES, FUNCTIONS

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
    from interpreter.flow import ADVANCE_GUARD, DEFAULT_MAX
    from interpreter.simulate import MAX_DECISIONS
    from interpreter.verify import MAX_DECISIONS as VERIFY_DECISIONS
    from interpreter.world import STEP_BUDGET
    assert f"default {DEFAULT_MAX:,}" in REFERENCE
    assert f"{ADVANCE_GUARD:,} nodes" in REFERENCE
    assert f"{STEP_BUDGET:,} per effect" in REFERENCE
    assert f"{MAX_DECISIONS:,} decisions per game" in REFERENCE
    assert f"{VERIFY_DECISIONS:,} decisions per random game" in REFERENCE
