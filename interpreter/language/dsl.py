"""Parse DSL text (expressions and statements) with the Lark grammar in grammar/dsl.lark.

The parser is built once per process. Syntax errors become `DslSyntaxError` with a 1-based line and column
inside the text, which the caller maps to the YAML file (see `loader.Document.locate_in_scalar`).
"""

from __future__ import annotations

from functools import lru_cache

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..definition import parser_cache
from ..definition.resources import data_dir

KEYWORDS = {"if", "elif", "else", "for", "in", "not", "and", "or", "emit", "pass", "while", "where"}


class DslSyntaxError(Exception):
    """A syntax error at (line, col) of a DSL text."""

    def __init__(self, message: str, line: int, col: int):
        super().__init__(message)
        self.message, self.line, self.col = message, line, col


class _Indent(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


def _no_keyword(tok):
    """Lark's contextual lexer reads a keyword as a NAME where only a name may come: refuse it."""
    if tok.value in KEYWORDS:
        raise DslSyntaxError(f"'{tok.value}' is a keyword, not a name", tok.line, tok.column)
    return tok


# The tree of every text parsed so far, by (start rule, text): the compiler only reads trees, so a text
# compiled again (the same game loaded again, or trees from the cache, see `cache`) is not parsed again.
TREES: dict = {}
MAX_TREES = 50_000
_used: set | None = None


def record(on=True) -> set | None:
    """Start (or, with a false `on`, stop) collecting the keys of TREES that parses use; the set."""
    global _used
    _used = set() if on else None
    return _used


def _memo(start: str, text: str, parse) -> Tree:
    key = (start, text)
    tree = TREES.get(key)
    if tree is None:
        tree = parse()
        if len(TREES) >= MAX_TREES:
            TREES.clear()
        TREES[key] = tree
    if _used is not None:
        _used.add(key)
    return tree


@lru_cache(maxsize=1)
def parser() -> Lark:
    text = (data_dir("grammar") / "dsl.lark").read_text(encoding="utf-8")
    options = dict(parser="lalr", start=["start_expr", "start_stmts"], propagate_positions=True,
                   maybe_placeholders=False)
    # The built tables are kept in the user's own cache directory as verified JSON (see parser_cache).
    return parser_cache.build(text, options, dict(postlex=_Indent(), lexer_callbacks={"NAME": _no_keyword}))


_TOKEN_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "COMPOP": "a comparison",
    "ADDOP": "'+' or '-'", "MULOP": "'*', '//' or '%'", "AUGOP": "'+=' or '-='", "_NL": "end of line",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "COLON": "':'", "EQUAL": "'='", "SEMICOLON": "';'", "_INDENT": "an indented block",
    "_DEDENT": "the end of a block", "$END": "the end of the text", "MINUS": "'-'",
}


def _expected(ex: UnexpectedInput) -> str:
    names = sorted(getattr(ex, "expected", None) or getattr(ex, "allowed", None) or [])
    words = []
    for n in names:
        if n.startswith("__ANON"):
            continue
        w = _TOKEN_WORDS.get(n)
        if w is None:
            w = "'" + n.lower() + "'" if n.isupper() and n.lower() in KEYWORDS else n
        if w not in words:
            words.append(w)
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["..."]
    return "expected " + ", ".join(words)


def _fail(ex: UnexpectedInput, text: str) -> DslSyntaxError:
    line = getattr(ex, "line", 1) or 1
    col = getattr(ex, "column", 1) or 1
    if isinstance(ex, UnexpectedToken):
        tok = ex.token
        if tok.type in ("$END", "_DEDENT"):
            what = "unexpected end of text" if tok.type == "$END" or not tok.value else "unexpected end of block"
            lines = text.rstrip("\n").split("\n")
            if tok.type == "$END" or not tok.line:
                line, col = len(lines), len(lines[-1]) + 1
            else:
                line, col = tok.line, (tok.column or 1)
            if tok.type == "_DEDENT":
                line = min(line, len(lines))
                col = len(lines[line - 1]) + 1
        elif tok.type == "_INDENT":
            # The indent token borrows the position of the line end before it.
            what = "unexpected indentation"
            line, col = (tok.line or 1) + 1, 1
        elif tok.type == "_NL":
            what = "unexpected end of line"
        else:
            what = f"unexpected {tok.value!r}"
            if tok.value == "=":
                what += " (to compare two values, write '==')"
            if tok.value in KEYWORDS:
                what += f" ('{tok.value}' is a keyword)"
    elif isinstance(ex, UnexpectedCharacters):
        what = f"unexpected character {text[ex.pos_in_stream]!r}" if ex.pos_in_stream < len(text) else "unexpected character"
    elif isinstance(ex, UnexpectedEOF):
        what = "unexpected end of text"
    else:
        what = "syntax error"
    exp = _expected(ex)
    return DslSyntaxError(what + ("; " + exp if exp else ""), line, col)


def parse_expr(text: str) -> Tree:
    """The tree of one expression; newlines inside are treated as spaces."""
    flat = text.replace("\n", " ").replace("\r", " ")
    try:
        return _memo("start_expr", flat, lambda: parser().parse(flat, start="start_expr").children[0])
    except UnexpectedInput as ex:
        raise _fail(ex, flat) from None


def parse_stmts(text: str) -> Tree:
    """The tree of a block of statements (Python-like indentation)."""
    src = text if text.endswith("\n") else text + "\n"
    try:
        return _memo("start_stmts", src, lambda: parser().parse(src, start="start_stmts"))
    except UnexpectedInput as ex:
        raise _fail(ex, src) from None
    except DedentError:
        line = _bad_dedent(src)
        raise DslSyntaxError("this line's indentation matches no enclosing block", line, 1) from None


def _bad_dedent(text: str) -> int:
    """The first line whose indentation returns to a level that no enclosing block has."""
    levels = [0]
    for no, line in enumerate(text.split("\n"), 1):
        body = line.lstrip(" \t")
        if not body or body.startswith("#"):
            continue
        ind = len(line) - len(body)
        if ind > levels[-1]:
            levels.append(ind)
            continue
        while ind < levels[-1]:
            levels.pop()
        if ind != levels[-1]:
            return no
    return 1
