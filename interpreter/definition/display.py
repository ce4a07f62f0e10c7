"""How a game is laid out for people: the optional `display:` section of a definition, with defaults.

    spec = display_spec(game)      # DisplaySpec: areas, zone shapes, boards, tracks

The section only guides the picture; it never changes a rule. Without it every var and zone is shown
in the order it is declared, a zone of pieces laid out as a graph (`graph:` on their class) is a board,
a hidden zone shows its size, and every other zone is a row of pieces.

```yaml
display:
  player: [coins, workers, hand, board]              # a player's area, in this order (others hidden)
  shared: [market, supply, deck]                       # the shared area, in this order (a zone family's
                                                       # name: all its zones; NAME[value]: one of them)
  hide: [bookkeeping]                                  # or: everything but these
  zones:
    hand: {as: hand}                                   # row (default), hand, stack or board
    board:
      as: board
      rows: [4, 5, 6, 7, 6, 5, 4]                      # cells per row, in the order of `order`
      order: num                                       # the property that numbers the cells
      symbol: terrain                                  # a kind-valued property or field: the cell's letter
      number: value                                    # a property or field shown beside the letter
      owner: claimed_by                                # a player-valued field: the seat shown on the cell
      content: tile                                    # what lies on the cell: a piece-valued field of
                                                       # the cell, or a zone each cell holds (zones: piece:)
      stagger: hex                                     # rows of a hex map (short rows are centred)
                                                       # symbol, number and owner are read from what lies
                                                       # on the cell where it has them, else from the cell
                                                       # a board generated from a size (`board:`) is drawn
                                                       # as its grid, each space at its coordinates
  tracks:
    vp: {length: 100}                                  # a player var drawn as a track of every player
  scripted:
    neutral: [vp, hand]                                # a scripted seat's area (default: as `player`)
  colors: {forest: "#2e6b3a"}                          # colours of kind values on a board's cells
```
"""
from __future__ import annotations

from dataclasses import dataclass, field

ZONE_SHAPES = ("row", "hand", "stack", "board")


@dataclass
class BoardSpec:
    rows: list[int] | None = None
    order: str | None = None
    symbol: str | None = None
    number: str | None = None
    content: str | None = None
    stagger: str = "square"
    owner: str | None = None
    content_zone: bool = False        # `content` names a zone each cell holds, not a field
    grid: dict | None = None          # a generated board: {"layout", "cols", "rows"}: cells at their coordinates


@dataclass
class DisplaySpec:
    player: list[str] = field(default_factory=list)    # player vars and zones, in order
    shared: list[str] = field(default_factory=list)    # global vars and zones, in order
    shapes: dict[str, str] = field(default_factory=dict)          # zone -> row/hand/stack/board/hidden
    boards: dict[str, BoardSpec] = field(default_factory=dict)    # zone -> its board
    tracks: dict[str, dict] = field(default_factory=dict)         # player var -> {length, label}
    colors: dict[str, str] = field(default_factory=dict)          # kind value -> #rrggbb
    scripted: dict[str, list[str]] = field(default_factory=dict)  # scripted seat -> its area (default: player)


def _graph_classes(game) -> set[str]:
    comps = game.definition["components"] or {}
    return {name for name, c in comps.items() if isinstance(c, dict) and (c.get("graph") or c.get("board"))}


def _grid(cls: dict) -> dict | None:
    """The grid of a board generated from its size (`board:` on a class), for drawing it."""
    spec = cls.get("board")
    if not isinstance(spec, dict):
        return None
    layout, size = spec.get("layout", "square"), spec.get("size")
    if layout == "hexagon" and type(size) is int:
        return {"layout": layout, "cols": 2 * size - 1, "rows": 2 * size - 1}
    cols, rows = (size, size) if type(size) is int else (size if isinstance(size, list) and len(size) == 2
                                                          else (1, 1))
    return {"layout": layout, "cols": cols, "rows": rows}


def expand_names(w, scope: str, names) -> list[str]:
    """The zones and vars a display list names: a zone family's name stands for all its zones, in its kind's
    order; anything else for itself."""
    families = w.gfamilies if scope == "global" else w.pfamilies
    out = []
    for name in names or []:
        if name in families:
            kind = families[name][0]
            out.extend(f"{name}[{v}]" for v in w.kinds.get(kind, []))
        else:
            out.append(name)
    return out


def _home_zones(game) -> dict[str, str]:
    """zone name -> the class whose pieces start there (the first one declared)."""
    homes: dict[str, str] = {}
    for name, c in (game.definition["components"] or {}).items():
        if isinstance(c, dict) and isinstance(c.get("zone"), str):
            homes.setdefault(c["zone"], name)
    return homes


