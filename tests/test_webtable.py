"""The web table, through Flask's test client: a whole game played by clicking, each person in a browser
of their own; hidden information kept from every other seat's browser; seats that only their holders
use; hot seat; records, replays, verify and compare pages; and every request value read with the
hardened readers (a 400 with a message, never a 500)."""
import html
import random
import re

import pytest

pytest.importorskip("flask")

from interpreter.game import load_game  # noqa: E402
from interpreter.table.record import FORMAT  # noqa: E402
from interpreter.table.webconfig import ServerConfig  # noqa: E402
from interpreter.table.webtable import create_app  # noqa: E402
from interpreter.engine.state import from_json as state_from_json  # noqa: E402
from interpreter.engine.visibility import sees, var_modes  # noqa: E402
from test_presentation import SHIPPED, first_table, hide_more  # noqa: E402
from webclient import act, choices, job_result, post, seated, start  # noqa: E402


def app_and_table(game, players, seats, **kw):
    """A server with one table made from the lobby; the app, the creator's browser, the table's address
    and the table."""
    app = create_app(ServerConfig(bot_threads=0))
    creator = app.test_client()
    url, _ = start(creator, game, players, seats, **kw)
    return app, creator, url, app.config["TABLES"][url.rsplit("/", 1)[1]]


def visible_labels(model):
    """Every piece name a model shows."""
    names = set()
    for area in model["areas"]:
        for z in area["zones"]:
            names.update(i["name"] for i in z.get("items") or [])
            for row in (z.get("board") or {}).get("rows", []):
                names.update(c["content"] for c in row if c.get("content"))
    return names


def test_a_whole_game_by_clicks_sends_each_seat_nothing_its_view_hides():
    app, creator, url, table = app_and_table("castles_of_burgundy", 2, ["human", "human"])
    browsers = seated(app, creator, url, 2)
    sent = {0: [], 1: []}
    seen = {0: set(), 1: set()}
    hidden_types = set()
    game = table.game
    labels = game.world.type_labels
    clicks = 0
    while not table.over:
        mover = table.to_move()
        for seat, browser in enumerate(browsers):
            if seat == mover or clicks % 10 == 0:
                sent[seat].append(browser.get(url + "/play").get_data(as_text=True))
            reply = browser.get(url + "/play.json")
            sent[seat].append(reply.get_data(as_text=True))
            seen[seat] |= visible_labels(reply.get_json()["model"])
            # Its own menu names what it may take: visible to it.
            seen[seat] |= {m["label"] for m in reply.get_json()["menu"]}
            if seat != mover:
                assert reply.get_json()["menu"] == [], "only the seat to move gets a menu"
        state = table.state
        for name, z in game.to_json(state)["zones"].items():
            if game.world.zone_visibility.get(("global", name)) == "hidden":
                hidden_types.update(labels[state.types[x]]["en"] for x in z)
        page = sent[mover][-2]
        assert choices(page), "the seat to move gets its menu"
        assert act(browsers[mover], url, choices(page)[0], page).status_code == 303
        clicks += 1
    assert clicks > 50 and "Winner" in browsers[0].get(url + "/play").get_data(as_text=True)
    for seat in (0, 1):
        shown = " ".join(seen[seat])
        secrets = {t for t in hidden_types if len(t) > 5 and t not in shown}
        assert secrets, "some tiles stay face down all game"
        everything = "\n".join(sent[seat])
        leaked = [t for t in secrets if html.escape(t) in everything or t in everything]
        assert leaked == [], f"seat {seat + 1} was sent {leaked}"


def test_a_seats_page_does_not_change_with_what_it_may_not_see():
    app, creator, url, table = app_and_table("puerto_rico", 3, ["human", "human", "human"])
    for _ in range(12):  # into the game, so that VP chips and the face-down pile matter
        seat = table.to_move()
        table.act(seat, min(n for n in [m["number"] for m in table.menu(seat)] if n > 0) if
                  any(m["number"] > 0 for m in table.menu(seat)) else 0)
    real = table.state
    for seat in range(3):
        pages = []
        for state in (real, hide_more(table.game, real, seat)):
            table.state = state
            page = table.page(seat)
            pages.append({k: v for k, v in page.items() if k != "version"})
        table.state = real
        assert pages[0] == pages[1]


