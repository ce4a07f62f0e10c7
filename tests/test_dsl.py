"""dsl: the grammar turns DSL text into trees; mistakes are DslSyntaxError at a 1-based line and column.

The trees are the compiler's input, so their shape is part of the contract: operator precedence, the node
names (`binop`, `compare`, `ternary`, `call_gen`, ...) and the statement forms.
"""

import pytest
from lark import Token

from interpreter.language.dsl import KEYWORDS, DslSyntaxError, parse_expr, parse_stmts


def shape(t):
    """A tree as nested tuples: (rule, children...) with tokens as their text."""
    if isinstance(t, Token):
        return str(t)
    return (str(t.data),) + tuple(shape(c) for c in t.children)


def syntax_error(parse, text) -> DslSyntaxError:
    with pytest.raises(DslSyntaxError) as info:
        parse(text)
    return info.value


# ---------------------------------------------------------------- expressions
def test_multiplication_binds_tighter_than_addition():
    assert shape(parse_expr("a + b * c")) == (
        "binop", ("name", "a"), "+", ("binop", ("name", "b"), "*", ("name", "c")))


def test_subtraction_is_left_associative():
    assert shape(parse_expr("a - b - c")) == (
        "binop", ("binop", ("name", "a"), "-", ("name", "b")), "-", ("name", "c"))


def test_parentheses_group():
    assert shape(parse_expr("(a + b) * c")) == (
        "binop", ("binop", ("name", "a"), "+", ("name", "b")), "*", ("name", "c"))


def test_unary_minus_and_integer_division_and_modulo():
    assert shape(parse_expr("-a // 2 % 3")) == (
        "binop", ("binop", ("neg", ("name", "a")), "//", ("number", "2")), "%", ("number", "3"))


def test_comparisons_and_membership():
    assert shape(parse_expr("a <= 1")) == ("compare", ("name", "a"), "<=", ("number", "1"))
    assert shape(parse_expr("x in z")) == ("in_", ("name", "x"), ("name", "z"))
    assert shape(parse_expr("x not in z")) == ("not_in", ("name", "x"), ("name", "z"))


def test_not_binds_looser_than_comparison_and_and_looser_than_not():
    assert shape(parse_expr("not a == b and c or d")) == (
        "or_", ("and_", ("not_", ("compare", ("name", "a"), "==", ("name", "b"))), ("name", "c")), ("name", "d"))


def test_ternary_is_value_condition_alternative():
    assert shape(parse_expr("x if c else y")) == ("ternary", ("name", "x"), ("name", "c"), ("name", "y"))


def test_ternaries_chain_to_the_right():
    assert shape(parse_expr("a if p else b if q else c")) == (
        "ternary", ("name", "a"), ("name", "p"), ("ternary", ("name", "b"), ("name", "q"), ("name", "c")))


def test_postfix_attribute_index_and_call():
    assert shape(parse_expr("f(a, 2).x[k]")) == (
        "index", ("attr", ("call", "f", ("name", "a"), ("number", "2")), "x"), ("name", "k"))


def test_literals():
    assert shape(parse_expr("[1, 'two', \"three\"]")) == (
        "list_", ("number", "1"), ("string", "'two'"), ("string", '"three"'))
    assert shape(parse_expr("[]")) == ("list_",)
    assert shape(parse_expr("f()")) == ("call", "f")


def test_generator_with_and_without_condition():
    assert shape(parse_expr("sum(x.vp for x in z if x.vp > 1)")) == (
        "call_gen", "sum", ("genexp", ("attr", ("name", "x"), "vp"), "x", ("name", "z"),
                            ("compare", ("attr", ("name", "x"), "vp"), ">", ("number", "1"))))
    assert shape(parse_expr("any(p for p in players)")) == (
        "call_gen", "any", ("genexp", ("name", "p"), "p", ("name", "players")))


def test_an_expression_may_span_lines():
    assert shape(parse_expr("a +\n  b")) == ("binop", ("name", "a"), "+", ("name", "b"))


def test_comments_are_ignored():
    assert shape(parse_expr("a  # the answer")) == ("name", "a")


# ---------------------------------------------------------------- statements
def test_simple_statements():
    tree = parse_stmts("a = 1\nb += 2\nc -= 3\npass\nf(x)\n")
    assert shape(tree) == ("start_stmts",
                           ("simple_stmt", ("assign", ("name", "a"), ("number", "1"))),
                           ("simple_stmt", ("augassign", ("name", "b"), "+=", ("number", "2"))),
                           ("simple_stmt", ("augassign", ("name", "c"), "-=", ("number", "3"))),
                           ("simple_stmt", ("pass_stmt",)),
                           ("simple_stmt", ("expr_stmt", ("call", "f", ("name", "x")))))


def test_semicolons_join_small_statements_on_one_line():
    tree = parse_stmts("a = 1; b = 2;")
    assert shape(tree) == ("start_stmts", ("simple_stmt", ("assign", ("name", "a"), ("number", "1")),
                                           ("assign", ("name", "b"), ("number", "2"))))


def test_emit_names_an_event_with_arguments():
    assert shape(parse_stmts("emit sold(player, k, 2)")) == (
        "start_stmts", ("simple_stmt", ("emit", "sold", ("name", "player"), ("name", "k"), ("number", "2"))))