def display_spec(game) -> DisplaySpec:
    """The display of `game`: its `display:` section where it says something, defaults elsewhere."""
    cached = getattr(game, "_display_spec", None)
    if cached is not None:
        return cached
    d = game.definition
    section = d.sections.get("display") or {}
    w = game.world
    pnames = [n for n, _, _ in w.var_defs["player"]] + list(w.layout.pzones)
    gnames = [n for n, _, _ in w.var_defs["global"]] + list(w.layout.gzones)
    hide = set(expand_names(w, "global", expand_names(w, "player", section.get("hide"))))
    spec = DisplaySpec(
        player=[n for n in (expand_names(w, "player", section.get("player")) or pnames)
                if n in pnames and n not in hide],
        shared=[n for n in (expand_names(w, "global", section.get("shared")) or gnames)
                if n in gnames and n not in hide],
    )
    graph, homes = _graph_classes(game), _home_zones(game)
    zdefs = section.get("zones") or {}
    for scope, names in (("global", w.layout.gzones), ("player", w.layout.pzones)):
        for name in names:
            z = zdefs.get(name) or {}
            shape = z.get("as") or ("board" if homes.get(name) in graph else "row")
            if w.zone_visibility.get((scope, name)) == "hidden":
                shape = "hidden"
            spec.shapes[name] = shape
            if shape == "board":
                cls = (d["components"] or {}).get(homes.get(name)) or {}
                g = cls.get("graph") or {}
                grid = _grid(cls)
                spec.boards[name] = BoardSpec(rows=z.get("rows"), order=z.get("order") or g.get("id"),
                                              symbol=z.get("symbol"), number=z.get("number"),
                                              content=z.get("content"), owner=z.get("owner"),
                                              content_zone=z.get("content") in (w.piece_zones or {}),
                                              grid=grid,
                                              stagger=z.get("stagger") or (
                                                  "rhombus" if grid and grid["layout"] == "hex" else
                                                  "hex" if grid and grid["layout"] == "hexagon" else "square"))
    spec.colors = dict(section.get("colors") or {})
    for name, names in (section.get("scripted") or {}).items():
        spec.scripted[name] = [n for n in expand_names(w, "player", names) if n in pnames and n not in hide]
    for name, t in (section.get("tracks") or {}).items():
        spec.tracks[name] = dict(t or {})
    game._display_spec = spec
    return spec


def check_display(w) -> None:
    """Report (through `w.error`, with a did-you-mean) every name of the `display:` section that the
    definition does not have: a var or zone of the wrong scope, a property, a field, a kind value."""
    from .problems import did_you_mean

    section = w.d.sections.get("display") or {}
    pnames = [n for n, _, _ in w.var_defs["player"]] + list(w.layout.pzones)
    gnames = [n for n, _, _ in w.var_defs["global"]] + list(w.layout.gzones)
    families = {"player": list(w.pfamilies), "shared": list(w.gfamilies),
                "hide": list(w.pfamilies) + list(w.gfamilies)}
    known = {"player": pnames, "shared": gnames, "hide": pnames + gnames}
    for key, names in known.items():
        names = names + families[key]  # a family's name: all its zones
        for i, name in enumerate(section.get(key) or []):
            if name not in names:
                w.error(f"display.{key}: no {'player' if key == 'player' else 'global' if key == 'shared' else ''} "
                        f"var or zone '{name}'".replace("  ", " "), ("display", key, i), did_you_mean(name, names))
    zones = list(w.layout.gzones) + list(w.layout.pzones)
    for name, z in (section.get("zones") or {}).items():
        if name not in zones:
            w.error(f"display.zones: no zone '{name}'", ("display", "zones", name), did_you_mean(name, zones))
            continue
        if (z or {}).get("order") is not None and z["order"] not in w.props:
            w.error(f"display.zones.{name}.order: no property '{z['order']}'", ("display", "zones", name, "order"),
                    did_you_mean(z["order"], w.props))
        for key in ("symbol", "number", "owner"):
            if (z or {}).get(key) is not None and z[key] not in w.props and z[key] not in w.fields:
                w.error(f"display.zones.{name}.{key}: no property or field '{z[key]}'", ("display", "zones", name, key),
                        did_you_mean(z[key], list(w.props) + list(w.fields)))
        contents = list(w.fields) + list(w.piece_zones or {})
        if (z or {}).get("content") is not None and z["content"] not in contents:
            w.error(f"display.zones.{name}.content: no field or piece zone '{z['content']}'",
                    ("display", "zones", name, "content"), did_you_mean(z["content"], contents))
    for name, names in (section.get("scripted") or {}).items():
        if name not in w.scripted.names:
            w.error(f"display.scripted: no scripted seat '{name}'", ("display", "scripted", name),
                    did_you_mean(name, w.scripted.names))
        for i, n in enumerate(names or []):
            if n not in pnames:
                w.error(f"display.scripted.{name}: no player var or zone '{n}'", ("display", "scripted", name, i),
                        did_you_mean(n, pnames))
    player_vars = [n for n, _, _ in w.var_defs["player"]]
    for name in section.get("tracks") or {}:
        if name not in player_vars:
            w.error(f"display.tracks: no player var '{name}'", ("display", "tracks", name),
                    did_you_mean(name, player_vars))
    for value in section.get("colors") or {}:
        if value not in w.kind_values:
            w.error(f"display.colors: no kind value '{value}'", ("display", "colors", value),
                    did_you_mean(value, w.kind_values))