def shuffle_hidden(game, state, seat: int, seed: int):
    """The same position with everything `seat` may not see dealt again: the pieces in the zones it may
    not look into (face-down piles, other players' hands) shuffled among those zones, each piece among
    the places of its own component (a hand may now hold what was in the deck), and every hidden var of
    the table or of another player changed. Only what the seat sees is kept. (Built without
    `Game.from_json`'s consistency checks: totals need not add up any more.)"""
    d = game.to_json(state)
    w = game.world
    kinds = d["pieces"]["types"]
    places = []                                    # (the zone's list, index) of every hidden piece
    for name, z in d["zones"].items():
        if not sees(w.zone_visibility.get(("global", name)), None, seat):
            places.extend((z, i) for i in range(len(z)))
    for owner, zones in enumerate(d["player_zones"]):
        for name, z in zones.items():
            if not sees(w.zone_visibility.get(("player", name)), owner, seat):
                places.extend((z, i) for i in range(len(z)))
    pick = random.Random(seed)
    by_class: dict[str, list] = {}
    for z, i in places:
        by_class.setdefault(w.class_of.get(kinds[z[i]]), []).append((z, i))
    for spots in by_class.values():
        pieces = [z[i] for z, i in spots]
        pick.shuffle(pieces)
        for (z, i), x in zip(spots, pieces):
            z[i] = x
    for name, mode in var_modes(w, "global").items():
        if not sees(mode, None, seat) and type(d["vars"].get(name)) is int:
            d["vars"][name] += 7
    for owner, row in enumerate(d["player_vars"]):
        for name, mode in var_modes(w, "player").items():
            if not sees(mode, owner, seat) and type(row.get(name)) is int:
                row[name] += 7
    return state_from_json(d, game.layout, game.id)


def leaks(name: str, decisions: int = 60, every: int = 6) -> tuple[list[str], int]:
    """Play `decisions` seeded random clicks of a table of people; every `every` decisions, fetch each
    seat's page and JSON for the real position and for `shuffle_hidden`'s. The seats whose messages
    differ, and how many positions had something hidden to deal again."""
    players = first_table(name)
    app, creator, url, table = app_and_table(name, players, ["human"] * players, seed=4)
    browsers = seated(app, creator, url, players)
    pick = random.Random(4)
    found, changed = [], 0
    for decision in range(decisions):
        if table.over:
            break
        if decision % every == 0:
            real = table.state
            for seat in range(players):
                other = shuffle_hidden(table.game, real, seat, seed=decision)
                changed += table.game.to_json(other) != table.game.to_json(real)
                sent = []
                for state in (real, other):
                    table.state = state
                    sent.append((browsers[seat].get(url + "/play").get_data(as_text=True),
                                 browsers[seat].get(url + "/play.json").get_json()))
                table.state = real
                if sent[0] != sent[1]:
                    found.append(f"decision {decision}: seat {seat + 1}")
        mover = table.to_move()
        page = browsers[mover].get(url + "/play").get_data(as_text=True)
        act(browsers[mover], url, pick.choice(choices(page)), page)
    return found, changed


@pytest.mark.parametrize("name", SHIPPED)
def test_what_the_server_sends_a_seat_is_the_same_whatever_its_view_hides(name):
    """Every page and every JSON message a seat's browser gets, at many points of a game, is unchanged
    when all that its view hides is dealt again: nothing hidden from it reaches it."""
    found, changed = leaks(name)
    assert changed, f"{name}: something is hidden from some seat"
    assert found == [], f"{name}: these pages tell what the seat's view hides"


def test_a_page_made_from_more_than_the_view_is_caught(monkeypatch):
    from interpreter.game import Game

    def everything(self, state, player):  # a server that sends the whole state
        d = self.to_json(state)
        d.pop("rng", None)
        d.update(viewer=player, to_move=self.current_player(state))
        return d

    monkeypatch.setattr(Game, "view", everything)
    found, changed = leaks("phoenicia", decisions=12)
    assert changed and found


def test_hot_seat_passes_the_screen_between_people():
    app, creator, url, table = app_and_table("castles_of_burgundy", 2, ["human", "human"], hot=True, lang="zh")
    page = creator.get(url + "/hot").get_data(as_text=True)
    assert "请把设备交给玩家" in page and not choices(page)      # nothing of a seat before it is there
    assert post(creator, url + "/hot/show", page=url + "/hot").status_code == 303
    page = creator.get(url + "/hot").get_data(as_text=True)
    assert choices(page) and "你的区域" in page and "<svg" in page


