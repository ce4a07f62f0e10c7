"""Score ratings: a table that names what a final score is worth ("21-30 points: not yet a farmer").

    scoring:
      ratings:
        if: "player_count == 1"          # optional: when the table applies (no `player` bound)
        bands:                           # ordered by `min`; a score gets the last band whose min it reaches
          - {label: {en: Practise, zh: 練習}}     # the first band may leave out min: any score
          - {min: 21, label: {en: Not a farmer yet, zh: 還不夠格}}

`compile_ratings` checks the table at load and gives a function `rate(state, scores)` returning one label
per player (a `{lang: text}` dict, or None below every band), or None when the table does not apply.
"""

from __future__ import annotations

from ..language.compiler import Unit
from ..language.entries import label_of


def compile_ratings(world, scoring: dict):
    """The rating function of a `scoring.ratings` entry, or None if the game has none (errors go to
    `world.error` with their path)."""
    r = scoring.get("ratings")
    if not isinstance(r, dict):
        return None
    path = ("scoring", "ratings")
    cond = None
    if r.get("if") is not None:
        u = Unit(player=False)
        x = world.compile_expr(r["if"], path + ("if",), u, want="bool")
        if x is not None:
            cond = (x.f, u.n)
    bands = []
    for i, b in enumerate(r.get("bands") or []):
        lo = b.get("min") if isinstance(b, dict) else None
        if lo is None and i == 0:
            lo = float("-inf")
        elif type(lo) is not int:
            world.error("a rating band needs an integer min (only the first may leave it out)", path + ("bands", i))
            continue
        if bands and lo <= bands[-1][0]:
            world.error(f"rating bands must rise: min {lo} after {bands[-1][0]}", path + ("bands", i, "min"))
            continue
        bands.append((lo, label_of(b, f"band {i + 1}")))

    def rate(s, scores):
        if cond is not None and not cond[0](s, [None, None] + [None] * (cond[1] - 2)):
            return None
        out = []
        for v in scores:
            got = None
            for lo, lab in bands:
                if v >= lo:
                    got = lab
            out.append(got)
        return out

    return rate
