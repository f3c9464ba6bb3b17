"""What follows a terminal game (``rami play``) as it is played: the narrator tells it, the keeper
writes its record, and a resumed game's recorded actions are checked until it goes live.

:class:`Followers` gives :func:`rami.game.match.play_game` its listeners, and each seat
(:class:`rami.game.human_record.Seat`) the way to tell the table before a player acts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rami.game.human_record import Keeper, Resume
from rami.game.human_tell import Narrator
from rami.game.rounds import Round
from rami.phrasebook import say_count


@dataclass
class Followers:
    """The narrator, the keeper and the resume of one game, told of every step of it."""

    narrator: Narrator
    keeper: Keeper
    resume: Resume
    echo: Callable[[str], None]
    #: The record file a resumed game comes from (said when it goes live).
    resume_from: str = ""

    def __post_init__(self) -> None:
        self.resume.on_live = self.resumed

    def watch(self, rnd: Round) -> None:
        """Tell the table as it is now (or, while recorded actions are replayed, keep up)."""
        (self.narrator.catch_up if self.resume.live else self.narrator.skip)(rnd)

    def listener(self, rnd: Round, events: list[dict[str, Any]]) -> None:
        """After each action: checked against the record, written, told."""
        self.resume.check(rnd)
        self.keeper.writing = self.resume.live
        self.keeper.step(rnd)
        self.watch(rnd)

    def round_done(self, entry: dict[str, Any]) -> None:
        """After each round: checked against the record, written, told (when live)."""
        was_live = self.resume.live
        self.resume.round_over(entry)
        self.keeper.writing = self.resume.live
        self.keeper.round_over(entry)
        if was_live:
            self.narrator.round_over(entry)

    def resumed(self) -> None:
        """The recorded actions are all played again: the game goes on live."""
        self.echo(
            say_count(
                "play.resumed",
                self.resume.replayed,
                self.narrator.language,
                path=self.resume_from,
            )
        )
        if self.narrator.rnd is not None and not self.narrator.rnd.over:
            self.narrator.header(self.narrator.rnd)
