"""Bad input never produces a traceback: any mutation of a definition loads or fails with located problems."""

import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError

from conftest import ROOT

SOURCES = {
    "market_day": sorted((ROOT / "examples/market_day").glob("*.yaml")),
    "puerto_rico": sorted((ROOT / "gamedefs/puerto_rico").glob("*.yaml")),
    "castles_of_burgundy": sorted((ROOT / "gamedefs/castles_of_burgundy").glob("*.yaml")),
    "phoenicia": sorted((ROOT / "gamedefs/phoenicia").glob("*.yaml")),
}


def mutate(text: str, how: int, where: int, other: int) -> str:
    lines = text.split("\n")
    i = where % len(lines)
    j = other % len(lines)
    words = text.split()
    if how == 0:                       # delete a line
        del lines[i]
    elif how == 1:                     # duplicate a line (duplicate keys, repeated statements)
        lines.insert(i, lines[i])
    elif how == 2:                     # a word from elsewhere in the file replaces one on this line
        parts = lines[i].split(" ")
        k = other % max(1, len(parts))
        parts[k] = words[other % len(words)]
        lines[i] = " ".join(parts)
    elif how == 3:                     # cut the file short
        lines = lines[:i]
    elif how == 4:                     # shift a line's indentation
        lines[i] = "  " + lines[i] if other % 2 else lines[i].lstrip()
    else:                              # swap two lines
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(SOURCES)), file_no=st.integers(0, 100), how=st.integers(0, 5),
       where=st.integers(0, 10_000), other=st.integers(0, 10_000))
def test_a_mutated_definition_loads_or_reports_problems_never_a_traceback(tmp_path_factory, game, file_no,
                                                                          how, where, other):
    files = SOURCES[game]
    d = tmp_path_factory.mktemp(game)
    for f in files:
        shutil.copy(f, d / f.name)
    target = d / files[file_no % len(files)].name
    target.write_text(mutate(target.read_text(encoding="utf-8"), how, where, other), encoding="utf-8")
    try:
        g = load_game(d)
    except DefinitionError as ex:
        assert ex.problems
        for p in ex.problems:
            assert str(p)  # every problem renders
        return
    # It still loads: then it must start and play (or stop with a RuleError naming the rule, never crash).
    import random

    from interpreter.language.compiler import RuleError
    try:
        s = g.new_game(g.player_counts[0], seed=1)
        r = random.Random(1)
        for _ in range(40):
            if g.is_over(s):
                break
            acts = g.legal_actions(s)
            if not acts:
                break
            s = g.apply(s, r.choice(acts))
        g.outcome(s)
    except RuleError:
        pass


TOKENS = ["player", "players", "p", "x", "coins", ".", "coins", "hand", "size", "(", ")", "[", "]", ",", "+",
          "-", "*", "//", "%", "==", "<", "and", "or", "not", "if", "else", "for", "in", "sum", "count", "max",
          "first", "list", "1", "0", "7", "'apple'", "apple", "price", "none", "true", "len", "top", "deck",
          "x.crop", "held", "player.hand", "range"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12))
def test_any_expression_text_compiles_or_is_reported_never_a_traceback(tmp_path_factory, words):
    from interpreter.language.compiler import RuleError
    d = tmp_path_factory.mktemp("expr")
    src = (ROOT / "examples/market_day/game.yaml").read_text(encoding="utf-8")
    expr = " ".join(words).replace('"', "'")
    d.joinpath("game.yaml").write_text(src.replace('coins: {expr: "player.coins"', f'coins: {{expr: "{expr}"'),
                                       encoding="utf-8")
    try:
        g = load_game(d)
    except DefinitionError as ex:
        assert all(p.location is not None for p in ex.problems)
        return
    try:
        g.outcome(g.new_game(2, seed=1))
    except RuleError:
        pass
