"""The whole game: rounds, scoring, records and bots (docs/game.md).

>>> from rami.game import play_game, make_bot, GameOptions
>>> record = play_game("rami-chinois", [make_bot("beginner"), make_bot("beginner")], seed=7,
...                    options=GameOptions(max_rounds=1))
>>> record["rules"], len(record["rounds"])
('rami-chinois', 1)

The names of the table below load from their module on first use (PEP 562): what the ``rami``
commands (:mod:`rami.cli`) use of games, simulations, records, matches and the terminal game,
without making ``import rami.game`` pay for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from rami.lazy import lazy_names

if TYPE_CHECKING:
    from rami.game.human_game import kept_note, play_in_terminal
    from rami.game.human_record import load_game
    from rami.game.paired import FIXED, SEQUENTIAL, Match, run_match
    from rami.game.record import MAX_RECORD_BYTES, RecordError, game_label, read_records
    from rami.game.record import replay as replay_record
    from rami.game.simulate import Simulation, summary_lines
    from rami.game.simulate import simulate as run_simulation

#: Public name -> (module of rami.game, attribute), loaded when first asked for.
_WHERE = {
    "kept_note": ("human_game", "kept_note"),
    "play_in_terminal": ("human_game", "play_in_terminal"),
    "load_game": ("human_record", "load_game"),
    "FIXED": ("paired", "FIXED"),
    "SEQUENTIAL": ("paired", "SEQUENTIAL"),
    "Match": ("paired", "Match"),
    "run_match": ("paired", "run_match"),
    "MAX_RECORD_BYTES": ("record", "MAX_RECORD_BYTES"),
    "RecordError": ("record", "RecordError"),
    "game_label": ("record", "game_label"),
    "read_records": ("record", "read_records"),
    "replay_record": ("record", "replay"),
    "Simulation": ("simulate", "Simulation"),
    "summary_lines": ("simulate", "summary_lines"),
    "run_simulation": ("simulate", "simulate"),
}


__getattr__, __dir__ = lazy_names(__name__, _WHERE, globals())


__all__ = [
    "FIXED",
    "GAME_RULES",
    "LEVELS",
    "MAX_RECORD_BYTES",
    "SEQUENTIAL",
    "Action",
    "Claim",
    "Deal",
    "Draw",
    "GameError",
    "GameInternalError",
    "GameOptions",
    "GameRules",
    "IllegalActionError",
    "Match",
    "Play",
    "RecordError",
    "Round",
    "Simulation",
    "View",
    "action_from_json",
    "bot_turn",
    "deal",
    "game_label",
    "game_rules",
    "kept_note",
    "load_game",
    "make_bot",
    "play_game",
    "play_in_terminal",
    "read_records",
    "replay_record",
    "run_match",
    "run_simulation",
    "summary_lines",
]
