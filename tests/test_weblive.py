"""Live pages: a seat's page hears through Server-Sent Events when the game moved on (another seat, a bot,
an undo), only its holder may listen, the number of streams open at once is capped and each ends after a
while (the browser opens it again from the last version it heard)."""
import threading
import time

import pytest

pytest.importorskip("flask")

from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.weblive import Streams, events  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from webclient import act, choices, invites, join, start  # noqa: E402


def test_a_seat_hears_the_other_seats_move_as_an_event():
    app = create_app(ServerConfig(bot_threads=0, stream_seconds=5))
    creator = app.test_client()
    url, _ = start(creator, "phoenicia", 2, ["human", "human"])
    friend = app.test_client()
    join(friend, invites(creator, url)[1])
    table = app.config["TABLES"][url.rsplit("/", 1)[1]]
    browsers = [creator, friend]
    mover = table.to_move()
    listener = browsers[1 - mover]
    stream = listener.get(url + f"/events?v={table.version}", buffered=False)
    assert stream.mimetype == "text/event-stream"
    lines = iter(stream.response)
    assert next(lines).startswith(b"retry:")
    page = browsers[mover].get(url + "/play").get_data(as_text=True)
    threading.Timer(0.3, lambda: act(browsers[mover], url, choices(page)[0], page)).start()
    heard = b""
    end = time.monotonic() + 10
    while b"event: moved" not in heard and time.monotonic() < end:
        heard += next(lines)
    assert b"event: moved" in heard and f"id: {table.version}".encode() in heard
    stream.close()
    assert app.test_client().get(url + "/events").status_code == 403
    stranger = app.test_client()
    stranger.set_cookie("s_" + table.id, "guess", path=url)
    assert stranger.get(url + "/events").status_code == 403


class Still:
    version = 3

    def __init__(self):
        self.changed = threading.Condition()


def test_streams_are_capped_and_end_after_their_time():
    streams = Streams(1)
    first = events(Still(), 3, 0.3, streams)
    assert next(first).startswith("retry: 2000")
    second = events(Still(), 3, 0.3, streams)
    assert list(second) == ["retry: 15000\n\n"]            # no slot: try again later
    started = time.monotonic()
    rest = list(first)
    assert time.monotonic() - started < 2 and all(line.startswith(":") for line in rest)
    assert streams.open == 0
    third = events(Still(), 2, 5, streams)                # the page shows an older version: told at once
    assert next(third).startswith("retry") and next(third) == "id: 3\nevent: moved\ndata: 3\n\n"
    third.close()
    assert streams.open == 0
