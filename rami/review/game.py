"""The review of a whole game record (docs/game.md): every play graded, each player's grades
and accuracy (``rami review --game FILE``).

The record is replayed first (:func:`rami.game.record.replay`: a record that does not replay
is refused, it is never half reviewed); each play is then reviewed in the position the referee
judged it in. A player's accuracy is the share of the points the best turns would have shed
that the player's turns shed, over the player's turns (100 when no turn could shed any).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rami.errors import RamiError
from rami.game.actions import Play
from rami.lang import ENGLISH, Language
from rami.phrasebook import say, say_count
from rami.phrases import grade_word
from rami.position import Position
from rami.review import GRADE_NAMES, Review, review


@dataclass(frozen=True)
class TurnReview:
    round: int
    turn: int
    seat: int
    review: Review

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        data = self.review
        return {
            "round": self.round,
            "turn": self.turn,
            "seat": self.seat,
            "grade": data.grade,
            "points_lost": data.points_lost,
            "penalty_before": data.penalty_before,
            "penalty_after": data.verdict.penalty_after,
            "best_penalty_after": data.best.penalty_after,
            "best_status": data.best.status.value,
            "missed": data.missed.said(language) if data.missed is not None else None,
        }


@dataclass(frozen=True)
class PlayerReview:
    seat: int
    name: str
    turns: tuple[TurnReview, ...]

    @property
    def grades(self) -> dict[str, int]:
        counts = dict.fromkeys(GRADE_NAMES, 0)
        for turn in self.turns:
            grade = turn.review.grade
            if grade is not None:
                counts[grade] += 1
        return counts

    @property
    def points_lost(self) -> int:
        return sum(max(turn.review.points_lost or 0, 0) for turn in self.turns)

    @property
    def accuracy(self) -> float:
        """Percent of the best turns' points shed that this player's turns shed."""
        best = sum(t.review.penalty_before - t.review.best.penalty_after for t in self.turns)
        shed = sum(t.review.penalty_before - t.review.verdict.penalty_after for t in self.turns)
        if best <= 0:
            return 100.0
        return round(100.0 * min(shed, best) / best, 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "turns": len(self.turns),
            "accuracy": self.accuracy,
            "points_lost": self.points_lost,
            "grades": self.grades,
        }


@dataclass(frozen=True)
class GameReview:
    label: str
    players: tuple[PlayerReview, ...]
    turns: tuple[TurnReview, ...]

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        return {
            "game": self.label,
            "players": [player.to_json() for player in self.players],
            "turns": [turn.to_json(language) for turn in self.turns],
        }

    def text_lines(self, language: Language = ENGLISH) -> list[str]:
        """The game's review as a person reads it (``game-review.*`` in the phrase book)."""
        reviewed = len(self.turns)
        lines = [say_count("game-review.header", reviewed, language, label=self.label)]
        for turn in self.turns:
            data = turn.review
            lost = data.points_lost or 0
            grade = grade_word(data.grade, language) if data.grade else ""
            line = say(
                "game-review.turn",
                language,
                round=turn.round,
                turn=turn.turn,
                seat=turn.seat,
                grade=grade,
            )
            if lost > 0:
                line += say_count("game-review.turn-lost", lost, language)
            if data.missed is not None and lost > 0:
                line += say("game-review.missed", language, move=data.missed.said(language))
            lines.append(line)
        for player in self.players:
            lines.append(_player_line(player, language))
        return lines


def _player_line(player: PlayerReview, language: Language) -> str:
    """A player's accuracy, points lost and grades over the game."""
    grades = ", ".join(
        f"{count} {grade_word(name, language)}" for name, count in player.grades.items() if count
    )
    return say(
        "game-review.player",
        language,
        seat=player.seat,
        name=player.name,
        accuracy=f"{player.accuracy:g}",
        lost=say_count("game-review.player-lost", player.points_lost, language),
        turns=say_count("game-review.turns", len(player.turns), language),
        grades=say("game-review.grades", language, grades=grades) if grades else "",
    )


def _name(player: Any, seat: int) -> str:
    if isinstance(player, dict):
        for key in ("name", "level"):
            if isinstance(player.get(key), str):
                return str(player[key])
    if isinstance(player, str):
        return player
    return f"seat {seat}"


def review_game(record: Any, label: str = "game", *, time_limit: float = 2.0) -> GameReview:
    """Replay ``record`` (RecordError if it does not replay), then review each of its plays.

    ``time_limit`` (seconds per turn) must be finite and positive (RamiError otherwise)."""
    from rami.game.record import replay

    if not (math.isfinite(time_limit) and time_limit > 0):
        raise RamiError(
            f"time_limit must be a finite positive number of seconds, got {time_limit!r}"
        )

    plays: list[tuple[int, int, int, Position, Play]] = []
    replay(record, label, lambda *turn: plays.append(turn))
    turns = tuple(
        TurnReview(
            number,
            turn,
            seat,
            review(position, play.table, play.played, play.discard, time_limit=time_limit),
        )
        for number, turn, seat, position, play in plays
    )
    players = record.get("players", [])
    return GameReview(
        label,
        tuple(
            PlayerReview(seat, _name(player, seat), tuple(t for t in turns if t.seat == seat))
            for seat, player in enumerate(players)
        ),
        turns,
    )
