"""Resuming the normal flow at a step or phase: the flow stack a game has when it reaches a given node.

A scenario that starts at a step usually wants the rest of the game to follow as the rules say (the next
player's turn, the next phase, the end of the round). `resume_stack` finds the first path from the game's
flow to the node, through sequences, ifs, repeats, each_player loops and calls of phases, and builds the
frames the machine would have there: each sequence just past the child on the path, each loop in its first
pass, each each_player loop at the given player (the players after them still to come).
"""

from __future__ import annotations

from .flow import CALL, EACH, IF, REPEAT, SEQ


def _children(game, node):
    """(child node id, how the parent's frame looks when that child runs) for every child of a node."""
    k = node.kind
    if k == SEQ:
        return [(c, ("seq", i)) for i, c in enumerate(node.children)]
    if k in (REPEAT, EACH):
        return [(node.children[0], ("loop", 0))] if node.children and node.children[0] is not None else []
    if k == IF:
        return [(c, None) for c in node.children if c is not None]
    if k == CALL:
        if node.extra is not None:
            return [(node.extra, None)]
        return [(r, None) for r in game.phase_root.values()]  # a call by expression: any phase
    return []


def _path(game, start, target):
    """The node ids from `start` to `target` (both included), depth first, or None."""
    todo = [(start, [start])]
    seen = set()
    while todo:
        nid, path = todo.pop()
        if nid == target:
            return path
        if nid in seen:
            continue
        seen.add(nid)
        for c, _ in reversed(_children(game, game.nodes[nid])):
            todo.append((c, path + [c]))
    return None


def resume_stack(game, target, player, n):
    """The flow stack (frames) of a game that has just reached node `target` with `player` bound; None when
    the game's flow never reaches it."""
    if game.root is None:
        return None
    path = _path(game, game.root, target)
    if path is None:
        return None
    stack = []
    for parent, child in zip(path, path[1:]):
        node = game.nodes[parent]
        if node.kind == SEQ:
            stack.append([parent, player, None, node.children.index(child) + 1, None, 0, 0])
        elif node.kind == REPEAT:
            stack.append([parent, player, None, 1, None, 0, 0])
        elif node.kind == EACH:
            order = [(player + k) % n for k in range(n)]
            stack.append([parent, player, None, 1, order, 0, 0])
        # an if or a call is gone from the stack once it has chosen its child
    stack.append([target, player, None, 0, None, 0, 0])
    return stack

