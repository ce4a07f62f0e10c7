"""Load once: a game loaded again comes from the per-user cache, and is the same game.

The cache is keyed by the content of every file; it is used only from a private directory, only for whole,
unchanged entries; a broken or foreign entry is a miss, never an error; a definition with problems is
never stored.
"""

import os
import random
import shutil
import stat

import pytest

from interpreter.definition import cache

from interpreter.language import compiler

from interpreter.language import dsl
from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError

from conftest import ROOT


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(d))
    monkeypatch.delenv("MEEPLE_CACHE", raising=False)
    return d


@pytest.fixture
def market(tmp_path):
    """A copy of the example game, to change its files."""
    return shutil.copytree(ROOT / "examples" / "market_day", tmp_path / "market_day")


def fresh(path, *overlays):
    """A load as a new process would do it: no parsed rules or generated code in memory."""
    dsl.TREES.clear()
    compiler.CODES.clear()
    return load_game(path, list(overlays))


def played(game, players=3, seed=5):
    r = random.Random(seed)
    s = game.new_game(players, seed=seed)
    ids = []
    while not game.is_over(s):
        acts = game.legal_actions(s)
        a = acts[r.randrange(len(acts))]
        ids.append((a["id"], a["label"]["en"]))
        s = game.apply(s, a)
    return ids, game.to_json(s), game.outcome(s)


def entries(d):
    return sorted(d.glob("*.bin"))


def test_the_second_load_comes_from_the_cache_and_plays_the_same_games(cache_dir):
    first = fresh("puerto_rico")
    assert first.load_source == "files" and len(entries(cache_dir)) == 1
    again = fresh("puerto_rico")
    assert again.load_source == "cache"
    assert again.content_hash == first.content_hash
    for players, seed in ((3, 1), (5, 2)):
        assert played(again, players, seed) == played(first, players, seed)


def test_a_load_from_the_cache_tries_only_the_defs_that_were_found_pure(cache_dir, monkeypatch):
    from interpreter.language import puredefs
    first = fresh("castles_of_burgundy")
    verdicts = {k: v is not None for k, v in first.world.compiler._pure_defs.items()}
    assert any(verdicts.values()) and not all(verdicts.values())
    tried = []
    trial = puredefs._compile
    monkeypatch.setattr(puredefs, "_compile", lambda c, name, *rest: tried.append(name) or trial(c, name, *rest))
    again = fresh("castles_of_burgundy")
    assert again.load_source == "cache"
    assert sorted(tried) == sorted(name for (name, _), pure in verdicts.items() if pure)
    assert {k: v is not None for k, v in again.world.compiler._pure_defs.items()} == verdicts
    assert played(again, 2, 3) == played(first, 2, 3)


def test_the_cache_directory_is_private(cache_dir):
    fresh("puerto_rico")
    mode = stat.S_IMODE(os.stat(cache_dir).st_mode)
    assert mode == 0o700
    for f in entries(cache_dir):
        assert stat.S_IMODE(os.stat(f).st_mode) & 0o077 == 0


def test_a_changed_file_is_a_miss_and_its_new_rules_are_used(cache_dir, market):
    fresh(market)
    table = market / "game.yaml"
    text = table.read_text(encoding="utf-8")
    assert "short_game" in text
    table.write_text(text + "\n# a comment changes the key\n", encoding="utf-8")
    again = fresh(market)
    assert again.load_source == "files" and len(entries(cache_dir)) == 2


def test_positions_in_messages_survive_the_cache(cache_dir):
    first = fresh("puerto_rico")
    again = fresh("puerto_rico")
    d1, d2 = first.definition, again.definition
    for path in (("steps", "build"), ("defs", "may_build(p, b)"), ("flow",)):
        assert str(d2.where(path)) == str(d1.where(path))
    assert str(d2.locate(("steps", "build", "actions", "build", "effect"), 2, 5)) == \
        str(d1.locate(("steps", "build", "actions", "build", "effect"), 2, 5))


def test_a_corrupt_or_foreign_entry_is_a_miss_not_an_error(cache_dir):
    fresh("puerto_rico")
    (entry,) = entries(cache_dir)
    blob = bytearray(entry.read_bytes())
    blob[-10] ^= 0xFF
    entry.write_bytes(bytes(blob))
    assert fresh("puerto_rico").load_source == "files"
    (entry,) = entries(cache_dir)
    entry.write_bytes(b"garbage")
    assert fresh("puerto_rico").load_source == "files"
    assert fresh("puerto_rico").load_source == "cache"


def test_an_entry_others_may_write_is_not_used(cache_dir):
    fresh("puerto_rico")
    (entry,) = entries(cache_dir)
    os.chmod(entry, 0o666)
    assert fresh("puerto_rico").load_source == "files"


def test_a_directory_others_may_use_is_not_used(cache_dir):
    cache_dir.mkdir(mode=0o700)
    os.chmod(cache_dir, 0o777)
    game = fresh("puerto_rico")
    assert game.load_source == "files" and entries(cache_dir) == []


