"""The table's own words in every language it speaks: prompts, help, headings, narration phrases.

Everything a person reads that a game definition does not label comes from here, so `--lang zh` shows no
English word but the proper names a definition itself leaves unlabelled. `say(key, lang, **holes)` is
the only way to read them. The table is data: English and Chinese are built in (the test of the word
lists fails unless every key has both), and a definition's `words:` section adds another language
(`words: {de: {player: "Spieler {n}", pass: passen}}`, see `extend`). Whatever a language lacks, a word
here or a label of the definition, reads in English (FALLBACK).
"""
from __future__ import annotations

import re

LANGS = ("en", "zh")
FALLBACK = "en"
LANG_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


class Texts(dict):
    """One text per language, {lang: text}; a language it lacks reads as English."""

    def __missing__(self, lang):
        if lang != FALLBACK and FALLBACK in self:
            return self[FALLBACK]
        raise KeyError(lang)

    def get(self, lang, default=None):
        return self[lang] if lang in self or FALLBACK in self else default

WORDS: dict[str, dict[str, str]] = {
    # people and places
    "player": {"en": "Player {n}", "zh": "玩家{n}"},
    "you": {"en": "you", "zh": "你"},
    "your_area": {"en": "Your area — {who}", "zh": "你的区域 — {who}"},
    "their_area": {"en": "{who}", "zh": "{who}"},
    "shared": {"en": "On the table", "zh": "公共区域"},
    "to_move": {"en": "{who} to decide", "zh": "轮到{who}决定"},
    "game_over": {"en": "Game over", "zh": "游戏结束"},
    "decision_no": {"en": "decision {n}", "zh": "第{n}个决定"},
    "hidden": {"en": "hidden", "zh": "隐藏"},
    "hidden_n": {"en": "{n} hidden", "zh": "{n}个(隐藏)"},
    "face_down": {"en": "face down", "zh": "背面朝上"},
    "seen": {"en": "shown to you", "zh": "向你展示"},
    "not_value": {"en": "not {value}", "zh": "不是{value}"},
    "secret_order_n": {"en": "{n} in a secret order", "zh": "{n}个(顺序保密)"},
    "below_n": {"en": "{n} below", "zh": "下面还有{n}个"},
    "known": {"en": "you know", "zh": "你知道"},
    "place_n": {"en": "#{n}:", "zh": "第{n}张:"},
    "unknown": {"en": "?", "zh": "?"},
    "empty": {"en": "empty", "zh": "空"},
    "yes": {"en": "yes", "zh": "是"},
    "no": {"en": "no", "zh": "否"},
    "none": {"en": "-", "zh": "-"},
    "legend": {"en": "Key", "zh": "图例"},
    "on_space": {"en": "on {space}", "zh": "在{space}"},
    "track": {"en": "track", "zh": "轨道"},
    # outcome
    "final_scores": {"en": "Final scores", "zh": "最终得分"},
    "winner": {"en": "Winner: {who}", "zh": "获胜者：{who}"},
    "winners": {"en": "Winners (shared): {who}", "zh": "共同获胜：{who}"},
    "all_win": {"en": "Everyone wins together", "zh": "全体玩家共同获胜"},
    "all_lose": {"en": "Everyone loses together", "zh": "全体玩家共同失败"},
    "ended_by": {"en": "The game ended: {why}", "zh": "游戏结束原因：{why}"},
    "tie_broken": {"en": "Tie on {score} points, broken by: {keys}", "zh": "{score}分平局，按以下顺序决胜：{keys}"},
    "rating": {"en": "Rating of {who}: {rating}", "zh": "{who}的评级：{rating}"},
    "points": {"en": "{n} points", "zh": "{n}分"},
    # play
    "your_decision": {"en": "{who}, your decision — {step}", "zh": "{who}，请决定 — {step}"},
    "prompt": {"en": "{who} [number, ? help]> ", "zh": "{who} [编号，?帮助]> "},
    "bad_reply": {"en": "Please type one of the numbers shown (or ? for help).",
                  "zh": "请输入列出的一个编号（或输入?查看帮助）。"},
    "help": {"en": ("Type the number of a choice and press Enter. Numbers stay with their choice while "
                    "you decide.\n"
                    "  ?   this help\n"
                    "  m   the picture and the menu again\n"
                    "  u   undo your last decision (while no other seat has decided since, and if it\n"
                    "      showed nothing hidden)\n"
                    "  s   save the game to a file (resume it with --resume FILE)\n"
                    "  q   quit the game"),
             "zh": ("输入一个选项的编号并按回车。在你决定期间，编号不会改变。\n"
                    "  ?   本帮助\n"
                    "  m   重新显示局面和菜单\n"
                    "  u   悔棋：收回你的上一个决定（其他座位尚未决定，且它没有揭示隐藏信息）\n"
                    "  s   把游戏保存到文件（用 --resume 文件 继续）\n"
                    "  q   退出游戏")},
    "undone": {"en": "Undone: back to your decision before {n} decision(s).",
               "zh": "已悔棋：回到{n}个决定之前你的决定。"},
    "nothing_to_undo": {"en": "Nothing to undo yet.", "zh": "还没有可以悔棋的决定。"},
    "others_decided": {"en": "Another seat has decided since your last decision: it stands.",
                       "zh": "你上次决定之后其他座位已经决定：不能悔棋。"},
    "it_revealed": {"en": "Your last decision showed something that was hidden (a card, a die): it stands.",
                    "zh": "你上次的决定揭示了隐藏的信息（牌或骰子）：不能悔棋。"},
    "moved_on": {"en": "The game moved on ({n} decision(s) since this page was shown): nothing was done. "
                       "Here is the table as it is now.",
                 "zh": "游戏已经继续（此页面显示后又有{n}个决定）：未执行任何操作。这是现在的局面。"},
    "not_your_turn": {"en": "It is not your turn.", "zh": "现在不是你的回合。"},
    "no_such_choice": {"en": "There is no such choice.", "zh": "没有这个选项。"},
    "save_as": {"en": "Save to which file? ", "zh": "保存到哪个文件？ "},
    "quit_ask": {"en": "Leave this game? y: leave, s: save it first, anything else: go on> ",
                 "zh": "离开这局游戏？y：离开，s：先保存，其他：继续> "},
    "saved": {"en": "Saved to {path}; resume with: meeple play --resume {path}",
              "zh": "已保存到{path}；继续游戏：meeple play --resume {path}"},
    "not_saved": {"en": "Could not save: {why}", "zh": "无法保存：{why}"},
    "abandoned": {"en": "Game abandoned after {n} decision(s).", "zh": "游戏在{n}个决定后中止。"},
    "decisions": {"en": "{n} decisions.", "zh": "共{n}个决定。"},
    "pass_to": {"en": "Pass the device to {who}", "zh": "请把设备交给{who}"},
    "pass": {"en": "pass", "zh": "放弃"},
    "game_header": {"en": "{game}: {n} players, seed {seed} ({seats})", "zh": "{game}：{n}名玩家，随机种子{seed}"},
    "game_acts": {"en": "Game: {what}", "zh": "游戏：{what}"},
    "ready": {"en": "I am {who}: show my table", "zh": "我是{who}：显示我的桌面"},
    "waiting": {"en": "Waiting for {who}…", "zh": "等待{who}……"},
    "undo": {"en": "Undo", "zh": "悔棋"},
    "setup_title": {"en": "Setting up", "zh": "游戏准备"},
    "resumed": {"en": "Resumed after {n} decision(s).", "zh": "已从第{n}个决定之后继续。"},
    "choices": {"en": "Choices", "zh": "选项"},
    "log": {"en": "What happened", "zh": "经过"},
    "step_through": {"en": "[Enter: next decision]", "zh": "[回车：下一个决定]"},
    # narration
    "gains": {"en": "{who}: {what} {old} → {new} (+{d})", "zh": "{who}：{what} {old} → {new}（+{d}）"},
    "loses": {"en": "{who}: {what} {old} → {new} (−{d})", "zh": "{who}：{what} {old} → {new}（−{d}）"},
    "changes": {"en": "{who}: {what} {old} → {new}", "zh": "{who}：{what} {old} → {new}"},
    "now_gains": {"en": "{who}: {what} now {new} (+{d})", "zh": "{who}：{what}现为{new}（+{d}）"},
    "now_loses": {"en": "{who}: {what} now {new} (−{d})", "zh": "{who}：{what}现为{new}（−{d}）"},
    "arrives": {"en": "{who}: {what} + {items}", "zh": "{who}：{what} + {items}"},
    "leaves": {"en": "{who}: {what} − {items}", "zh": "{who}：{what} − {items}"},
    "score_now": {"en": "Scores now: {scores}", "zh": "当前得分：{scores}"},
    "table_who": {"en": "Table", "zh": "公共"},
    "acts": {"en": "{who}: {what}", "zh": "{who}：{what}"},
    # web table
    "lobby": {"en": "New game", "zh": "新游戏"},
    "game": {"en": "Game", "zh": "游戏"},
    "players": {"en": "Players", "zh": "玩家人数"},
    "seed": {"en": "Seed", "zh": "随机种子"},
    "seat": {"en": "Seat", "zh": "座位"},
    "human": {"en": "person", "zh": "真人"},
    "bot": {"en": "bot", "zh": "机器人"},
    "variants": {"en": "Variants", "zh": "变体"},
    "options": {"en": "Options", "zh": "选项"},
    "hot_seat": {"en": "hot seat (one screen for every person)", "zh": "轮流使用同一屏幕"},
    "start": {"en": "Start", "zh": "开始"},
    "tables": {"en": "Tables", "zh": "牌桌"},
    "replay": {"en": "Replay", "zh": "回放"},
    "back": {"en": "back", "zh": "后退"},
    "forward": {"en": "forward", "zh": "前进"},
    "record": {"en": "Record", "zh": "记录"},
    "verify": {"en": "Verify", "zh": "验证"},
    "compare": {"en": "Compare", "zh": "比较"},
    "language": {"en": "Language", "zh": "语言"},
    "budget": {"en": "budget", "zh": "预算"},
    "games_n": {"en": "Games", "zh": "局数"},
    "random_seed": {"en": "random", "zh": "随机"},
    "i_sit": {"en": "I sit at the first person's seat", "zh": "我坐第一个真人座位"},
    "public": {"en": "listed in the lobby (anyone may take a free seat)", "zh": "在大厅列出（任何人可坐空位）"},
    "free_seats": {"en": "free seats", "zh": "个空位"},
    "seats": {"en": "Seats", "zh": "座位"},
    "invite": {"en": "invite (send it to that person only; it works once)", "zh": "邀请链接（只发给此人；只能使用一次）"},
    "new_invite": {"en": "new invite", "zh": "新邀请链接"},
    "to_my_seat": {"en": "To my seat", "zh": "进入我的座位"},
    "creator_link": {"en": "Your creator link (keep it: it opens this page in another browser)",
                     "zh": "你的创建者链接（请保存：可在其他浏览器打开本页）"},
    "take_free_seat": {"en": "Take a free seat:", "zh": "坐到空位："},
    "no_seat": {"en": "You have no seat at this table: ask its creator for an invite.",
                "zh": "你在这张牌桌没有座位：请向创建者索取邀请链接。"},
    "take_seat": {"en": "Take the seat of {who}", "zh": "坐到{who}的座位"},
    "taken": {"en": "taken", "zh": "已有人"},
    "free": {"en": "free", "zh": "空"},
    "error": {"en": "Sorry", "zh": "抱歉"},
    # replay
    "actions_applied": {"en": "{n} actions applied.", "zh": "已执行 {n} 个动作。"},
    "game_goes_on": {"en": "The game goes on: {who} to decide.", "zh": "游戏继续:轮到{who}决定。"},
}


