"""The whole game: rounds, scoring, records and bots (docs/game.md).

>>> from rami.game import play_game, make_bot, GameOptions
>>> record = play_game("rami-chinois", [make_bot("beginner"), make_bot("beginner")], seed=7,
...                    options=GameOptions(max_rounds=1))
>>> record["rules"], len(record["rounds"])
('rami-chinois', 1)
"""

from __future__ import annotations

from rami.game.actions import (
    Action,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
    action_from_json,
)
from rami.game.deck import Deal, deal
from rami.game.levels import LEVELS, bot_turn, make_bot
from rami.game.match import play_game
from rami.game.presets import GAME_RULES, GameError, GameOptions, GameRules, game_rules
from rami.game.rounds import Round
from rami.game.state import View

__all__ = [
    "GAME_RULES",
    "LEVELS",
    "Action",
    "Claim",
    "Deal",
    "Draw",
    "GameError",
    "GameInternalError",
    "GameOptions",
    "GameRules",
    "IllegalActionError",
    "Play",
    "Round",
    "View",
    "action_from_json",
    "bot_turn",
    "deal",
    "game_rules",
    "make_bot",
    "play_game",
]
