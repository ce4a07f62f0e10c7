"""Who may do what at the web table: a seat is used only by the browser that holds it (claimed through
its invite, once), only the creator sees invites and plays a hot-seat table, and the lobby lists only
public tables, with no secret in them."""
import re

import pytest

pytest.importorskip("flask")

from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from webclient import act, choices, invites, join, post, start, token  # noqa: E402


@pytest.fixture
def app():
    return create_app(ServerConfig(bot_threads=0))


def two_people(app, **kw):
    creator = app.test_client()
    url, _ = start(creator, "phoenicia", 2, ["human", "human"], **kw)
    return creator, url, app.config["TABLES"][url.rsplit("/", 1)[1]]


def test_a_stranger_sees_no_invite_no_seat_and_cannot_act(app):
    creator, url, table = two_people(app)
    stranger = app.test_client()
    page = stranger.get(url).get_data(as_text=True)
    assert "/join/" not in page and "/host/" not in page and "no seat" in page
    assert stranger.get(url + "/play").status_code == 303           # back to the table's page
    assert stranger.get(url + "/play.json").status_code == 403
    before = table.version
    for path in ("/act", "/undo"):
        r = post(stranger, url + path, {"number": "1"})
        assert r.status_code == 403
    assert table.version == before
    # a guessed seat cookie is nobody's seat
    stranger.set_cookie("s_" + table.id, "guess", path=url)
    assert stranger.get(url + "/play.json").status_code == 403


def test_the_creator_alone_sees_the_invites_and_an_invite_works_once(app):
    creator, url, table = two_people(app)
    links = invites(creator, url)
    assert list(links) == [1]                    # the creator sits at seat 1; seat 2 is free
    friend, late = app.test_client(), app.test_client()
    assert "Take the seat of Player 2" in friend.get(links[1]).get_data(as_text=True)
    join(friend, links[1])
    assert friend.get(url + "/play.json").get_json()["seat"] == 1
    assert late.get(links[1]).status_code == 404                   # used up
    assert post(late, links[1], page="/").status_code == 404
    assert invites(creator, url) == {}                             # nobody's link listed any more
    assert "/join/" not in friend.get(url + "/play").get_data(as_text=True)


def test_a_seat_acts_only_for_itself(app):
    creator, url, table = two_people(app)
    friend = app.test_client()
    join(friend, invites(creator, url)[1])
    mover = table.to_move()
    waiting = [creator, friend][1 - mover]
    page = waiting.get(url + "/play").get_data(as_text=True)
    assert choices(page) == []
    before = table.version
    r = act(waiting, url, 1, page)
    assert r.status_code == 409 and table.version == before
    mine = [creator, friend][mover]
    page = mine.get(url + "/play").get_data(as_text=True)
    assert act(mine, url, choices(page)[0], page).status_code == 303 and table.version > before


def test_a_new_invite_lets_the_old_holder_go(app):
    creator, url, table = two_people(app)
    first = app.test_client()
    join(first, invites(creator, url)[1])
    assert post(creator, url + "/reinvite", {"seat": "1"}, page=url).status_code == 303
    assert first.get(url + "/play.json").status_code == 403
    second = app.test_client()
    join(second, invites(creator, url)[1])
    assert second.get(url + "/play.json").get_json()["seat"] == 1
    assert post(second, url + "/reinvite", {"seat": "1"}, page=url).status_code == 403   # the creator's only


def test_the_creator_link_opens_the_creators_page_in_another_browser(app):
    creator, url, table = two_people(app)
    link = re.search(r'id="creator-link">[^<]*?(/t/[^<]+)</span>', creator.get(url).get_data(as_text=True)).group(1)
    other = app.test_client()
    assert other.get(link).status_code == 303
    assert "/join/" in other.get(url).get_data(as_text=True)
    assert app.test_client().get(link[:-3] + "abc").status_code == 404


