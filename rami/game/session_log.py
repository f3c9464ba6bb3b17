"""The game log as seat 0 sees it: each event of a round, as data, once it happened.

:class:`TableLog` turns a round's events into the entries the person may see: a card another
player draws from the stock is never named, a reshuffle gives the new stock's size, never its
order; a turn is told as moves (:mod:`rami.game.turn_text`) with the melds numbered as the table
was before it, and the cards a bot took from the person's melds named. Keys starting with "_"
stay in the session; :func:`entry_json` is an entry as sent, its ``text`` in the language asked
(:mod:`rami.game.session_text`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.errors import SolverBugError
from rami.game.actions import DISCARD
from rami.game.rounds import Round
from rami.game.session_text import entry_text
from rami.game.turn_text import move_texts, owners_after, took, turn_moves
from rami.lang import ENGLISH, Language
from rami.melds import Meld

log = logging.getLogger(__name__)

#: The person's seat.
HUMAN = 0


class TableLog:
    """The entries of a game's log, kept as a round's events arrive."""

    def __init__(self) -> None:
        self.entries: list[dict[str, Any]] = []
        self._seen = 0  # events of the round already logged
        self._table: tuple[Meld, ...] = ()  # the table as the last logged event left it
        self._owners: list[int] = []  # who laid each of its melds

    def dealt(self, number: int, first: int) -> None:
        """Round ``number`` is dealt, ``first`` to play: a new table."""
        self._seen = 0
        self._table, self._owners = (), []
        self.entries.append({"kind": "deal", "round": number, "seat": first})

    def catch_up(self, rnd: Round, number: int) -> None:
        """Log the round's events not logged yet."""
        for event in rnd.events[self._seen :]:
            self.entries.append(self._visible(event, rnd, number))
        self._seen = len(rnd.events)

    def _visible(self, event: dict[str, Any], rnd: Round, number: int) -> dict[str, Any]:
        base = {"round": number}
        if "reshuffle" in event:
            return {**base, "kind": "reshuffle", "stock_size": len(event["stock"])}
        seat = event["seat"]
        if "claim" in event:
            return {
                **base,
                "kind": "claim",
                "seat": seat,
                "card": event["claim"],
                "penalty": event["penalty"] if seat == HUMAN else None,
            }
        if "draw" in event:
            shown = seat == HUMAN or event["draw"] == DISCARD
            return {
                **base,
                "kind": "draw",
                "seat": seat,
                "source": event["draw"],
                "card": event["card"] if shown else None,
            }
        before, owners = self._table, self._owners
        if "table" in event:
            self._table = rnd.state.table
            self._owners = owners_after(before, self._table, owners, seat)
        played = [Card.parse(card) for card in event["played"]]
        try:
            moves = turn_moves(before, self._table, played)
        except SolverBugError as error:  # a turn the move language cannot tell: said plainly
            log.warning("round %d: the turn of seat %d not told as moves: %s", number, seat, error)
            moves = ()
        left = sum(rnd.state.hands[seat].values()) if seat in rnd.state.hands else 0
        return {
            **base,
            "kind": "play",
            "seat": seat,
            "played": event["played"],
            "discard": event.get("discard"),
            "table": event.get("table"),
            "took": [] if seat == HUMAN else [str(card) for card in took(moves, owners, HUMAN)],
            "hand_size": left,
            "_moves": moves,
        }


def entry_json(
    entry: dict[str, Any], names: Sequence[str], language: Language = ENGLISH
) -> dict[str, Any]:
    """A log entry as sent: its public fields, its ``text`` in ``language`` and, for a
    turn, its ``moves`` (melds numbered as the table was before it)."""
    sent = {key: value for key, value in entry.items() if not key.startswith("_")}
    sent["text"] = entry_text(entry, names, language)
    if entry["kind"] == "play":
        sent["moves"] = move_texts(
            entry["_moves"], entry["discard"], language, mine=entry["seat"] == HUMAN
        )
    return sent
