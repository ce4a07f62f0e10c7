"""Attacks against a running `meeple serve` on loopback (waitress in a child process, its own SQLite file),
as a stranger on the same network would make them: every class of issue 29, each refused or held, with
the figure it measured (printed at the end with `pytest -s`). Bounded: about a minute in all."""
import re
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("waitress")

from liveserver import Client, LiveServer  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIGURES: dict[str, str] = {}
BOMB = ("a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]")
INJECTIONS = ["x';alert(document.domain);'", '"><script>alert(1)</script>', "</title><img src=x onerror=alert(1)>"]
CAP = 120


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("live"), str(ROOT / "examples" / "number_run"),
                      "--max-tables", str(CAP), "--timeout", "3")
    yield live
    live.stop()
    print("\nattack figures:\n" + "\n".join(f"  {k}: {v}" for k, v in FIGURES.items()))


def new_table(client: Client, game="phoenicia", seats=("human", "human"), **extra) -> str:
    form = {"game": game, "players": str(len(seats)), "sit": "1", **{f"seat{i + 1}": k for i, k in enumerate(seats)},
            **extra}
    status, headers, body = client.post("/new", form)
    assert status == 303, body[-400:]
    from urllib.parse import urlsplit

    return "/".join(urlsplit(headers["Location"]).path.split("/")[:3])


def pair(server):
    """The creator (at seat 1) and a friend who took seat 2 through the invite; the table's path."""
    creator, friend = Client(server.url), Client(server.url)
    url = new_table(creator)
    page = creator.get(url)[2]
    invite = re.search(r'href="(/t/[^"]+/join/[^"]+)"', page).group(1)
    friend.get(invite)
    assert friend.post(invite)[0] == 303
    return creator, friend, url


def state_of(client, url):
    status, _, body = client.get(url + "/play.json")
    assert status == 200
    import json
    return json.loads(body)


def test_seat_takeover_is_refused(server):
    creator, friend, url = pair(server)
    stranger = Client(server.url)
    status, _, page = stranger.get(url)
    assert status == 200 and "/join/" not in page and "/host/" not in page
    assert stranger.get(url + "/play.json")[0] == 403
    before = state_of(creator, url)["version"]
    assert stranger.post(url + "/act", {"number": "1", "version": str(before)})[0] == 403
    stranger.cookies["s_" + url.rsplit("/", 1)[1]] = ("x" * 32, url)
    assert stranger.get(url + "/play.json")[0] == 403
    lobby = stranger.get("/")[2]
    assert url not in lobby and "/join/" not in lobby
    assert state_of(creator, url)["version"] == before
    FIGURES["seat takeover"] = "403 for another seat's page, JSON and actions; no invite on any page but the creator's"


def test_hot_seat_routes_are_the_hot_seat_creators_only(server):
    creator, friend, url = pair(server)
    assert creator.get(url + "/hot")[0] == 404
    hot = Client(server.url)
    hot_url = new_table(hot, hot="1")
    stranger = Client(server.url)
    assert stranger.get(hot_url + "/hot")[0] == 403
    for path in ("/hot/show", "/hot/act", "/hot/undo"):
        assert stranger.post(hot_url + path, {"number": "1", "version": "0"})[0] == 403
    FIGURES["hot-seat misuse"] = "404 at a table that is not hot seat, 403 for anyone but its creator"


def test_a_replay_naming_server_paths_is_refused_and_echoes_nothing(server, tmp_path):
    secret = tmp_path / "credentials.yaml"
    secret.write_text("token: the-secret-token-0123456789\n")
    client = Client(server.url)
    answers = []
    for game, variants in (("phoenicia", f"[{secret}]"), ("phoenicia", "[/etc/passwd]"), (str(tmp_path), "[]"),
                           ("phoenicia", f"[{tmp_path / 'missing.yaml'}]"), ("/etc", "[]")):
        record = (f"format: meeple-record/1\ngame: {game}\npath: {secret}\ntitle: x\ndefinition_hash: x\n"
                  f"variants: {variants}\noptions: {{}}\nplayers: 2\nseed: 1\nseats: [human, human]\nactions: []\n")
        status, _, page = client.post("/replay", {"text": record})
        assert status == 400
        assert "the-secret-token" not in page and "root:" not in page and str(tmp_path) not in page
        answers.append(re.sub(r'(content|value)="[^"]*"', "", page))
    assert answers[0] == answers[3]          # a file that exists and one that does not: the same answer
    FIGURES["replay naming paths"] = "400, the same message whether the file exists or not, nothing of it echoed"


