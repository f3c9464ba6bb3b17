"""How ``rami play`` tells the game to the person at seat 0, as the table sees it.

A round opens with a header (its number, who plays first, the running totals, what ends the
game) and closes with the hands counted, the totals and a line (a pause when the person sits at
a terminal). Each event is told once, those of the deal too (the first player's draw). Another
player's stock draw never names its card. A bot's turn is told as the moves a person would make
at the table (:func:`rami.solver.explain.explain_moves`, the solver's move language, as ``rami
solve`` prints them), its melds numbered as the person saw them before the turn: the terminal
keeps one numbering of the table (:class:`TableOrder`), in which a meld keeps its number from
turn to turn and a new one is numbered on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rami.cards import Card
from rami.game.actions import DISCARD
from rami.game.human_text import cards_text, say
from rami.game.presets import DEFAULT_MAX_ROUNDS, GameEnd, GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.session_text import bot_names
from rami.game.turn_text import bot_move_text, move_texts, turn_moves
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.phrasebook import BOOKS, say_count
from rami.phrasebook import say as phrase
from rami.rules import Ruleset


class TableOrder:
    """The table in the order the person sees it numbered, kept from turn to turn."""

    def __init__(self) -> None:
        self.melds: tuple[Meld, ...] = ()

    def arrange(self, table: Sequence[Meld]) -> tuple[Meld, ...]:
        """``table`` numbered as the table shown before it: a meld matched to a meld shown
        keeps its number, the others are numbered on (decision 7's matching)."""
        from rami.solver.explain import in_number_order

        if not table:
            return ()
        return tuple(in_number_order(self.melds, table))

    def follow(self, table: Sequence[Meld]) -> tuple[Meld, ...]:
        self.melds = self.arrange(table)
        return self.melds


def points(total: int, language: Language = ENGLISH) -> str:
    return say_count("play.points", total, language)


def totals_line(
    names: Sequence[str],
    totals: Sequence[int],
    active: Sequence[bool],
    language: Language = ENGLISH,
) -> str:
    return ", ".join(
        f"{name} {points(total, language)}"
        for name, total, playing in zip(names, totals, active, strict=True)
        if playing
    )


def game_end_text(
    rules: Ruleset, options: GameOptions, number: int, language: Language = ENGLISH
) -> str:
    """What ends the game, as the table agreed it."""
    game = game_rules(rules)
    reached = points(options.target or 0, language)
    if game.end is GameEnd.ROUNDS:
        text = phrase("play.end.rounds", language, number=number, rounds=options.rounds)
    elif game.end is GameEnd.REACHER_LOSES:
        text = phrase("play.end.reacher-loses", language, points=reached)
    elif game.end is GameEnd.ELIMINATION:
        text = phrase("play.end.elimination", language, points=reached)
    else:
        text = phrase("play.end.target", language, points=reached)
    if game.end is not GameEnd.ROUNDS and options.max_rounds != DEFAULT_MAX_ROUNDS:
        text += say_count("play.end.max-rounds", options.max_rounds, language)
    return text


def round_end_text(reason: str, language: Language = ENGLISH) -> str:
    """Why a round ended, in ``language`` (an unknown reason as the record says it)."""
    key = f"log.reason.{reason}"
    return phrase(key, language) if key in BOOKS[language] else reason


def turn_lines(
    before: Sequence[Meld],
    after: Sequence[Meld],
    played: Sequence[Card],
    discard: str | None,
    language: Language = ENGLISH,
) -> list[str]:
    """A turn as numbered moves, its melds numbered as ``before`` (the table as the person saw
    it), new melds numbered on; the discard last (:mod:`rami.game.turn_text`)."""
    lines = move_texts(turn_moves(before, after, played), discard, language)
    width = len(str(len(lines)))
    return [f"  {number:>{width}}. {line}" for number, line in enumerate(lines, start=1)]


class Narrator:
    """Tells each event of each round once, and opens and closes the rounds."""

    def __init__(
        self,
        names: Sequence[str],
        rules: Ruleset,
        options: GameOptions,
        echo: Callable[[str], None],
        order: TableOrder,
        language: Language = ENGLISH,
    ) -> None:
        # The person as the sentences below speak to them ("You", "Vous"), and the bots'
        # levels in the player's words (P2 (confirmé)).
        self.names = [phrase("log.you", language), *bot_names(names, language)]
        self.rules = rules
        self.options = options
        self.echo = echo
        self.order = order
        self.language = language
        self.round = 0
        self.told = 0  # events of the round already told
        self.rnd: Round | None = None
        #: Called before a round after the first is opened (at a terminal: wait for Enter).
        self.pause: Callable[[int], None] | None = None

    def catch_up(self, rnd: Round) -> None:
        """Open the round if it is new, and tell the events not told yet."""
        self.rnd = rnd
        if rnd.number != self.round:
            if rnd.number > 1 and self.pause is not None:
                self.pause(rnd.number)
            self.round, self.told = rnd.number, 0
            self.order.melds = ()
            self.header(rnd)
        for event in rnd.events[self.told :]:
            for line in self.event_lines(event, rnd):
                self.echo(line)
        self.told = len(rnd.events)

    def skip(self, rnd: Round) -> None:
        """The events so far are known already (a resumed game): tell none of them, but keep
        the table's numbering."""
        self.rnd = rnd
        self.round, self.told = rnd.number, len(rnd.events)
        self.order.follow(rnd.state.table)

    def header(self, rnd: Round) -> None:
        language = self.language
        self.echo(
            phrase(
                "play.header.person" if rnd.first == 0 else "play.header.bot",
                language,
                number=rnd.number,
                first=self.names[rnd.first],
                totals=totals_line(self.names, rnd.totals, rnd.active, language),
                end=game_end_text(self.rules, self.options, rnd.number, language),
            )
        )

    def event_lines(self, event: dict[str, Any], rnd: Round) -> list[str]:
        language = self.language
        if "reshuffle" in event:
            return [phrase("log.reshuffle", language, size=len(event["stock"]))]
        seat = event["seat"]
        who = self.names[seat]
        if "claim" in event:
            if seat == 0:
                return []  # told when the person's turn starts
            card = say(event["claim"], language)
            return [phrase("log.claim.bot", language, who=who, card=card, penalty="")]
        if "draw" in event:
            if seat == 0:
                return []  # told when the person's turn starts
            if event["draw"] == DISCARD:
                card = say(event["card"], language)
                return [phrase("log.draw-discard.bot", language, who=who, card=card)]
            return [phrase("play.draw-stock", language, who=who)]
        before = self.order.melds
        after = self.order.follow(rnd.state.table)
        if seat == 0:
            return [phrase("play.accepted", language)]
        count = sum(rnd.state.hands[seat].values()) if seat in rnd.state.hands else 0
        left = say_count("play.left", count, language)
        played = [Card.parse(card) for card in event["played"]]
        discard = event.get("discard")
        if "table" not in event:
            if not discard:
                return [phrase("play.lays-nothing", language, who=who, left=left)]
            card = say(discard, language)
            return [phrase("play.lays-nothing-discards", language, who=who, card=card, left=left)]
        lines = turn_lines(before, after, played, discard, language)
        fields = {"who": who, "left": left, "count": len(lines)}
        if played:
            heading = phrase("play.plays", language, cards=cards_text(played, language), **fields)
        else:
            heading = phrase("play.rearranges", language, **fields)
        return [heading, *lines]

    def round_over(self, entry: dict[str, Any]) -> None:
        language = self.language
        end = entry["end"]
        winners = phrase("log.and", language).join(self.names[seat] for seat in end["winners"])
        winners = winners or phrase("log.nobody", language)
        self.echo(
            phrase(
                "play.round-over",
                language,
                number=entry["number"],
                why=round_end_text(end["reason"], language),
                winners="" if end["reason"] != "out" else f" ({winners})",
                sec=" (rami sec)" if end.get("rami_sec") else "",
            )
        )
        for seat, name in enumerate(self.names):
            if entry["active"][seat]:
                hand = cards_text(map(Card.parse, entry["hands"][seat]), language)
                score, total = f"{entry['scores'][seat]:+d}", entry["totals"][seat]
                self.echo(
                    phrase(
                        "play.round-hand",
                        language,
                        name=name,
                        hand=hand or "-",
                        score=score,
                        total=total,
                    )
                )
        for seat in entry["eliminated"]:
            key = "play.out.person" if seat == 0 else "play.out.bot"
            self.echo(phrase(key, language, who=self.names[seat]))
        totals = totals_line(self.names, entry["totals"], entry["active"], language)
        self.echo(phrase("play.totals", language, totals=totals))


__all__ = [
    "Narrator",
    "TableOrder",
    "bot_move_text",
    "game_end_text",
    "round_end_text",
    "turn_lines",
]
