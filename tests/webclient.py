"""Helpers of the web table's tests: people at a table, each with a browser of their own (a Flask test
client, with its own cookie jar), doing what a person does on the pages (no shortcut into the server)."""
from __future__ import annotations

import re

CSRF = re.compile(r'name="csrf" (?:value|content)="([^"]+)"')


def csrf_of(page: str) -> str:
    return CSRF.search(page).group(1)


def token(client, url: str = "/") -> str:
    """The CSRF token of this browser, from a page it loads."""
    return csrf_of(client.get(url, follow_redirects=True).get_data(as_text=True))


def post(client, url: str, data: dict | None = None, page: str = "/", **kw):
    """A form sent as a person sends it: with the token of the browser's page."""
    return client.post(url, data={"csrf": token(client, page), **(data or {})}, **kw)


def start(client, game, players, seats, hot=False, lang="en", seed=3, sit=True, public=False, variants=(),
          options=None):
    """A new table from the lobby; its address (/t/ID) and where the server sent the creator."""
    form = {"game": game, "players": str(players), "seed": "" if seed is None else str(seed), "lang": lang}
    form.update({f"seat{i + 1}": k for i, k in enumerate(seats)})
    form.update({f"opt.{k}": v for k, v in (options or {}).items()})
    if hot:
        form["hot"] = "1"
    if sit:
        form["sit"] = "1"
    if public:
        form["public"] = "1"
    if variants:
        form["variant"] = list(variants)
    r = post(client, "/new", form)
    assert r.status_code == 303, r.get_data(as_text=True)[-500:]
    location = r.headers["Location"]
    return "/".join(location.split("/")[:3]), location


def invites(client, table_url: str) -> dict[int, str]:
    """The invite links the creator's page lists, by seat (from 0)."""
    page = client.get(table_url).get_data(as_text=True)
    out = {}
    for row in re.finditer(r'<li class="seat-row" data-seat="(\d+)">(.*?)</li>', page, re.S):
        link = re.search(r'href="(/t/[^"]+/join/[^"]+)"', row.group(2))
        if link:
            out[int(row.group(1))] = link.group(1)
    return out


def join(client, invite: str):
    """Take the seat an invite is for, in this browser."""
    r = post(client, invite, page=invite)
    assert r.status_code == 303, r.get_data(as_text=True)[-300:]
    return r


def seated(app, creator, table_url: str, humans: int) -> list:
    """One browser per person's seat: the creator's (who sat at the first) and one new browser per invite."""
    browsers = [creator]
    for seat, link in sorted(invites(creator, table_url).items()):
        other = app.test_client()
        join(other, link)
        browsers.append(other)
    assert len(browsers) == humans
    return browsers


def choices(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'name="number" value="(\d+)"', page)]


def version_of(page: str) -> str | None:
    found = re.search(r'name="version" value="(\d+)"', page) or re.search(r'data-version="(\d+)"', page)
    return found.group(1) if found else None


def act(client, table_url: str, number: int, page: str | None = None):
    """Click choice `number` on the seat's page (as loaded, or loaded now)."""
    page = page if page is not None else client.get(table_url + "/play").get_data(as_text=True)
    data = {"csrf": csrf_of(page), "number": str(number)}
    version = version_of(page)
    if version is not None:
        data["version"] = version
    return client.post(table_url + "/act", data=data)


def job_result(client, response, timeout: float = 180.0) -> str:
    """The page of a verify or compare job once it has finished (the server answered `response`: a
    redirect to the job's page)."""
    import time

    assert response.status_code == 303, response.get_data(as_text=True)[-300:]
    url = response.headers["Location"]
    end = time.monotonic() + timeout
    while True:
        page = client.get(url).get_data(as_text=True)
        state = re.search(r'<p id="state">(\w+)', page).group(1)
        if state not in ("waiting", "running") or time.monotonic() > end:
            return page
        time.sleep(0.2)
