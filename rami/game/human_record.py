"""``rami play --out`` and ``--resume``: a person's game kept as its record, and continued.

The record is the game record of :mod:`rami.game.record` (decision 13), written with the same
encoder as :func:`rami.game.match.play_game` (its header fields, and
:func:`~rami.game.match.round_entry` for each finished round). A game in progress is that record
cut where the game stands: the finished rounds, then the round being played with its deal and
the actions so far (no ``end``, no scores yet), and no game result. :class:`Keeper` rewrites the
file after every action (a new file renamed over the old one, so a crash mid-write leaves the
previous state whole): a quit, a Ctrl-C or a crash loses at most the moves of a turn not yet
submitted.

:func:`load_game` reads such a file back and :class:`Resume` stands in for every player while
the recorded actions last: the game is dealt again from its seed and each recorded action goes
through the engine, hence the referee; every event the engine logs must be the recorded one
(the cards drawn, the tables). Then the players take over where the record stops.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami.errors import RamiError
from rami.game.actions import Action, GameInternalError, IllegalActionError
from rami.game.match import RECORD_FORMAT, RECORD_VERSION, SHUFFLE, Player
from rami.game.presets import GameOptions
from rami.game.record import NOT_BOTS, RecordedActions, RecordError, record_file, same
from rami.game.rounds import Round
from rami.game.state import View
from rami.rules import Ruleset


class KeepError(RamiError):
    """The record cannot be written where ``--out`` says."""


class ResumeError(RamiError):
    """A file ``--resume`` cannot continue: not a game record, a finished game, or actions the
    engine does not give again."""


def record_header(
    ruleset: Ruleset, options: GameOptions, seed: int, names: Sequence[str], levels: Sequence[str]
) -> dict[str, Any]:
    """The fields :func:`~rami.game.match.play_game` opens its record with."""
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": ruleset.option_string,
        "options": options.resolved(ruleset).to_json(),
        "seed": seed,
        "shuffle": SHUFFLE,
        "players": [
            {"name": name, "level": level} for name, level in zip(names, levels, strict=True)
        ],
        "rounds": [],
    }


def round_so_far(rnd: Round) -> dict[str, Any]:
    """A round being played, as far as it went: the first fields of its round entry."""
    return {
        "number": rnd.number,
        "first": rnd.first,
        "active": list(rnd.active),
        "deal": rnd.deal.to_json(),
        "actions": list(rnd.events),
    }


class Keeper:
    """Writes the record to ``path`` after each step (nothing when ``path`` is None)."""

    def __init__(
        self, path: Path | None, header: dict[str, Any], warn: Callable[[str], None] | None = None
    ) -> None:
        self.path = path
        self.header = header
        self.finished: list[dict[str, Any]] = []
        self.current: Round | None = None
        self.writing = True
        self.warn = warn

    def step(self, rnd: Round) -> None:
        self.current = rnd
        self.save()

    def round_over(self, entry: dict[str, Any]) -> None:
        self.finished.append(entry)
        self.current = None
        self.save()

    def record(self) -> dict[str, Any]:
        rounds = list(self.finished)
        if self.current is not None and not self.current.over:
            rounds.append(round_so_far(self.current))
        return {**self.header, "rounds": rounds}

    def save(self, record: dict[str, Any] | None = None) -> None:
        if self.path is None or not self.writing:
            return
        text = (
            json.dumps(record if record is not None else self.record(), separators=(",", ":"))
            + "\n"
        )
        partial = self.path.with_name(self.path.name + ".part")
        try:
            with partial.open("w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, self.path)
        except OSError as error:
            message = f"cannot write {str(self.path)!r}: {error.strerror}"
            if self.warn is None:
                raise KeepError(message) from None
            # During the game: say so, and go on (the next action tries again).
            self.warn(
                f"Warning: {message}; the game goes on, the record will be tried again "
                "after the next action."
            )


@dataclass(frozen=True)
class SavedGame:
    """What a kept game says about itself: enough to seat the same table again."""

    rules: str
    options: GameOptions
    seed: int
    levels: tuple[str, ...]
    rounds: list[list[Any]]  # each round's recorded actions

    @property
    def actions(self) -> int:
        return sum(len(actions) for actions in self.rounds)


def load_game(path: str) -> SavedGame:
    """The game kept in ``path`` by ``rami play --out``; ResumeError saying why not."""
    records = []
    try:
        for _, record in record_file(path):
            records.append(record)
            if len(records) > 1:
                raise ResumeError(
                    f"{path} holds more than one game record: --resume takes "
                    "the file of one game (as rami play --out writes it)"
                )
    except ResumeError:
        raise
    except RamiError as error:
        raise ResumeError(str(error)) from None
    if not records:
        raise ResumeError(f"{path}: no game record in it")
    return saved_game(records[0], path)


def saved_game(record: Any, path: str) -> SavedGame:
    def bad(message: str) -> ResumeError:
        return ResumeError(f"{path}: {message}")

    if not isinstance(record, dict) or not (
        same(record.get("format"), RECORD_FORMAT) and same(record.get("version"), RECORD_VERSION)
    ):
        raise bad(f"not a {RECORD_FORMAT} record of version {RECORD_VERSION}")
    if "winners" in record:
        winners = record.get("winners")
        raise bad(
            f"that game is over (winners: seats {winners}, totals {record.get('totals')}); "
            "nothing to resume"
        )
    if (
        not same(record.get("shuffle"), SHUFFLE)
        or not isinstance(record.get("seed"), int)
        or isinstance(record.get("seed"), bool)
    ):
        raise bad(
            f"the game is not dealt from a whole-number seed with {SHUFFLE!r}, so it "
            "cannot be dealt again"
        )
    rules = record.get("rules")
    if not isinstance(rules, str):
        raise bad(f"rules: expected a string, got {rules!r}")
    try:
        options = GameOptions.from_json(record.get("options"))
    except RamiError as error:
        raise bad(str(error)) from None
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not players
        or not all(
            isinstance(player, dict) and isinstance(player.get("level"), str) for player in players
        )
    ):
        raise bad("players: expected a list of {name, level} objects")
    levels = [player["level"] for player in players]
    if levels[0] != "human" or any(level in NOT_BOTS for level in levels[1:]):
        raise bad(
            "not a game of rami play: a person at seat 0 (level 'human'), bots at the "
            f"other seats; the levels are {levels}"
        )
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not all(
        isinstance(entry, dict) and isinstance(entry.get("actions"), list) for entry in rounds
    ):
        raise bad("rounds: expected a list of rounds, each with its actions")
    return SavedGame(
        rules, options, record["seed"], tuple(levels[1:]), [entry["actions"] for entry in rounds]
    )


class Resume:
    """The recorded actions, answering for every seat until they run out (then ``live``)."""

    def __init__(self, game: SavedGame | None, path: str = "") -> None:
        self.rounds = game.rounds if game is not None else []
        self.path = path
        self.rnd: Round | None = None
        self.live = game is None or not game.actions
        self.replayed = 0
        self.checked = (0, 0)  # the round, and its events found as recorded
        #: Called once, when the record runs out and the players take over.
        self.on_live: Callable[[], None] | None = None

    def _go_live(self) -> None:
        self.live = True
        if self.on_live is not None:
            self.on_live()

    def recorded(self, rnd: Round) -> list[Any]:
        return self.rounds[rnd.number - 1] if rnd.number <= len(self.rounds) else []

    def action(self, rnd: Round) -> Action | None:
        """The recorded answer to what ``rnd`` asks now, or None: the record stops here."""
        if self.live:
            return None
        recorded = self.recorded(rnd)
        self.check(rnd)
        if len(rnd.events) >= len(recorded) and rnd.number >= len(self.rounds):
            self._go_live()  # where the record stops: the players take over
            return None
        try:
            action = RecordedActions(rnd, recorded).action()
        except RecordError as error:
            raise self.error(rnd, error.message) from None
        except RamiError as error:
            raise self.error(rnd, f"unreadable action: {error}") from None
        return action

    def check(self, rnd: Round) -> None:
        """After each step replayed: the engine's events must be the recorded ones (those of the
        deal too, such as the first player's draw)."""
        if self.live:
            return
        if self.checked[0] != rnd.number:
            self.checked = (rnd.number, 0)
        recorded = self.recorded(rnd)
        for at in range(self.checked[1], len(rnd.events)):
            event = rnd.events[at]
            theirs = recorded[at] if at < len(recorded) else None
            if not same(event, theirs):
                raise self.error(
                    rnd,
                    f"the engine gives {json.dumps(event)}, the record has {json.dumps(theirs)}",
                    at + 1,
                )
            self.replayed += 1
        self.checked = (rnd.number, len(rnd.events))

    def round_over(self, entry: dict[str, Any]) -> None:
        """After a round replayed to its end (``entry``: its round entry)."""
        if self.live:
            return
        number, played = entry["number"], len(entry["actions"])
        recorded = self.rounds[number - 1] if number <= len(self.rounds) else []
        if len(recorded) > played:
            raise ResumeError(
                f"{self.path} does not continue: round {number} is over after "
                f"action {played}, yet {len(recorded) - played} more are recorded"
            )
        if number >= len(self.rounds):
            self._go_live()

    def refused(self, rnd: Round | None, error: IllegalActionError) -> ResumeError:
        return self.error(rnd, f"a recorded action is illegal: {'; '.join(error.problems)}")

    def error(self, rnd: Round | None, message: str, action: int | None = None) -> ResumeError:
        where = (
            ""
            if rnd is None
            else (
                f"round {rnd.number}, "
                f"action {action if action is not None else len(rnd.events) + 1}: "
            )
        )
        return ResumeError(f"{self.path} does not continue: {where}{message}")