def test_hot_seat_routes_exist_only_at_hot_seat_tables_and_only_for_their_creator(app):
    creator, url, table = two_people(app)
    for path in ("/hot",):
        assert creator.get(url + path).status_code == 404
    for path in ("/hot/show", "/hot/act", "/hot/undo"):
        assert post(creator, url + path, {"number": "1"}).status_code == 404
    hot_creator = app.test_client()
    hot_url, _ = start(hot_creator, "phoenicia", 2, ["human", "human"], hot=True)
    hot_table = app.config["TABLES"][hot_url.rsplit("/", 1)[1]]
    stranger = app.test_client()
    assert stranger.get(hot_url + "/hot").status_code == 403
    before = hot_table.version
    for path in ("/hot/show", "/hot/act", "/hot/undo"):
        assert post(stranger, hot_url + path, {"number": "1"}).status_code == 403
    assert hot_table.version == before and hot_table.shown is None
    assert "/join/" not in hot_creator.get(hot_url).get_data(as_text=True)


def test_the_lobby_lists_only_public_tables_and_no_secret(app):
    creator, private_url, _ = two_people(app)
    public_creator = app.test_client()
    public_url, _ = start(public_creator, "phoenicia", 2, ["human", "human"], public=True)
    lobby = app.test_client().get("/").get_data(as_text=True)
    assert public_url in lobby and private_url not in lobby
    assert "/join/" not in lobby and "/host/" not in lobby
    walker = app.test_client()                                     # a free seat of a public table
    page = walker.get(public_url).get_data(as_text=True)
    assert "Player 2" in page and "/join/" not in page
    assert post(walker, public_url + "/sit", {"seat": "1"}, page=public_url).status_code == 303
    assert walker.get(public_url + "/play.json").get_json()["seat"] == 1
    late = app.test_client()
    assert post(late, public_url + "/sit", {"seat": "1"}).status_code == 409
    assert post(late, public_url + "/sit", {"seat": "0"}).status_code == 409
    assert post(late, private_url + "/sit", {"seat": "1"}).status_code == 403


def test_bad_values_are_a_400_with_a_message_never_a_500(app):
    creator, url, table = two_people(app)
    base = {"game": "phoenicia", "players": "2", "seat1": "human", "seat2": "random"}
    for change in ({"players": "99999999999999999999"}, {"players": "two"}, {"players": "7"},
                   {"seed": "9" * 40}, {"seed": "x"}, {"seat2": "mcts:ms=999999999999"},
                   {"opt.disk_conversion": "*a"}, {"opt.nope": "1"}, {"variant": "../../../etc/passwd"},
                   {"game": "/etc"}, {"game": "../gamedefs/phoenicia"}, {"lang": "xx"},
                   {"opt.disk_conversion": "sideways"}):
        r = post(creator, "/new", {**base, **change})
        assert r.status_code == 400, (change, r.status_code)
        assert 'id="error"' in r.get_data(as_text=True)
    for number in ("", "x", "-1", "1" * 30, "٣"):
        assert post(creator, url + "/act", {"number": number}).status_code == 400
    r = creator.post("/new", data={"csrf": token(creator), **base, "options": "x" * (2 * 1024 * 1024)})
    assert r.status_code == 413


def test_a_burst_of_identical_clicks_makes_one_decision_and_the_rest_hear_the_game_moved_on(app):
    creator, url, table = two_people(app)
    friend = app.test_client()
    join(friend, invites(creator, url)[1])
    browser = [creator, friend][table.to_move()]
    page = browser.get(url + "/play").get_data(as_text=True)
    before = len(table.record["actions"])
    answers = [act(browser, url, choices(page)[0], page).status_code for _ in range(8)]
    assert answers == [303] + [409] * 7 and len(table.record["actions"]) == before + 1
    r = act(browser, url, choices(page)[0], page)
    assert "The game moved on" in r.get_data(as_text=True)
    r = browser.post(url + "/act", data={"csrf": token(browser), "number": "1"})   # no version: refused
    assert r.status_code == 400 and len(table.record["actions"]) == before + 1


def test_undo_over_the_web_is_the_seats_own_and_refused_for_another(app):
    creator, url, table = two_people(app)
    friend = app.test_client()
    join(friend, invites(creator, url)[1])
    mover = table.to_move()
    browsers = [creator, friend]
    page = browsers[mover].get(url + "/play").get_data(as_text=True)
    act(browsers[mover], url, choices(page)[0], page)
    other = browsers[1 - mover].get(url + "/play").get_data(as_text=True)
    assert 'id="undo"' not in other
    r = browsers[1 - mover].post(url + "/undo", data={"csrf": token(friend if mover == 0 else creator),
                                                      "version": str(table.version)})
    assert r.status_code == 409 and "Another seat" in r.get_data(as_text=True)
