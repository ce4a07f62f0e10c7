"""A game at the web table: seats (people or bots), who holds each person's seat, each person's picture,
menu and narration, undo and the record. Knows nothing of HTTP (`webroutes` serves it).

    t = Table(game, "my_game", players=3, seed=7, kinds=["human", "random", "random"])
    token = t.claim(0)         # seat 0 is now held by whoever has `token` (only its digest is kept)
    t.seat_of(token)           # 0
    t.page(0)                  # what seat 0 may be sent: {"model", "menu", "log", "version", ...}
    t.act(0, 3, version=t.version)   # seat 0 takes its choice number 3 in the position it was shown

Everything `page(seat)` returns is built from that seat's view: its presentation model, its own menu
(only while it decides), and its log: the engine's narration of every decision as that seat may read it
(a card drawn into another's hand is "a card"), with what changed in its view under each.

A seat is held by a session: `claim(seat)` makes a new token and keeps only its SHA-256 digest, so a
stored table holds no secret. Who may claim (an invite, the creator) is the server's business.

Integrity: every decision raises the table's `version`, and an action sent for another version than the
current one is refused (`Refused`, a conflict: "the game moved on"), so a repeated or stale click is never
applied to a newer position, where its number may mean another choice. Undo takes back only the seat's
own last decision, while no other seat has decided since and if it revealed nothing (`undo`). Bots are
played by the caller: `play_bots()` at once, or `bot_turn()` / `bot_move()` from a worker thread (the
bot thinks on a copy, outside the table's lock). A table keeps its state, its record, each seat's last
`log_keep` lines and the decisions of the last seat's run: kilobytes, whatever the game's length.
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
from .undo import Decision, Runs, refusal
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
                 bot_ceiling_ms: float | None = None, state=None):
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
        self.state = new_game(game, players, seed, options) if state is None else state
        self.runs = Runs()                     # the last seat's decisions since another seat decided
        self.log_keep = log_keep
        self.logs: dict[int, list[str]] = {s: [] for s in self.humans}
        self.told = {s: 0 for s in self.humans}   # lines ever added to each seat's log (undo cuts back to a count)
        self.numbering = {s: Numbering() for s in self.humans}
        self.version = 0
        self.shown: int | None = None          # hot seat: the seat whose page is on the screen
        self.asked_at = time.perf_counter()
        self.created = self.touched = time.time()
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)   # notified at each new version (live pages wait on it)
        self.inline_bots = bots_now            # act() plays the bots at once (no worker pool)
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
            step = step_label(self.game, self.state, self.lang, seat) or None
        return {"version": self.version, "seat": seat, "model": self.model(seat), "menu": self.menu(seat),
                "step": step, "log": self.logs[seat][-self.log_keep:], "over": self.over,
                "can_undo": not self.over and refusal(self.game, self.runs, seat) is None}

    # ------------------------------------------------------------------ playing
    def _apply(self, seat: int, action: dict, seconds: float | None) -> None:
        before = {k: self.model(k) for k in self.logs}
        self.runs.add(Decision(seat, self.state, action["id"],
                               {"actions": len(self.record["actions"]), "told": dict(self.told)}))
        messages: list = CheckpointLog()
        passed = step_label(self.game, self.state, self.lang) if action.get("action") == "pass" else ""
        self.state = self.game.apply(self.state, action, log=messages)
        add_action(self.record, seat, action, seconds)
        for k, numbering in self.numbering.items():
            if k != seat:   # another seat decided: the numbers of k's next menu start again
                numbering.restart()
        told = narrates_actions(messages)
        for k, lines in self.logs.items():
            added: list[str] = []
            if not told:  # the engine did not tell the action: its chooser reads its label, others "…"
                what = text(action["label"], self.lang) + (f" — {passed}" if passed else "") if k == seat else "…"
                added.append(say("acts", self.lang, who=person(seat, self.lang), what=what))
            seen, said = before[k], []
            for m in messages:   # the engine's lines as this seat reads them, each with what changed
                if isinstance(m, Checkpoint):
                    added.extend(self._said(said, k, seat, passed))
                    said = []
                    now = self.model(k, m.state)
                    added.extend("· " + line for line in narrate(seen, now, "brief", values=True))
                    seen = now
                else:
                    said.append(m)
            added.extend(self._said(said, k, seat, passed))
            added.extend("· " + line for line in narrate(seen, self.model(k), "brief", values=True))
            self._tell(k, added)
        if self.over:
            finish(self.record, self.game.outcome(self.state))
        self._moved()

    def _tell(self, seat: int, lines: list[str]) -> None:
        log = self.logs[seat]
        log.extend(lines)
        self.told[seat] += len(lines)
        del log[:-self.log_keep]

    def _moved(self) -> None:
        self.version += 1
        self.touched = time.time()
        with self.changed:
            self.changed.notify_all()

    def _said(self, messages: list, reader: int, seat: int, passed: str) -> list[str]:
        lines = [line.strip() for line in log_lines(messages, self.lang, reader) if line.strip()]
        if passed:  # "pass" alone does not say what was passed
            mine = say("acts", self.lang, who=person(seat, self.lang), what="")
            lines = [f"{line} — {passed}" if line.startswith(mine) else line for line in lines]
        return [line.strip("= ").strip() if line.startswith("==") else line.lstrip("# ").strip()
                for line in lines]

    # ------------------------------------------------------------------ bots
    def bot_due(self) -> bool:
        """Whether a bot is to decide now."""
        seat = None if self.over else self.to_move()
        return seat is not None and self.kinds[seat] != "human"

    def bot_turn(self):
        """(seat, version, a copy of the state, its legal actions) when a bot is to decide, else None."""
        with self.lock:
            if not self.bot_due():
                return None
            state = self.state.copy(self.game.layout)
            return self.to_move(), self.version, state, self.game.legal_actions(state)

    def bot_move(self, seat: int, version: int, action: dict) -> bool:
        """Take the bot's decision if the table is still where the bot thought about it."""
        with self.lock:
            if version != self.version or self.to_move() != seat:
                return False
            self._apply(seat, action, None)
            if not self.bot_due():
                self.asked_at = time.perf_counter()
            return True

    def play_bots(self, limit: int = 100_000) -> None:
        """Bots decide until a person must (or the game ends)."""
        for _ in range(limit):
            turn = self.bot_turn()
            if turn is None:
                return
            seat, version, state, legal = turn
            self.bot_move(seat, version, decide(self.bots[seat], self.game, state, legal))

    # ------------------------------------------------------------------ people
    def _check_version(self, version: int | None) -> None:
        if version is not None and version != self.version:
            raise Refused(say("moved_on", self.lang, n=self.version - version if version < self.version else 0),
                          conflict=True)

    def act(self, seat: int, number: int, version: int | None = None) -> None:
        """Seat takes its choice `number` in the position of `version` (None: whatever the position);
        Refused says why not."""
        with self.lock:
            self._check_version(version)
            if self.over or self.to_move() != seat:
                raise Refused(say("not_your_turn", self.lang), conflict=True)
            legal = self.game.legal_actions(self.state)
            numbers = self.numbering[seat].assign(seat, legal)
            chosen = next((a for a in legal if numbers[a["id"]] == number), None)
            if chosen is None:
                raise Refused(say("no_such_choice", self.lang))
            self._apply(seat, chosen, time.perf_counter() - self.asked_at)
            self.asked_at = time.perf_counter()
        if self.inline_bots:
            self.play_bots()

    def undo(self, seat: int, version: int | None = None) -> None:
        """Take back the seat's own last decision (see `undo.refusal` for when it may); Refused says why not."""
        with self.lock:
            self._check_version(version)
            why = refusal(self.game, self.runs, seat)
            if why is not None:
                raise Refused(say(why, self.lang), conflict=why == "others_decided")
            last = self.runs.pop()
            self.state = last.before
            self.numbering[seat].restart()   # the menu of the position taken back is shown anew
            del self.record["actions"][last.marks["actions"]:]
            self.record.pop("result", None)
            for k, count in last.marks["told"].items():
                drop = self.told[k] - count
                if drop:
                    del self.logs[k][-drop:]
                self.told[k] = count
                self._tell(k, [say("acts", self.lang, who=person(seat, self.lang), what=say("undo", self.lang))])
            self.asked_at = time.perf_counter()
            self._moved()

    def next_human(self) -> int | None:
        seat = self.to_move()
        return seat if seat is not None and self.kinds[seat] == "human" else None
