"""`meeple serve`: the local web table (Flask; no JavaScript to build).

    app = create_app()              # a Flask app; app.run(host="127.0.0.1", port=8000)

Pages: the lobby (game, players, seed, language, variants, options, who sits where, hot seat); a table's
index with one link per human seat, each a secret address meant for that person's own browser tab; the
seat page (its picture, its menu as buttons, its narration, undo); in hot-seat mode one address for
every person, with a "pass to Player N" screen between people; the record of a finished game; a replay
viewer stepping through a record backwards and forwards, from any seat's view; a `verify` report and a
`compare` plot. A seat's page and its JSON are made from `tables.Table.page(seat)` only, so nothing
another seat's view hides reaches that browser. Tables live in memory while the server runs.
"""
from __future__ import annotations

import base64
import tempfile
from pathlib import Path

from . import svg as svg_module
from . import webpages
from .record import RecordError, check_record, dump
from .tables import Table
from .words import WORDS, person, say


class _Svg:
    track = staticmethod(svg_module.track_svg)
    zone = staticmethod(svg_module.zone_svg)


def words(lang: str) -> dict:
    return {k: say(k, lang) if "{" not in v["en"] else v.get(lang, v["en"]) for k, v in WORDS.items()}


_GAMES: dict = {}


def game_list(lang: str = "en") -> list[dict]:
    """The games under gamedefs/ that load, with their names and player counts (loaded once)."""
    if lang not in _GAMES:
        _GAMES[lang] = _game_list(lang)
    return _GAMES[lang]


def _game_list(lang: str) -> list[dict]:
    from ..game import load_game
    from ..definition.resources import data_dir

    root = Path(data_dir("gamedefs"))
    out = []
    for gid in sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        try:
            g = load_game(gid)
            out.append({"id": gid, "name": g.name.get(lang, gid), "players": list(g.player_counts)})
        except Exception:  # a broken definition is left out of the lobby (`meeple validate` tells why)
            continue
    return out


def variants_of(game_ref: str) -> list[str]:
    from ..game import find_game

    try:
        folder = Path(find_game(game_ref)) / "variants"
    except Exception:
        return []
    return sorted(str(p.resolve()) for p in folder.glob("*.yaml")) if folder.is_dir() else []


def parse_options(text: str) -> dict | None:
    """`NAME=VALUE, NAME=VALUE` (VALUE read as YAML); the game checks names and values when it starts."""
    import yaml

    options = {}
    for pair in (p.strip() for p in text.split(",")):
        name, sep, raw = pair.partition("=")
        if not pair or not sep:
            continue
        try:
            options[name.strip()] = yaml.safe_load(raw)
        except yaml.YAMLError:
            options[name.strip()] = raw.strip()
    return options or None


# The bots the lobby offers, each with its budget (any bot spec is accepted: `mcts:iterations=400`).
LOBBY_BOTS = ("random", "greedy", "mcts:ms=300", "mcts:ms=1000")


