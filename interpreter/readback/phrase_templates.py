"""The words of DSL constructs: one template per grammar construct and per vocabulary function, in English,
Chinese and the structural language `dsl`.

`dsl` writes every construct back as DSL text, fully parenthesized, with each name as its identifier: the
rendering of an expression in `dsl` parses back to the same tree (interpreter/readback/phrases.py walks the
tree the same way for every language, so what `dsl` proves about the walk holds for the words). The English and
Chinese template of a construct use the same holes as its `dsl` template, so no operand the walk hands them
is dropped; the few that leave one out on purpose are listed in `UNSAID`, with the reason.
"""

from __future__ import annotations

STRUCTURAL = "dsl"

TEMPLATES = {
    "en": {
        "or_": "{a} or {b}", "and_": "{a} and {b}", "not_": "not {a}", "ternary": "{a} if {c}, otherwise {b}",
        "compare.==": "{a} is {b}", "compare.!=": "{a} is not {b}", "compare.<": "{a} is less than {b}",
        "compare.<=": "{a} is at most {b}", "compare.>": "{a} is more than {b}", "compare.>=": "{a} is at least {b}",
        "in_": "{a} is in {b}", "not_in": "{a} is not in {b}",
        "binop.+": "{a} + {b}", "binop.-": "{a} − {b}", "binop.*": "{a} × {b}",
        "binop.//": "{a} ÷ {b} (rounded down)", "binop.%": "the remainder of {a} ÷ {b}", "neg": "−{a}",
        "attr": "{a}'s {b}", "attr.option": "the option “{b}”", "attr.event": "the event's {b}", "arg.player": "player",
        "attr.type": "the type of {a}", "index": "{a} of {b}", "list_": "[{a}]", "number": "{a}",
        "string": "“{a}”", "string.name": "{a}", "name": "{a}", "local": "*{a}*", "def": "*{a}*",
        "def.call": "*{a}*({b})", "call": "{a}({b})", "call_gen": "{a}", "genexp": "{e} for each {x} in {coll}{cond}",
        "assign": "set {a} to {b}", "assign.local": "let {a} be {b}", "augassign.+=": "add {b} to {a}",
        "augassign.-=": "subtract {b} from {a}", "emit": "announce the event “{a}” ({b})", "pass_stmt": "nothing",
        "expr_stmt": "{a}", "simple_stmt": "{a}", "if_stmt": "if {a}:", "elif_clause": "otherwise, if {a}:",
        "else_clause": "otherwise:", "for_stmt": "for each {a} in {b}:", "suite": "{a}", "start_expr": "{a}",
        "while_stmt": "while {a} (at most {b} times):", "call_where": "{a}, through each {x} where {c}",
        "start_stmts": "{a}",
        "cond": " where {c}",
        "agg.sum": "the sum of {e} for each {x} in {coll}{cond}", "agg.count": "the number of {x} in {coll}{cond}",
        "agg.count.true": "the number of {x} in {coll} where {e}",
        "agg.any": "some {x} in {coll}{cond} has {e}", "agg.all": "every {x} in {coll}{cond} has {e}",
        "agg.min": "the least {e} of the {x} in {coll}{cond}{default}",
        "agg.max": "the greatest {e} of the {x} in {coll}{cond}{default}",
        "agg.first": "the first {x} in {coll}{cond}", "agg.first.of": "{e} for the first {x} in {coll}{cond}",
        "agg.list": "the {e} of each {x} in {coll}{cond}", "agg.list.items": "the {x} in {coll}{cond}",
        "agg.sort_by": "the {x} in {coll}{cond}, ordered by {e}",
        "player": "the player", "players": "the players", "player_count": "the number of players",
        "none": "none", "true": "true", "false": "false", "game_ending": "the game is ending",
        "pieces": "all pieces", "self": "this piece", "event": "the event", "sep": ", ",
        "default": " (or {v} if there is none)",
    },
    "zh": {
        "or_": "{a}或{b}", "and_": "{a}且{b}", "not_": "并非{a}", "ternary": "若{c}则为{a},否则为{b}",
        "compare.==": "{a}为{b}", "compare.!=": "{a}不为{b}", "compare.<": "{a}小于{b}",
        "compare.<=": "{a}不超过{b}", "compare.>": "{a}大于{b}", "compare.>=": "{a}至少为{b}",
        "in_": "{a}在{b}中", "not_in": "{a}不在{b}中",
        "binop.+": "{a} + {b}", "binop.-": "{a} − {b}", "binop.*": "{a} × {b}",
        "binop.//": "{a} ÷ {b}(向下取整)", "binop.%": "{a} ÷ {b}的余数", "neg": "−{a}",
        "attr": "{a}的{b}", "attr.option": "选项“{b}”", "attr.event": "事件的{b}", "arg.player": "玩家",
        "attr.type": "{a}的类型", "index": "{a}中的{b}", "list_": "[{a}]", "number": "{a}",
        "string": "“{a}”", "string.name": "{a}", "name": "{a}", "local": "*{a}*", "def": "*{a}*",
        "def.call": "*{a}*({b})", "call": "{a}({b})", "call_gen": "{a}", "genexp": "{coll}中{cond}每个{x}的{e}",
        "assign": "将{a}设为{b}", "assign.local": "令{a}为{b}", "augassign.+=": "{a}增加{b}",
        "augassign.-=": "{a}减少{b}", "emit": "触发事件“{a}”({b})", "pass_stmt": "不做任何事",
        "expr_stmt": "{a}", "simple_stmt": "{a}", "if_stmt": "如果{a}:", "elif_clause": "否则,如果{a}:",
        "else_clause": "否则:", "for_stmt": "对{b}中的每个{a}:", "suite": "{a}", "start_expr": "{a}",
        "while_stmt": "当{a}时重复(至多{b}次):", "call_where": "{a}(只经过满足{c}的{x})",
        "start_stmts": "{a}",
        "cond": "满足{c}的",
        "agg.sum": "{coll}中{cond}每个{x}的{e}之和", "agg.count": "{coll}中{cond}{x}的数量",
        "agg.count.true": "{coll}中满足{e}的{x}的数量",
        "agg.any": "{coll}中有{cond}{x}满足{e}", "agg.all": "{coll}中{cond}每个{x}都满足{e}",
        "agg.min": "{coll}中{cond}{x}的{e}的最小值{default}", "agg.max": "{coll}中{cond}{x}的{e}的最大值{default}",
        "agg.first": "{coll}中第一个{cond}{x}", "agg.first.of": "{coll}中第一个{cond}{x}所对应的{e}",
        "agg.list": "{coll}中{cond}每个{x}的{e}", "agg.list.items": "{coll}中{cond}{x}",
        "agg.sort_by": "{coll}中{cond}{x},按{e}排序",
        "player": "该玩家", "players": "所有玩家", "player_count": "玩家人数",
        "none": "无", "true": "真", "false": "假", "game_ending": "游戏即将结束",
        "pieces": "所有配件", "self": "该配件", "event": "该事件", "sep": "、",
        "default": "(若没有则为{v})",
    },
    STRUCTURAL: {
        "or_": "({a} or {b})", "and_": "({a} and {b})", "not_": "(not {a})", "ternary": "({a} if {c} else {b})",
        "compare.==": "({a} == {b})", "compare.!=": "({a} != {b})", "compare.<": "({a} < {b})",
        "compare.<=": "({a} <= {b})", "compare.>": "({a} > {b})", "compare.>=": "({a} >= {b})",
        "in_": "({a} in {b})", "not_in": "({a} not in {b})",
        "binop.+": "({a} + {b})", "binop.-": "({a} - {b})", "binop.*": "({a} * {b})",
        "binop.//": "({a} // {b})", "binop.%": "({a} % {b})", "neg": "(-{a})",
        "attr": "{a}.{b}", "attr.option": "option.{b}", "attr.event": "event.{b}", "arg.player": "player",
        "attr.type": "{a}.type", "index": "{a}[{b}]", "list_": "[{a}]", "number": "{a}",
        "string": "\"{a}\"", "string.name": "\"{a}\"", "name": "{a}", "local": "{a}", "def": "{a}",
        "def.call": "{a}({b})", "call": "{a}({b})", "call_gen": "{a}", "genexp": "{e} for {x} in {coll}{cond}",
        "assign": "{a} = {b}", "assign.local": "{a} = {b}", "augassign.+=": "{a} += {b}",
        "augassign.-=": "{a} -= {b}", "emit": "emit {a}({b})", "pass_stmt": "pass",
        "expr_stmt": "{a}", "simple_stmt": "{a}", "if_stmt": "if {a}:", "elif_clause": "elif {a}:",
        "else_clause": "else:", "for_stmt": "for {a} in {b}:", "suite": "{a}", "start_expr": "{a}",
        "while_stmt": "while {a} max {b}:", "call_where": "{n}({args}, where {x}: {c})",
        "start_stmts": "{a}",
        "cond": " if {c}",
        "agg.sum": "sum({e} for {x} in {coll}{cond})", "agg.count": "count({e} for {x} in {coll}{cond})",
        "agg.count.true": "count({e} for {x} in {coll})",
        "agg.any": "any({e} for {x} in {coll}{cond})", "agg.all": "all({e} for {x} in {coll}{cond})",
        "agg.min": "min({e} for {x} in {coll}{cond}{default})", "agg.max": "max({e} for {x} in {coll}{cond}{default})",
        "agg.first": "first({e} for {x} in {coll}{cond})", "agg.first.of": "first({e} for {x} in {coll}{cond})",
        "agg.list": "list({e} for {x} in {coll}{cond})", "agg.list.items": "list({e} for {x} in {coll}{cond})",
        "agg.sort_by": "sort_by({e} for {x} in {coll}{cond})",
        "player": "player", "players": "players", "player_count": "player_count",
        "none": "none", "true": "true", "false": "false", "game_ending": "game_ending",
        "pieces": "pieces", "self": "self", "event": "event", "sep": ", ",
        "default": ", default = {v}",
    },
}

