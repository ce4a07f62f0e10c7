"""Exact scores: a scoring item that is a share of something, kept as an exact fraction.

A scoring item may say `divided_by: EXPR` (an integer expression, `player` bound): the item is then
`expr / divided_by` exactly — a bonus shared by the players tied for it, half a point per card — as a
`fractions.Fraction`, never rounded. (0 divided by 0 is 0: nobody shares a bonus nobody won; any other
division by 0 is a rule error naming the item.) A whole result is an `int`, so a game without fractional
items scores exactly as before. Totals, winners, ties and ratings compare the exact values.

The state itself never holds a fraction (vars and fields are integers); fractions appear only in the
scores. Where scores leave the engine as JSON (game records, the presentation model), `plain` writes a
fraction as the text "7/2" and `text` as a mixed number for people ("3 1/2").
"""

from __future__ import annotations

from fractions import Fraction

from ..language.compiler import RuleError, Unit


def compile_divisors(w, items: dict) -> dict:
    """{item id: (divisor function, slots)} of the scoring items with `divided_by`."""
    out = {}
    for iid, item in (items or {}).items():
        if not isinstance(item, dict) or "divided_by" not in item:
            continue
        u = Unit(player=True)
        path = ("scoring", "items", iid, "divided_by")
        x = w.compile_expr(item["divided_by"], path, u)
        if x is None:
            continue
        if x.t not in ("int", "any"):
            w.error(f"divided_by is a whole number, not a {x.t}", path)
            continue
        out[iid] = (x.f, u.n)
    return out


def share(iid, v, d):
    """v / d exactly: an int when whole, else a Fraction."""
    if type(d) is not int:
        raise RuleError(f"scoring item {iid}: divided_by gave {d!r}, not a whole number")
    if d == 0:
        if v == 0:
            return 0
        raise RuleError(f"scoring item {iid}: {v} divided by 0")
    return tidy(Fraction(v, d))


def tidy(v):
    """A whole Fraction as an int; anything else as it is."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def plain(v):
    """A score as JSON: an int, or a fraction as the text "n/d"."""
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    return v


def text(v) -> str:
    """A score for people: "7", "3 1/2", "-1/3"."""
    if not isinstance(v, Fraction):
        return str(v)
    whole, rest = divmod(abs(v.numerator), v.denominator)
    sign = "-" if v < 0 else ""
    return f"{sign}{whole} {rest}/{v.denominator}" if whole else f"{sign}{rest}/{v.denominator}"