def create_app(tables: dict | None = None):
    from flask import Flask, Response, abort, jsonify, redirect, request

    from ..players.bots import BotSpecError, parse_bot_spec
    from ..game import load_game

    app = Flask(__name__)
    app.config["TABLES"] = tables if tables is not None else {}
    store: dict = app.config["TABLES"]
    replays: dict = {}
    base = app.jinja_env.from_string(webpages.BASE)
    compiled: dict[str, object] = {}

    def render(template: str, lang: str = "en", **values):
        if template not in compiled:  # each page's template is compiled once
            compiled[template] = app.jinja_env.from_string(template)
        return compiled[template].render(base=base, w=words(lang), lang=lang, svg=_Svg, **values)

    def table(tid: str) -> Table:
        t = store.get(tid)
        if t is None:
            abort(404)
        return t

    def table_and_seat(tid: str, token: str) -> tuple[Table, int]:
        """The table and the seat a seat's secret link names (404 for a wrong one)."""
        t = table(tid)
        s = t.seat_of(token)
        if s is None:
            abort(404)
        return t, s

    def seat_page(t: Table, seat: int, act_url: str, undo_url: str, poll_url: str | None):
        page = t.page(seat)
        lang = t.lang
        ended = say("ended_by", lang, why=", ".join(page["model"].get("outcome", {}).get("ends", [])))
        who = t.to_move()
        return render(webpages.SEAT, lang, page=page, title=page["model"]["title"], act_url=act_url,
                      undo_url=undo_url, poll_url=poll_url, ended=ended,
                      waiting=say("waiting", lang, who=person(who, lang)) if who is not None else "",
                      record_url=f"/t/{t.id}/record" if page["over"] else None)

    @app.get("/")
    def lobby():
        lang = request.args.get("lang", "en")
        games = game_list(lang)
        game = request.args.get("game") or (games[0]["id"] if games else "")
        counts = next((g["players"] for g in games if g["id"] == game), [2])
        return render(webpages.LOBBY, lang, title=say("lobby", lang), games=games, game=game,
                      players=counts[0], seed=1, variants=variants_of(game) if game else [],
                      variant_names={v: Path(v).stem for v in (variants_of(game) if game else [])},
                      max_players=max(max(g["players"]) for g in games) if games else 4,
                      kinds=["human", *LOBBY_BOTS], tables=[{"id": k, "title": v.title} for k, v in store.items()])

    @app.post("/new")
    def new():
        f = request.form
        lang = f.get("lang", "en") if f.get("lang") in ("en", "zh") else "en"
        ref = f.get("game", "")
        if ref not in {g["id"] for g in game_list()}:
            abort(400, "no such game")
        variants = [str(Path(v).resolve()) for v in f.getlist("variant") if str(Path(v).resolve()) in variants_of(ref)]
        game = load_game(ref, variant=variants or None)
        try:
            players = int(f.get("players", "0"))
            seed = int(f.get("seed") or 1)
        except ValueError:
            abort(400, "players and seed are numbers")
        if players not in game.player_counts:
            abort(400, f"this game takes {', '.join(map(str, game.player_counts))} players")
        kinds = [f.get(f"seat{s + 1}", "random") for s in range(players)]
        for k in kinds:
            if k != "human":
                try:
                    parse_bot_spec(k)
                except BotSpecError as exc:
                    abort(400, f"a seat is a person or a bot spec: {exc}")
        options = parse_options(f.get("options", ""))
        name = game.name.get(lang, game.id)
        try:
            t = Table(game, ref, players, seed, kinds, options, variants, lang, hot_seat=bool(f.get("hot")),
                      title=name)
        except ValueError as exc:
            abort(400, str(exc))
        store[t.id] = t
        return redirect(f"/t/{t.id}/hot" if t.hot_seat else f"/t/{t.id}")

    @app.get("/t/<tid>")
    def table_index(tid):
        t = table(tid)
        if t.hot_seat:
            return redirect(f"/t/{tid}/hot")
        seats = [(person(s, t.lang), f"/t/{tid}/s/{tok}") for tok, s in sorted(t.tokens.items(), key=lambda x: x[1])]
        return render(webpages.TABLE_INDEX, t.lang, title=t.title, seats=seats, tid=tid, over=t.over)

    @app.get("/t/<tid>/s/<token>")
    def seat(tid, token):
        t, s = table_and_seat(tid, token)
        base_url = f"/t/{tid}/s/{token}"
        return seat_page(t, s, base_url + "/act", base_url + "/undo", base_url + "/json")

    @app.get("/t/<tid>/s/<token>/json")
    def seat_json(tid, token):
        t, s = table_and_seat(tid, token)
        return jsonify(t.page(s))

    def number():
        try:
            return int(request.form.get("number", ""))
        except ValueError:
            abort(400, "a choice is a number")

    @app.post("/t/<tid>/s/<token>/act")
    def seat_act(tid, token):
        t, s = table_and_seat(tid, token)
        t.act(s, number())
        return redirect(f"/t/{tid}/s/{token}")

    @app.post("/t/<tid>/s/<token>/undo")
    def seat_undo(tid, token):
        t, s = table_and_seat(tid, token)
        t.undo(s)
        return redirect(f"/t/{tid}/s/{token}")

    # ------------------------------------------------------------------ hot seat
    @app.get("/t/<tid>/hot")
    def hot(tid):
        t = table(tid)
        seat_now = t.next_human()
        shown = getattr(t, "shown", None)
        if t.over:
            s = shown if shown is not None else min(t.tokens.values())
            return seat_page(t, s, "", "", None)
        if seat_now is None:
            abort(409)
        if seat_now != shown:
            return render(webpages.PASS, t.lang, title=t.title,
                          message=say("pass_to", t.lang, who=person(seat_now, t.lang)),
                          ready=say("ready", t.lang, who=person(seat_now, t.lang)), url=f"/t/{tid}/hot/show")
        return seat_page(t, seat_now, f"/t/{tid}/hot/act", f"/t/{tid}/hot/undo", None)

    @app.get("/t/<tid>/hot/show")
    def hot_show(tid):
        t = table(tid)
        t.shown = t.next_human()
        return redirect(f"/t/{tid}/hot")

    @app.post("/t/<tid>/hot/act")
    def hot_act(tid):
        t = table(tid)
        s = t.next_human()
        if s is not None and s == getattr(t, "shown", None):
            t.act(s, number())
        return redirect(f"/t/{tid}/hot")

    @app.post("/t/<tid>/hot/undo")
    def hot_undo(tid):
        t = table(tid)
        s = getattr(t, "shown", None)
        if s is not None:
            t.undo(s)
            t.shown = t.next_human()
        return redirect(f"/t/{tid}/hot")

    @app.get("/t/<tid>/record")
    def record(tid):
        t = table(tid)
        if not t.over:  # the seed and every action: it would tell what the seats hide
            abort(403, "the record is available once the game is over")
        return Response(dump(t.record), mimetype="text/yaml",
                        headers={"Content-Disposition": f"attachment; filename={t.game.id}-{tid}.yaml"})

    # ------------------------------------------------------------------ replay
    @app.route("/replay", methods=["GET", "POST"])
    def replay_form():
        if request.method == "GET":
            return render(webpages.REPLAY_FORM, "en", title=say("replay", "en"), error=None)
        upload = request.files.get("file")
        content = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("text", "")
        from ..definition.loader import load_yaml_text
        from ..definition.problems import DefinitionError

        try:
            doc = load_yaml_text(content, "record.yaml")
            rec = check_record(doc.data, "record.yaml", doc)
            game = load_game(rec["path"] if rec["path"] in {g["id"] for g in game_list()} else rec["game"],
                             variant=[v for v in rec["variants"]] or None)
            from ..engine.playout import new_game

            states = [new_game(game, rec["players"], rec["seed"], rec["options"])]
            for a in rec["actions"]:
                states.append(game.apply(states[-1], a["id"]))
        except (DefinitionError, RecordError) as exc:
            message = "\n".join(str(p) for p in getattr(exc, "problems", [])) or str(exc)
            return render(webpages.REPLAY_FORM, "en", title=say("replay", "en"), error=message), 400
        except Exception as exc:  # an action that is not legal, a game that cannot be loaded
            return render(webpages.REPLAY_FORM, "en", title=say("replay", "en"),
                          error=f"{type(exc).__name__}: {exc}"), 400
        rid = str(len(replays) + 1)
        replays[rid] = (game, rec, states)
        return redirect(f"/replay/{rid}?step=0&seat=1")

    @app.get("/replay/<rid>")
    def replay(rid):
        from .narration import narrate
        from .presentation import present

        if rid not in replays:
            abort(404)
        game, rec, states = replays[rid]
        lang = request.args.get("lang", "en")
        total = len(states) - 1
        step = max(0, min(total, int(request.args.get("step", 0) or 0)))
        seat = max(1, min(rec["players"], int(request.args.get("seat", 1) or 1))) - 1

        def model(i):
            st = states[i]
            return present(game, game.view(st, seat), lang,
                           outcome=game.outcome(st) if game.is_over(st) else None)
        m = model(step)
        last = told = None
        if step > 0:
            a = rec["actions"][step - 1]
            who = f"{person(a['seat'] - 1, lang)}: " if a.get("seat") else ""
            last = who + (a.get("label") or a["id"])
            told = narrate(model(step - 1), m, "full")
        return render(webpages.REPLAY, lang, title=m["title"], model=m, step=step, total=total, seat=seat + 1,
                      players=rec["players"], seat_names=[person(s, lang) for s in range(rec["players"])],
                      last=last, told=told or [])

    # ------------------------------------------------------------------ verify and compare
    @app.get("/verify")
    def verify_page():
        from ..analysis.verify import report_text, verify

        games = game_list()
        game = request.args.get("game") or (games[0]["id"] if games else "")
        n = max(0, min(50, int(request.args.get("games", 3) or 0)))
        report = None
        if request.args.get("run") and game in {g["id"] for g in games}:
            report = report_text(verify(game, games=n))
        return render(webpages.REPORT, "en", title=say("verify", "en"), heading=say("verify", "en"),
                      games=games, game=game, report=report, image=None,
                      fields=[{"name": "games", "label": say("games_n", "en"), "value": n}])

    @app.get("/compare")
    def compare_page():
        from ..analysis.compare import compare, compare_text, plot

        games = game_list()
        game = request.args.get("game") or (games[0]["id"] if games else "")
        variant = request.args.get("variant") or ""
        players = int(request.args.get("players", 0) or 0)
        n = max(1, min(200, int(request.args.get("games", 20) or 20)))
        report = image = None
        choices = variants_of(game)
        if variant:
            variant = str(Path(variant).resolve())
        if request.args.get("run") and game in {g["id"] for g in games} and variant in choices:
            base_game, var_game = load_game(game), load_game(game, variant=[variant])
            players = players if players in var_game.player_counts else var_game.player_counts[0]
            result = compare(base_game, var_game, players, n)
            report = compare_text(result, base_game.name.get("en"), Path(variant).stem)
            try:
                with tempfile.TemporaryDirectory() as folder:
                    target = Path(folder) / "compare.png"
                    plot(result, target, base_label=base_game.name.get("en"), variant_label=Path(variant).stem)
                    image = base64.b64encode(target.read_bytes()).decode()
            except ImportError:
                report += "\n(matplotlib is not installed: no plot)"
        return render(webpages.REPORT, "en", title=say("compare", "en"), heading=say("compare", "en"),
                      games=games, game=game, report=report, image=image,
                      fields=[{"name": "variant", "label": say("variants", "en"), "value": variant or
                               (choices[0] if choices else ""), "size": 50},
                              {"name": "players", "label": say("players", "en"), "value": players or ""},
                              {"name": "games", "label": say("games_n", "en"), "value": n}])

    return app


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the web table until interrupted."""
    create_app().run(host=host, port=port, debug=False, use_reloader=False)
