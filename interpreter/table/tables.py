"""A game at the web table: seats (people or bots), who holds each person's seat, each person's picture,
menu and narration, undo and the record. Knows nothing of HTTP (`webroutes` serves it).

    t = Table(game, "my_game", players=3, seed=7, kinds=["human", "random", "random"])
    token = t.claim(0)         # seat 0 is now held by whoever has `token` (only its digest is kept)
    t.seat_of(token)           # 0
    t.page(0)                  # what seat 0 may be sent: {"model", "menu", "log", "version", ...}
    t.act(0, 3)                # seat 0 takes its choice number 3 (the bots then play until a person decides)

Everything `page(seat)` returns is built from that seat's view: its presentation model, its own menu
(only while it decides), and its log: the engine's narration of every decision as that seat may read it
(a card drawn into another's hand is "a card"), with what changed in its view under each.

A seat is held by a session: `claim(seat)` makes a new token and keeps only its SHA-256 digest, so a
stored table holds no secret. Who may claim (an invite, the creator) is the server's business.
"""
from __future__ import annotations

import threading
import time

from ..analysis.simulate import text
from ..engine.flow import Checkpoint, CheckpointLog
from ..engine.playout import new_game
from ..players.bots import decide, make_bot, seat_seed
from .narration import narrate
from .presentation import present
from .record import add_action, finish, new_record
from .terminal import Numbering, action_heading, log_lines, narrates_actions, step_label
from .websecurity import digest, new_token, same
from .words import person, say

LOG_KEEP = 300


class Refused(Exception):
    """An action the table does not take; `conflict` when it was sent for a position that is gone (the
    game moved on), else the request itself was wrong."""

    def __init__(self, message: str, conflict: bool = False):
        super().__init__(message)
        self.message, self.conflict = message, conflict


class Table:
    def __init__(self, game, path: str, players: int, seed: int, kinds: list[str], options: dict | None = None,
                 variants: list[str] | None = None, lang: str = "en", hot_seat: bool = False, title: str | None = None,
                 public: bool = False, table_id: str | None = None, log_keep: int = LOG_KEEP, bots_now: bool = True,
                 bot_ceiling_ms: float | None = None):
        self.game, self.kinds, self.lang, self.hot_seat = game, list(kinds), lang, hot_seat
        self.title = title
        self.public = public
        self.id = table_id or new_token(9)
        self.seed = seed
        self.humans = [s for s, k in enumerate(kinds) if k == "human"]
        self.sessions: dict[int, str | None] = {s: None for s in self.humans}   # seat -> token digest
        self.invites: dict[int, int] = {s: 0 for s in self.humans}              # seat -> invite generation
        self.bots = {s: make_bot(k, seat_seed(seed, s)) for s, k in enumerate(kinds) if k != "human"}
        for bot in self.bots.values():  # whatever its budget, a bot thinks at most this long per decision
            if hasattr(bot, "ceiling_ms"):
                bot.ceiling_ms = bot_ceiling_ms
        self.record = new_record(game, path, players, seed, options, kinds, variants)
        self.state = new_game(game, players, seed, options)
        self.history: list[tuple] = []        # (seat, state, actions so far, logs so far)
        self.log_keep = log_keep
        self.logs: dict[int, list[str]] = {s: [] for s in self.humans}
        self.numbering = {s: Numbering() for s in self.humans}
        self.version = 0
        self.shown: int | None = None          # hot seat: the seat whose page is on the screen
        self.asked_at = time.perf_counter()
        self.touched = time.time()
        self.lock = threading.RLock()
        if bots_now:
            self.play_bots()

    # ------------------------------------------------------------------ who holds a seat
    def claim(self, seat: int) -> str:
        """A new session for a person's seat (whoever held it before holds it no more); its token."""
        if seat not in self.sessions:
            raise Refused("that seat is not a person's")
        token = new_token()
        self.sessions[seat] = digest(token)
        self.invites[seat] += 1               # the invite that led here is used up
        return token

    def seat_of(self, token: str | None) -> int | None:
        if not isinstance(token, str) or not token:
            return None
        d = digest(token)
        found = None
        for seat, held in self.sessions.items():
            if held is not None and same(held, d):
                found = seat
        return found

    def free_seats(self) -> list[int]:
        return [s for s, held in self.sessions.items() if held is None]

    # ------------------------------------------------------------------ reading
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
        if not self.over and self.to_move() == seat:
            step = step_label(self.game, self.state, self.lang) or None
        return {"version": self.version, "seat": seat, "model": self.model(seat), "menu": self.menu(seat),
                "step": step, "log": self.logs[seat][-self.log_keep:], "over": self.over,
                "can_undo": any(h[0] == seat for h in self.history)}

    # ------------------------------------------------------------------ playing
    def _apply(self, seat: int, action: dict, seconds: float | None) -> None:
        before = {k: self.model(k) for k in self.logs}
        self.history.append((seat, self.state, len(self.record["actions"]),
                             {k: len(v) for k, v in self.logs.items()}))
        messages: list = CheckpointLog()
        passed = step_label(self.game, self.state, self.lang) if action.get("action") == "pass" else ""
        self.state = self.game.apply(self.state, action, log=messages)
        add_action(self.record, seat, action, seconds)
        told = narrates_actions(messages)
        for k, lines in self.logs.items():
            if not told:  # the engine did not tell the action: its chooser reads its label, others "…"
                what = text(action["label"], self.lang) + (f" — {passed}" if passed else "") if k == seat else "…"
                lines.append(say("acts", self.lang, who=person(seat, self.lang), what=what))
            seen, said = before[k], []
            for m in messages:   # the engine's lines as this seat reads them, each with what changed
                if isinstance(m, Checkpoint):
                    lines.extend(self._said(said, k, seat, passed))
                    said = []
                    now = self.model(k, m.state)
                    lines.extend("· " + line for line in narrate(seen, now, "brief"))
                    seen = now
                else:
                    said.append(m)
            lines.extend(self._said(said, k, seat, passed))
            lines.extend("· " + line for line in narrate(seen, self.model(k), "brief"))
            del lines[:-self.log_keep]
        if self.over:
            finish(self.record, self.game.outcome(self.state))
        self.version += 1
        self.touched = time.time()

    def _said(self, messages: list, reader: int, seat: int, passed: str) -> list[str]:
        lines = [line.strip() for line in log_lines(messages, self.lang, reader) if line.strip()]
        if passed:  # "pass" alone does not say what was passed
            mine = say("acts", self.lang, who=person(seat, self.lang), what="")
            lines = [f"{line} — {passed}" if line.startswith(mine) else line for line in lines]
        return [line.strip("= ").strip() if line.startswith("==") else line.lstrip("# ").strip()
                for line in lines]

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