class Seat:
    """A player behind the record: the recorded actions first, then the player's own."""

    def __init__(
        self, player: Player, resume: Resume, watch: Callable[[Round], None] | None = None
    ) -> None:
        self.player = player
        self.resume = resume
        self.watch = watch
        self.level = getattr(player, "level", "player")
        self.rnd: Round | None = None

    def see(self, rnd: Round) -> None:
        # The engine shows this hook the round (every card): only the record's replay reads it,
        # to know which recorded action comes next, and the narrator (``watch``) to tell what
        # the table saw before this request; the player behind sees its View only.
        self.rnd = rnd
        if self.watch is not None:
            self.watch(rnd)
        see = getattr(self.player, "see", None)
        if see is not None:
            see(rnd)

    def act(self, view: View) -> Action:
        if self.rnd is not None and not self.resume.live:
            action = self.resume.action(self.rnd)
            if action is not None:
                return action
        return self.player.act(view)

    def refused(self, error: IllegalActionError) -> None:
        if not self.resume.live:
            raise self.resume.refused(self.rnd, error)
        refused = getattr(self.player, "refused", None)
        if refused is None:  # a bot: its illegal action is a bug, as in play_game
            raise GameInternalError(
                f"{self.level} bot proposed an illegal action at {error.where}: "
                f"{'; '.join(error.problems)}"
            ) from error
        refused(error)


__all__ = [
    "KeepError",
    "Keeper",
    "Resume",
    "ResumeError",
    "SavedGame",
    "Seat",
    "load_game",
    "record_header",
    "round_so_far",
]
