"""Expressions and statements in words say everything the rule says.

The words of a construct come from one walk of its tree (interpreter/readback/phrases.py) and a template per
language. The structural language `dsl` writes the tree back as DSL, so rendering every expression and effect
of every shipped game and example in it and parsing the result again must give the same tree: a walk that
drops an operand cannot pass. The English and Chinese templates must use every hole the structural template
uses (but the few `UNSAID` names, each with its reason), so the words drop nothing the walk hands them.
"""

import re
import string

import pytest
from lark import Token, Tree

from interpreter.game import load_game
from interpreter.language.dsl import parse_expr, parse_stmts
from interpreter.language.vocabulary import FUNCTIONS
from interpreter.readback.phrases import (FUNCTION_WORDS, STRUCTURAL, TEMPLATES, UNSAID, Names, Phrases,
                                          lines_text)

from conftest import game_dirs

GAMES = {p.name: p for p in game_dirs()}
EXPR_KEYS = {"if", "until", "while", "active", "player", "order", "from", "divided_by", "expr", "winners",
             "teams", "players"}
HOLE = re.compile(r"\{([^{}]*)\}")


def dsl_texts(sections, holes=True):
    """(kind, text) of every expression ('expr') and block of statements ('stmts') of a definition, and (with
    `holes`) of every hole of its labels."""
    out = []

    def walk(v, key=None, parent=None):
        if isinstance(v, dict):
            for k, x in v.items():
                if k == "choose" and isinstance(x, dict):
                    for spec in x.values():
                        out.append(("expr", spec if isinstance(spec, str) else spec.get("from")))
                elif k == "label":
                    for lab in (x.values() if isinstance(x, dict) and holes else [x] if holes else []):
                        out.extend(("expr", h) for h in HOLE.findall(str(lab)))
                elif k == "effect" and isinstance(x, str):
                    out.append(("stmts", x))
                elif k == "until" and "each_player" in v:
                    continue        # each_player's until is a word (once, all_pass), not an expression
                elif k in EXPR_KEYS and isinstance(x, str):
                    out.append(("expr", x))
                else:
                    walk(x, k, v)
        elif isinstance(v, list):
            for x in v:
                walk(x, key, parent)

    for name, body in sections.items():
        if name in ("defs", "procedures"):
            out.extend(("expr" if name == "defs" else "stmts", t) for t in (body or {}).values())
        elif name == "setup" and isinstance(body, str):
            out.append(("stmts", body))
        elif name == "scoring" and isinstance(body, dict):
            out.extend(("expr", t) for t in body.get("tiebreak") or [])
            walk({k: v for k, v in body.items() if k not in ("tiebreak", "order")})  # order: high or low
        elif name == "vars":
            for scope in body.values():
                for v in (scope or {}).values():
                    if isinstance(v, dict) and isinstance(v.get("init"), str):
                        out.append(("expr", v["init"]))
                    walk(v)
        elif name == "events":      # an event's arguments are types; its label narrates it
            for ev in (body or {}).values():
                walk({"label": ev.get("label")} if isinstance(ev, dict) and ev.get("label") else {})
        elif name not in ("disputes", "display", "words", "labels", "options", "game"):
            walk(body)
    return [(k, t) for k, t in out if isinstance(t, str) and t.strip()]


def shape(node):
    """A tree as nested tuples, with what only the writing differs in taken out: statements joined by `;`
    or written on their own lines, a block on the line of its `if` or under it, the quotes of a string."""
    if isinstance(node, Token):
        text = str(node)
        return text[1:-1] if node.type == "STRING" else text
    if node is None:
        return None
    if node.data in ("suite", "start_stmts"):
        kids = []
        for c in node.children:
            if isinstance(c, Tree) and c.data == "simple_stmt":
                kids.extend(("stmt", shape(x)) for x in c.children if isinstance(x, Tree))
            elif isinstance(c, Tree) and c.data == "suite":
                kids.extend(shape(c)[1])
            elif isinstance(c, Tree):
                kids.append(shape(c))
        return ("block", tuple(kids))
    if node.data == "simple_stmt":
        return ("block", tuple(("stmt", shape(x)) for x in node.children if isinstance(x, Tree)))
    return (node.data, tuple(shape(c) for c in node.children))


def source(lines, depth=0) -> str:
    """Nested lines (of the structural language) as indented DSL text."""
    out = []
    for text, children in lines:
        out.append("    " * depth + text)
        if children:
            out.append(source(children, depth + 1))
    return "\n".join(out)


def round_trip(ph, kind, text):
    """(the tree as written, the tree of its structural rendering)."""
    if kind == "expr":
        return shape(parse_expr(text)), shape(parse_expr(ph.expr(text)))
    written = shape(parse_stmts(text))
    rendered = source(ph.stmts(text))
    return written, shape(parse_stmts(rendered + "\n"))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_expression_and_effect_of_a_game_reads_back_to_the_same_tree(name):
    game = load_game(GAMES[name])
    ph = Phrases(Names(game.definition, STRUCTURAL))
    texts = dsl_texts(game.definition.sections)
    assert len(texts) > 3
    wrong = []
    for kind, text in texts:
        written, back = round_trip(ph, kind, text)
        if written != back:
            wrong.append((text, ph.expr(text) if kind == "expr" else lines_text(ph.stmts(text))))
    assert wrong == []


def test_a_walk_that_drops_an_operand_is_caught():
    """The check itself: a template that forgets the element of first(...) no longer reads back."""
    game = load_game(GAMES["la_granja_no_siesta"])
    ph = Phrases(Names(game.definition, STRUCTURAL))
    text = "first(k + 1 for k in range(len(helper_areas)) if helper_areas[k] == a)"
    assert round_trip(ph, "expr", text)[0] == round_trip(ph, "expr", text)[1]
    ph.t = dict(ph.t, **{"agg.first.of": "first({x} for {x} in {coll}{cond})"})
    written, back = round_trip(ph, "expr", text)
    assert written != back


def holes(template) -> set:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f is not None}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_words_of_a_construct_use_every_hole_of_its_structural_form(lang):
    structural = TEMPLATES[STRUCTURAL]
    assert set(TEMPLATES[lang]) == set(structural)
    short = {k: sorted(holes(structural[k]) - holes(t) - UNSAID.get(k, set()))
             for k, t in TEMPLATES[lang].items()}
    assert {k: v for k, v in short.items() if v} == {}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_words_of_a_function_use_each_of_its_arguments(lang):
    for key, template in FUNCTION_WORDS[lang].items():
        name, _, arity = key.partition("/")
        fn = FUNCTIONS[name]
        if "{all}" in template:
            continue                      # min(a, b, ...): every argument, joined
        n = int(arity) if arity else fn.max_args
        assert holes(template) == {str(i) for i in range(n)}, (lang, key)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hired_helpers_area_counts_from_one_in_words(lang):
    """The regression of the third fidelity pass: `first(k + 1 for k in ...)` read "the first k"."""
    game = load_game(GAMES["la_granja_no_siesta"])
    effect = game.definition.sections["steps"]["hire"]["actions"]["hire"]["effect"]
    text = "\n".join(lines_text(Phrases(Names(game.definition, lang)).stmts(effect)))
    assert "*k* + 1" in text
