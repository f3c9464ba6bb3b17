"""The commands a person types at the table, and the table being worked on in a turn.

The table moves are the move language's (:mod:`rami.moves`: the solver's move texts are
accepted too, ``add QH from your hand to meld 2``); the game adds the words of a turn::

    draw stock | draw discard
    lay 7H 8H 9H                  new meld from the hand
    add 8C to 3                   hand cards onto meld 3
    move 5C from 3 to 5           table cards from meld 3 to meld 5 (a new number: a new meld)
    split 1 after 6H              meld 1 cut after 6H; the upper part becomes a new meld
    swap 5H in 3                  5H takes the joker's place in meld 3 (the joker to the hand)
    discard 2S                    end the turn with this discard
    done                          end the turn (no discard)
    undo | hint [1-3] | table | hand | help | quit | claim | pass

At the table a joker given up goes to the hand (``put 5H in place of the joker in 3`` is a
swap). :func:`parse_command` reads one line; :class:`WorkTable` applies moves with their
mechanical checks (the cards are where the move says, :class:`rami.moves.Layout`) and undoes
them; whether the table is legal at the end is the referee's to say, when the turn is
submitted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rami.cards import Card, format_cards
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.moves import Layout, Move, MoveError, MoveKind, arrange_like, read_move
from rami.phrasebook import say
from rami.rules import Ruleset

_TABLE_VERBS = {
    MoveKind.LAY: "lay",
    MoveKind.ADD: "add",
    MoveKind.MOVE: "move",
    MoveKind.SPLIT: "split",
    MoveKind.SWAP: "swap",
    MoveKind.REPLACE: "swap",
    MoveKind.DISCARD: "discard",
}


@dataclass(frozen=True)
class Command:
    verb: str
    cards: tuple[Card, ...] = ()
    source: int | None = None
    target: int | None = None
    word: str = ""

    def move(self) -> Move:
        """The table move this command makes (a split's card is the one it cuts after)."""
        if self.verb == "split":
            return Move(MoveKind.SPLIT, (), self.source, None, after=self.cards[0])
        kinds = {
            "lay": MoveKind.LAY,
            "add": MoveKind.ADD,
            "move": MoveKind.MOVE,
            "swap": MoveKind.SWAP,
        }
        if self.verb not in kinds:
            raise MoveError(f"{self.verb!r} is not a table move")
        return Move(kinds[self.verb], self.cards, self.source, self.target)


_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("draw", re.compile(r"draw\s+(?:from\s+the\s+)?(stock|discard)(?:\s+pile)?")),
    ("hint", re.compile(r"hint(?:\s+([123]))?")),
]
_WORDS = ("done", "undo", "table", "hand", "help", "quit", "claim", "pass")


def parse_command(line: str) -> Command:
    """One typed line as a command; MoveError says what was not understood."""
    text = " ".join(line.strip().split())
    lowered = text.lower()
    if not text:
        raise MoveError("empty command: type 'help' for the list")
    if lowered in _WORDS:
        return Command(lowered)
    for verb, pattern in _PATTERNS:
        match = pattern.fullmatch(lowered)
        if match is not None:
            return Command(verb, word=match.group(1) or ("1" if verb == "hint" else ""))
    move = read_move(lowered)
    said = _TABLE_VERBS.get(move.kind) if move is not None else None
    if move is None or said is None:
        raise MoveError(f"not understood: {line.strip()!r}; type 'help' for the commands")
    if said == "split":
        assert move.after is not None
        return Command("split", (move.after,), source=move.source)
    if said == "discard" and len(move.cards) != 1:
        raise MoveError("discard one card")
    return Command(said, move.cards, source=move.source, target=move.target)


@dataclass
class WorkTable:
    """The table and hand during a person's turn: numbered melds (numbers stay put while the
    turn lasts; a meld emptied stays empty), the hand, and the layouts so far for ``undo``."""

    rules: Ruleset
    original: tuple[Meld, ...]
    start_hand: tuple[Card, ...]
    layout: Layout
    history: list[Layout] = field(default_factory=list)

    @classmethod
    def start(cls, rules: Ruleset, table: tuple[Meld, ...], hand: tuple[Card, ...]) -> WorkTable:
        return cls(rules, table, hand, Layout.start(rules, table, hand))

    @property
    def melds(self) -> tuple[tuple[Card, ...], ...]:
        """The cards of each meld by number (an emptied meld has none)."""
        return self.layout.piles

    # -------------------------------------------------------------- moves

    def apply(self, command: Command | Move, language: Language = ENGLISH) -> str:
        """Do one move; returns a line saying what was done in ``language``, or raises
        MoveError."""
        move = command.move() if isinstance(command, Command) else command
        layout, done = self.layout.apply(move)
        self.history.append(self.layout)
        self.layout = layout
        return _done(done, self.rules, language)

    def undo(self) -> bool:
        if not self.history:
            return False
        self.layout = self.history.pop()
        return True

    # -------------------------------------------------------------- the result

    def table(self) -> tuple[Meld, ...]:
        """The melds as they lie now (empty ones gone), jokers placed as in the old table where
        they can stay."""
        return self.layout.table()

    def numbered(self) -> list[tuple[int, Meld]]:
        return self.layout.numbered()

    def played(self) -> tuple[Card, ...]:
        """The cards that left the hand for the table (a joker taken back is not one)."""
        return tuple(sorted((Counter(self.start_hand) - Counter(self.layout.hand)).elements()))

    def hand_cards(self) -> tuple[Card, ...]:
        return self.layout.hand


def _done(move: Move, rules: Ruleset, language: Language = ENGLISH) -> str:
    """What was done, as the table tells it back, in ``language`` (``play.*`` in the phrase
    book)."""
    fields = {
        "cards": format_cards(move.cards, language),
        "source": move.source,
        "target": move.target,
    }
    if move.kind is MoveKind.SPLIT:
        after = "-" if move.after is None else move.after.text(language)
        return say("play.split", language, card=after, **fields)
    key = {
        MoveKind.LAY: "play.laid",
        MoveKind.ADD: "play.added",
        MoveKind.MOVE: "play.moved",
        MoveKind.SHIFT: "play.shifted",
    }.get(move.kind)
    if key is not None:
        return say(key, language, **fields)
    relay = "" if rules.table_joker.name == "SWAP_TO_HAND" else say("play.relay", language)
    return say("play.swapped", language, relay=relay, **fields)


__all__ = ["Command", "MoveError", "WorkTable", "arrange_like", "parse_command"]
