"""Helpers for the engine tests: tiny games written inline, and seeded random playouts.

    game = make_game(tmp_path, '''
        game: {id: tiny, players: [2]}
        flow: []
    ''')

`make_game` dedents the text, writes it as `game.yaml` in a fresh directory under `tmp_path` and loads it
with the real loader (schema, model, compiler), so every test exercises the whole pipeline. Several games
may be made in one test: each gets its own directory.
"""

from __future__ import annotations

import itertools
import random
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from interpreter.game import Game, load_game
from interpreter.definition.problems import DefinitionError, Problem

_counter = itertools.count()


def write_game(tmp_path: Path, yaml_text: str) -> Path:
    """Write `yaml_text` (dedented) as game.yaml of a new directory; return the directory."""
    root = Path(tmp_path) / f"game{next(_counter)}"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text(textwrap.dedent(yaml_text).lstrip("\n"), encoding="utf-8")
    return root


def make_game(tmp_path: Path, yaml_text: str) -> Game:
    """Write a one-file game directory and load it (raises DefinitionError if it does not load)."""
    return load_game(write_game(tmp_path, yaml_text))


def problems_of(tmp_path: Path, yaml_text: str) -> list[Problem]:
    """The problems reported when loading a game that must not load."""
    root = write_game(tmp_path, yaml_text)
    with pytest.raises(DefinitionError) as info:
        load_game(root)
    return info.value.problems


def problem_about(problems: list[Problem], words: str) -> Problem:
    """The one problem whose message contains `words` (fails listing them all otherwise)."""
    found = [p for p in problems if words in p.message]
    assert len(found) == 1, f"expected one problem about {words!r}, got:\n" + "\n".join(map(str, problems))
    return found[0]


def position_of(yaml_text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """The 1-based (line, col) of the `occurrence`-th `needle` in the file that `write_game` writes."""
    text = textwrap.dedent(yaml_text).lstrip("\n")
    i = -1
    for _ in range(occurrence):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


def action_ids(game: Game, s) -> list[str]:
    return [a["id"] for a in game.legal_actions(s, labels=False)]


@dataclass
class Playout:
    """A random game: every state from the first decision to the end, and the action ids taken."""

    states: list = field(default_factory=list)
    actions: list = field(default_factory=list)

    @property
    def final(self):
        return self.states[-1]


def run_random(game: Game, players: int, seed: int, max_decisions: int = 10_000, options=None) -> Playout:
    """Play a game to its end choosing uniformly among the legal actions with `random.Random(seed)`;
    the game itself is seeded with `seed` too, so the playout is a function of its arguments."""
    r = random.Random(seed)
    s = game.new_game(players, seed=seed, options=options)
    out = Playout([s], [])
    while not game.is_over(s):
        assert len(out.actions) < max_decisions, "the game did not end"
        acts = game.legal_actions(s, labels=False)
        assert acts, "a game that is not over has no legal action"
        a = r.choice(acts)["id"]
        s = game.apply(s, a)
        out.actions.append(a)
        out.states.append(s)
    return out


def split_items(text):
    """(the game text without its scoring items, {item: expression}): for tests that read expressions
    of any type, which scoring items (numbers only) may not hold."""
    import yaml
    data = yaml.safe_load(textwrap.dedent(text))
    items = {k: v["expr"] for k, v in ((data.pop("scoring", None) or {}).get("items") or {}).items()}
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False), items


def evaluate_all(game, state, items, player=0):
    """{item: value of its expression} in `state`, with `player` bound."""
    return {k: game.evaluate(state, e, player) for k, e in items.items()}
