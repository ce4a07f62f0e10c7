"""Outcomes beyond "the highest score wins": shared results, winners named by an end trigger, teams.

A definition may say, per end trigger (`end.triggers.ID`):
  - `now: true`: the game ends as soon as the effect that sets the trigger is over (the flow is emptied;
    no further step, hook or phase runs) — an immediate win or loss in the middle of a round;
  - `at: turn | round` (`at: now` is `now: true`): the game ends when the turn, or the round, in which the
    trigger was set is over (`place_end` marks the place in the flow stack); the flow needs no guard;
  - `result: all_win | all_lose`: everyone wins or everyone loses together (a cooperative game);
  - `winners: EXPR`: a player or a list of players who win (no player bound), instead of the scores.
The first trigger set (in the order the game set them) that has a `result` or `winners` decides. Without
one, `scoring.teams: EXPR` (the team of `player`) sums each team's scores and its members win together;
otherwise the scores decide as before.

`decide` adds keys to the outcome and may replace `winners`; the keys a plain game gives are unchanged, so
existing transcripts stay as they were. Added keys: `results` (per seat "win" or "loss"), `shared` ("win"
or "loss", a shared result), `decided_by` (the trigger that named the result), `teams` and `team_scores`.
"""

from __future__ import annotations

from ..language.compiler import RuleError, Unit

_FAILS = (TypeError, KeyError, IndexError, AttributeError, ValueError)


class Outcomes:
    """The compiled outcome rules of one game."""

    def __init__(self, w, scoring: dict):
        self.now = frozenset(t for t, d in w.end_triggers.items() if isinstance(d, dict) and (
            d.get("now") or d.get("at") == "now"))
        # trigger -> "turn" | "round": the game ends when the turn or round in which it was set is over
        self.at = {t: d["at"] for t, d in w.end_triggers.items() if isinstance(d, dict) and d.get("at") in
                   ("turn", "round")}
        self.by_trigger = {}  # trigger -> ("shared", "win"|"loss") | ("winners", f, n)
        for t, d in w.end_triggers.items():
            if not isinstance(d, dict):
                continue
            path = ("end", "triggers", t)
            if d.get("now") and d.get("at") not in (None, "now"):
                w.error(f"an end trigger ends the game now or at the end of the {d['at']}, not both", path + ("at",),
                        "leave out now: true")
            if "result" in d and "winners" in d:
                w.error("an end trigger gives a shared result or its winners, not both", path + ("winners",))
            if "result" in d:
                self.by_trigger[t] = ("shared", "win" if d["result"] == "all_win" else "loss")
            elif "winners" in d:
                u = Unit(player=False)
                x = w.compile_expr(d["winners"], path + ("winners",), u)
                if x is not None:
                    if x.t not in ("player", "list:player", "any", "list:any"):
                        w.error(f"winners is a player or a list of players, not a {x.t}", path + ("winners",))
                    self.by_trigger[t] = ("winners", x.f, u.n)
        self.team = None
        if "teams" in scoring:
            u = Unit(player=True)
            x = w.compile_expr(scoring["teams"], ("scoring", "teams"), u)
            if x is not None:
                self.team = (x.f, u.n)

    @property
    def plain(self) -> bool:
        """Does this game decide its outcome by the scores alone (nothing to add)."""
        return not self.by_trigger and self.team is None

    def decide(self, s, out: dict, sign: int) -> None:
        """Complete outcome `out` of state `s` (`sign`: 1 when the most points win, -1 when the fewest)."""
        n = s.n
        for t in s.ends:
            rule = self.by_trigger.get(t)
            if rule is None:
                continue
            out["decided_by"] = t
            if rule[0] == "shared":
                out["shared"] = rule[1]
                out["winners"] = list(range(n)) if rule[1] == "win" else []
            else:
                _, f, k = rule
                try:
                    v = f(s, [None, None] + [None] * (k - 2))
                except _FAILS as ex:
                    raise RuleError(f"{type(ex).__name__}: {ex}", f"end trigger {t} (winners)") from None
                seats = v if isinstance(v, list) else [] if v is None else [v]
                out["winners"] = sorted({p for p in seats if type(p) is int and 0 <= p < n})
            break
        else:
            if self.team is not None:
                f, k = self.team
                try:
                    teams = [f(s, [pl, None] + [None] * (k - 2)) for pl in range(n)]
                except _FAILS as ex:
                    raise RuleError(f"{type(ex).__name__}: {ex}", "scoring teams") from None
                totals: dict = {}
                for pl, tm in enumerate(teams):
                    totals[tm] = totals.get(tm, 0) + out["scores"][pl]
                best = max(sign * v for v in totals.values())
                out["teams"] = teams
                out["team_scores"] = [totals[tm] for tm in teams]
                out["winners"] = [pl for pl in range(n) if sign * totals[teams[pl]] == best]
        winners = set(out["winners"])
        out["results"] = ["win" if pl in winners else "loss" for pl in range(n)]


def ends_now(game, s) -> bool:
    """Has an end trigger with `now` been set: the flow stops (emptied in place, as effects expect). A
    trigger set with `at: turn` or `at: round` marks where the game will end (`place_end`)."""
    now = game.outcomes.now
    if now and s.flow and any(t in now for t in s.ends):
        s.flow.clear()
        s.ev = []
        return True
    at = game.outcomes.at
    if at and s.flow:
        for t in s.ends:
            if t in at and place_end(game, s, t, at[t]):
                s.ev = []
                return True
    return False


def place_end(game, s, trigger, when) -> bool:
    """Put the end of the game where the turn (`when` "turn") or the round ("round") in which `trigger` was
    set is over: an END frame (game.end_node) in the flow stack, which empties the flow when the flow
    machine comes back to it. For a turn, right above the innermost each_player loop (its current
    player's turn runs to its end, hooks included); for a round, right above the innermost repeat (its pass
    runs to its end), or without one right below the outermost each_player loop (it goes round the table).
    With no such loop the game ends now (True). The frame names its trigger, so it is placed once."""
    from .flow import EACH, END, REPEAT
    flow, nodes, end = s.flow, game.nodes, game.end_node
    if any(fr[0] == end and fr[2] == (trigger,) for fr in flow):
        return False
    kinds = [nodes[fr[0]].kind for fr in flow]
    at = None
    if when == "turn":
        at = next((i + 1 for i in range(len(flow) - 1, -1, -1) if kinds[i] == EACH), None)
    else:
        at = next((i + 1 for i in range(len(flow) - 1, -1, -1) if kinds[i] == REPEAT), None)
        if at is None:
            at = next((i for i in range(len(flow)) if kinds[i] == EACH), None)
    if at is None:
        flow.clear()
        return True
    player = flow[at][1] if at < len(flow) else flow[at - 1][1]
    flow.insert(at, [end, player, (trigger,), 0, None, 0, 0])
    return False
