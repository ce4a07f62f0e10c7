"""The fixed words of the generated rulebook (`meeple rules`), in English and Chinese: headings, the words
around rules ("Allowed if", "Source") and the outline of the flow. The rules' own words come from the
definition's labels (interpreter/readback/phrases.py)."""

from __future__ import annotations

WORDS = {
    "en": {
        "generated": "Generated from the definition by `meeple rules`; every rule cites its source.",
        "players": "Players", "source": "Source", "provisional": "Provisional", "disputed": "Disputed",
        "changed": "Changed by the variant", "contents": "Contents", "components": "Components",
        "resources": "Finite supplies", "box": "in the box", "conserved": "conserved", "setup": "Setup",
        "tables": "Setup tables", "by_players": "By player count", "other_tables": "Constants",
        "counters": "Counters and their starting values", "global": "On the table", "each": "Each player",
        "zones": "Places", "per": "one for each", "may_become": "may become", "held_by": "held by each", "carried": "moves with it",
        "left": "left behind when it moves", "divided_by": "divided by", "exact": "exactly",
        "starts": "starts at", "setup_steps": "Preparing the game", "flow": "The course of the game",
        "phases": "Phases", "steps": "Decisions and actions", "hooks": "When something happens",
        "parameters": "Rule parameters and their modifiers", "defs": "Definitions used by the rules",
        "scoring": "Scoring", "end": "The end of the game", "tiebreak": "Ties", "options": "Options and disputed rules",
        "type": "Type", "count": "Count", "props": "Properties", "mods": "Modifies", "mentions": "Rules that name it",
        "zone": "Pieces start in", "active": "Active when", "fields": "Each piece records",
        "board": "A board of {n} spaces ({layout}), one piece a space, its coordinates in col and row",
        "layout.square": "squares", "layout.hex": "hexagons in a rhombus", "layout.hexagon": "hexagons in a hexagon",
        "optional": "The player may pass instead.", "step_if": "Offered only if", "choose": "choose",
        "from": "from", "distinct": "(identical pieces offered once)", "if": "Allowed if", "effect": "Effect",
        "pass_action": "Passing with it does not count as acting.", "phase": "Phase", "call_expr": "the phase given by",
        "step": "Decision", "repeat": "Repeat", "until": "until", "while": "while", "at_most": "at most {n} times",
        "each_player": "Each player in turn", "starting": "starting with", "clockwise": "clockwise",
        "counterclockwise": "counterclockwise", "in_order": "in the order", "once": "once",
        "all_pass": "around the table until a full round where nobody acts",
        "one_left": "around the table; a player who passes is out, until one is left",
        "otherwise": "Otherwise:", "when": "When the event “{e}” is announced", "and_if": ", if {c}",
        "acts": "The player who acts: {p}.", "default": "default", "values": "values", "none": "none",
        "set_to": "set to {v}", "param_default": "default {v}", "changed_by": "changed by", "unchanged": "no piece changes it",
        "item": "Item", "rule": "Rule", "order_high": "The player with the most points wins.",
        "order_low": "The player with the fewest points wins.", "ties_then": "Ties are broken by, in order (the higher value wins):",
        "shared": "Players still tied share the victory.", "trigger": "Trigger", "set_by": "set by",
        "end_at_now": "the game ends as soon as it is set", "end_at_turn":
        "the game ends at the end of the turn in which it is set", "end_at_round":
        "the game ends at the end of the round in which it is set",
        "game_ends_when": "The game ends when the flow ends; an end trigger makes the flow stop where it reads the ending.",
        "option": "Option", "reading": "Reading", "why_default": "why the default", "dispute_of": "dispute",
        "default_reading": "default reading", "other_readings": "other readings", "players_n": "{n} players",
        "hook_do": "Then", "formula": "formula", "no_source": "no source given",
        "scripted": "Scripted seats", "scripted_when": "at the table when {c}",
        "scripted_what": ("A scripted seat makes no decisions: the rules move it. It has every counter and place "
                          "a player has, is not one of the players, takes no turn and does not score."),
        "reads_provisional": "Reads provisional values", "procedures": "Procedures used by the rules",
        "adjusted": "adjusted: {a}", "adjust_add": "add {n} if {c}", "adjust_set": "set to {v} if {c}",
        "ratings": "What a score is worth", "ratings_when": "When {c}, a final score is rated:",
        "score_band": "Score", "band_from": "{n} or more", "band_to": "up to {n}",
        "band_range": "{a}–{b}", "rating": "Rating",
    },
    "zh": {
        "generated": "由 `meeple rules` 根据定义生成;每条规则均注明出处。",
        "players": "玩家人数", "source": "出处", "provisional": "暂定", "disputed": "有争议",
        "changed": "变体修改", "contents": "目录", "components": "配件", "resources": "有限的供应",
        "box": "盒中数量", "conserved": "守恒", "setup": "准备", "tables": "准备表", "by_players": "按玩家人数",
        "other_tables": "常量", "counters": "计数及其初始值", "global": "公共区域", "each": "每位玩家",
        "zones": "区域", "per": "每种一个:", "may_become": "可变为", "held_by": "每个配件各有一个:", "carried": "随之移动",
        "left": "其移动时留在原处", "divided_by": "除以", "exact": "精确计算", "starts": "初始为", "setup_steps": "游戏准备", "flow": "游戏流程", "phases": "阶段",
        "steps": "决策与行动", "hooks": "事件发生时", "parameters": "规则参数及其修正", "defs": "规则所用的定义",
        "scoring": "计分", "end": "游戏结束", "tiebreak": "平手", "options": "选项与有争议的规则",
        "type": "类型", "count": "数量", "props": "属性", "mods": "修正", "mentions": "提到它的规则",
        "zone": "配件初始位置", "active": "生效条件", "fields": "每个配件记录",
        "board": "一块共{n}格的棋盘({layout}),每格一个配件,坐标记于col与row",
        "layout.square": "方格", "layout.hex": "菱形排列的六角格", "layout.hexagon": "六边形排列的六角格",
        "optional": "玩家也可以放弃。", "step_if": "仅当以下条件成立时提供", "choose": "选择",
        "from": "来自", "distinct": "(相同的配件只列出一次)", "if": "条件", "effect": "效果",
        "pass_action": "以此放弃不算作行动。", "phase": "阶段", "call_expr": "由以下决定的阶段:",
        "step": "决策", "repeat": "重复", "until": "直到", "while": "当", "at_most": "至多{n}次",
        "each_player": "每位玩家依次", "starting": "从以下玩家开始:", "clockwise": "顺时针",
        "counterclockwise": "逆时针", "in_order": "顺序为", "once": "一次",
        "all_pass": "围绕桌子进行,直到一整圈无人行动", "one_left": "围绕桌子进行;放弃的玩家出局,直到只剩一人",
        "otherwise": "否则:", "when": "当事件“{e}”被触发时", "and_if": ",若{c}",
        "acts": "行动的玩家:{p}。", "default": "默认", "values": "取值", "none": "无",
        "set_to": "设为{v}", "param_default": "默认{v}", "changed_by": "修正来源", "unchanged": "没有配件修正它",
        "item": "项目", "rule": "规则", "order_high": "分数最高的玩家获胜。", "order_low": "分数最低的玩家获胜。",
        "ties_then": "平手时依次比较(数值高者胜):", "shared": "仍然平手的玩家共享胜利。", "trigger": "触发条件", "set_by": "设定于",
        "end_at_now": "一旦设定游戏立即结束", "end_at_turn": "在设定它的回合结束时游戏结束",
        "end_at_round": "在设定它的一轮结束时游戏结束",
        "game_ends_when": "流程结束时游戏结束;结束条件使流程在检查结束的地方停止。",
        "option": "选项", "reading": "解读", "why_default": "默认的理由", "dispute_of": "争议",
        "default_reading": "默认解读", "other_readings": "其他解读", "players_n": "{n}人",
        "hook_do": "则", "formula": "公式", "no_source": "未给出出处",
        "scripted": "由规则操作的座位", "scripted_when": "在{c}时入座",
        "scripted_what": "由规则操作的座位不做任何决策:由规则移动它。它拥有玩家的所有计数和区域,但不是玩家,不轮流行动,也不计分。",
        "reads_provisional": "读取的暂定数值", "procedures": "规则所用的程序",
        "adjusted": "调整:{a}", "adjust_add": "若{c}则加{n}", "adjust_set": "若{c}则设为{v}",
        "ratings": "分数的评价", "ratings_when": "当{c}时,最终分数的评价如下:",
        "score_band": "分数", "band_from": "{n}分或以上", "band_to": "{n}分或以下",
        "band_range": "{a}–{b}分", "rating": "评价",
    },
}


def _text(value, lang, fallback=""):
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or fallback)
    return str(value) if value not in (None, "") else fallback


def _one_line(s) -> str:
    return " ".join(str(s).split())
