"""Playing at a terminal: the picture before each human decision, a stable menu grouped by action,
narration after every decision, undo, save and resume, a pace for bot games.

    table = TerminalTable(game, setup, out=print, read=input)
    code = table.run()

`Setup` says what is played (game path, players, seed, options, seat kinds, language, narration). The
table reads a person's replies with `read(prompt)` and writes lines with `out(line)`, so tests drive it
with lists. Narration is told from the view of the first human seat (seat 1 when every seat is a bot),
so a person never reads what that seat may not see.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine.flow import Checkpoint, CheckpointLog
from ..players.bots import decide, make_bot, seat_seed
from .narration import narrate
from .presentation import present
from .record import add_action, finish, new_record, write_record
from ..analysis.simulate import text
from .textview import picture
from .undo import Decision, Runs, refusal
from .words import person, say

MAX_DECISIONS = 100_000


class Quit(Exception):
    """A person left the game."""


def narrates_actions(messages: list) -> bool:
    """Whether the engine's log tells the action itself (an entry naming the acting `player`)."""
    return any(isinstance(m, dict) and "player" in m for m in messages)


def log_lines(messages: list, lang: str, seat: int | None = None) -> list[str]:
    """The engine's narrative: what a player did, indented under the headers of rounds and phases; as
    `seat` reads it (what the rules hide from that seat stays hidden), or as the table reads it (None)."""
    from ..language.labels import for_seat

    lines = []
    for message in messages:
        line = for_seat(message, seat, lang) if seat is not None else text(message, lang)
        if isinstance(message, dict) and (message.get("player") is not None or message.get("note")):
            line = "  " + line
        elif isinstance(message, dict) and message.get("phase") is not None:
            line = f"== {line} =="
        elif isinstance(message, dict) and message.get("heading"):
            line = f"\n## {line}"
        lines.append(line)
    return lines


# ---------------------------------------------------------------------------------------------- menus

def action_heading(game, step: str, name: str, lang: str) -> str | None:
    """An action's label with its choices left open ("take the … from depot …"), for a menu group."""
    for st in getattr(game, "steps", {}).values():
        if st.id != step:
            continue
        for act in st.actions:
            if act.name == name and act.label:
                return "".join(part[0] if part[1] is None else "…" for part in act.label[lang])
    return None


def step_label(game, state, lang: str, seat=None) -> str:
    """The label of the step being decided in `state`, its {holes} filled as `seat` may read them (None:
    the table); empty when no step is being decided."""
    if not state.flow or game.nodes[state.flow[-1][0]].step is None:
        return ""
    texts = game.flow_labels(state, seat)[-1]
    return texts.get(lang) or texts.get("en", "")


class Numbering:
    """Menu numbers that stay with their choice: while a seat goes on deciding, a choice keeps its number
    from one decision to the next, and a number once shown is never given to another choice (new choices,
    and the choices of the seat's next step, get numbers above every number shown), so a number typed
    twice never means a choice the person did not see under it; `pass` is always 0. The numbers start
    again from 1 when another seat has decided in between (`restart`, or a decision asked of another
    seat)."""

    def __init__(self):
        self.step: tuple | None = None
        self.numbers: dict[str, int] = {}
        self.top = 0

    def restart(self) -> None:
        self.step, self.numbers, self.top = None, {}, 0

    def assign(self, seat: int, legal: list[dict]) -> dict[str, int]:
        key = (seat, legal[0].get("step") if legal else None)
        if self.step is None or key[0] != self.step[0]:
            self.restart()
        elif key != self.step:     # the same seat's next step: its choices are new choices
            self.numbers = {}
        self.step = key
        ids = {a["id"] for a in legal}
        self.numbers = {i: n for i, n in self.numbers.items() if i in ids}
        for a in legal:
            if a["id"] not in self.numbers:
                if a.get("action") == "pass":
                    self.numbers[a["id"]] = 0
                else:
                    self.top += 1
                    self.numbers[a["id"]] = self.top
        return self.numbers


def menu_lines(game, legal: list[dict], numbers: dict[str, int], lang: str) -> list[str]:
    """The choices grouped by action (in the order the rules list them), each with its stable number."""
    groups: dict[str, list[dict]] = {}
    for a in legal:
        groups.setdefault(a.get("action", ""), []).append(a)
    lines = []
    for name, acts in groups.items():
        heading = action_heading(game, acts[0].get("step", ""), name, lang) if len(acts) > 1 else None
        indent = "     "
        if heading:
            lines.append(f"  {heading}")
            indent = "       "
        for a in sorted(acts, key=lambda a: numbers[a["id"]]):
            label = text(a["label"], lang) if a.get("label") else a["id"]
            lines.append(f"{indent}{numbers[a['id']]:>3}) {label}")
    return lines


def _headers(headers: list, messages: list) -> list:
    """The headings a position is under after `messages`: the last round heading, and the last phase
    told after it."""
    out = list(headers)
    for m in messages:
        if isinstance(m, dict) and m.get("player") is None and m.get("heading"):
            out = [m]
        elif isinstance(m, dict) and m.get("player") is None and m.get("phase") is not None:
            out = [h for h in out if h.get("heading")] + [m]
    return out