# Holes a word template leaves out on purpose (the structural one has them all), with the reason.
UNSAID = {
    # count(e for x in c if d) counts the x with d; e is read only when there is no condition (agg.count.true)
    "agg.count": {"e"},
    # first(x for x in c if d): the element is the item itself (agg.first.of says e when it is not)
    "agg.first": {"e"},
    # list(x for x in c if d): the items themselves (agg.list says the element when it is not the item)
    "agg.list.items": {"e"},
    # the structural form names the call and its arguments; the words give the call as words ({a})
    "call_where": {"n", "args"},
}

# Every function of the vocabulary registry, by arity where it matters ("name/2"). The structural language
# has none: a call is written `name(arguments)` (the template "call").
FUNCTION_WORDS = {
    "en": {
        "len": "the number of {0}", "count": "the number of {0}", "size": "the number of pieces in {0}",
        "values": "the values of {0}", "used": "the space used in {0}", "capacity": "the capacity of {0}",
        "free": "the free space in {0}", "top": "the top piece of {0}", "owner": "the owner of {0}",
        "zone_of": "the zone of {0}", "owns": "{0} owns {1}", "active": "{0} has an active {1}",
        "piece_of": "{0}'s {1}", "is_active": "{0} is active", "neighbors": "the neighbours of {0}",
        "region": "the region of {0} with the same {1}", "next_player/1": "the player after {0}",
        "next_player/2": "the player {1} seats after {0}", "range/1": "the numbers from 0 to {0} − 1",
        "range/2": "the numbers from {0} to {1} − 1", "total": "the total of {0}", "abs": "the size of {0}",
        "min": "the least of ({all})", "max": "the greatest of ({all})", "min/1": "the least of {0}",
        "max/1": "the greatest of {0}", "clamp": "{0}, kept between {1} and {2}",
        "random": "a random number from 0 to {0} − 1", "move/2": "move {0} to {1}",
        "move/3": "move {0} to place {2} of {1}", "draw": "draw the top piece of {0} into {1}",
        "shuffle": "shuffle {0}", "transfer": "move up to {0} from {1} to {2}",
        "end_game": "the game ends at the end of the round: {0}", "ended": "{0} has happened",
        "connected": "the spaces connected to {0}", "groups": "the connected groups of {0}",
        "distance": "the fewest steps from {0} to {1}", "neighbor": "the space next to {0} towards {1}",
        "directions": "the directions of {0}'s board", "append": "append {1} to {0}",
        "remove": "remove {1} from {0}", "index": "the place of {1} in {0}",
        "holder": "the piece that holds {0}", "become": "{0} becomes {1}",
        "reveal/1": "turn {0} face up for everyone", "reveal/2": "show {0} to {1}",
        "face_down": "turn {0} face down", "hide": "{0} follows its zone's visibility again",
        "sees": "{0} may see {1}",
        "tell/3": "tell {0} the {2} of {1}", "tell/4": "tell {0} whether the {2} of {1} is {3}",
        "knows": "{0} knows the {2} of {1}",
    },
    "zh": {
        "len": "{0}的数量", "count": "{0}的数量", "size": "{0}中的配件数", "values": "{0}的所有取值",
        "used": "{0}已用的空间", "capacity": "{0}的容量", "free": "{0}的空余空间", "top": "{0}最上面的配件",
        "owner": "{0}的拥有者", "zone_of": "{0}所在的区域", "owns": "{0}拥有{1}", "active": "{0}拥有生效的{1}",
        "piece_of": "{0}的{1}", "is_active": "{0}生效", "neighbors": "{0}的相邻格",
        "region": "{0}所在的同{1}区域", "next_player/1": "{0}的下一位玩家", "next_player/2": "{0}之后第{1}位玩家",
        "range/1": "从0到{0} − 1的数", "range/2": "从{0}到{1} − 1的数", "total": "{0}的总数",
        "abs": "{0}的绝对值", "min": "({all})中的最小值", "max": "({all})中的最大值", "min/1": "{0}中的最小值",
        "max/1": "{0}中的最大值", "clamp": "{0}(限制在{1}到{2}之间)", "random": "0到{0} − 1之间的随机数",
        "move/2": "将{0}移到{1}", "move/3": "将{0}移到{1}的第{2}位", "draw": "从{0}顶部抽取一个配件放入{1}",
        "shuffle": "洗混{0}", "transfer": "从{1}向{2}转移至多{0}", "end_game": "本轮结束时游戏结束:{0}",
        "ended": "{0}已发生",
        "connected": "与{0}相连的格", "groups": "{0}中相连的各个集团", "distance": "从{0}到{1}的最少步数",
        "neighbor": "{0}朝{1}方向的相邻格", "directions": "{0}所在棋盘的方向", "append": "将{1}加到{0}末尾",
        "remove": "从{0}中移除{1}", "index": "{1}在{0}中的位置",
        "holder": "承载{0}的配件", "become": "{0}变为{1}", "reveal/1": "将{0}向所有人翻开",
        "reveal/2": "将{0}展示给{1}", "face_down": "将{0}背面朝上", "hide": "{0}恢复其区域的可见性",
        "sees": "{0}能看到{1}",
        "tell/3": "告诉{0}{1}的{2}", "tell/4": "告诉{0}{1}的{2}是否为{3}", "knows": "{0}知道{1}的{2}",
    },
    STRUCTURAL: {},
}
AGGREGATE_NAMES = ("sum", "count", "any", "all", "min", "max", "first", "list", "sort_by")
