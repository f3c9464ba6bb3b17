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
from rami.rules import Ruleset

_ROUND_ENDS = {
    "out": "a player went out",
    "stock": "the stock ran out",
    "cap": "the turn cap was reached",
    "blocked": "nobody could play",
    "turn-limit": "the engine's turn limit was reached",
}


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


def points(total: int) -> str:
    return f"{total} point{'s' if total != 1 else ''}"


def totals_line(names: Sequence[str], totals: Sequence[int], active: Sequence[bool]) -> str:
    return ", ".join(
        f"{name} {points(total)}"
        for name, total, playing in zip(names, totals, active, strict=True)
        if playing
    )


def game_end_text(rules: Ruleset, options: GameOptions, number: int) -> str:
    """What ends the game, as the table agreed it."""
    game = game_rules(rules)
    target = options.target
    if game.end is GameEnd.ROUNDS:
        text = f"round {number} of {options.rounds}; the highest total wins"
    elif game.end is GameEnd.REACHER_LOSES:
        text = f"whoever reaches {points(target or 0)} loses; the lowest total wins"
    elif game.end is GameEnd.ELIMINATION:
        text = f"whoever reaches {points(target or 0)} is out; the last player left wins"
    else:
        text = (
            f"the game ends with the round in which a player reaches {points(target or 0)}; "
            "the lowest total wins"
        )
    if game.end is not GameEnd.ROUNDS and options.max_rounds != DEFAULT_MAX_ROUNDS:
        text += f"; {options.max_rounds} rounds at most"
    return text


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
        # The bots' levels in the player's words (P2 (confirmé)); the person keeps the name
        # the sentences below are written for.
        self.names = [names[0], *bot_names(names, language)]
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
        first = self.names[rnd.first]
        self.echo(
            f"=== Round {rnd.number}: {first} {'play' if rnd.first == 0 else 'plays'} "
            f"first. Totals: {totals_line(self.names, rnd.totals, rnd.active)}; "
            f"{game_end_text(self.rules, self.options, rnd.number)}. ==="
        )

    def event_lines(self, event: dict[str, Any], rnd: Round) -> list[str]:
        language = self.language
        if "reshuffle" in event:
            return [
                f"The discard pile (less its top) is shuffled into a new stock of "
                f"{len(event['stock'])} cards."
            ]
        seat = event["seat"]
        who = self.names[seat]
        if "claim" in event:
            if seat == 0:
                return []  # told when the person's turn starts
            return [f"{who} claims {say(event['claim'], language)} and takes a penalty card."]
        if "draw" in event:
            if seat == 0:
                return []  # told when the person's turn starts
            card = f" {say(event['card'], language)}" if event["draw"] == DISCARD else ""
            return [
                f"{who} draws{card} from the {event['draw']}"
                f"{' pile' if event['draw'] == DISCARD else ''}."
            ]
        before = self.order.melds
        after = self.order.follow(rnd.state.table)
        if seat == 0:
            return ["Turn accepted by the referee."]
        left = sum(rnd.state.hands[seat].values()) if seat in rnd.state.hands else 0
        cards_left = f"({left} card{'s' if left != 1 else ''} left)"
        played = [Card.parse(card) for card in event["played"]]
        discard = event.get("discard")
        if "table" not in event:
            text = f"{who} lays nothing" + (
                f", discards {say(discard, language)}" if discard else ""
            )
            return [f"{text} {cards_left}."]
        lines = turn_lines(before, after, played, discard, language)
        heading = (
            f"{who} plays {cards_text(played, language)}"
            if played
            else f"{who} rearranges the table"
        )
        return [f"{heading} {cards_left}, moves ({len(lines)}):", *lines]

    def round_over(self, entry: dict[str, Any]) -> None:
        end = entry["end"]
        winners = " and ".join(self.names[seat] for seat in end["winners"]) or "nobody"
        why = _ROUND_ENDS.get(end["reason"], end["reason"])
        self.echo(
            f"=== Round {entry['number']} over: {why}"
            f"{'' if end['reason'] != 'out' else f' ({winners})'}"
            f"{' (rami sec)' if end.get('rami_sec') else ''}. ==="
        )
        for seat, name in enumerate(self.names):
            if entry["active"][seat]:
                hand = cards_text(map(Card.parse, entry["hands"][seat]), self.language)
                self.echo(
                    f"  {name}: {hand or '-'} -> {entry['scores'][seat]:+d} "
                    f"(total {entry['totals'][seat]})"
                )
        for seat in entry["eliminated"]:
            self.echo(f"  {self.names[seat]} {'are' if seat == 0 else 'is'} out of the game.")
        self.echo(f"Totals: {totals_line(self.names, entry['totals'], entry['active'])}.")


__all__ = ["Narrator", "TableOrder", "bot_move_text", "game_end_text", "turn_lines"]
