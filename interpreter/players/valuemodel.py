"""A learned value: each seat's final score (and result) predicted from the features of a position.

    model = ValueModel.load(path)                    # plain JSON, never pickle
    judge = model.bind(game)                         # refuses a model of other rules (StaleModel)
    judge.scores(state)                              # each seat's predicted final score
    judge.utility(state, seat)                       # what the seat plays for (`evaluator.Objective`)

A model is two linear heads over `features.FeatureSpace` (weights stored by feature name): `score`, the
seat's final score, and `result`, its share of the win (1 a win, split on a shared win, 0 a loss). Each
head predicts one seat's value from that seat's own features, so one model serves every seat. It is
stamped with the hash of the rules it was trained on (`rules_hash`: the definition's data without labels,
sources and notes), and `bind` refuses it for other rules, naming both; a variant is bound to its base
game's model on purpose (`bind(game, base=True)`), since its features have the same names.

`evaluator.Evaluator` (what `bind` returns) computes the heads and what each seat plays for.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

FORMAT = 1
MODEL_DIR = "models"        # beside the definition's files
MAX_MODEL_BYTES = 8 << 20   # a model file is read as untrusted input: bounded
HEADS = ("score", "result")
PRESENTATION_KEYS = frozenset(("label", "labels", "source", "provisional", "note", "notes", "description",
                               "words", "display", "scenarios", "comment"))


class ModelError(ValueError):
    """A model file that cannot be read, or that does not fit the game it is used with."""


class StaleModel(ModelError):
    """A model trained on other rules than the game's."""


def rules_hash(game) -> str:
    """The SHA-256 of a definition's rules: its merged data without what only people read (labels,
    sources, notes, display) and without the format version the files state, so rewording a label or
    upgrading a file keeps a model and changing a number does not (computed once per game)."""
    known = game.__dict__.get("_rules_hash")
    if known is None:
        data = _without_presentation(_plain(game.world.d))
        if isinstance(data.get("game"), dict):  # the format version says how the files are read, not a rule
            data["game"] = {k: v for k, v in data["game"].items() if k != "format"}
        text = json.dumps(data, sort_keys=True, ensure_ascii=True, default=str, separators=(",", ":"))
        known = game.__dict__["_rules_hash"] = hashlib.sha256(text.encode("ascii")).hexdigest()
    return known


def _plain(d):
    if hasattr(d, "sections"):
        return {k: _plain(v) for k, v in d.sections.items()}
    if isinstance(d, dict):
        return {str(k): _plain(v) for k, v in d.items()}
    if isinstance(d, (list, tuple)):
        return [_plain(v) for v in d]
    return d


def _without_presentation(d):
    if isinstance(d, dict):
        return {k: _without_presentation(v) for k, v in d.items() if k not in PRESENTATION_KEYS}
    if isinstance(d, list):
        return [_without_presentation(v) for v in d]
    return d