def test_a_definition_with_problems_is_never_stored(cache_dir, market):
    f = market / "game.yaml"
    f.write_text(f.read_text(encoding="utf-8").replace("flow:", "flow_typo:", 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DefinitionError):
            fresh(market)
    assert entries(cache_dir) == []


def test_overlays_are_part_of_the_key(cache_dir):
    two = ROOT / "gamedefs" / "puerto_rico" / "variants"
    overlay = sorted(two.glob("*.yaml"))[0]
    plain, varied = fresh("puerto_rico"), fresh("puerto_rico", overlay)
    assert varied.load_source == "files" and len(entries(cache_dir)) == 2
    assert fresh("puerto_rico", overlay).load_source == "cache"
    assert varied.content_hash != plain.content_hash


def test_the_cache_can_be_turned_off(cache_dir, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE", "off")
    assert fresh("puerto_rico").load_source == "files"
    assert fresh("puerto_rico").load_source == "files"
    assert not cache_dir.exists()


def test_old_entries_are_evicted(cache_dir, monkeypatch):
    cache_dir.mkdir(mode=0o700)
    for i in range(4):
        assert cache.write(cache_dir, f"{i:064x}", {"n": i})
        os.utime(cache_dir / f"{i:064x}.bin", (1000 + i, 1000 + i))
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    cache._evict(cache_dir)
    assert [cache.read(cache_dir, f"{i:064x}") for i in range(4)] == [None, None, {"n": 2, "key": f"{2:064x}"},
                                                                       {"n": 3, "key": f"{3:064x}"}]


def test_the_engine_fingerprint_reads_every_source_of_the_engine_and_no_compiled_file():
    package = ROOT / "interpreter"
    names = [name for name, _ in cache._source_files(package)]
    expected = sorted(str(f.relative_to(package)) for f in package.rglob("*.py") if "__pycache__" not in f.parts)
    assert names == expected
    assert "language/compiler.py" in names and "engine/flow.py" in names
    assert [name for name, _ in cache._source_files(ROOT / "grammar")] == ["dsl.lark"]


def test_the_engine_is_its_package_its_schemas_and_its_grammar():
    from interpreter.definition.resources import data_dir
    assert cache.engine_folders() == [ROOT / "interpreter", data_dir("schemas"), data_dir("grammar")]
    assert cache.engine_fingerprint() == cache.fingerprint_of(cache.engine_folders())


@pytest.mark.parametrize("folder, name", [("interpreter", "engine/flow.py"), ("grammar", "dsl.lark"),
                                          ("schemas", "gamedef.schema.json")])
def test_any_change_to_a_file_of_the_engine_changes_the_key(tmp_path, folder, name):
    copy = shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    before = cache.fingerprint_of([copy])
    with open(copy / name, "a", encoding="utf-8") as f:
        f.write(" ")
    assert cache.fingerprint_of([copy]) != before
    (copy / name).rename(copy / (name + ".moved.py"))  # a file by another name is another engine
    assert cache.fingerprint_of([copy]) != before


def test_an_entry_stored_under_another_games_key_is_a_miss(cache_dir, market):
    high = ROOT / "examples" / "high_card"
    fresh(high)
    [high_entry] = entries(cache_dir)
    fresh(market)
    [market_entry] = set(entries(cache_dir)) - {high_entry}
    os.replace(high_entry, market_entry)  # Market Day's name now holds High Card
    game = fresh(market)
    assert game.id == "market_day" and game.load_source == "files"


def test_a_rule_of_any_depth_is_stored_and_read_back(cache_dir, tmp_path):
    terms = " and ".join(f"n >= {i % 3 - 5}" for i in range(500))
    root = tmp_path / "chain"
    root.mkdir()
    (root / "game.yaml").write_text(f"""
game: {{id: chain, players: [2]}}
vars: {{global: {{n: {{}}}}}}
steps: {{s: {{actions: {{go: {{if: "{terms}", effect: "n += 1"}}}}}}}}
flow: {{each_player: {{step: s}}}}
scoring: {{items: {{n: {{expr: "n"}}}}}}
""", encoding="utf-8")
    first = fresh(root)
    again = fresh(root)
    assert (first.load_source, again.load_source) == ("files", "cache")
    assert again.legal_actions(again.new_game(2), labels=False)[0]["id"] == "go"


def test_the_key_is_hashed_from_the_very_bytes_that_are_compiled(cache_dir, market, monkeypatch):
    """A file saved while a game loads: the game and the entry stored for it are the text that was hashed,
    so an entry never holds rules its key does not name."""
    path = market / "game.yaml"
    old = path.read_text(encoding="utf-8")
    assert "Market Day" in old
    new = old.replace("Market Day", "Fair Day")
    key = cache.key

    def saved_meanwhile(root, overlays):
        k = key(root, overlays)
        path.write_text(new, encoding="utf-8")  # an editor saves the file between the hash and the compile
        return k
    monkeypatch.setattr(cache, "key", saved_meanwhile)
    during = fresh(market)
    monkeypatch.setattr(cache, "key", key)
    assert "Market Day" in str(during.definition["game"]["name"])
    path.write_text(old, encoding="utf-8")  # back to the text that was hashed: its entry holds that text
    back = fresh(market)
    assert back.load_source == "cache" and "Market Day" in str(back.definition["game"]["name"])
    path.write_text(new, encoding="utf-8")
    assert "Fair Day" in str(fresh(market).definition["game"]["name"])


def test_a_write_that_fails_leaves_no_entry_and_no_temporary_file(cache_dir, monkeypatch):
    cache_dir.mkdir(mode=0o700)

    def fails(*a):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", fails)
    assert cache.write(cache_dir, "ab" * 32, {"n": 1}) is False
    assert list(cache_dir.iterdir()) == []
