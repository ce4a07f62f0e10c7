"""Resuming the normal flow at a step or phase: the flow stack a game has when it reaches a given node.

A scenario that starts at a step usually wants the rest of the game to follow as the rules say (the next
player's turn, the next phase, the end of the round). `resume_stack` finds the first path from the game's
flow to the node, through sequences, ifs, repeats, each_player loops and calls of phases, and builds the
frames the machine would have there: each sequence just past the child on the path, each loop in its first
pass, each each_player loop in its own order (its `order` or `from`, computed in the given position) at the
given player, the players after them still to come.
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


def _each_frame(game, node_id, node, player, s):
    """The frame of an each_player loop whose turn has come to `player`: its order as the loop computes
    it (in state s), positioned at that player."""
    (ff, fn_), direction, mode, limit, (of, on) = node.extra
    env = [player, None] + [None] * (max(fn_, on) - 2)
    try:
        if of is not None:
            order = list(of(s, env))
        else:
            first = ff(s, env) if ff is not None else 0
            first = 0 if first is None else first
            order = [(first + direction * k) % s.n for k in range(s.n)]
    except Exception:  # an order the position cannot give yet: round the table from the player
        order = [(player + k) % s.n for k in range(s.n)]
    i = order.index(player) if player in order else 0
    if mode == "one_left":
        return [node_id, player, None, i, order, 0, 1]
    return [node_id, player, None, i + 1, order, 0, 0]


def resume_stack(game, target, player, n, s=None):
    """The flow stack (frames) of a game that has just reached node `target` with `player` bound (in state
    `s`, which an each_player loop's order is computed from); None when the game's flow never reaches it."""
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
            if s is not None:
                stack.append(_each_frame(game, parent, node, player, s))
            else:
                stack.append([parent, player, None, 1, [(player + k) % n for k in range(n)], 0, 0])
        # an if or a call is gone from the stack once it has chosen its child
    stack.append([target, player, None, 0, None, 0, 0])
    return stack

