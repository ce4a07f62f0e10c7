"""A game at the web table: seats (people or bots), each person's picture, menu and narration, undo and
the record. Knows nothing of HTTP (`webtable` serves it).

    t = Table(game, path="my_game", players=3, seed=7, kinds=["human", "random", "random"])
    t.page(0)          # what seat 0 may be sent: {"model", "menu", "log", "version", ...}
    t.act(0, 3)        # seat 0 takes its choice number 3; the bots then play until a person decides

Everything `page(seat)` returns is built from that seat's view: its presentation model, its own menu
(only while it decides), and its narration (what changed in its view; its own actions by label). The
labels of other seats' actions are not sent: a label may name what only its chooser sees.
"""
from __future__ import annotations

import secrets
import time

from ..engine.flow import Checkpoint, CheckpointLog
from ..players.bots import decide, make_bot, seat_seed
from .narration import narrate
from ..engine.playout import new_game
from .presentation import present
from .record import add_action, finish, new_record
from ..analysis.simulate import text
from .terminal import Numbering, action_heading, step_label
from .words import person, say

LOG_KEEP = 300


class Table:
    def __init__(self, game, path: str, players: int, seed: int, kinds: list[str], options: dict | None = None,
                 variants: list[str] | None = None, lang: str = "en", hot_seat: bool = False, title: str | None = None):
        self.game, self.kinds, self.lang, self.hot_seat = game, list(kinds), lang, hot_seat
        self.title = title
        self.id = secrets.token_urlsafe(8)
        self.tokens = {secrets.token_urlsafe(12): s for s, k in enumerate(kinds) if k == "human"}
        self.bots = {s: make_bot(k, seat_seed(seed, s)) for s, k in enumerate(kinds) if k != "human"}
        self.record = new_record(game, path, players, seed, options, kinds, variants)
        self.state = new_game(game, players, seed, options)
        self.history: list[tuple] = []        # (seat, state, actions so far, logs so far)
        self.logs: dict[int, list[str]] = {s: [] for s in self.tokens.values()}
        self.numbering = {s: Numbering() for s in self.tokens.values()}
        self.version = 0
        self.asked_at = time.perf_counter()
        self.play_bots()

    # ------------------------------------------------------------------ reading
    def seat_of(self, token: str) -> int | None:
        return self.tokens.get(token)

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def to_move(self) -> int | None:
        return self.game.current_player(self.state)

    def model(self, seat: int, state=None) -> dict:
        state = self.state if state is None else state
        over = self.game.is_over(state)
        return present(self.game, self.game.view(state, seat), self.lang,
                       outcome=self.game.outcome(state) if over else None, title=self.title)

    def menu(self, seat: int) -> list[dict]:
        """The seat's choices while it decides: [{number, label, group}] (empty otherwise)."""
        if self.over or self.to_move() != seat:
            return []
        legal = self.game.legal_actions(self.state)
        numbers = self.numbering[seat].assign(seat, legal)
        groups: dict[str, int] = {}
        for a in legal:
            groups[a["action"]] = groups.get(a["action"], 0) + 1
        out = []
        for a in legal:
            heading = action_heading(self.game, a["step"], a["action"], self.lang) if groups[a["action"]] > 1 else None
            out.append({"number": numbers[a["id"]], "label": text(a["label"], self.lang), "group": heading or ""})
        return sorted(out, key=lambda m: (m["number"] == 0, m["number"]))

    def page(self, seat: int) -> dict:
        """All a seat's page shows, as data: nothing in it comes from outside the seat's view."""
        step = None
        if not self.over and self.to_move() == seat and self.game.nodes[self.state.flow[-1][0]].step is not None:
            texts = self.game.flow_labels(self.state, seat)[-1]  # its {holes} filled as the seat may read them
            step = texts.get(self.lang) or texts.get("en")
        return {"version": self.version, "seat": seat, "model": self.model(seat), "menu": self.menu(seat),
                "step": step, "log": self.logs[seat][-LOG_KEEP:], "over": self.over,
                "can_undo": any(h[0] == seat for h in self.history)}

    # ------------------------------------------------------------------ playing
    def _apply(self, seat: int, action: dict, seconds: float | None) -> None:
        before = {k: self.model(k) for k in self.logs}
        self.history.append((seat, self.state, len(self.record["actions"]),
                             {k: len(v) for k, v in self.logs.items()}))
        messages: list = CheckpointLog()
        self.state = self.game.apply(self.state, action, log=messages)
        add_action(self.record, seat, action, seconds)
        # The headings of rounds and phases, each after what changed before it (see CheckpointLog).
        told = [m for m in messages if isinstance(m, Checkpoint) or (
            isinstance(m, dict) and m.get("player") is None and (m.get("phase") is not None or m.get("heading")))]
        passed = step_label(self.game, self.history[-1][1], self.lang) if action.get("action") == "pass" else ""
        for k, lines in self.logs.items():
            if k == seat:
                what = text(action["label"], self.lang) + (f" — {passed}" if passed else "")
                lines.append(say("acts", self.lang, who=person(seat, self.lang), what=what))
            else:
                lines.append(say("acts", self.lang, who=person(seat, self.lang), what="…"))
            seen = before[k]
            for m in told:
                if isinstance(m, Checkpoint):
                    now = self.model(k, m.state)
                    lines.extend("· " + line for line in narrate(seen, now, "brief"))
                    seen = now
                else:
                    lines.append(text(m, self.lang))
            lines.extend("· " + line for line in narrate(seen, self.model(k), "brief"))
        if self.over:
            finish(self.record, self.game.outcome(self.state))
        self.version += 1

    def play_bots(self, limit: int = 100_000) -> None:
        """Bots decide until a person must (or the game ends)."""
        for _ in range(limit):
            if self.over:
                return
            seat = self.to_move()
            if self.kinds[seat] == "human":
                self.asked_at = time.perf_counter()
                return
            legal = self.game.legal_actions(self.state)
            self._apply(seat, decide(self.bots[seat], self.game, self.state, legal), None)

    def act(self, seat: int, number: int) -> str | None:
        """Seat takes its choice `number`; None when done, else why not."""
        if self.over or self.to_move() != seat:
            return "not your turn"
        legal = self.game.legal_actions(self.state)
        numbers = self.numbering[seat].assign(seat, legal)
        chosen = next((a for a in legal if numbers[a["id"]] == number), None)
        if chosen is None:
            return "no such choice"
        self._apply(seat, chosen, time.perf_counter() - self.asked_at)
        self.play_bots()
        return None

    def undo(self, seat: int) -> bool:
        """Back to the seat's previous decision (the decisions after it are undone)."""
        for i in range(len(self.history) - 1, -1, -1):
            if self.history[i][0] == seat:
                _, self.state, n, logs = self.history[i]
                del self.history[i:]
                del self.record["actions"][n:]
                self.record.pop("result", None)
                for k, size in logs.items():
                    del self.logs[k][size:]
                    self.logs[k].append(say("acts", self.lang, who=person(seat, self.lang), what=say("undo", self.lang)))
                self.version += 1
                self.asked_at = time.perf_counter()
                return True
        return False

    def next_human(self) -> int | None:
        seat = self.to_move()
        return seat if seat is not None and self.kinds[seat] == "human" else None
