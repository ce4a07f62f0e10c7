"""The web table's routes for games: the lobby, a new table, a table's page, invites, seats, hot seat and
the record. Who may do what:

- **the creator** (the browser that made the table, or that opened its creator link) sees the table's
  page with every seat's invite link, makes new invites, and alone plays a hot-seat table;
- **a seat's holder** (the browser that claimed the seat through its invite, or took a free seat of a
  public table) sees that seat's page and acts for that seat only;
- **anyone else** sees a table's title, and the free seats of a public table; the lobby lists only the
  tables their creator made public, with no secret in them.

Every value read from a request goes through `webinput`; every refusal is a page with a message.
"""
from __future__ import annotations

from . import webpages
from .tables import Refused, Table
from .webconfig import LOBBY_BOTS
from .webinput import BadValue, read_bot, read_int, read_lang, read_options, read_players, read_seed
from .websecurity import Refusal, derived, same, set_cookie
from .webstore import Full
from .words import person, say


def creator_cookie(tid: str) -> str:
    return "h_" + tid


def seat_cookie(tid: str) -> str:
    return "s_" + tid


def register(app, server) -> None:
    from flask import jsonify, redirect, request

    config, catalog = server.config, server.catalog

    # ------------------------------------------------------------------ who is asking
    def table(tid: str) -> Table:
        t = server.tables.get(tid)
        if t is None:
            raise Refusal(404, "No such table (it may have expired).")
        return t

    def creator_token(t: Table) -> str:
        return derived(server.key, "creator", t.id)

    def invite_token(t: Table, seat: int) -> str:
        return derived(server.key, "invite", t.id, seat, t.invites[seat])

    def is_creator(t: Table) -> bool:
        return same(request.cookies.get(creator_cookie(t.id)), creator_token(t))

    def my_seat(t: Table) -> int | None:
        return t.seat_of(request.cookies.get(seat_cookie(t.id)))

    def holder(tid: str) -> tuple[Table, int]:
        t = table(tid)
        seat = my_seat(t)
        if seat is None:
            raise Refusal(403, "You do not hold a seat at this table.")
        return t, seat

    def creator_of_hot(tid: str) -> Table:
        t = table(tid)
        if not t.hot_seat:
            raise Refusal(404, "This table is not a hot-seat table.")
        if not is_creator(t):
            raise Refusal(403, "Only the creator of a hot-seat table plays at it.")
        return t

    # ------------------------------------------------------------------ lobby
    @app.get("/")
    def lobby():
        lang = read_lang(request.args.get("lang"), catalog.languages())
        server.tables.expire()
        infos = catalog.infos()
        games = catalog.game_list(lang)
        game = request.args.get("game") or (games[0]["id"] if games else "")
        if game not in infos:
            game = games[0]["id"] if games else ""
        info = infos.get(game) or {"players": [2], "options": {}, "variants": []}
        listed = [{"id": t.id, "title": t.title, "players": len(t.kinds), "free": len(t.free_seats())}
                  for t in server.tables.public()]
        return server.render(webpages.LOBBY, lang, title=say("lobby", lang), games=games, game=game,
                             players=info["players"][0], variants=info["variants"], options=info["options"],
                             langs=catalog.languages(),
                             max_players=min(config.max_seats_per_table,
                                             max((max(g["players"]) for g in games), default=4)),
                             kinds=["human", *LOBBY_BOTS], tables=listed)

    @app.post("/new")
    def new():
        f = request.form
        lang = read_lang(f.get("lang"), catalog.languages())
        variants = f.getlist("variant")
        if len(variants) > config.max_variants:
            raise BadValue(f"at most {config.max_variants} variants at a table")
        name, variants = catalog.check(f.get("game"), variants)
        game = catalog.game(name, variants)
        players = read_players(f.get("players"), list(game.player_counts))
        if players > config.max_seats_per_table:
            raise BadValue(f"at most {config.max_seats_per_table} seats at a table here")
        seed = read_seed(f.get("seed"))
        kinds = []
        for s in range(players):
            kind = f.get(f"seat{s + 1}") or "random"
            kinds.append("human" if kind == "human" else read_bot(kind, config))
        options = read_options(game, {k[4:]: v for k, v in f.items() if k.startswith("opt.")})
        from ..engine.errors import GameSetupError

        try:
            t = Table(game, name, players, seed, kinds, options, list(variants), lang, hot_seat=bool(f.get("hot")),
                      title=game.name.get(lang) or name, public=bool(f.get("public")) and not f.get("hot"),
                      log_keep=config.log_keep, bot_ceiling_ms=config.max_bot_ms, bots_now=False)
        except (GameSetupError, ValueError) as exc:
            raise BadValue(f"this game cannot start so: {exc}") from None
        try:
            server.tables.add(t)
        except Full:
            raise Refusal(503, f"This server holds its most tables ({config.max_tables}); try again later.") from None
        server.bots.kick(t)
        target = f"/t/{t.id}/hot" if t.hot_seat else f"/t/{t.id}"
        response = redirect(target, 303)
        set_cookie(response, creator_cookie(t.id), creator_token(t), f"/t/{t.id}")
        if f.get("sit") and t.humans and not t.hot_seat:
            set_cookie(response, seat_cookie(t.id), t.claim(t.humans[0]), f"/t/{t.id}")
            if len(t.humans) == 1:
                response.headers["Location"] = f"/t/{t.id}/play"
        return response

    # ------------------------------------------------------------------ a table's page, invites
    @app.get("/t/<tid>")
    def table_page(tid):
        t = table(tid)
        seat = my_seat(t)
        if is_creator(t):
            if t.hot_seat:
                return redirect(f"/t/{tid}/hot", 303)
            seats = []
            for s, kind in enumerate(t.kinds):
                human = kind == "human"
                free = human and t.sessions[s] is None
                seats.append({"seat": s, "name": person(s, t.lang), "human": human, "mine": s == seat,
                              "kind": (say("free", t.lang) if free else say("taken", t.lang)) if human else kind,
                              "invite": f"/t/{tid}/join/{invite_token(t, s)}" if free else None})
            return server.render(webpages.CREATOR, t.lang, title=t.title, tid=tid, seats=seats, seed=t.seed,
                                 public=t.public, my_seat=seat, over=t.over, host_url=request.host_url.rstrip("/"),
                                 creator_link=f"/t/{tid}/host/{creator_token(t)}")
        if seat is not None:
            return redirect(f"/t/{tid}/play", 303)
        free = [{"seat": s, "name": person(s, t.lang)} for s in t.free_seats()] if t.public and not t.over else []
        return server.render(webpages.VISITOR, t.lang, title=t.title, tid=tid, free=free,
                             record_url=f"/t/{tid}/record" if t.over and t.public else None)

    @app.get("/t/<tid>/host/<token>")
    def creator_link(tid, token):
        t = table(tid)
        if not same(token, creator_token(t)):
            raise Refusal(404, "This creator link is not right.")
        response = redirect(f"/t/{tid}", 303)
        set_cookie(response, creator_cookie(tid), creator_token(t), f"/t/{tid}")
        return response

    def invited_seat(t: Table, token: str) -> int:
        for s in t.humans:
            if same(token, invite_token(t, s)):
                return s
        raise Refusal(404, "This invite has been used, or replaced by a newer one: ask the table's creator.")

    @app.get("/t/<tid>/join/<token>")
    def join_page(tid, token):
        t = table(tid)
        s = invited_seat(t, token)
        return server.render(webpages.JOIN, t.lang, title=t.title, url=f"/t/{tid}/join/{token}",
                             take=say("take_seat", t.lang, who=person(s, t.lang)))

    @app.post("/t/<tid>/join/<token>")
    def join(tid, token):
        t = table(tid)
        with t.lock:
            s = invited_seat(t, token)
            session = t.claim(s)
        server.tables.save(t)
        response = redirect(f"/t/{tid}/play", 303)
        set_cookie(response, seat_cookie(tid), session, f"/t/{tid}")
        return response

    @app.post("/t/<tid>/sit")
    def sit(tid):
        t = table(tid)
        if not t.public or t.over:
            raise Refusal(403, "Seats at this table are taken by invite only.")
        s = read_int(request.form.get("seat"), "the seat", 0, len(t.kinds) - 1)
        with t.lock:
            if s not in t.free_seats():
                raise Refusal(409, "That seat is no longer free.")
            session = t.claim(s)
        server.tables.save(t)
        response = redirect(f"/t/{tid}/play", 303)
        set_cookie(response, seat_cookie(tid), session, f"/t/{tid}")
        return response

    @app.post("/t/<tid>/reinvite")
    def reinvite(tid):
        t = table(tid)
        if not is_creator(t):
            raise Refusal(403, "Only the table's creator makes invites.")
        s = read_int(request.form.get("seat"), "the seat", 0, len(t.kinds) - 1)
        with t.lock:
            if s not in t.sessions:
                raise BadValue("that seat is a bot's")
            t.sessions[s] = None  # its holder is let go: the new invite's taker holds it
            t.invites[s] += 1
        server.tables.save(t)
        return redirect(f"/t/{tid}", 303)

    # ------------------------------------------------------------------ a seat's page and actions
    def seat_page(t: Table, seat: int, act_url: str, undo_url: str, poll_url: str | None = None):
        with t.lock:
            page = t.page(seat)
            who = t.to_move()
        lang = t.lang
        ended = say("ended_by", lang, why=", ".join(page["model"].get("outcome", {}).get("ends", [])))
        data = {"version": page["version"], "events": f"/t/{t.id}/events"}
        if poll_url:
            data["poll"] = poll_url
        return server.render(webpages.SEAT, lang, page=page, title=page["model"]["title"], act_url=act_url,
                             undo_url=undo_url, ended=ended, data=data, seed=t.seed if page["over"] else None,
                             waiting=say("waiting", lang, who=person(who, lang)) if who is not None else "",
                             record_url=f"/t/{t.id}/record" if page["over"] else None)

    @app.get("/t/<tid>/play")
    def play(tid):
        t = table(tid)
        seat = my_seat(t)
        if seat is None:
            return redirect(f"/t/{tid}", 303)
        return seat_page(t, seat, f"/t/{tid}/act", f"/t/{tid}/undo", f"/t/{tid}/play.json")

    @app.get("/t/<tid>/play.json")
    def play_json(tid):
        t, seat = holder(tid)
        with t.lock:
            return jsonify(t.page(seat))

    def number() -> int:
        return read_int(request.form.get("number"), "a choice", 0)

    def version() -> int:
        return read_int(request.form.get("version"), "the position's version", 0)

    def answer(t: Table, what, back: str):
        """Do `what` (an act or an undo) for the table; the page again, or a refusal that says why."""
        try:
            what()
        except Refused as exc:
            return server.error(409 if exc.conflict else 400, exc.message, t.lang, back)
        server.tables.save(t)
        server.bots.kick(t)
        return redirect(back, 303)

    @app.post("/t/<tid>/act")
    def act(tid):
        t, seat = holder(tid)
        n, v = number(), version()
        return answer(t, lambda: t.act(seat, n, v), f"/t/{tid}/play")

    @app.post("/t/<tid>/undo")
    def undo(tid):
        t, seat = holder(tid)
        v = version()
        return answer(t, lambda: t.undo(seat, v), f"/t/{tid}/play")

    # ------------------------------------------------------------------ hot seat (its creator only)
    @app.get("/t/<tid>/hot")
    def hot(tid):
        t = creator_of_hot(tid)
        with t.lock:
            seat_now, shown, over = t.next_human(), t.shown, t.over
        if over:
            return seat_page(t, shown if shown is not None else t.humans[0], "", "")
        if seat_now is None:   # a bot is thinking: the page waits for it
            return seat_page(t, shown if shown is not None else t.humans[0], "", "")
        if seat_now != shown:
            return server.render(webpages.PASS, t.lang, title=t.title,
                                 message=say("pass_to", t.lang, who=person(seat_now, t.lang)),
                                 ready=say("ready", t.lang, who=person(seat_now, t.lang)), url=f"/t/{tid}/hot/show")
        return seat_page(t, seat_now, f"/t/{tid}/hot/act", f"/t/{tid}/hot/undo")

    @app.post("/t/<tid>/hot/show")
    def hot_show(tid):
        t = creator_of_hot(tid)
        with t.lock:
            t.shown = t.next_human()
        return redirect(f"/t/{tid}/hot", 303)

    @app.post("/t/<tid>/hot/act")
    def hot_act(tid):
        t = creator_of_hot(tid)
        n, v = number(), version()

        def act_shown():
            s = t.next_human()
            if s is None or s != t.shown:
                raise Refused(say("moved_on", t.lang, n=0), conflict=True)
            t.act(s, n, v)
        return answer(t, act_shown, f"/t/{tid}/hot")

    @app.post("/t/<tid>/hot/undo")
    def hot_undo(tid):
        t = creator_of_hot(tid)
        v = version()

        def undo_shown():
            if t.shown is None:
                raise Refused(say("nothing_to_undo", t.lang))
            t.undo(t.shown, v)
            t.shown = t.next_human()
        return answer(t, undo_shown, f"/t/{tid}/hot")

    # ------------------------------------------------------------------ the record
    @app.get("/t/<tid>/record")
    def record(tid):
        from flask import Response

        from .record import dump

        t = table(tid)
        if not (t.public or is_creator(t) or my_seat(t) is not None):
            raise Refusal(403, "The record is for the table's people.")
        if not t.over:  # the seed and every action: it would tell what the seats hide
            raise Refusal(403, "The record is available once the game is over.")
        with t.lock:
            text = dump(t.record)
        return Response(text, mimetype="text/yaml",
                        headers={"Content-Disposition": f"attachment; filename={t.game.id}-{tid}.yaml"})

    server.invite_token, server.creator_token = invite_token, creator_token

    def holder_or_host(tid: str) -> Table:
        t = table(tid)
        if my_seat(t) is None and not (t.hot_seat and is_creator(t)):
            raise Refusal(403, "You do not hold a seat at this table.")
        return t

    from . import weblive
    weblive.register(app, server, holder_or_host)