# ---------------------------------------------------------------------------------------------- table

@dataclass
class Setup:
    path: str
    players: int
    seed: Any
    options: dict | None = None
    kinds: list[str] = field(default_factory=list)     # "human" or a bot name, per seat
    variants: list[str] = field(default_factory=list)
    lang: str = "en"
    narrate: str = "brief"          # brief, full or none
    quiet: bool = False             # no narration of bot turns
    pace: float | str | None = None  # seconds between bot decisions, or "step" (wait for Enter)
    record: str | None = None       # where to write the record


class TerminalTable:
    def __init__(self, game, setup: Setup, out: Callable[[str], None] = print,
                 read: Callable[[str], str] = input, title: str | None = None, sleep=time.sleep):
        self.game, self.setup, self.out, self.read, self.sleep = game, setup, out, read, sleep
        self.title = title
        self.lang = setup.lang
        self.bots = {s: make_bot(k, seat_seed(setup.seed, s)) for s, k in enumerate(setup.kinds) if k != "human"}
        humans = [s for s, k in enumerate(setup.kinds) if k == "human"]
        self.narrator = humans[0] if humans else 0
        # the engine's narrative as one person at the table reads it; with several (hot seat), as the table
        self.reader = humans[0] if len(humans) == 1 else None
        self.numbering = Numbering()
        self.record = new_record(game, setup.path, setup.players, setup.seed, setup.options, setup.kinds,
                                 setup.variants)
        self.runs = Runs()   # the decisions since another seat last decided: what undo may take back
        self.last_messages: list = []   # the engine's log of the last decision

    # -------------------------------------------------------------- output
    def model(self, state, seat: int, over: bool = False) -> dict:
        outcome = self.game.outcome(state) if over else None  # the scores are public once it is over
        return present(self.game, self.game.view(state, seat), self.lang, outcome=outcome, title=self.title)

    def show(self, lines) -> None:
        for line in lines:
            self.out(line)

    def save(self, path: str) -> None:
        write_record(path, self.record)

    # -------------------------------------------------------------- a person decides
    def ask(self, state, seat: int, legal: list[dict]):
        numbers = self.numbering.assign(seat, legal)
        by_number = {n: a for a in legal for i, n in numbers.items() if i == a["id"]}
        lang = self.lang

        def menu() -> None:
            self.out("")
            self.out(picture(self.model(state, seat)))
            self.out(say("your_decision", lang, who=person(seat, lang), step=step_label(self.game, state, lang, seat))
                     + ":")
            self.show(menu_lines(self.game, legal, numbers, lang))

        menu()
        while True:
            try:
                reply = self.read(say("prompt", lang, who=person(seat, lang))).strip().lower()
            except EOFError:
                self.out("")
                raise Quit("input ended") from None
            if reply in ("q", "quit", "exit"):
                if self.confirm_quit():
                    raise Quit("quit")
                menu()
                continue
            if reply in ("?", "h", "help"):
                self.out(say("help", lang))
            elif reply in ("m", "menu", "", "v", "view"):
                menu()
            elif reply in ("u", "undo"):
                return "undo"
            elif reply in ("s", "save"):
                try:
                    path = self.read(say("save_as", lang)).strip()
                except EOFError:
                    raise Quit("input ended") from None
                if path:
                    try:
                        self.save(path)
                        self.out(say("saved", lang, path=path))
                    except OSError as exc:
                        self.out(say("not_saved", lang, why=exc.strerror or exc))
            elif reply.isascii() and reply.isdigit() and int(reply) in by_number:  # not "²"
                return by_number[int(reply)]
            else:
                self.out(say("bad_reply", lang))

    def confirm_quit(self) -> bool:
        """A game in progress is left only when the person says so, after saving it if asked to."""
        try:
            answer = self.read(say("quit_ask", self.lang)).strip().lower()
        except EOFError:
            return True
        if answer in ("s", "save"):
            try:
                path = self.read(say("save_as", self.lang)).strip()
            except EOFError:
                return True
            if not path:
                return False
            try:
                self.save(path)
            except OSError as exc:
                self.out(say("not_saved", self.lang, why=exc.strerror or exc))
                return False
            self.out(say("saved", self.lang, path=path))
            return True
        return answer in ("y", "yes", "q")

    def undo(self, seat: int):
        """The state before `seat`'s last decision, with the record cut back to it; None (and why, told)
        when it may not be taken back: another seat has decided since, or it revealed something hidden
        (a card drawn, a die rolled: see `undo`)."""
        why = refusal(self.game, self.runs, seat)
        if why is not None:
            self.out(say(why, self.lang))
            return None
        last = self.runs.pop()
        del self.record["actions"][last.marks["actions"]:]
        self.numbering.restart()   # the menu of the position taken back is shown anew, counted from 1
        self.out(say("undone", self.lang, n=1))
        return last.before

    # -------------------------------------------------------------- the game
    def apply(self, state, seat, action, seconds=None, tell=True):
        messages: list = CheckpointLog()
        before = self.model(state, self.narrator) if tell and self.setup.narrate != "none" else None
        passed = step_label(self.game, state, self.lang) if isinstance(action, dict) and action.get("action") == "pass" else None
        state = self.game.apply(state, action, log=messages)
        if passed:  # "pass" alone does not say what was passed
            messages = [dict(m, **{self.lang: f"{text(m, self.lang)} — {passed}"})
                        if isinstance(m, dict) and m.get("player") == seat else m for m in messages]
        add_action(self.record, seat, action, seconds)
        self.last_messages = messages
        if tell:
            if not narrates_actions(messages):
                label = text(action["label"], self.lang) if isinstance(action, dict) and action.get("label") else str(action)
                self.out(f"  {person(seat, self.lang)}: {label}")
            self.tell(messages, before, state)
        return state

    def tell(self, messages: list, before: dict | None, state) -> None:
        """The log's lines, each followed by what changed under it (as far as the next line or heading that
        the engine kept the state at, see `CheckpointLog`); the last ones by what changed up to `state`."""
        lines: list = []
        for m in messages:
            if not isinstance(m, Checkpoint):
                lines.append(m)
                continue
            self.show(log_lines(lines, self.lang, self.reader))
            lines = []
            if before is not None:
                now = self.model(m.state, self.narrator)
                self.show("      · " + line for line in narrate(before, now, self.setup.narrate))
                before = now
        self.show(log_lines(lines, self.lang, self.reader))
        if before is not None:
            after = self.model(state, self.narrator, over=self.game.is_over(state))
            self.show("      · " + line for line in narrate(before, after, self.setup.narrate))

    def start(self, resume: list[str] | None = None):
        from ..engine.playout import new_game

        setup_log: list = []
        state = new_game(self.game, self.setup.players, self.setup.seed, self.setup.options, setup_log)
        if not self.setup.quiet and not resume:
            self.show(log_lines(setup_log, self.lang, self.reader))
        headers = _headers([], setup_log)
        for aid in resume or []:
            seat = self.game.current_player(state)
            self.runs.add(Decision(seat, state, str(aid), {"actions": len(self.record["actions"])}))
            legal = {a["id"]: a for a in self.game.legal_actions(state)}
            state = self.apply(state, seat, legal.get(aid, aid), tell=False)
            headers = _headers(headers, self.last_messages)
        if resume:
            # where the game is now: the round's and the phase's headings of the position, not the setup's
            self.show(log_lines(headers, self.lang, self.reader))
            self.out(say("resumed", self.lang, n=len(resume)))
        return state

    def run(self, resume: list[str] | None = None) -> int:
        """Play to the end (0), or until a person quits (0; 1 when the input ended)."""
        game, lang = self.game, self.lang
        state = self.start(resume)
        try:
            while not game.is_over(state):
                if len(self.record["actions"]) >= MAX_DECISIONS:
                    from ..engine.flow import where_now
                    from ..engine.playout import GameTooLong
                    raise GameTooLong(f"the game did not end within {MAX_DECISIONS} decisions"
                                      f"{where_now(self.game, state)}")
                seat = game.current_player(state)
                legal = game.legal_actions(state)
                if seat is None or not legal:
                    from ..engine.flow import where_now
                    from ..language.compiler import RuleError
                    raise RuleError(f"the game is not over but nobody can act{where_now(game, state)}")
                human = self.setup.kinds[seat] == "human"
                started = time.perf_counter()
                if human:
                    action = self.ask(state, seat, legal)
                    if action == "undo":
                        state = self.undo(seat) or state
                        continue
                else:
                    action = decide(self.bots[seat], game, state, legal)
                    self.pace()
                self.runs.add(Decision(seat, state, action["id"] if isinstance(action, dict) else str(action),
                                       {"actions": len(self.record["actions"])}))
                seconds = time.perf_counter() - started if human else None
                state = self.apply(state, seat, action, seconds, tell=human or not self.setup.quiet)
                if self.numbering.step is not None and self.numbering.step[0] != seat:
                    self.numbering.restart()   # another seat decided: the next menu counts from 1
        except Quit as why:
            self.out(say("abandoned", lang, n=len(self.record["actions"])))
            self.write()
            return 1 if str(why) == "input ended" else 0
        except BaseException:
            self.write()
            raise
        finish(self.record, game.outcome(state))
        self.out("")
        self.out(picture(self.model(state, self.narrator, over=True)))
        self.out(say("decisions", lang, n=len(self.record["actions"])))
        self.write()
        return 0

    def pace(self) -> None:
        pace = self.setup.pace
        if pace == "step":
            try:
                self.read(say("step_through", self.lang))
            except EOFError:
                self.setup.pace = None
        elif pace:
            self.sleep(float(pace))

    def write(self) -> None:
        if self.setup.record:
            write_record(self.setup.record, self.record)