def say(key: str, lang: str = "en", **holes) -> str:
    """The word or phrase `key` in `lang`, its {holes} filled."""
    entry = WORDS[key]
    template = entry.get(lang) or ADDED.get(lang, {}).get(key) or entry["en"]
    return template.format(**holes) if holes else template


ADDED: dict[str, dict[str, str]] = {}  # lang -> key -> text: the words definitions gave (see extend)


def extend(words) -> list:
    """Add a definition's words for other languages, `{lang: {key: text}}`, to the table (kept apart from
    the built-in WORDS, in ADDED). A word the table has is never replaced: English and Chinese are the
    engine's, and the first definition to give a language's word gives it for the process. Returns the
    problems as (lang, key, message)."""
    problems = []
    for lang, table in (words or {}).items():
        if not LANG_CODE.match(str(lang)) or not isinstance(table, dict):
            problems.append((lang, None, "a language code (en, de, zh-Hant...) with a map of words"))
            continue
        for key, text in table.items():
            entry = WORDS.get(key)
            if entry is None or not isinstance(text, str):
                problems.append((lang, key, "no such word of the table" if entry is None else "a text"))
                continue
            try:
                text.format(**{h: "" for h in re.findall(r"{(\w*)}", entry[FALLBACK])})
            except (KeyError, IndexError, ValueError):
                problems.append((lang, key, f"a text whose holes are those of “{entry[FALLBACK]}”"))
                continue
            if lang not in entry:
                ADDED.setdefault(lang, {}).setdefault(key, text)
    return problems


def person(seat: int, lang: str = "en") -> str:
    """A seat as people count it: seat 0 is Player 1."""
    return say("player", lang, n=seat + 1)


def yes_no(value: bool, lang: str = "en") -> str:
    return say("yes" if value else "no", lang)
