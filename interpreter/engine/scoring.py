"""Scores and the outcome: the scoring items compiled at load, each player's breakdown (exact shares where
an item is divided), totals, tiebreaks, the winners and ratings. A mixin of `game.Game`."""

from __future__ import annotations

from .ratings import compile_ratings
from .state import State
from ..language.compiler import RuleError, Unit, fault_words
from ..language.entries import label_of


FAULTS = (TypeError, KeyError, IndexError, AttributeError, ValueError, ZeroDivisionError)


def _where(w, path, fallback) -> str:
    """The file:line:col of a scoring expression (its name when the definition has no positions)."""
    try:
        loc = w.d.where(path)
    except Exception:  # a definition built in memory
        loc = None
    return str(loc) if loc is not None and loc.line > 0 else fallback


class Scoring:
    """Part of `Game` (see the module doc)."""

    def _compile_scoring(self):
        w = self.world
        sc = w.d["scoring"] or {}
        self.score_items = []
        for iid, item in (sc.get("items") or {}).items():
            item = item if isinstance(item, dict) else {"expr": item}
            u = Unit(player=True)
            x = w.compile_expr(item.get("expr", 0), ("scoring", "items", iid, "expr"), u)
            if x is not None and x.t not in ("int", "bool", "any"):
                w.error(f"a scoring item is a number, not a {x.t}", ("scoring", "items", iid, "expr"))
            elif x is not None:
                self.score_items.append((iid, label_of(item, iid), x.f, u.n,
                                         _where(w, ("scoring", "items", iid, "expr"), f"scoring item {iid}")))
        # (id, f, a fresh environment to copy): the fast path of score_breakdown
        self._fast_items = [(iid, f, [None] * max(2, n)) for iid, _lab, f, n, _where in self.score_items]
        self.tiebreaks = []
        for i, t in enumerate(sc.get("tiebreak") or []):
            u = Unit(player=True)
            x = w.compile_expr(t if not isinstance(t, dict) else t.get("expr"), ("scoring", "tiebreak", i), u)
            if x is not None and x.t not in ("int", "bool", "any"):
                w.error(f"a tiebreak is a number, not a {x.t}", ("scoring", "tiebreak", i))
            elif x is not None:
                self.tiebreaks.append((x.f, u.n, _where(w, ("scoring", "tiebreak", i), f"tiebreak {i + 1}")))
        self.score_order = sc.get("order", "high")
        items = sc.get("items")
        self.score_divisors = {}  # exact shares (`divided_by`); fractions are imported only for them
        if isinstance(items, dict) and any(isinstance(i, dict) and "divided_by" in i for i in items.values()):
            from .exact import compile_divisors
            self.score_divisors = compile_divisors(w, items)
        self.rate = compile_ratings(w, sc)
        from .outcomes import Outcomes
        self.outcomes = Outcomes(w, sc)

    def score_breakdown(self, s: State) -> list[dict]:
        """Each player's {scoring item: points}. A RuleError names the item and the player."""
        if not self.score_divisors:
            # The common case first, with no checks between the items (bots read the scores of every
            # position they judge); any surprise (a fault, a value not an int) reads them again carefully.
            s.budget = 0
            items = self._fast_items
            try:
                out = []
                for pl in range(s.n):
                    row = {}
                    for iid, f, env in items:
                        e = env[:]
                        e[0] = pl
                        v = f(s, e)
                        if type(v) is not int:
                            raise TypeError
                        row[iid] = v
                    out.append(row)
                return out
            except Exception:
                pass
        return self._careful_breakdown(s)

    def _careful_breakdown(self, s: State) -> list[dict]:
        out = []
        s.budget = 0  # the loop budget counts per reading of the scores
        for pl in range(s.n):
            row = {}
            for iid, lab, f, n, where in self.score_items:
                try:
                    v = f(s, [pl, None] + [None] * (n - 2))
                except RuleError as ex:
                    raise (ex if ex.where else RuleError(ex.message, where)).ran_by(f"the scores, Player {pl + 1}") \
                        from None
                except FAULTS as ex:
                    raise RuleError(fault_words(ex), where, f"the scores, Player {pl + 1}") from None
                if type(v) not in (int, bool):
                    raise RuleError(f"scoring item {iid} gave {v!r}, not a number", where)
                row[iid] = int(v)
                if iid in self.score_divisors:
                    row[iid] = self._share(s, pl, iid, row[iid])
            out.append(row)
        return out

    def _share(self, s, pl, iid, v):
        from .exact import share
        f, n = self.score_divisors[iid]
        try:
            return share(iid, v, f(s, [pl, None] + [None] * (n - 2)))
        except RuleError as ex:
            if ex.where:
                raise
            raise RuleError(ex.message, _where(self.world, ("scoring", "items", iid, "divided_by"),
                                               f"scoring item {iid} (divided_by)")) from None
        except FAULTS as ex:
            raise RuleError(fault_words(ex), _where(self.world, ("scoring", "items", iid, "divided_by"),
                                                    f"scoring item {iid} (divided_by)")) from None

    def scores(self, s: State) -> list:
        """Each seat's total: an int, or an exact Fraction where a scoring item is `divided_by`."""
        return [self._total(row) for row in self.score_breakdown(s)]

    def _total(self, row):
        if not self.score_divisors:
            return sum(row.values())
        from .exact import tidy
        return tidy(sum(row.values()))

    def outcome(self, s: State) -> dict:
        bd = self.score_breakdown(s)
        scores = [self._total(r) for r in bd]
        tb = []
        for pl in range(s.n):
            row = []
            for f, n, where in self.tiebreaks:
                try:
                    v = f(s, [pl, None] + [None] * (n - 2))
                except RuleError as ex:
                    raise ex if ex.where else RuleError(ex.message, where) from None
                except FAULTS as ex:
                    raise RuleError(fault_words(ex), where, f"the tiebreaks, Player {pl + 1}") from None
                if type(v) not in (int, bool):
                    raise RuleError(f"a tiebreak gave {v!r}, not a number", where)
                row.append(v)
            tb.append(row)
        sign = 1 if self.score_order == "high" else -1
        keys = [(sign * scores[pl],) + tuple(tb[pl]) for pl in range(s.n)]
        best = max(keys)
        out = {"scores": scores, "breakdown": bd, "tiebreak": tb,
               "winners": [pl for pl in range(s.n) if keys[pl] == best], "over": self.is_over(s),
               "ends": list(s.ends)}
        self.outcomes.decide(s, out, sign)
        ratings = self.rate(s, scores) if self.rate is not None else None
        if ratings is not None:
            out["ratings"] = ratings
        return out
