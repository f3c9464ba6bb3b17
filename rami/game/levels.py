"""The bot levels by name (the mixed levels' strengths, per preset where measured, in
:mod:`rami.game.mixed`), and the stateless bot turn apps call (``POST /bot/turn``).

Kept apart from :mod:`rami.game.bots` and :mod:`rami.game.expert` so that naming a level needs
both, and neither needs the other's name table (no import cycle).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rami.game.bots import BeginnerBot, Bot, ConfirmedBot
from rami.game.expert import HOLD_WHILE_ABOVE, ExpertBot, holds_melds
from rami.game.mixed import LADDERS, STRENGTHS, MixedBot, strength_for
from rami.game.presets import BudgetError, GameError, check_players, game_rules
from rami.game.state import View
from rami.lang import ENGLISH, Language
from rami.phrasebook import say
from rami.rules import Ruleset

LEVELS = ("beginner", "novice", "intermediate", "confirmed", "expert", "lookahead")
#: A level as the service's schemas accept it: a named level, or a target Elo ``elo:N``.
LEVEL_PATTERN = "^(" + "|".join(LEVELS) + r"|elo:-?[0-9]+(\.[0-9]+)?)$"
#: What ``rami match`` may seat besides the levels, never offered as an opponent: the ceiling, a
#: yardstick that sees every card (:class:`rami.game.lookahead.Ceiling`).
MATCH_ONLY = ("ceiling",)
MATCH_LEVELS = (*LEVELS, *MATCH_ONLY)
#: The tables where the look-ahead (:class:`rami.game.sampled.LookaheadBot`) is offered: the
#: preset (as dealt by default) and the number of players where it was measured stronger than
#: the expert (docs/game.md, "Matches and levels"). ``rami match`` seats it anywhere, to measure.
LOOKAHEAD_TABLES = {"rami-chinois": (4,), "rummikub": (4,)}


def make_bot(level: str, seed: int = 0, budget: int | None = None) -> Bot:
    """A bot of ``level`` (beginner, novice, intermediate, confirmed, expert, lookahead, or
    elo:N; the ceiling for matches), seeded for its sampling. ``budget``: the look-ahead's
    thinking budget in simulated requests (:mod:`rami.game.sampled`; None, its default)."""
    if budget is not None and level != "lookahead":
        raise BudgetError(f"a thinking budget is for the lookahead level, not {level!r}")
    if level == "beginner":
        return BeginnerBot(seed)
    if level in STRENGTHS:
        return MixedBot(seed, named=level, level=level)
    if level.startswith("elo:"):
        return MixedBot(seed, elo=_target(level), level=level)
    if level == "confirmed":
        return ConfirmedBot(seed)
    if level == "expert":
        return ExpertBot(seed)
    if level == "ceiling":
        from rami.game.lookahead import Ceiling

        return Ceiling(seed)
    if level == "lookahead":
        from rami.game.sampled import LookaheadBot

        return LookaheadBot(seed) if budget is None else LookaheadBot(seed, budget)
    raise GameError(f"unknown bot level {level!r}: levels are {', '.join(LEVELS)}")


def level_note(level: str, rules: Ruleset, language: Language = ENGLISH) -> str | None:
    """What a player choosing ``level`` should know in this preset (None: nothing), in
    ``language``: where nothing is discarded, the expert opens with the fewest cards and keeps
    its melds in the hand until it can go out in one turn (:mod:`rami.game.holdback`), so its
    table stays small until the end; in Café Rummy and BFmania 30 it lays nothing until that
    turn (:func:`rami.game.expert.holds_melds`). The look-ahead: how it departs from the
    expert, and that it takes its time."""
    if level == "lookahead":
        return say("level-note.lookahead", language)
    if level == "expert" and not rules.discard:
        return say("level-note.holds-back", language, rules=rules.name)
    if level == "expert" and holds_melds(rules):
        return say("level-note.holds-melds", language, rules=rules.name, cards=HOLD_WHILE_ABOVE)
    return None


def _target(level: str) -> float:
    """The Elo of ``elo:N`` (a target strength, as chess engines offer ``UCI_Elo``)."""
    text = level[4:]
    try:
        value = float(text)
    except ValueError:
        raise GameError(f"a target level is elo:N with N a number of Elo, not {level!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise GameError(f"a target Elo must be finite, not {text!r}")
    return value


def check_level(level: str, rules: Ruleset, players: int | None = None) -> None:
    """Refuse, with a clear :class:`GameError`, a level this preset cannot seat: an unknown
    name, a target Elo where no ladder was measured, or the look-ahead away from the tables of
    :data:`LOOKAHEAD_TABLES` (said before the game starts, not at the bot's first turn).

    ``players`` is the table's size where a game is set for players; a match (None) measures
    the look-ahead at any table."""
    if level.startswith("elo:"):  # a number, finite, with a ladder to read it on
        strength_for(rules.name, _target(level))
    elif level not in LEVELS:
        raise GameError(f"unknown bot level {level!r}: levels are {', '.join(LEVELS)}, or elo:N")
    elif level == "lookahead" and players is not None and not _lookahead_at(rules, players):
        raise GameError(
            f"the lookahead level is offered only where it was measured stronger than the "
            f"expert ({lookahead_tables()}), not in {rules.option_string} with {players} players"
        )


def lookahead_tables() -> str:
    """Where the look-ahead is offered, in words for help texts and refusals (from
    :data:`LOOKAHEAD_TABLES`): ``rami-chinois or rummikub, 4 players``."""
    by_size: dict[tuple[int, ...], list[str]] = {}
    for name, sizes in LOOKAHEAD_TABLES.items():
        by_size.setdefault(sizes, []).append(name)
    return "; ".join(
        f"{' or '.join(names)}, {' or '.join(map(str, sizes))} players"
        for sizes, names in by_size.items()
    )


def check_table(rules: Ruleset, levels: Sequence[str], players: int, detail: str = "") -> None:
    """Refuse a table of ``players`` the preset is not played by, or a bot level it cannot
    seat there (:func:`check_level`), before anything is dealt."""
    check_players(rules, players, detail)
    for level in levels:
        check_level(level, rules, players)


def _lookahead_at(rules: Ruleset, players: int) -> bool:
    return players in LOOKAHEAD_TABLES.get(rules.option_string, ())


def offered_levels(rules: Ruleset) -> dict[str, Any]:
    """What a game of ``rules`` may seat, per table size the preset is played by: the named
    levels, and whether a target Elo ``elo:N`` is read on a measured ladder (``GET
    /bot/levels``; the page's level menus)."""
    whole = game_rules(rules)
    return {
        "rules": rules.option_string,
        "target_elo": rules.name in LADDERS,
        "tables": [
            {
                "players": players,
                "levels": [
                    level
                    for level in LEVELS
                    if level != "lookahead" or _lookahead_at(rules, players)
                ],
            }
            for players in range(whole.min_players, whole.max_players + 1)
        ],
    }


def is_level(level: str) -> bool:
    """A named level, or a target Elo ``elo:N`` (N as :func:`_target` reads it)."""
    if level in LEVELS:
        return True
    if not level.startswith("elo:"):
        return False
    try:
        _target(level)
    except GameError:
        return False
    return True


def bot_turn(
    view: View | dict[str, Any] | str, level: str, seed: int = 0, budget: int | None = None
) -> Any:
    """One bot decision from a visible state, statelessly.

    ``view`` is a :class:`View`, or its JSON form (a dict, or a JSON string); the answer is an
    :class:`~rami.game.actions.Action`, or its JSON form (``Action.to_json()``) when the view
    came as JSON. The expert's sampling is seeded from ``seed`` and the view itself;
    ``budget`` sets the look-ahead's thinking budget (:func:`make_bot`).
    """
    as_json = not isinstance(view, View)
    if isinstance(view, str):
        try:
            view = json.loads(view)
        except json.JSONDecodeError as error:
            raise GameError(f"malformed JSON view: {error.msg}") from None
    parsed = view if isinstance(view, View) else View.from_json(view)
    check_level(level, parsed.rules, parsed.players)  # offered at this table, not a yardstick
    action = make_bot(level, seed, budget).act(parsed)
    return action.to_json() if as_json else action
