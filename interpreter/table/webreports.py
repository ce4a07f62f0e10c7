"""The web table's pages about games rather than at a table: the replay of an uploaded record, and the
`verify` and `compare` reports.

An uploaded record names its game by a name this server serves and its variants by the names of that
game's variants (a path is read only for its file name, never opened); anything else is refused with a
message that repeats nothing of any file. No page shows a path of the server (`public_text`). A replay
keeps one state in `replay_checkpoint` and recomputes the others; replays are capped in number and
dropped when nobody looked at them for a while; their ids are unguessable.
"""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from pathlib import Path

from . import webpages
from .webinput import BadValue, read_int, read_lang, read_players
from .websecurity import Refusal, new_token
from .words import person, say

_ABSOLUTE = re.compile(r"(?<![\w.])(?:/[\w.@+-]+){2,}/?")


def public_text(text: str, folders) -> str:
    """`text` with every path of the server replaced by what a visitor may read: a served game's folder by
    its name, any other absolute path by its last part."""
    for name, folder in folders:
        for form in {str(folder), str(_relative(folder))}:
            if len(form) > 1:
                text = text.replace(form, name)
    return _ABSOLUTE.sub(lambda m: m.group(0).rstrip("/").rsplit("/", 1)[-1], text)


def _relative(folder: Path) -> Path:
    try:
        return folder.relative_to(Path.cwd().resolve())
    except ValueError:
        return folder


class Replays:
    """Uploaded records being viewed: (game, record, states every `every` actions), capped and expiring."""

    def __init__(self, most: int, idle_seconds: float, every: int):
        self.most, self.idle, self.every = most, idle_seconds, every
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def add(self, game, record: dict, checkpoints: list) -> str:
        rid = new_token(12)
        with self.lock:
            self.expire()
            self.items[rid] = [game, record, checkpoints, time.time()]
            while len(self.items) > self.most:
                self.items.popitem(last=False)
        return rid

    def get(self, rid: str):
        with self.lock:
            self.expire()
            item = self.items.get(rid)
            if item is None:
                return None
            item[3] = time.time()
            self.items.move_to_end(rid)
            return item

    def expire(self) -> None:
        now = time.time()
        for rid in [r for r, item in self.items.items() if now - item[3] > self.idle]:
            del self.items[rid]


def variant_names(record_variants, known: list[str]) -> list[str]:
    """The variants a record names, as names of the game's variants: `two_players`, or an overlay file
    whose name is `two_players.yaml` (a path is not opened: only its last part is read)."""
    out = []
    for v in record_variants:
        name = re.split(r"[\\/]", v)[-1] if isinstance(v, str) else None
        name = name[:-5] if name and name.endswith(".yaml") else name
        if name not in known:
            raise BadValue(f"the record names a variant this server does not serve for its game; its variants: "
                           f"{', '.join(known) or 'none'}")
        out.append(name)
    return out