def test_script_injection_in_every_request_value_lands_escaped(server):
    client = Client(server.url)
    url = new_table(client)
    pages = []
    for bad in INJECTIONS:
        q = re.sub(r"[ ]", "%20", bad).replace("#", "%23").replace("&", "%26")
        for path in (f"/?lang={q}", f"/?game={q}", f"/verify?game={q}", f"/compare?game={q}", f"{url}/play?x={q}",
                     f"/t/{q}", f"/replay/{q}", f"/jobs/{q}"):
            status, _, page = client.get(path.replace("'", "%27").replace('"', "%22").replace("<", "%3C")
                                         .replace(">", "%3E"))
            assert status < 500
            pages.append(page)
        for field in ("game", "players", "seed", "lang", "seat2", "variant", "opt.disk_conversion"):
            form = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": "random", field: bad}
            status, _, page = client.post("/new", form)
            assert status == 400, field
            pages.append(page)
        record = ("format: meeple-record/1\ngame: phoenicia\npath: phoenicia\ntitle: x\ndefinition_hash: x\n"
                  "variants: []\noptions: {}\nplayers: 2\nseed: 1\nseats: [human, human]\nactions: []\n"
                  f"label: {bad!r}\n")
        pages.append(client.post("/replay", {"text": record})[2])
    for page in pages:
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
        assert re.findall(r"<[a-zA-Z][^>]*\son[a-z]+\s*=", page) == [] and "<script>alert" not in page and "<img src=x" not in page
    FIGURES["script injection"] = f"{len(pages)} pages with a hostile value in every field: all escaped, no inline script"


