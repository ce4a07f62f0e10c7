"""The web table's guards: the CSRF token on every state-changing request, the Origin and Host checks, the
security headers of every response, and pages whose every request value is escaped and never lands in a
script."""
import re

import pytest

pytest.importorskip("flask")

from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.websecurity import HEADERS, derived, digest, host_name  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from webclient import post, start, token  # noqa: E402

NEW = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": "random", "seed": "1"}


@pytest.fixture(scope="module")
def app():
    return create_app(ServerConfig(bot_threads=0))


def test_a_post_without_the_browsers_csrf_token_is_refused_and_changes_nothing(app):
    client = app.test_client()
    client.get("/")
    assert client.post("/new", data=NEW).status_code == 403
    assert client.post("/new", data={**NEW, "csrf": "x" * 32}).status_code == 403
    other = app.test_client()           # another browser's token is not this one's
    assert client.post("/new", data={**NEW, "csrf": token(other)}).status_code == 403
    fresh = app.test_client()           # a browser the server never saw has no token at all
    assert fresh.post("/new", data={**NEW, "csrf": token(other)}).status_code == 403
    before = len(app.config["TABLES"])
    assert post(client, "/new", NEW).status_code == 303
    assert len(app.config["TABLES"]) == before + 1


def test_a_form_of_another_site_is_refused_even_with_a_token(app):
    client = app.test_client()
    data = {**NEW, "csrf": token(client)}
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Origin": "http://localhost:9999"}, {"Sec-Fetch-Site": "cross-site"}):
        r = client.post("/new", data=data, headers=headers)
        assert r.status_code == 403 and "another site" in r.get_data(as_text=True), headers
    assert client.post("/new", data=data, headers={"Origin": "http://localhost"}).status_code == 303
    assert client.post("/new", data=data, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 303


def test_a_request_for_another_host_name_is_refused(app):
    client = app.test_client()
    for host in ("evil.example", "attacker.localhost.example:8000", "10.0.0.1"):
        r = client.get("/", headers={"Host": host})
        assert r.status_code == 400 and "address it was started for" in r.get_data(as_text=True)
    assert client.get("/", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "[::1]:8000"}).status_code == 200
    named = create_app(ServerConfig(host="0.0.0.0", allowed_hosts=("games.lan",), bot_threads=0)).test_client()
    assert named.get("/", headers={"Host": "games.lan:8000"}).status_code == 200
    assert named.get("/", headers={"Host": "evil.example"}).status_code == 400


def test_host_names_are_read_without_their_port():
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("example.org") == "example.org"


def test_every_response_carries_the_security_headers(app):
    client = app.test_client()
    url, _ = start(client, "phoenicia", 2, ["human", "random"])
    for path in ("/", "/replay", "/verify", url, url + "/play", "/static/meeple.js", "/no/such/page"):
        r = client.get(path)
        for name, value in HEADERS.items():
            assert r.headers.get(name) == value, (path, name)
    csp = HEADERS["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert client.get(url + "/play").headers["Cache-Control"] == "no-store"


INJECTIONS = ["x';alert(document.domain);'", '"><script>alert(1)</script>', "</title><img src=x onerror=alert(1)>",
              "javascript:alert(1)", "{{7*7}}"]


def test_no_page_has_inline_script_or_event_handlers_and_request_values_are_escaped(app):
    client = app.test_client()
    url, _ = start(client, "phoenicia", 2, ["human", "random"])
    pages = []
    for bad in INJECTIONS:
        for path in (f"/?lang={bad}", f"/?game={bad}", f"/verify?game={bad}", f"/compare?game={bad}&variant={bad}",
                     f"{url}/play?x={bad}", f"/replay/{bad}", f"/t/{bad}"):
            r = client.get(path)
            assert r.status_code < 500, path
            pages.append(r.get_data(as_text=True))
        r = client.post("/new", data={**NEW, "csrf": token(client), "seat2": bad, "game": bad, "lang": bad})
        assert r.status_code == 400
        pages.append(r.get_data(as_text=True))
    for page in pages:
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == [], "inline script"
        assert re.findall(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", page) == [], "an event-handler attribute"
        assert "<script>alert" not in page and "<img src=x" not in page


def test_tokens_are_unguessable_and_only_digests_are_kept():
    assert len(digest("a")) == 64 and digest("a") != digest("b")
    key = b"k" * 32
    assert derived(key, "invite", "t", 1, 0) != derived(key, "invite", "t", 1, 1)
    assert derived(key, "invite", "t", 1, 0) != derived(b"j" * 32, "invite", "t", 1, 0)
    assert len(derived(key, "x")) == 32
