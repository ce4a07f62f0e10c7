"""Live pages: a seat's page hears when the game moves on (another seat decided, a bot, an undo) through
Server-Sent Events, and takes the new page in without a reload.

    GET /t/TID/events?v=VERSION     text/event-stream: `event: moved`, `id: VERSION`, whenever the table's
                                    version is not the one the page shows

A stream is open to the seat's holder (or a hot-seat table's creator) only, and says nothing but the
version (the page then asks for itself again, through the same checks as any page). Each stream holds
one of the server's threads, so at most `max_streams` are open at once (past it the answer tells the
browser to try again later) and each ends after `stream_seconds` (the browser opens it again, saying
the last version it heard: `Last-Event-ID`). A comment line every few seconds lets a closed connection
be noticed. SSE rather than WebSocket: the page only listens, and SSE is plain HTTP that the WSGI server
(waitress) streams as it is written.
"""
from __future__ import annotations

import threading
import time

KEEP_ALIVE = 5.0   # seconds between comment lines on a quiet stream


class Streams:
    """How many event streams are open, at most `most`."""

    def __init__(self, most: int):
        self.slots = threading.BoundedSemaphore(most)
        self.open = 0

    def take(self) -> bool:
        if not self.slots.acquire(blocking=False):
            return False
        self.open += 1
        return True

    def give_back(self) -> None:
        self.open -= 1
        self.slots.release()


def events(table, since: int, seconds: float, streams: Streams, retry_ms: int = 2000):
    """The lines of one stream: the version each time it is not `since`, until `seconds` have passed (a
    stream slot is taken when the first line is asked for, and given back when the stream is closed)."""
    if not streams.take():  # every slot is taken: the browser tries again later
        yield "retry: 15000\n\n"
        return
    try:
        yield f"retry: {retry_ms}\n\n"
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            with table.changed:
                if table.version == since:
                    table.changed.wait(min(left, KEEP_ALIVE))
                version = table.version
            if version != since:
                since = version
                yield f"id: {version}\nevent: moved\ndata: {version}\n\n"
            else:
                yield ": still here\n\n"
    finally:
        streams.give_back()


def register(app, server, holder_or_host) -> None:
    """The events route. `holder_or_host(tid)` is the table if the browser holds a seat at it or is the
    creator of a hot-seat table (a Refusal otherwise)."""
    from flask import Response, request

    from .webinput import BadValue, read_int

    streams = server.streams = Streams(server.config.max_streams)

    @app.get("/t/<tid>/events")
    def table_events(tid):
        table = holder_or_host(tid)
        raw = request.headers.get("Last-Event-ID") or request.args.get("v") or "0"
        try:
            since = read_int(raw, "the version", 0)
        except BadValue:
            since = 0
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return Response(events(table, since, server.config.stream_seconds, streams), mimetype="text/event-stream",
                        headers=headers)
