"""Games survive restarts: every table is written to SQLite at each decision (one transaction), and a
server started again on the same file resumes every table at its version, with its seats' holders (the
key and the digests are kept) and finished games' records; a table whose game is not served any more is
kept in the file, not resumed."""
import json
import os
import stat

import pytest

pytest.importorskip("flask")

from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.webdb import Database, default_path  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from webclient import act, choices, invites, join, start  # noqa: E402


def server(path, **kw):
    return create_app(ServerConfig(db=str(path), bot_threads=0, **kw))


def versions(path):
    db = Database(path)
    try:
        return {row["id"]: row["version"] for row in db.rows()}
    finally:
        db.close()


def test_a_restarted_server_resumes_every_table_at_its_version_with_its_seats(tmp_path):
    path = tmp_path / "tables.sqlite3"
    app = server(path)
    creator = app.test_client()
    url, _ = start(creator, "phoenicia", 2, ["human", "human"])
    friend = app.test_client()
    join(friend, invites(creator, url)[1])
    table = app.config["TABLES"][url.rsplit("/", 1)[1]]
    browsers = [creator, friend]
    for _ in range(4):                                  # each decision is written at once
        mover = table.to_move()
        page = browsers[mover].get(url + "/play").get_data(as_text=True)
        act(browsers[mover], url, choices(page)[0], page)
        assert versions(path)[table.id] == table.version
    bots_url, _ = start(creator, "puerto_rico", 3, ["human", "greedy", "random"])
    seen = {b: b.get(url + "/play.json").get_json() for b in browsers}
    again = server(path)                                # the server started again on the same file
    resumed = again.config["TABLES"][table.id]
    assert resumed.version == table.version and resumed.record == table.record
    assert resumed.game.to_json(resumed.state) == table.game.to_json(table.state)
    assert bots_url.rsplit("/", 1)[1] in again.config["TABLES"]
    for browser, page in seen.items():                  # the same browsers hold the same seats
        browser.application = again
        assert browser.get(url + "/play.json").get_json() == page
    mover = resumed.to_move()
    page = browsers[mover].get(url + "/play").get_data(as_text=True)
    assert act(browsers[mover], url, choices(page)[0], page).status_code == 303
    assert resumed.version == table.version + 1


def test_a_changed_definition_replays_the_record_and_a_game_not_served_is_left_alone(tmp_path):
    path = tmp_path / "tables.sqlite3"
    app = server(path)
    creator = app.test_client()
    url, _ = start(creator, "phoenicia", 2, ["human", "random"])
    start(creator, "puerto_rico", 3, ["human", "random", "random"])
    tid = url.rsplit("/", 1)[1]
    table = app.config["TABLES"][tid]
    page = creator.get(url + "/play").get_data(as_text=True)
    act(creator, url, choices(page)[0], page)
    db = Database(path)
    row = next(r for r in db.rows() if r["id"] == tid)
    row["state"]["vars"]["no_such_var"] = 1             # a state the game cannot read any more
    with db.lock:
        db.conn.execute("UPDATE tables SET data = ? WHERE id = ?", (json.dumps(row), tid))
        db.conn.execute("UPDATE tables SET game = 'gone', data = replace(data, '\"path\":\"puerto_rico\"', "
                        "'\"path\":\"no_such_game\"') WHERE id != ?", (tid,))
    db.close()
    again = server(path)
    resumed = again.config["TABLES"][tid]
    assert resumed.game.to_json(resumed.state) == table.game.to_json(table.state)
    server_object = again.extensions["meeple"]
    assert server_object.resumed == 1 and "not served" in server_object.not_resumed[0]
    assert len(versions(path)) == 2                     # the other table is kept in the file


def test_the_database_file_is_the_owners_only_and_its_place_is_the_users_data_folder(tmp_path, monkeypatch):
    path = tmp_path / "deep" / "tables.sqlite3"
    Database(path).close()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "meeple" / "tables.sqlite3"
    assert Database(path).key() == Database(path).key()