def test_the_record_once_over_and_the_replay_viewer():
    app, creator, url, table = app_and_table("puerto_rico", 3, ["human", "random", "random"], seed=5)
    assert creator.get(url + "/record").status_code == 403     # the seed would tell the future
    while not table.over:
        page = creator.get(url + "/play").get_data(as_text=True)
        act(creator, url, choices(page)[0], page)
    record = creator.get(url + "/record").get_data(as_text=True)
    assert f"format: {FORMAT}" in record and table.game.content_hash in record
    assert app.test_client().get(url + "/record").status_code == 403   # not for strangers
    viewer = app.test_client()
    r = post(viewer, "/replay", {"text": record}, page="/replay")
    assert r.status_code == 303
    first = viewer.get(r.headers["Location"]).get_data(as_text=True)
    total = int(re.search(r"0/(\d+)", first).group(1))
    last = viewer.get(r.headers["Location"].split("?")[0] + f"?step={total}&seat=2").get_data(as_text=True)
    assert "Winner" in last and 'id="back"' in last
    assert post(viewer, "/replay", {"text": "format: nonsense"}, page="/replay").status_code == 400


def test_verify_and_compare_run_as_jobs_naming_games_and_variants_by_name():
    client = create_app(ServerConfig(bot_threads=0)).test_client()
    page = job_result(client, post(client, "/verify", {"game": "phoenicia", "games": "0"}, page="/verify"))
    assert 'id="report"' in page and "scenario" in page.lower() and "done" in page
    page = job_result(client, post(client, "/compare", {"game": "phoenicia", "variant": "card_values",
                                                        "games": "2"}, page="/compare"))
    assert 'id="report"' in page and "win rate" in page.lower() and "2 players" in page
    r = post(client, "/compare", {"game": "puerto_rico", "variant": "two_players", "games": "2"})
    assert r.status_code == 400 and "no player count in common" in r.get_data(as_text=True)
    variant = load_game("puerto_rico").origin[0] / "variants" / "two_players.yaml"
    r = post(client, "/compare", {"game": "puerto_rico", "variant": str(variant), "games": "2"})
    assert r.status_code == 400 and "two_players" in r.get_data(as_text=True)


def test_the_lobby_offers_bots_with_budgets_and_refuses_a_bad_spec():
    app, creator, url, table = app_and_table("puerto_rico", 3, ["human", "mcts:iterations=5", "greedy"])
    lobby = creator.get("/").get_data(as_text=True)
    assert 'value="mcts:ms=300"' in lobby and 'value="mcts:ms=1000"' in lobby
    assert table.bots[1].spec() == "mcts:iterations=5"
    bad = post(creator, "/new", {"game": "puerto_rico", "players": "3", "seed": "1", "lang": "en",
                                 "seat1": "human", "seat2": "mcts:iterations=zero", "seat3": "random"})
    assert bad.status_code == 400 and "iterations" in bad.get_data(as_text=True)


def test_a_seats_log_tells_each_change_under_the_decision_that_made_it():
    """A building built is told under the line of the player who built it, before the next round's or
    phase's heading (not after the headings that the flow passed on the way to the next decision)."""
    from interpreter.table.tables import Table

    table = Table(load_game("puerto_rico"), "puerto_rico", 3, seed=3, kinds=["human", "random", "random"])
    for _ in range(60):
        numbers = [e["number"] for e in table.menu(0)]
        if not numbers:
            break
        table.act(0, min((n for n in numbers if n > 0), default=0))  # the first choice, pass only when alone
    log = table.logs[0]
    builds = [i for i, line in enumerate(log) if re.match(r"· Player \d: City \+ ", line)]
    assert len(builds) >= 3
    for i in builds:
        who = log[i][2:10]
        above = next(line for line in reversed(log[:i]) if not line.startswith("· "))
        assert above.startswith(who), (log[i], above)


def test_an_authors_game_folder_is_played_to_its_end_and_each_log_tells_every_move_in_words():
    """`meeple serve examples/number_run`: the author's game in the browser, two people, in German."""
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "examples" / "number_run"
    app = create_app(ServerConfig(bot_threads=0, game_dirs=(str(folder),)))
    creator = app.test_client()
    url, _ = start(creator, "number_run", 2, ["human", "human"], lang="de", seed=None)
    browsers = seated(app, creator, url, 2)
    table = app.config["TABLES"][url.rsplit("/", 1)[1]]
    while not table.over:
        mover = table.to_move()
        page = browsers[mover].get(url + "/play").get_data(as_text=True)
        assert act(browsers[mover], url, choices(page)[0], page).status_code == 303
    for seat, browser in enumerate(browsers):
        log = browser.get(url + "/play.json").get_json()["log"]
        other = f"Spieler {2 - seat}: "
        theirs = [line for line in log if line.startswith(other)]
        assert theirs and all(not line.endswith("…") for line in theirs), log[:10]
    end = browsers[0].get(url + "/play").get_data(as_text=True)
    assert 'id="winner"' in end and f"{table.seed}" in end and 'id="seed"' in end
