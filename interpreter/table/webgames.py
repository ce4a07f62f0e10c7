"""The games a web table server serves, each named by a short name, never by a path of the server.

    catalog = Catalog(game_dirs=["examples/number_run"])   # the shipped games, and an author's folders
    catalog.names()                  # ["castles_of_burgundy", ..., "number_run", ...]
    catalog.variants("my_game")     # ["short_game"]: the files of the game's variants/ folder, by name
    game = catalog.game("my_game", ("short_game",))   # compiled once, shared by every table

A request names a game and its variants by these names only; whatever else it names is refused, so no
request makes the server read a file of its choosing. A compiled game is kept once per definition and
variants: every table of it shares that one (a table is its state and record). At most
`max_loaded` are kept for new tables (the least recently used is let go; a game some table still plays
stays alive through that table, and is found again by the next one).
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from pathlib import Path

from ..definition.overlay import overlay_base
from .words import LANGS


class UnknownGame(ValueError):
    """A name that is not a served game or not one of its variants (the message says what is served)."""


class Catalog:
    def __init__(self, game_dirs=(), shipped: bool = True, max_loaded: int = 24):
        self.folders: dict[str, Path] = {}       # name -> the game's folder (never shown)
        self.problems: dict[str, str] = {}       # name -> why it is not served (for the server's console)
        if shipped:
            from ..definition.resources import gamedefs_dirs

            for root in reversed(gamedefs_dirs()):  # the checkout's copy wins
                for d in sorted(root.iterdir()) if root.is_dir() else ():
                    if d.is_dir() and not d.name.startswith((".", "_")) and (d / "game.yaml").is_file():
                        self.folders[d.name] = d.resolve()
        self.authored: list[str] = []
        self.extra: dict[str, dict[str, Path]] = {}   # game -> variant name -> an overlay file given apart
        overlays = []
        for raw in game_dirs:                      # an author's folder shadows a shipped game of its name
            d = Path(raw)
            if d.is_file():
                overlays.append(d.resolve())
                continue
            self.folders[d.resolve().name] = d.resolve()
            self.authored.append(d.resolve().name)
        for f in overlays:                         # an overlay file: a variant of the game it names
            base = overlay_base(f)
            base = Path(str(base)).name if base else None
            if base in self.folders:
                self.extra.setdefault(base, {})[f.stem] = f
            else:
                self.problems[f.name] = f"an overlay of {base or 'no game'}, which is not served"
        self.max_loaded = max_loaded
        self._recent: OrderedDict = OrderedDict()
        self._alive: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
        self._lock = threading.RLock()
        self._infos: dict[str, dict] | None = None

    # ------------------------------------------------------------------ names
    def names(self) -> list[str]:
        return sorted(self.folders)

    def variants(self, name: str) -> list[str]:
        """The variants of a served game by name: the files of its variants/ folder, and the overlay files
        the server was given for it."""
        folder = self.folders.get(name)
        found = set(self.extra.get(name, {}))
        if folder is not None and (folder / "variants").is_dir():
            found.update(p.stem for p in (folder / "variants").glob("*.yaml") if p.is_file())
        return sorted(found)

    def variant_file(self, name: str, variant: str) -> Path:
        return self.extra.get(name, {}).get(variant) or self.folders[name] / "variants" / f"{variant}.yaml"

    def check(self, name, variants=()) -> tuple[str, tuple[str, ...]]:
        """`name` and `variants` if this server serves them; UnknownGame otherwise (naming what it serves,
        never echoing what was asked beyond a short shown form)."""
        if not isinstance(name, str) or name not in self.folders or (self._infos is not None and name not in self._infos):
            served = self.playable() if self._infos is not None else self.names()
            raise UnknownGame(f"no game of that name here; this server serves: {', '.join(served)}")
        known = self.variants(name)
        out = []
        for v in variants or ():
            if not isinstance(v, str) or v not in known:
                raise UnknownGame(f"not a variant of {name}; its variants: {', '.join(known) or 'none'}")
            if v not in out:
                out.append(v)
        return name, tuple(out)

    # ------------------------------------------------------------------ compiled games
    def game(self, name: str, variants=()):
        """The compiled game (shared); UnknownGame for a name not served, DefinitionError if it does not
        load (an author's folder being edited)."""
        from ..game import load_game

        name, variants = self.check(name, variants)
        key = (name, variants)
        with self._lock:
            game = self._recent.get(key) or self._alive.get(key)
            if game is None:
                folder = self.folders[name]
                game = load_game(folder, variant=[self.variant_file(name, v) for v in variants] or None)
                game.served_as = key
                self._alive[key] = game
            self._recent[key] = game
            self._recent.move_to_end(key)
            while len(self._recent) > self.max_loaded:
                self._recent.popitem(last=False)
            return game

    def loaded(self) -> int:
        """How many compiled games are alive (kept, or held by a table)."""
        return len(self._alive)

    # ------------------------------------------------------------------ the lobby's list
    def infos(self) -> dict[str, dict]:
        """Per playable game: its names by language, player counts, options with defaults, variants
        (loaded once; a game that does not load is left out, its problem kept for the console)."""
        with self._lock:
            if self._infos is None:
                from ..definition.problems import DefinitionError

                infos = {}
                for name in self.names():
                    try:
                        g = self.game(name)
                    except DefinitionError as exc:
                        self.problems[name] = "; ".join(str(p) for p in exc.problems[:3])
                        continue
                    options = {k: _option(v) for k, v in (g.options or {}).items()}
                    infos[name] = {"id": name, "names": dict(g.name), "players": list(g.player_counts),
                                   "options": options, "variants": self.variants(name),
                                   "langs": sorted(set(g.name) | set(_words_langs(g)))}
                self._infos = infos
            return self._infos

    def playable(self) -> list[str]:
        return [n for n in self.names() if n in self.infos()]

    def reload(self) -> None:
        """Forget the compiled games and the lobby's list (an author's files changed)."""
        with self._lock:
            self._recent.clear()
            self._infos = None

    def game_list(self, lang: str) -> list[dict]:
        return [{"id": n, "name": i["names"].get(lang) or i["names"].get("en") or n, "players": i["players"]}
                for n, i in self.infos().items()]

    def languages(self) -> list[str]:
        """The languages the served games speak: the table's own, and those their definitions give."""
        out = set(LANGS)
        for info in self.infos().values():
            out.update(info["langs"])
        return sorted(out)


def _yaml_text(value) -> str:
    """A value as it is typed into an option's field (read back by the hardened YAML reader)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _option(spec: dict) -> dict:
    """An option as the lobby offers it: its label, its default and its values, each as typed."""
    values = spec.get("values") if isinstance(spec.get("values"), list) else []
    return {"label": spec.get("label") if isinstance(spec.get("label"), dict) else {},
            "default": _yaml_text(spec.get("default")), "values": [_yaml_text(v) for v in values]}


def _words_langs(game) -> list[str]:
    words = game.definition["words"]
    return [str(k) for k in words] if isinstance(words, dict) else []
