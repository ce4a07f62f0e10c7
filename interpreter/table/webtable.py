"""`meeple serve`: the web table as a game server (Flask for the routes, waitress to serve them; no
JavaScript to build).

    app = create_app(ServerConfig(db=":memory:"))     # the WSGI app
    serve(ServerConfig(host="127.0.0.1", port=8000))  # run it until interrupted

Pages: the lobby (game, players, seed, language, variants, options, who sits where, hot seat, listed or
not; the tables made public); a table's page for its creator (each seat's invite link, the creator's own
link); the seat page (its picture, its menu as buttons, its narration, undo), only for the browser that
holds the seat; in hot-seat mode one page for the creator, with a "pass to Player N" screen between
people; the record of a finished game; a replay viewer stepping through an uploaded record from any
seat's view; `verify` and `compare` pages. A seat's page and its JSON are made from
`tables.Table.page(seat)` only, so nothing another seat's view hides reaches that browser.

The modules of the server, one concept each: `webconfig` (what it is started for, its limits),
`websecurity` (tokens, cookies, CSRF, Origin and Host checks, headers), `webinput` (every request value
read with the CLI's hardened readers), `webgames` (the served games by name, compiled once),
`tables` (a game at a table), `webstore` (the tables held, capped and expiring), `webdb` (the SQLite
database they are kept in across restarts), `webjobs` (bots on
worker threads, verify and compare as background jobs), `webroutes` (the lobby, tables and seats),
`weblive` (pages that follow the game: Server-Sent Events), `webreports` (replays, verify and compare),
`webpages` (the HTML, CSS and script).
"""
from __future__ import annotations

import sys
import traceback

from . import svg as svg_module
from . import webpages
from .webconfig import LOBBY_BOTS, ServerConfig
from .webdb import Database, NotResumed, restore  # noqa: F401  (LOBBY_BOTS: read by tests)
from .webgames import Catalog, UnknownGame
from .webinput import BadValue
from .webjobs import BotPool, Jobs
from .webstore import TableStore
from .websecurity import Guard, Refusal, install, new_token
from .words import WORDS, say


class _Svg:
    track = staticmethod(svg_module.track_svg)
    zone = staticmethod(svg_module.zone_svg)


def words(lang: str) -> dict:
    return {k: say(k, lang) if "{" not in v["en"] else v.get(lang, v["en"]) for k, v in WORDS.items()}


class Server:
    """What the routes share: the configuration, the served games, the tables, the key and the pages."""

    def __init__(self, config: ServerConfig, catalog: Catalog | None = None, tables: dict | None = None):
        self.config = config
        self.catalog = catalog or Catalog(config.game_dirs, max_loaded=config.max_games_loaded)
        self.db = Database(config.db) if config.db != ":memory:" else None
        self.tables = TableStore(config, self.db)
        self.bots = BotPool(config.bot_threads, saved=self.tables.save)
        self.resumed, self.not_resumed = self._resume()
        for t in (tables or {}).values():
            self.tables.add(t)
        self.jobs = Jobs(config.job_workers, config.max_jobs_waiting, config.job_seconds, config.max_jobs_kept,
                         config.job_keep_minutes * 60)
        self.key = self.db.key() if self.db is not None else new_token(32).encode()
        self.guard = Guard(self.key, config.hostnames())
        self.env = webpages.environment()
        self.base = self.env.from_string(webpages.BASE)
        self._templates: dict[str, object] = {}

    def _resume(self) -> tuple[int, list[str]]:
        """Every table of the database played on where it was; how many, and why the others were not."""
        if self.db is None:
            return 0, []
        done, problems = 0, []
        for data in self.db.rows():
            try:
                t = restore(self.catalog, data, self.config)
            except NotResumed as exc:
                problems.append(f"table {data.get('id')}: {exc}")
                continue
            self.tables.tables[t.id] = t
            done += 1
            self.bots.kick(t)     # a bot that was thinking when the server stopped thinks again
        return done, problems

    def render(self, template: str, lang: str = "en", **values) -> str:
        from flask import g

        t = self._templates.get(template)
        if t is None:  # each page's template is compiled once
            t = self._templates[template] = self.env.from_string(template)
        values.setdefault("data", {})
        values.setdefault("refresh", None)
        return t.render(base=self.base, w=words(lang), lang=lang, svg=_Svg, csrf=getattr(g, "csrf", ""), **values)

    def error(self, status: int, message: str, lang: str = "en", back: str | None = None):
        page = self.render(webpages.ERROR, lang, title=say("error", lang), heading=say("error", lang),
                           message=message, back=back, back_label=say("lobby", lang))
        return page, status


def create_app(config: ServerConfig | None = None, tables: dict | None = None, catalog: Catalog | None = None):
    from flask import Flask, Response
    from werkzeug.exceptions import HTTPException

    from . import webreports, webroutes

    config = config or ServerConfig()
    server = Server(config, catalog, tables)
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=config.max_body_bytes, MAX_FORM_MEMORY_SIZE=config.max_form_field_bytes,
                      MAX_FORM_PARTS=200, TABLES=server.tables)
    app.extensions["meeple"] = server
    install(app, server.guard)

    @app.get("/static/meeple.css")
    def style():
        return Response(webpages.STYLE, mimetype="text/css", headers={"Cache-Control": "max-age=3600"})

    @app.get("/static/meeple.js")
    def script():
        return Response(webpages.SCRIPT, mimetype="text/javascript", headers={"Cache-Control": "max-age=3600"})

    @app.errorhandler(Refusal)
    def refused(exc):
        return server.error(exc.status, exc.message)

    @app.errorhandler(BadValue)
    @app.errorhandler(UnknownGame)
    def bad_value(exc):
        return server.error(400, str(exc))

    @app.errorhandler(HTTPException)
    def http_error(exc):
        return server.error(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(Exception)
    def failed(exc):  # never a traceback to the browser; the console keeps it
        traceback.print_exception(exc, file=sys.stderr)
        return server.error(500, "Something went wrong on the server; the game is as it was.")

    webroutes.register(app, server)
    webreports.register(app, server)
    return app


def serve(config: ServerConfig, out=print, err=print) -> None:
    """Run the web table on waitress (a production WSGI server: requests are read whole by its event loop
    before a worker thread sees them, so a slow client holds no thread; idle connections time out) until
    interrupted."""
    from waitress import serve as run

    app = create_app(config)
    server = app.extensions["meeple"]
    where = "kept in memory only" if server.db is None else f"kept in {config.db}"
    out(f"meeple web table on http://{config.host}:{config.port}/ (Ctrl-C stops it); tables {where}; "
        f"{server.resumed} resumed; games: {', '.join(server.catalog.playable())}")
    for problem in server.not_resumed:
        err(f"meeple serve: not resumed: {problem}")
    for name, problem in server.catalog.problems.items():
        err(f"meeple serve: not served: {name}: {problem}")
    run(app, **waitress_options(config))


def waitress_options(config: ServerConfig) -> dict:
    return {"host": config.host, "port": config.port, "threads": config.threads,
            "channel_timeout": config.channel_timeout, "connection_limit": config.connection_limit,
            "max_request_body_size": config.max_body_bytes + 64 * 1024,
            "max_request_header_size": config.max_header_bytes,
            "cleanup_interval": max(1, min(10, config.channel_timeout // 2)),
            "expose_tracebacks": False, "ident": "meeple", "clear_untrusted_proxy_headers": True}
