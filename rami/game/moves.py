"""The move language a person types at the table, and the table being worked on in a turn.

Commands (the solver's move texts are accepted too: ``add QH from your hand to meld 2``)::

    draw stock | draw discard
    lay 7H 8H 9H                  new meld from the hand
    add 8C to 3                   hand cards onto meld 3
    move 5C from 3 to 5           table cards from meld 3 to meld 5 (a new number: a new meld)
    split 1 after 6H              meld 1 cut after 6H; the upper part becomes a new meld
    swap 5H in 3                  5H takes the joker's place in meld 3 (the joker to the hand)
    discard 2S                    end the turn with this discard
    done                          end the turn (no discard)
    undo | hint [1-3] | table | hand | help | quit | claim | pass

:func:`parse_command` reads one line; :class:`WorkTable` applies moves with their mechanical
checks (the cards are where the move says) and undoes them; whether the table is legal at the
end is the referee's to say, when the turn is submitted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from rami.cards import Card, format_cards, parse_cards
from rami.errors import NotationError, RamiError
from rami.melds import Meld, MeldKind, arrange, is_valid, run_start
from rami.rules import Ruleset


class MoveError(RamiError):
    """A command that does not parse, or a move whose cards are not where it says."""


@dataclass(frozen=True)
class Command:
    verb: str
    cards: tuple[Card, ...] = ()
    source: int | None = None
    target: int | None = None
    word: str = ""


_MELD = r"(?:meld\s+)?(\d+)"
_CARDS = r"([^()]+?)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("draw", re.compile(r"draw\s+(?:from\s+the\s+)?(stock|discard)(?:\s+pile)?")),
    ("lay", re.compile(rf"lay\s+{_CARDS}(?:\s+from\s+your\s+hand)?(?:\s+as\s+{_MELD})?")),
    ("add", re.compile(rf"add\s+{_CARDS}(?:\s+from\s+your\s+hand)?\s+to\s+{_MELD}")),
    ("move", re.compile(rf"move\s+{_CARDS}\s+from\s+{_MELD}\s+to\s+{_MELD}")),
    ("split", re.compile(rf"split\s+(?:(?:\S+\s+)?\(meld\s+(\d+)\)|{_MELD})\s+after\s+(\S+?)"
                         r"(?::.*)?")),
    ("swap", re.compile(rf"(?:swap|put)\s+(\S+)\s+(?:in\s+place\s+of\s+the\s+joker\s+)?"
                        rf"in\s+{_MELD}(?::.*)?")),
    ("discard", re.compile(r"discard\s+(.+?)(?::.*|\s+to\s.*)?")),
    ("hint", re.compile(r"hint(?:\s+([123]))?")),
]
_WORDS = ("done", "undo", "table", "hand", "help", "quit", "claim", "pass")


def _cards(text: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except NotationError as error:
        raise MoveError(str(error)) from None
    if not cards:
        raise MoveError("no card named")
    return cards


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
        if match is None:
            continue
        groups = match.groups()
        if verb == "draw":
            return Command("draw", word=groups[0])
        if verb == "hint":
            return Command("hint", word=groups[0] or "1")
        if verb == "lay":
            return Command("lay", _cards(groups[0]), target=_number(groups[1]))
        if verb == "add":
            return Command("add", _cards(groups[0]), target=_number(groups[1]))
        if verb == "move":
            return Command("move", _cards(groups[0]), source=_number(groups[1]),
                           target=_number(groups[2]))
        if verb == "split":
            number = groups[0] or groups[1]
            return Command("split", _cards(groups[2]), source=_number(number))
        if verb == "swap":
            return Command("swap", _cards(groups[0]), target=_number(groups[1]))
        if verb == "discard":
            cards = _cards(groups[0])
            if len(cards) != 1:
                raise MoveError("discard one card")
            return Command("discard", cards)
    raise MoveError(f"not understood: {line.strip()!r}; type 'help' for the commands")


def _number(text: str | None) -> int | None:
    return None if text is None else int(text)


@dataclass
class WorkTable:
    """The table and hand during a person's turn: numbered melds (numbers stay put while the
    turn lasts; a meld emptied stays empty), the hand, and the moves so far for ``undo``."""

    rules: Ruleset
    original: tuple[Meld, ...]
    start_hand: tuple[Card, ...]
    melds: list[list[Card]] = field(default_factory=list)
    hand: Counter[Card] = field(default_factory=Counter)
    history: list[tuple[list[list[Card]], Counter[Card]]] = field(default_factory=list)

    @classmethod
    def start(cls, rules: Ruleset, table: tuple[Meld, ...], hand: tuple[Card, ...]) -> WorkTable:
        return cls(rules, table, hand, [list(meld.cards) for meld in table], Counter(hand))

    # -------------------------------------------------------------- moves

    def apply(self, command: Command) -> str:
        """Do one move; returns a line saying what was done, or raises MoveError."""
        melds = [list(meld) for meld in self.melds]
        hand = Counter(self.hand)
        verb = command.verb
        if verb == "lay":
            self._take(hand, command.cards)
            target = command.target or len(melds) + 1
            if target != len(melds) + 1:
                raise MoveError(f"a new meld is number {len(melds) + 1}")
            melds.append(list(command.cards))
            done = f"laid {format_cards(command.cards)} as meld {target}"
        elif verb == "add":
            self._take(hand, command.cards)
            self._meld(melds, command.target).extend(command.cards)
            done = f"added {format_cards(command.cards)} to meld {command.target}"
        elif verb == "move":
            source = self._meld(melds, command.source)
            self._take_from(source, command.cards, command.source)
            if command.target == len(melds) + 1:
                melds.append([])
            self._meld(melds, command.target).extend(command.cards)
            done = (f"moved {format_cards(command.cards)} from meld {command.source} to meld "
                    f"{command.target}")
        elif verb == "split":
            source = self._meld(melds, command.source)
            cut = command.cards[0]
            laid = self._arranged(source, command.source).cards
            if cut not in laid or laid.index(cut) == len(laid) - 1:
                raise MoveError(f"meld {command.source} has no card after {cut}")
            at = laid.index(cut) + 1
            melds[command.source - 1] = list(laid[:at])  # type: ignore[operator]
            melds.append(list(laid[at:]))
            done = (f"split meld {command.source} after {cut}: {format_cards(laid[at:])} is "
                    f"meld {len(melds)}")
        elif verb == "swap":
            card = command.cards[0]
            self._take(hand, (card,))
            meld = self._meld(melds, command.target)
            if not any(c.is_joker for c in meld):
                raise MoveError(f"meld {command.target} holds no joker")
            joker = next(c for c in meld if c.is_joker)
            meld.remove(joker)
            meld.append(card)
            hand[joker] += 1
            done = (f"put {card} in place of the joker in meld {command.target}; the joker is "
                    "in your hand" + ("" if self.rules.table_joker.name == "SWAP_TO_HAND" else
                                      " and must be laid again this turn"))
        else:
            raise MoveError(f"{verb!r} is not a table move")
        self.history.append((self.melds, self.hand))
        self.melds, self.hand = melds, hand
        return done

    def undo(self) -> bool:
        if not self.history:
            return False
        self.melds, self.hand = self.history.pop()
        return True

    def _take(self, hand: Counter[Card], cards: tuple[Card, ...]) -> None:
        missing = Counter(cards) - hand
        if missing:
            raise MoveError(f"your hand does not hold {format_cards(sorted(missing.elements()))}")
        hand.subtract(cards)

    def _take_from(self, meld: list[Card], cards: tuple[Card, ...], number: int | None) -> None:
        missing = Counter(cards) - Counter(meld)
        if missing:
            raise MoveError(f"meld {number} does not hold {format_cards(missing.elements())}")
        for card in cards:
            meld.remove(card)

    def _meld(self, melds: list[list[Card]], number: int | None) -> list[Card]:
        if number is None or not 1 <= number <= len(melds):
            raise MoveError(f"there is no meld {number} (melds are 1 to {len(melds)})")
        return melds[number - 1]

    # -------------------------------------------------------------- the result

    def _arranged(self, cards: list[Card], number: int | None) -> Meld:
        previous = self.original[number - 1] if number and number <= len(self.original) else None
        return arrange_like(cards, self.rules, previous)

    def table(self) -> tuple[Meld, ...]:
        """The melds as they lie now (empty ones gone), jokers placed as in the old table where
        they can stay."""
        return tuple(self._arranged(cards, number)
                     for number, cards in enumerate(self.melds, start=1) if cards)

    def numbered(self) -> list[tuple[int, Meld]]:
        return [(number, self._arranged(cards, number))
                for number, cards in enumerate(self.melds, start=1) if cards]

    def played(self) -> tuple[Card, ...]:
        """The cards that left the hand for the table (a joker taken back is not one)."""
        return tuple(sorted((Counter(self.start_hand) - self.hand).elements()))

    def hand_cards(self) -> tuple[Card, ...]:
        return tuple(sorted((+self.hand).elements()))


def arrange_like(cards: list[Card], rules: Ruleset, previous: Meld | None = None) -> Meld:
    """``cards`` laid out as a meld; a run's jokers stay on the ranks they stood for in
    ``previous`` where they can. Cards that make no meld are returned as they are (the referee
    will say why)."""
    cards = list(cards)
    jokers = sum(card.is_joker for card in cards)
    best = arrange(cards, rules, prefer=previous.kind if previous is not None else None)
    if best is None:
        return Meld.of(cards)
    if not jokers or best.kind is not MeldKind.RUN or previous is None \
            or previous.kind is not MeldKind.RUN or not previous.jokers:
        return best
    old_start = run_start(previous, rules)
    if old_start is None:
        return best
    old = {old_start + i for i, card in enumerate(previous.cards) if card.is_joker}
    real = [card for card in cards if not card.is_joker]
    length = len(cards)
    suit = real[0].suit
    assert suit is not None  # a real card
    scored: list[tuple[int, Meld]] = []
    for start in range(1, rules.top_rank - length + 2):
        laid: list[Card] = []
        left = Counter(real)
        for position in range(start, start + length):
            card = Card.of((position - 1) % 13 + 1, suit)
            if left[card] and (position != 1 or card.rank == 1):
                laid.append(card)
                left[card] -= 1
            else:
                laid.append(Card(52))
        if +left:
            continue
        meld = Meld(tuple(laid), MeldKind.RUN)
        if is_valid(meld, rules):
            kept = sum(1 for i, card in enumerate(laid) if card.is_joker and start + i in old)
            scored.append((kept, meld))
    if not scored:
        return best
    top = max(kept for kept, _ in scored)
    best_kept = next((kept for kept, meld in scored if meld == best), -1)
    return best if best_kept == top else next(meld for kept, meld in scored if kept == top)
