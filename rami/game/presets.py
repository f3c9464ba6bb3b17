"""How a whole game runs under each preset (docs/rules.md "The whole game", decisions 9-13), as
data.

The card rules of one turn live in :mod:`rami.rules`; what this module adds is what happens
around the turns: players, deal, draws, empty stock, round cap, going out, scoring, game end.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rami.errors import RamiError
from rami.rules import Ruleset


class GameError(RamiError):
    """Bad game input: an unknown bot level, a player count or option the preset refuses."""


class BudgetError(GameError):
    """A thinking budget refused: out of range, or given to a level that takes none."""


class DrawRule(Enum):
    STOCK_ONLY = "draw 1 from the stock (compulsory)"
    STOCK_CLAIM = "draw the stock; the last discard is taken by a claim (decision 9)"
    LAID_ONLY = "stock, or the top discard if it is laid this turn (decision 10)"
    FREE = "stock or the top discard, which may be kept"
    NONE = "no draw before playing: a player who plays nothing draws one tile"


class StockEmpty(Enum):
    END = "the round ends at once, no winner, every hand counted"
    RESHUFFLE = "the discard pile (less its top) is reshuffled into a new stock"
    NO_DRAW = "no draw; the round ends when nobody plays in a whole round of turns"


class GameEnd(Enum):
    LOWEST_WINS = (
        "the game ends at the end of the round where a player reaches the target; "
        "the lowest total wins (a tie at the top is a draw)"
    )
    REACHER_LOSES = (
        "the game ends when a player reaches the target: that player loses; the lowest total wins"
    )
    ELIMINATION = (
        "a player who reaches the target is eliminated; the game goes on until one player remains"
    )
    ROUNDS = "a number of rounds agreed in advance; the highest total wins"


@dataclass(frozen=True)
class GameRules:
    """The whole-game parameters of one preset."""

    preset: str
    min_players: int
    max_players: int
    deal: int
    first_discard: bool
    draw: DrawRule
    stock_empty: StockEmpty
    max_reshuffles: int | None
    turn_cap: int | None
    rami_sec: bool
    end: GameEnd
    target: int | None
    target_options: tuple[int, ...] = ()
    rounds: int | None = None

    @property
    def claims(self) -> bool:
        return self.draw is DrawRule.STOCK_CLAIM

    @property
    def rummikub_scoring(self) -> bool:
        return self.end is GameEnd.ROUNDS


GAME_RULES: dict[str, GameRules] = {
    rules.preset: rules
    for rules in (
        GameRules(
            "rami-chinois",
            2,
            4,
            13,
            False,
            DrawRule.STOCK_ONLY,
            StockEmpty.END,
            None,
            None,
            False,
            GameEnd.LOWEST_WINS,
            100,
        ),
        GameRules(
            "rami-fou",
            2,
            4,
            13,
            True,
            DrawRule.STOCK_CLAIM,
            StockEmpty.RESHUFFLE,
            None,
            None,
            True,
            GameEnd.REACHER_LOSES,
            500,
        ),
        GameRules(
            "rami-51",
            2,
            4,
            14,
            False,
            DrawRule.LAID_ONLY,
            StockEmpty.RESHUFFLE,
            None,
            None,
            False,
            GameEnd.LOWEST_WINS,
            500,
        ),
        GameRules(
            "bfmania-51",
            2,
            6,
            13,
            True,
            DrawRule.FREE,
            StockEmpty.RESHUFFLE,
            3,
            None,
            False,
            GameEnd.LOWEST_WINS,
            250,
            (250, 500, 1000),
        ),
        GameRules(
            "bfmania-30",
            2,
            6,
            13,
            True,
            DrawRule.FREE,
            StockEmpty.RESHUFFLE,
            3,
            None,
            False,
            GameEnd.LOWEST_WINS,
            250,
            (250, 500, 1000),
        ),
        GameRules(
            "cafe-rummy",
            2,
            4,
            13,
            True,
            DrawRule.FREE,
            StockEmpty.RESHUFFLE,
            None,
            120,
            False,
            GameEnd.ELIMINATION,
            500,
        ),
        GameRules(
            "rummikub",
            2,
            4,
            14,
            False,
            DrawRule.NONE,
            StockEmpty.NO_DRAW,
            None,
            None,
            False,
            GameEnd.ROUNDS,
            None,
            rounds=1,
        ),
    )
}

#: Safety nets of the engine, not rules: a round of the presets that reshuffle without limit
#: ends (hands counted, no winner) after this many turns, and a game after this many rounds.
DEFAULT_MAX_TURNS = 400
DEFAULT_MAX_ROUNDS = 100


def game_rules(rules: Ruleset) -> GameRules:
    return GAME_RULES[rules.name]


def check_players(rules: Ruleset, count: int, detail: str = "") -> GameRules:
    """The preset's whole-game rules, once a table of ``count`` players is one it is played
    by; else a :class:`GameError` saying how many it takes (``detail`` appended, such as who
    the players are)."""
    whole = game_rules(rules)
    if not whole.min_players <= count <= whole.max_players:
        raise GameError(
            f"{rules.name} is played by {whole.min_players} to {whole.max_players} players, "
            f"not {count}{detail}"
        )
    return whole


@dataclass(frozen=True)
class GameOptions:
    """What a table agrees on before the game: the target, the rounds, the safety caps."""

    target: int | None = None
    rounds: int | None = None
    max_rounds: int = DEFAULT_MAX_ROUNDS
    max_turns: int = DEFAULT_MAX_TURNS

    def resolved(self, rules: Ruleset) -> GameOptions:
        """The options with the preset's defaults filled in, checked."""
        game = game_rules(rules)
        target = self.target if self.target is not None else game.target
        rounds = self.rounds if self.rounds is not None else game.rounds
        if game.end is GameEnd.ROUNDS:
            if self.target is not None:
                raise GameError(f"{rules.name} is played for a number of rounds, not a target")
        elif target is None or target <= 0:
            raise GameError(f"the target must be a positive number of points, got {target}")
        if game.target_options and self.target is not None and target not in game.target_options:
            raise GameError(
                f"{rules.name} is played to {', '.join(map(str, game.target_options))} points, "
                f"not {target}"
            )
        if rounds is not None and rounds < 1:
            raise GameError(f"rounds must be at least 1, got {rounds}")
        if self.max_rounds < 1 or self.max_turns < 1:
            raise GameError("max_rounds and max_turns must be at least 1")
        return GameOptions(target, rounds, self.max_rounds, self.max_turns)

    def to_json(self) -> dict[str, int | None]:
        return {
            "target": self.target,
            "rounds": self.rounds,
            "max_rounds": self.max_rounds,
            "max_turns": self.max_turns,
        }

    @classmethod
    def from_json(cls, data: object) -> GameOptions:
        if not isinstance(data, dict):
            raise GameError(f"options: expected an object, got {type(data).__name__}")
        unknown = set(data) - {"target", "rounds", "max_rounds", "max_turns"}
        if unknown:
            raise GameError(f"options: unknown field(s) {sorted(unknown)}")
        values = {}
        for key in ("target", "rounds", "max_rounds", "max_turns"):
            value = data.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise GameError(f"options.{key}: expected a whole number, got {value!r}")
            if value is not None:
                values[key] = value
        return cls(**values)