class ValueModel:
    """Weights by feature name for each head, the game and rules they were learned on, the player
    counts they serve, the usual length of a game per count, and how they were made."""

    def __init__(self, game_id: str, rules: str, players: list[int], heads: dict[str, dict[str, float]],
                 length: dict[int, float], scale: float = 1.0, trained: dict | None = None):
        self.game_id, self.rules, self.players = game_id, rules, sorted(players)
        self.heads = {h: dict(w) for h, w in heads.items()}
        self.length = {int(k): float(v) for k, v in length.items()}
        self.scale = float(scale)       # the spread of final scores: the unit of a margin
        self.trained = dict(trained or {})

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict:
        return {"format": FORMAT, "kind": "meeple value model", "game": self.game_id, "rules_hash": self.rules,
                "players": self.players, "length": {str(k): round(v, 3) for k, v in sorted(self.length.items())},
                "scale": round(self.scale, 6), "trained": self.trained,
                "heads": {h: {k: round(v, 9) for k, v in sorted(w.items()) if v} for h, w in self.heads.items()}}

    def save(self, path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def from_json(cls, d, where: str = "model") -> "ValueModel":
        if not isinstance(d, dict) or d.get("kind") != "meeple value model":
            raise ModelError(f"{where}: not a meeple value model")
        if d.get("format") != FORMAT:
            raise ModelError(f"{where}: model format {d.get('format')!r}; this meeple reads format {FORMAT}")
        try:
            heads = {}
            for h, w in d["heads"].items():
                if h not in HEADS or not isinstance(w, dict):
                    raise ModelError(f"{where}: unknown head {h!r}")
                heads[h] = {str(k): _finite(v, where) for k, v in w.items()}
            players = [int(p) for p in d["players"]]
            length = {int(k): _finite(v, where) for k, v in d["length"].items()}
            return cls(str(d["game"]), str(d["rules_hash"]), players, heads, length, _finite(d.get("scale", 1.0), where),
                       d.get("trained") if isinstance(d.get("trained"), dict) else {})
        except (KeyError, TypeError, ValueError, AttributeError) as ex:
            if isinstance(ex, ModelError):
                raise
            raise ModelError(f"{where}: {type(ex).__name__}: {ex}") from None

    @classmethod
    def load(cls, path) -> "ValueModel":
        path = Path(path)
        try:
            if path.stat().st_size > MAX_MODEL_BYTES:
                raise ModelError(f"{path.name}: a model file is at most {MAX_MODEL_BYTES >> 20} MiB")
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as ex:
            raise ModelError(f"{path.name}: cannot read the model: {ex}") from None
        return cls.from_json(data, path.name)

    @classmethod
    def mean(cls, models: list["ValueModel"], trained: dict | None = None) -> "ValueModel":
        """The model whose weights, usual lengths and score scale are the means of `models`' (a weight a
        model lacks counts as 0): each run of self-play makes a model of its own luck, and the mean of a
        few runs' linear values is one linear value that often errs less than they do (not always: README,
        "The mean of a few runs"). ModelError unless
        they share the game, the rules and the player counts."""
        if not models:
            raise ModelError("no model to average")
        first = models[0]
        for m in models[1:]:
            if (m.game_id, m.rules, m.players) != (first.game_id, first.rules, first.players):
                raise ModelError(f"the models to average differ: {first.game_id} at {first.players} "
                                 f"(rules hash {first.rules[:12]}) and {m.game_id} at {m.players} "
                                 f"(rules hash {m.rules[:12]}): average models of the same rules and counts")
        k = len(models)
        heads = {}
        for h in HEADS:
            names = sorted(set().union(*(m.heads.get(h, {}) for m in models)))
            heads[h] = {n: math.fsum(m.heads.get(h, {}).get(n, 0.0) for m in models) / k for n in names}
        length = {n: math.fsum(m.length.get(n, first.length[n]) for m in models) / k for n in first.length}
        return cls(first.game_id, first.rules, first.players, heads, length,
                   math.fsum(m.scale for m in models) / k, trained)

    # ------------------------------------------------------------------ use
    def check(self, game) -> None:
        """StaleModel unless this model was trained on `game`'s rules."""
        now = rules_hash(game)
        if now != self.rules:
            raise StaleModel(f"the model of {self.game_id} was trained on other rules (rules hash "
                             f"{self.rules[:12]}, the definition's is now {now[:12]}): train it again with "
                             f"`meeple train {game.id}`")

    def bind(self, game, checked: bool = True):
        """An `evaluator.Evaluator` of this model on `game` (checked against its rules unless `checked` is
        False: a variant uses its base game's model, checked against the base)."""
        from .evaluator import Evaluator
        if checked:
            self.check(game)
        return Evaluator(game, self)

    def serves(self, players: int) -> bool:
        return players in self.players


def _finite(v, where) -> float:
    f = float(v)
    if not math.isfinite(f):
        raise ModelError(f"{where}: a weight is not a finite number")
    return f