def register(app, server) -> None:
    from flask import redirect, request

    config, catalog = server.config, server.catalog
    replays = server.replays = Replays(config.max_replays, config.replay_idle_minutes * 60, config.replay_checkpoint)

    def form_error(message: str, status: int = 400):
        return server.render(webpages.REPLAY_FORM, "en", title=say("replay", "en"), error=message), status

    @app.get("/replay")
    def replay_form():
        return server.render(webpages.REPLAY_FORM, "en", title=say("replay", "en"), error=None)

    @app.post("/replay")
    def replay_upload():
        from ..definition.loader import Limits, load_yaml_text
        from ..definition.problems import DefinitionError
        from ..engine.errors import GameSetupError, IllegalAction
        from ..engine.playout import new_game
        from .record import RecordError, check_record

        upload = request.files.get("file")
        raw = upload.read(config.max_body_bytes + 1) if upload and upload.filename else \
            request.form.get("text", "").encode("utf-8", "replace")
        if len(raw) > config.max_body_bytes:
            return form_error(f"a record is at most {config.max_body_bytes} bytes here", 413)
        # a record has no aliases (the server never writes one): a YAML bomb is refused before it grows
        limits = Limits(max_bytes=config.max_body_bytes, max_depth=16, max_aliases=0, max_alias_nodes=0,
                        max_values=10 * config.max_replay_actions + 1000)
        try:
            doc = load_yaml_text(raw.decode("utf-8", "replace"), "record.yaml", limits)
            rec = check_record(doc.data, "record.yaml", doc)
        except DefinitionError as exc:
            return form_error("\n".join(str(p) for p in exc.problems[:20]))
        except RecordError as exc:
            return form_error(str(exc))
        try:
            name = rec["game"] if isinstance(rec["game"], str) else ""
            catalog.check(name)
            variants = variant_names(rec["variants"], catalog.variants(name))
            game = catalog.game(name, variants)
            players = read_players(str(rec["players"]), list(game.player_counts))
            seed = rec["seed"]
            if not (type(seed) is int and abs(seed) < 10 ** 18) and not (isinstance(seed, str) and len(seed) <= 40):
                raise BadValue("the record's seed is a whole number (or a short text)")
            if len(rec["actions"]) > config.max_replay_actions:
                raise BadValue(f"a replay here has at most {config.max_replay_actions} actions")
            state = new_game(game, players, seed, rec["options"])
        except (BadValue, ValueError) as exc:
            return form_error(str(exc))
        except GameSetupError as exc:
            return form_error(f"the record's game cannot start so: {exc}")
        checkpoints = [state]
        for i, a in enumerate(rec["actions"]):
            try:
                state = game.apply(state, a["id"])
            except IllegalAction as exc:
                return form_error(f"action {i + 1} of the record is not legal: {exc}")
            except Exception:
                return form_error(f"action {i + 1} of the record could not be played")
            if (i + 1) % replays.every == 0:
                checkpoints.append(state)
        rid = replays.add(game, rec, checkpoints)
        return redirect(f"/replay/{rid}?step=0&seat=1", 303)

    @app.get("/replay/<rid>")
    def replay(rid):
        from .narration import narrate
        from .presentation import present

        item = replays.get(rid)
        if item is None:
            raise Refusal(404, "No such replay (it may have expired): upload the record again.")
        game, rec, checkpoints, _ = item
        lang = read_lang(request.args.get("lang"), catalog.languages())
        total = len(rec["actions"])
        step = read_int(request.args.get("step") or "0", "the step", 0, total)
        seat = read_int(request.args.get("seat") or "1", "the seat", 1, rec["players"]) - 1

        def state_at(i: int):
            s = checkpoints[i // replays.every]
            for a in rec["actions"][(i // replays.every) * replays.every:i]:
                s = game.apply(s, a["id"])
            return s

        def model(st):
            return present(game, game.view(st, seat), lang, outcome=game.outcome(st) if game.is_over(st) else None)
        m = model(state_at(step))
        last = told = None
        if step > 0:
            a = rec["actions"][step - 1]
            who = f"{person(a['seat'] - 1, lang)}: " if type(a.get("seat")) is int else ""
            last = who + str(a.get("label") or a["id"])
            told = narrate(model(state_at(step - 1)), m, "full")
        return server.render(webpages.REPLAY, lang, title=m["title"], model=m, step=step, total=total, seat=seat + 1,
                             players=rec["players"], seat_names=[person(s, lang) for s in range(rec["players"])],
                             last=last, told=told or [])

    # ------------------------------------------------------------------ verify and compare, as jobs
    def folders():
        return [(name, folder) for name, folder in catalog.folders.items()]

    def report_page(kind: str, game: str, fields: list, error: str | None = None, status: int = 200):
        games = catalog.game_list("en")
        return server.render(webpages.REPORT, "en", title=say(kind, "en"), heading=say(kind, "en"), kind=kind,
                             games=games, game=game, fields=fields, error=error), status

    def chosen_game(raw) -> str:
        games = catalog.game_list("en")
        return raw if raw in catalog.infos() else (games[0]["id"] if games else "")

    def verify_fields(n):
        return [{"name": "games", "label": say("games_n", "en"), "value": n}]

    def compare_fields(game, variant, players, n):
        return [{"name": "variant", "label": say("variants", "en"), "value": variant, "choices": catalog.variants(game)},
                {"name": "players", "label": say("players", "en"), "value": players},
                {"name": "games", "label": say("games_n", "en"), "value": n}]

    def submitted(kind: str, params: dict, total: int):
        from .webjobs import Busy

        try:
            jid = server.jobs.submit(kind, params, total)
        except Busy:
            raise Refusal(503, f"{config.max_jobs_waiting} jobs are waiting already; try again in a while.") from None
        return redirect(f"/jobs/{jid}", 303)

    @app.get("/verify")
    def verify_page():
        return report_page("verify", chosen_game(request.args.get("game")), verify_fields(3))

    @app.post("/verify")
    def verify_run():
        f = request.form
        name, _ = catalog.check(f.get("game"))
        n = read_int(f.get("games") or "3", "the number of games", 0, config.verify_max_games)
        counts = catalog.infos()[name]["players"]
        return submitted("verify", {"folder": str(catalog.folders[name]), "games": n, "game": name},
                         1 + n * len(counts))

    @app.get("/compare")
    def compare_page():
        game = chosen_game(request.args.get("game"))
        choices = catalog.variants(game)
        return report_page("compare", game, compare_fields(game, choices[0] if choices else "", "", 20))

    @app.post("/compare")
    def compare_run():
        f = request.form
        name, variants = catalog.check(f.get("game"), [f.get("variant") or ""] if f.get("variant") else [])
        if not variants:
            raise BadValue(f"choose one of the variants of {name}: {', '.join(catalog.variants(name)) or 'none'}")
        n = read_int(f.get("games") or "20", "the number of games", 1, config.compare_max_games)
        base_game, var_game = catalog.game(name), catalog.game(name, variants)
        common = [p for p in var_game.player_counts if p in base_game.player_counts]
        if not common:
            raise BadValue("the variant and its base game have no player count in common")
        # by default the variant's first count that both sides play (a 2-player variant at 2 players)
        players = read_players(f.get("players"), common) if f.get("players") else common[0]
        return submitted("compare", {"folder": str(catalog.folders[name]), "variant": variants[0], "game": name,
                                     "variant_file": str(catalog.variant_file(name, variants[0])),
                                     "players": players, "games": n}, 2 * n)

    @app.get("/jobs/<jid>")
    def job_page(jid):
        job = server.jobs.get(jid)
        if job is None:
            raise Refusal(404, "No such job (its result is kept for a while only).")
        result = job.result or {}
        report = public_text(result["report"], folders()) if result.get("report") else None
        error = public_text(job.error, folders()) if job.error else None
        running = job.state in ("waiting", "running")
        return server.render(webpages.JOB, "en", title=say(job.kind, "en"), job=job.as_dict(), report=report,
                             image=result.get("image"), error=error, game=job.params.get("game"),
                             refresh=2 if running else None)
