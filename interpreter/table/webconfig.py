"""What a web table server is started for, and every limit it keeps (the README's limits table).

    config = ServerConfig(host="127.0.0.1", port=8000, db=":memory:")
    config.hostnames()        # the names the Host header may carry

Every cost a request can cause is bounded by a named limit here; going past one is a readable refusal
(400, 409, 413 or 503 with a message), never a hang, a 500 or memory kept for ever.
"""
from __future__ import annotations

from dataclasses import dataclass, field

LOOPBACK = ("127.0.0.1", "localhost", "::1")
# The bots the lobby offers, each with its budget (any bot spec within the caps below is accepted).
LOBBY_BOTS = ("random", "greedy", "mcts:ms=300", "mcts:ms=1000")


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8000
    allowed_hosts: tuple[str, ...] = ()    # names besides the one listened on (a server behind a name)
    db: str = ":memory:"                   # the SQLite file of the tables; ":memory:" keeps nothing
    game_dirs: tuple[str, ...] = ()        # authors' game folders served besides gamedefs/
    # tables
    max_tables: int = 1000                 # tables kept at once (finished ones count until they expire)
    table_idle_hours: float = 72.0         # a game nobody moved in that long is closed
    finished_days: float = 30.0            # a finished game's record stays downloadable that long
    max_seats_per_table: int = 8
    max_variants: int = 4                  # overlays stacked on one table's game
    log_keep: int = 300                    # lines of each seat's log kept
    # games
    max_games_loaded: int = 24             # compiled games (a definition with its variants) kept
    # replays
    max_replays: int = 50
    replay_idle_minutes: float = 60.0
    max_replay_actions: int = 3000
    replay_checkpoint: int = 25            # a replay keeps one state in this many
    # requests
    max_body_bytes: int = 1024 * 1024      # a request's body (a record upload included)
    max_form_field_bytes: int = 64 * 1024  # one form field but the uploaded record
    # bots
    max_bot_ms: float = 2000.0             # the most a bot may think per decision
    max_bot_iterations: int = 2000         # mcts:iterations=N
    max_bot_depth: int = 100               # mcts:depth=D (rollout length)
    max_greedy_depth: int = 3              # greedy:depth=D
    bot_threads: int = 2                   # bots think on these worker threads (0: in the request, tests)
    # background jobs (verify, compare)
    job_workers: int = 1                   # jobs running at once, each in its own process
    max_jobs_waiting: int = 4
    job_seconds: float = 300.0             # a job running longer is stopped
    max_jobs_kept: int = 20                # finished jobs whose result page is kept
    job_keep_minutes: float = 60.0
    verify_max_games: int = 20
    compare_max_games: int = 200
    # live updates and the HTTP server
    max_streams: int = 24                  # event streams open at once (each holds a server thread)
    stream_seconds: float = 25.0           # a stream ends after that long (the browser opens it again)
    threads: int = 32                      # the WSGI server's worker threads
    channel_timeout: int = 30              # seconds an idle or slow connection is kept
    connection_limit: int = 200
    max_header_bytes: int = 16 * 1024
    extra: dict = field(default_factory=dict)

    def hostnames(self) -> set[str]:
        """The host names a request may be addressed to (the Host header, without its port): the one
        listened on (with the loopback names when it is a loopback address) and `allowed_hosts`."""
        names = {h.lower().strip("[]") for h in self.allowed_hosts}
        host = self.host.lower().strip("[]")
        if host in LOOPBACK or host in ("0.0.0.0", "::"):
            names.update(LOOPBACK)
        if host not in ("0.0.0.0", "::"):
            names.add(host)
        return names


# The rows of the README's limits table: (what, the field of ServerConfig, how it is said).
LIMITS = (
    ("tables at once", "max_tables", "{}"),
    ("an unfinished table nobody moved in", "table_idle_hours", "{} hours, then closed"),
    ("a finished game's record", "finished_days", "kept {} days"),
    ("seats at a table", "max_seats_per_table", "{}"),
    ("variants stacked on a table's game", "max_variants", "{}"),
    ("lines of a seat's log", "log_keep", "{}"),
    ("compiled games kept (a definition with its variants)", "max_games_loaded", "{}"),
    ("uploaded replays kept", "max_replays", "{}"),
    ("a replay nobody looked at", "replay_idle_minutes", "{} minutes, then dropped"),
    ("actions of an uploaded record", "max_replay_actions", "{}"),
    ("a request's body", "max_body_bytes", "{} bytes"),
    ("a form field (but the record upload)", "max_form_field_bytes", "{} bytes"),
    ("a bot's thinking per decision", "max_bot_ms", "{} ms (mcts:ms)"),
    ("mcts iterations per decision", "max_bot_iterations", "{}"),
    ("mcts rollout depth", "max_bot_depth", "{}"),
    ("greedy look-ahead depth", "max_greedy_depth", "{}"),
    ("threads bots think on", "bot_threads", "{}"),
    ("verify/compare jobs running at once", "job_workers", "{} (each in its own process)"),
    ("verify/compare jobs waiting", "max_jobs_waiting", "{}"),
    ("a verify/compare job", "job_seconds", "{} s, then stopped"),
    ("finished jobs whose result is kept", "max_jobs_kept", "{}"),
    ("a finished job's result", "job_keep_minutes", "kept {} minutes"),
    ("games of a verify job", "verify_max_games", "{}"),
    ("games of a compare job", "compare_max_games", "{}"),
    ("live event streams open at once", "max_streams", "{}"),
    ("one event stream", "stream_seconds", "{} s (the browser opens it again)"),
    ("the HTTP server's threads", "threads", "{}"),
    ("an idle or slow connection", "channel_timeout", "{} s"),
    ("connections at once", "connection_limit", "{}"),
    ("a request's headers", "max_header_bytes", "{} bytes"),
)