def test_if_elif_else_with_indented_blocks():
    text = "if a:\n    x = 1\n    y = 2\nelif b:\n    pass\nelse:\n    z += 1\n"
    assert shape(parse_stmts(text)) == (
        "start_stmts",
        ("if_stmt", ("name", "a"),
         ("suite", ("simple_stmt", ("assign", ("name", "x"), ("number", "1"))),
                   ("simple_stmt", ("assign", ("name", "y"), ("number", "2")))),
         ("elif_clause", ("name", "b"), ("suite", ("simple_stmt", ("pass_stmt",)))),
         ("else_clause", ("suite", ("simple_stmt", ("augassign", ("name", "z"), "+=", ("number", "1")))))))


def test_for_loop_with_nested_block_and_dedent_back():
    text = "for x in z:\n    if x:\n        n += 1\nm = n\n"
    assert shape(parse_stmts(text)) == (
        "start_stmts",
        ("for_stmt", "x", ("name", "z"),
         ("suite", ("if_stmt", ("name", "x"),
                    ("suite", ("simple_stmt", ("augassign", ("name", "n"), "+=", ("number", "1"))))))),
        ("simple_stmt", ("assign", ("name", "m"), ("name", "n"))))


def test_a_block_may_be_on_the_same_line():
    assert shape(parse_stmts("for x in z: pass")) == (
        "start_stmts", ("for_stmt", "x", ("name", "z"), ("suite", ("simple_stmt", ("pass_stmt",)))))


def test_blank_lines_and_a_missing_final_newline_are_fine():
    assert len(parse_stmts("\n\na = 1\n\n   \nb = 2").children) == 2


def test_brackets_continue_a_statement_over_lines():
    tree = parse_stmts("x = f(1,\n      2)\ny = 3\n")
    assert len(tree.children) == 2


def test_statement_nodes_carry_their_line():
    tree = parse_stmts("a = 1\n\nif b:\n    c = 2\n")
    assert [c.meta.line for c in tree.children] == [1, 3]


# ---------------------------------------------------------------- syntax errors
def test_error_position_is_one_based_line_and_column():
    ex = syntax_error(parse_stmts, "a = 1\nb = = 2\n")
    assert (ex.line, ex.col) == (2, 5)
    assert ex.message.startswith("unexpected '='")
    assert "expected" in ex.message and "a name" in ex.message


def test_error_in_an_expression_says_what_was_expected():
    ex = syntax_error(parse_expr, "a + * b")
    assert (ex.line, ex.col) == (1, 5)
    assert "unexpected '*'" in ex.message
    assert "expected" in ex.message and "a number" in ex.message


def test_error_at_the_end_of_the_text_points_just_past_it():
    ex = syntax_error(parse_expr, "(a + b")
    assert (ex.line, ex.col) == (1, 7)
    assert ex.message == "unexpected end of text; expected ')'"


def test_missing_colon_after_if():
    ex = syntax_error(parse_stmts, "if a\n    b = 1\n")
    assert (ex.line, ex.col) == (1, 5)
    assert ex.message == "unexpected end of line; expected ':'"


def test_missing_indented_block():
    ex = syntax_error(parse_stmts, "if a:\nb = 1\n")
    assert (ex.line, ex.col) == (2, 1)
    assert "expected" in ex.message


def test_unknown_character():
    ex = syntax_error(parse_expr, "a $ b")
    assert (ex.line, ex.col) == (1, 3)
    assert ex.message.startswith("unexpected character '$'")


def test_unterminated_string():
    ex = syntax_error(parse_stmts, "x = 'abc")
    assert (ex.line, ex.col) == (1, 5)


def test_error_on_a_later_line_of_a_block():
    ex = syntax_error(parse_stmts, "for x in z:\n    a = 1\n    b = 2 +\n")
    assert (ex.line, ex.col) == (3, 12)
    assert ex.message.startswith("unexpected end of line; expected")


def test_unclosed_bracket_at_the_end_of_a_block_says_end_of_text():
    ex = syntax_error(parse_stmts, "for x in z:\n    b = (2 +\n")
    assert ex.line == 2
    assert ex.message.startswith("unexpected end of text")


def test_str_of_the_error_is_its_message():
    ex = syntax_error(parse_expr, "1 +")
    assert str(ex) == ex.message


def test_unexpected_indent_is_reported_on_its_own_line():
    ex = syntax_error(parse_stmts, "a = 1\n    b = 2\n")
    assert (ex.line, ex.col) == (2, 1)


def test_inconsistent_dedent_is_a_syntax_error():
    ex = syntax_error(parse_stmts, "if a:\n        b = 1\n    c = 2\n")
    assert ex.line == 3


# ---------------------------------------------------------------- keywords
@pytest.mark.parametrize("text", ["for = 1", "if = 1", "pass = 1", "emit = 1"])
def test_a_statement_cannot_start_by_assigning_to_a_keyword(text):
    syntax_error(parse_stmts, text)


def test_keywords_are_listed():
    assert KEYWORDS == {"if", "elif", "else", "for", "in", "not", "and", "or", "emit", "pass", "while", "where"}


@pytest.mark.parametrize("text", ["for", "x + if", "f(pass)", "[emit]", "else.x", "while + 1", "f(where)"])
def test_a_keyword_is_not_a_name_in_an_expression(text):
    syntax_error(parse_expr, text)


@pytest.mark.parametrize("text", ["else = 1", "in = 1", "x = for"])
def test_a_keyword_cannot_be_assigned(text):
    syntax_error(parse_stmts, text)


def test_a_keyword_is_not_a_loop_variable():
    syntax_error(parse_stmts, "for in in z:\n    pass\n")
