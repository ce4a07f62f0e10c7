"""The replay upload and the verify and compare pages: a record names a served game and its variants by
name, and nothing from a request makes the server open a file of its choosing; messages repeat nothing
read from a file; no page shows a path of the server; replays are capped, expire and are unguessable."""
import re
from pathlib import Path

import pytest

pytest.importorskip("flask")

from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.webreports import Replays, public_text, variant_names  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from webclient import job_result, post  # noqa: E402

RECORD = """format: meeple-record/1
game: {game}
path: {path}
title: x
definition_hash: x
variants: {variants}
options: {{}}
players: 2
seed: 1
seats: [human, human]
actions: []
"""


@pytest.fixture(scope="module")
def client():
    return create_app(ServerConfig(bot_threads=0)).test_client()


def upload(client, **fields):
    values = {"game": "phoenicia", "path": "phoenicia", "variants": "[]", **fields}
    return post(client, "/replay", {"text": RECORD.format(**values)}, page="/replay")


def test_a_record_naming_a_path_is_refused_and_echoes_nothing_read(client, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("root:x:0:0:the-secret-token-1234\n")
    for fields in ({"variants": f"[{secret}]"}, {"variants": "[/etc/passwd]"}, {"game": str(tmp_path)},
                   {"game": "/etc"}, {"variants": f"[{tmp_path / 'missing.yaml'}]"},
                   {"game": "../../etc", "path": "/etc/passwd"}):
        r = upload(client, **fields)
        page = r.get_data(as_text=True)
        assert r.status_code == 400, fields
        assert "the-secret-token" not in page and "root:x" not in page
        assert str(tmp_path) not in page and "no overlay file" not in page
    # the same answer whether the named file exists or not: no existence oracle
    a = upload(client, variants=f"[{secret}]").get_data(as_text=True)
    b = upload(client, variants=f"[{tmp_path / 'missing.yaml'}]").get_data(as_text=True)
    strip = re.compile(r'content="[^"]+"|value="[^"]+"')
    assert strip.sub("", a) == strip.sub("", b)


def test_a_records_path_field_is_never_used_and_variants_go_by_name(client):
    r = upload(client, path="/etc/passwd")
    assert r.status_code == 303                       # the game is named by `game`; `path` is ignored
    assert variant_names(["two_players", "/anywhere/two_players.yaml"], ["two_players"]) == ["two_players"] * 2
    with pytest.raises(ValueError):
        variant_names(["../two_players"], ["x"])


def test_no_page_shows_a_path_of_the_server(client):
    root = str(Path.cwd().resolve())
    pages = [client.get(path).get_data(as_text=True) for path in ("/", "/verify", "/compare", "/replay",
                                                                  "/compare?game=puerto_rico")]
    pages.append(job_result(client, post(client, "/verify", {"game": "phoenicia", "games": "0"})))
    for page in pages:
        assert root not in page and "/gamedefs/" not in page and "/home/" not in page


def test_public_text_hides_folders_and_absolute_paths():
    folder = Path("/srv/games/phoenicia")
    text = "/srv/games/phoenicia/scenarios/a.yaml:3:1: error; see /usr/lib/python3/x.py and ./here"
    shown = public_text(text, [("phoenicia", folder)])
    assert "/srv" not in shown and "/usr" not in shown and shown.startswith("phoenicia/scenarios/a.yaml:3:1")


def test_replays_are_capped_and_expire_and_their_ids_are_unguessable():
    replays = Replays(most=2, idle_seconds=60, every=10)
    ids = [replays.add(None, {}, []) for _ in range(3)]
    assert replays.get(ids[0]) is None and replays.get(ids[2]) is not None
    assert all(len(i) >= 16 for i in ids) and len(set(ids)) == 3
    replays.idle = -1
    assert replays.get(ids[2]) is None