def test_cross_origin_posts_and_foreign_hosts_are_refused(server):
    client = Client(server.url)
    client.get("/")
    form = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": "random"}
    assert client.post("/new", form, headers={"Origin": "http://evil.example"})[0] == 403
    assert client.post("/new", form, headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert client.post("/new", form, token=False)[0] == 403
    assert client.get("/", headers={"Host": "evil.example"})[0] == 400
    assert client.post("/new", form, headers={"Host": f"rebind.example:{server.port}"})[0] == 400
    status, headers, _ = client.get("/")
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"
    FIGURES["cross-origin posts"] = "403 from another origin or without the token; 400 for another Host"


def test_yaml_alias_bombs_in_every_field_are_refused_at_once(server):
    client = Client(server.url)
    slowest = 0.0
    for field in ("opt.disk_conversion", "opt.one_card_limit", "seat2", "players", "seed", "lang", "game", "variant"):
        form = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": "random", field: BOMB}
        started = time.perf_counter()
        status, _, _ = client.post("/new", form)
        slowest = max(slowest, time.perf_counter() - started)
        assert status == 400, field
    started = time.perf_counter()
    assert client.post("/replay", {"text": BOMB})[0] == 400
    slowest = max(slowest, time.perf_counter() - started)
    assert slowest < 2
    FIGURES["YAML alias bombs"] = f"400 in every field, the slowest answered in {slowest * 1000:.0f} ms"


def test_a_huge_body_is_refused_before_it_is_kept(server):
    client = Client(server.url)
    client.get("/")
    rss = server.rss_kib()
    body = b"text=" + b"x" * (8 * 1024 * 1024)
    started = time.perf_counter()
    try:
        status = client.request("POST", "/replay", body, {"Content-Type": "application/x-www-form-urlencoded"})[0]
    except (ConnectionError, OSError):
        status = 413   # the server closed the connection while the body was still coming
    took = time.perf_counter() - started
    assert status == 413
    grown = server.rss_kib() - rss
    assert grown < 32 * 1024
    FIGURES["huge body"] = f"8 MiB body: 413 in {took * 1000:.0f} ms, the server grew by {grown} KiB"


def test_bot_budgets_over_the_cap_are_refused(server):
    client = Client(server.url)
    for spec in ("mcts:ms=999999999999", "mcts:iterations=1000000", "mcts:depth=100000", "greedy:depth=50"):
        form = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": spec}
        status, _, page = client.post("/new", form)
        assert status == 400 and "at most" in page
    FIGURES["bot budgets"] = "400 above 2000 ms or 2000 iterations per decision (and the depth caps)"


def test_duplicate_and_stale_submissions_make_one_decision(server):
    creator, friend, url = pair(server)
    mover = [creator, friend][state_of(creator, url)["model"]["status"]["to_move"]]
    page = mover.get(url + "/play")[2]
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    answers = []

    def click():
        answers.append(mover.post(url + "/act", {"number": number, "version": version})[0])
    clicks = [threading.Thread(target=click) for _ in range(8)]
    for c in clicks:
        c.start()
    for c in clicks:
        c.join()
    assert sorted(answers) == [303] + [409] * 7
    assert state_of(creator, url)["version"] == int(version) + 1
    FIGURES["duplicate submissions"] = "8 identical clicks at once: 1 decision, 7 answered 409 (the game moved on)"


def test_another_seats_undo_is_refused(server):
    creator, friend, url = pair(server)
    seat = state_of(creator, url)["model"]["status"]["to_move"]
    mover, other = ([creator, friend][seat], [creator, friend][1 - seat])
    page = mover.get(url + "/play")[2]
    number = re.search(r'name="number" value="(\d+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    assert mover.post(url + "/act", {"number": number, "version": version})[0] == 303
    status, _, body = other.post(url + "/undo", {"version": str(int(version) + 1)})
    assert status == 409 and "Another seat" in body
    FIGURES["another seat's undo"] = "409: only the seat's own last decision, while no other seat decided since"


def test_slow_clients_hold_no_thread_and_idle_ones_are_let_go(server):
    slow = []
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: ")
        slow.append(s)
    client = Client(server.url)
    started = time.perf_counter()
    for _ in range(5):
        assert client.get("/")[0] == 200
    took = (time.perf_counter() - started) / 5
    assert took < 2
    idle = socket.create_connection(("127.0.0.1", server.port))
    idle.settimeout(20)
    started = time.perf_counter()
    assert idle.recv(1) == b""               # closed by the server after its --timeout (3 s here)
    closed = time.perf_counter() - started
    for s in slow:
        s.close()
    assert closed < 15
    FIGURES["slow clients"] = (f"40 connections sending half a request: other pages answered in {took * 1000:.0f} ms; "
                               f"an idle connection closed after {closed:.1f} s")


def test_an_authors_game_folder_is_played_over_http(server):
    client = Client(server.url)
    assert 'value="number_run"' in client.get("/")[2]
    url = new_table(client, "number_run", ("human", "random"))
    for _ in range(200):
        page = client.get(url + "/play")[2]
        if 'id="winner"' in page:
            break
        found = re.search(r'name="number" value="(\d+)"', page)
        if not found:              # the bot is thinking
            time.sleep(0.05)
            continue
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        client.post(url + "/act", {"number": found.group(1), "version": version})
    assert 'id="winner"' in client.get(url + "/play")[2]


def test_tables_up_to_the_cap_then_a_refusal_with_the_memory_each_took(server):
    client = Client(server.url)
    client.get("/")
    rss, made = server.rss_kib(), 0
    started = time.perf_counter()
    while True:
        status, _, page = client.post("/new", {"game": "phoenicia", "players": "2", "seat1": "human",
                                               "seat2": "human", "sit": "1"})
        if status != 303:
            break
        made += 1
        assert made <= CAP
    took = time.perf_counter() - started
    assert status == 503 and "most tables" in page
    per_table = (server.rss_kib() - rss) / max(1, made)
    FIGURES["many tables"] = (f"{made} new tables up to the cap of {CAP} in {took:.1f} s, then 503; "
                              f"{per_table:.0f} KiB of resident memory each")


def test_a_server_killed_mid_game_resumes_every_table_at_its_version(tmp_path):
    live = LiveServer(tmp_path, "--timeout", "5")
    try:
        games = []
        for _ in range(3):
            creator, friend, url = pair(live)
            for _ in range(3):
                browser = [creator, friend][state_of(creator, url)["model"]["status"]["to_move"]]
                page = browser.get(url + "/play")[2]
                number = re.search(r'name="number" value="(\d+)"', page).group(1)
                version = re.search(r'name="version" value="(\d+)"', page).group(1)
                assert browser.post(url + "/act", {"number": number, "version": version})[0] == 303
            games.append((creator, friend, url, state_of(creator, url)))
        live.kill()                               # SIGKILL: no chance to write anything more
        started = time.perf_counter()
        live.start()
        took = time.perf_counter() - started
        for creator, friend, url, seen in games:
            assert state_of(creator, url) == seen                 # the same position, version and log
            assert state_of(friend, url)["seat"] == 1             # the friend's browser holds its seat still
        FIGURES["restart after SIGKILL"] = f"3 tables resumed at their versions; the server answered after {took:.1f} s"
    finally:
        live.stop()
