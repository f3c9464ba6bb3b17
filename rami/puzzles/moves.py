"""An answer given as moves (the move language of ``rami solve``), replayed into a final table.

One move per line or separated by ``;``. Melds are numbered as ``rami solve`` numbers them: the
table's melds 1..n keep their numbers, a new meld takes the next number (n+1, then n+2...), and
a meld emptied by the moves keeps its number. The words in brackets may be left out::

    lay CARDS [from your hand] [as meld N]          a new meld of hand cards
    add CARDS [from your hand] to [meld] N          hand cards onto meld N (or the next new meld)
    move CARDS from [meld] A to [meld] B            table cards from meld A to meld B
    move CARDS from [your] hand to [meld] B         the same as add
    split [meld] N after CARD                       the cards after CARD in run N: a new meld
    put CARD [from your hand] in place of the joker in [meld] N   the same as add

The solver's own lines are accepted as printed, numbering (``1.``) and all, e.g. ``split 3H..9H
(meld 1) after 6H: 7H 8H 9H becomes meld 4``. Between moves the table need not be valid (a
player rearranges freely and only the final table is judged); the moves only have to be
possible: the cards must be where the move takes them from. Each pile of cards left is laid
out as a meld (jokers placed where they fit, :func:`rami.melds.arrange`); a pile that makes no
meld is kept as it is, so the referee says what is wrong with it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import Card, format_cards, parse_cards
from rami.errors import NotationError
from rami.melds import Meld, MeldKind, arrange, run_start
from rami.position import Position

VERBS = ("lay", "add", "move", "split", "put")

_NUMBERING = re.compile(r"^\s*\d+[.)]\s+")
_FROM_HAND = r"(?:\s+from\s+(?:your\s+|the\s+)?hand)?"
_TO = r"\s+(?:to|on|onto)\s+(?:meld\s+)?(?P<to>\d+)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("lay", re.compile(rf"lay\s+(?P<cards>.+?){_FROM_HAND}"
                       r"(?:\s+as\s+(?:a\s+new\s+)?(?:meld\s+)?(?P<to>\d+))?", re.I)),
    ("add", re.compile(rf"add\s+(?P<cards>.+?){_FROM_HAND}{_TO}", re.I)),
    ("hand", re.compile(rf"move\s+(?P<cards>.+?)\s+from\s+(?:your\s+|the\s+)?hand{_TO}", re.I)),
    ("move", re.compile(rf"move\s+(?P<cards>.+?)\s+from\s+(?:meld\s+)?(?P<src>\d+){_TO}",
                        re.I)),
    ("split", re.compile(r"split\s+(?:meld\s+(?P<n1>\d+)|(?P<n2>\d+)|\S+\s+\(meld\s+(?P<n3>\d+)\))"
                         r"\s+after\s+(?P<card>[^\s:]+)"
                         r"(?::.*?becomes\s+meld\s+(?P<to>\d+))?", re.I)),
    ("put", re.compile(rf"put\s+(?P<cards>\S+){_FROM_HAND}\s+in\s+place\s+of\s+"
                       r"(?:the\s+|a\s+)?joker\s+in\s+(?:meld\s+)?(?P<to>\d+)(?::.*)?", re.I)),
)
_GRAMMAR = ("lay CARDS, add CARDS to N, move CARDS from A to B, split N after CARD, "
            "put CARD in place of the joker in N")


class MoveError(NotationError):
    """A move that does not parse or cannot be made; the message names the move."""


@dataclass(frozen=True)
class TableMove:
    """One parsed move: ``cards`` from meld ``source`` (None: the hand) to meld ``target``
    (None: the next new meld); a split carries ``after`` instead of cards."""

    number: int
    text: str
    kind: str
    cards: tuple[Card, ...] = ()
    source: int | None = None
    target: int | None = None
    after: Card | None = None

    @property
    def label(self) -> str:
        return f"move {self.number} ({self.text!r})"


@dataclass(frozen=True)
class Replayed:
    """The final table the moves reach, in meld-number order, and each meld's number."""

    table: tuple[Meld, ...]
    numbers: tuple[int, ...]


def split_moves(text: str) -> list[str]:
    """The moves of an answer: one per line or separated by ``;`` (blank parts dropped)."""
    parts = []
    for line in text.replace(";", "\n").splitlines():
        line = _NUMBERING.sub("", line).strip().rstrip(".")
        if line:
            parts.append(line)
    return parts


def looks_like_moves(text: str) -> bool:
    """Does this answer start with a move verb (rather than a table of melds)?"""
    parts = split_moves(text)
    if not parts:
        return False
    first = parts[0].split(maxsplit=1)[0].lower()
    return first in VERBS


def _cards(text: str, where: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except NotationError as error:
        raise MoveError(f"{where}: {error}") from None
    if not cards:
        raise MoveError(f"{where}: no card named")
    return cards


def parse_move(text: str, number: int = 1) -> TableMove:
    """One move of the language; MoveError names it when it does not parse."""
    where = f"move {number} ({text!r})"
    for kind, pattern in _PATTERNS:
        found = pattern.fullmatch(text.strip())
        if found is None:
            continue
        groups = found.groupdict()
        target = int(groups["to"]) if groups.get("to") else None
        if kind == "split":
            source = int(groups["n1"] or groups["n2"] or groups["n3"])
            return TableMove(number, text, "split", source=source, target=target,
                             after=_cards(groups["card"], where)[0])
        cards = _cards(groups["cards"], where)
        if kind == "put" and len(cards) != 1:
            raise MoveError(f"{where}: one card takes a joker's place")
        if kind == "move":
            return TableMove(number, text, "move", cards, int(groups["src"]), target)
        return TableMove(number, text, "lay" if kind == "lay" else "add", cards, None, target)
    verb = text.split(maxsplit=1)[0].lower() if text.split() else ""
    if verb == "discard":
        raise MoveError(f"{where}: rami chinois has no discard")
    if verb in VERBS:
        raise MoveError(f"{where}: not understood; the moves are: {_GRAMMAR}")
    raise MoveError(f"{where}: unknown move {verb!r}; the moves are: {_GRAMMAR}")


def parse_moves(text: str) -> list[TableMove]:
    parts = split_moves(text)
    if not parts:
        raise MoveError("no move given: " + _GRAMMAR)
    return [parse_move(part, number) for number, part in enumerate(parts, start=1)]


def _laid(pile: Counter[Card], original: Meld | None, position: Position) -> Meld:
    """A pile as a meld: the original meld if unchanged, else laid out (jokers placed), else
    its cards as they are (no meld: the referee says why)."""
    if original is not None and original.counts() == pile:
        return original
    meld = arrange(pile.elements(), position.rules)
    if meld is not None:
        return meld
    return Meld.of(sorted(pile.elements()))


def replay(position: Position, moves: Sequence[TableMove]) -> Replayed:
    """The final table the moves make from the position's table and hand (MoveError names the
    first move that cannot be made)."""
    table = position.table
    piles: dict[int, Counter[Card]] = {i + 1: meld.counts() for i, meld in enumerate(table)}
    hand = Counter(position.hand)
    next_number = len(table) + 1

    def target_of(move: TableMove) -> int:
        nonlocal next_number
        target = move.target
        if target is None:
            if move.kind not in ("lay", "split"):
                raise MoveError(f"{move.label}: name the meld the cards go to")
            target = next_number
        if target in piles:
            if move.kind in ("lay", "split"):
                raise MoveError(f"{move.label}: meld {target} exists already: "
                                f"a new meld is meld {next_number}")
            return target
        if target != next_number:
            raise MoveError(f"{move.label}: there is no meld {target} (melds 1-"
                            f"{next_number - 1}; the next new meld is {next_number})")
        piles[target] = Counter()
        next_number += 1
        return target

    for move in moves:
        if move.kind == "split":
            assert move.source is not None and move.after is not None
            pile = piles.get(move.source)
            if pile is None:
                raise MoveError(f"{move.label}: there is no meld {move.source}")
            original = table[move.source - 1] if move.source <= len(table) else None
            meld = _laid(pile, original, position)
            cards = meld.cards
            if meld.kind is not MeldKind.RUN or run_start(meld, position.rules) is None:
                raise MoveError(f"{move.label}: meld {move.source} ({format_cards(cards)}) "
                                "is not a run: only a run is split")
            if move.after not in cards:
                raise MoveError(f"{move.label}: meld {move.source} ({format_cards(cards)}) "
                                f"does not hold {move.after}")
            cut = len(cards) - cards[::-1].index(move.after)
            if cut == len(cards):
                raise MoveError(f"{move.label}: {move.after} is the last card of meld "
                                f"{move.source}: nothing is left to split off")
            taken = Counter(cards[cut:])
            target = target_of(move)
            piles[move.source] = pile - taken
            piles[target] += taken
            continue
        taken = Counter(move.cards)
        if move.source is None:
            missing = taken - hand
            if missing:
                held = format_cards(sorted(hand.elements())) if +hand else "nothing"
                raise MoveError(f"{move.label}: the hand does not hold "
                                f"{format_cards(sorted(missing.elements()))} (it holds {held})")
            target = target_of(move)
            hand -= taken
        else:
            pile = piles.get(move.source)
            if pile is None:
                raise MoveError(f"{move.label}: there is no meld {move.source}")
            missing = taken - pile
            if missing:
                held = format_cards(sorted(pile.elements())) if +pile else "nothing"
                raise MoveError(f"{move.label}: meld {move.source} does not hold "
                                f"{format_cards(sorted(missing.elements()))} (it holds {held})")
            target = target_of(move)
            if target == move.source:
                raise MoveError(f"{move.label}: the cards are in meld {target} already")
            piles[move.source] = pile - taken
        piles[target] += taken
    melds = []
    numbers = []
    for number in sorted(piles):
        pile = +piles[number]
        if not pile:
            continue
        original = table[number - 1] if number <= len(table) else None
        melds.append(_laid(pile, original, position))
        numbers.append(number)
    return Replayed(tuple(melds), tuple(numbers))


def answer_table(position: Position, text: str) -> Replayed:
    """Parse and replay an answer given as moves."""
    return replay(position, parse_moves(text))


_MELD_AFTER = re.compile(r"^meld (\d+) after the turn")


def renumber_reasons(reasons: Sequence[str], numbers: Sequence[int]) -> tuple[str, ...]:
    """The referee numbers the melds of the final table 1, 2, 3... in list order; after moves
    the player knows them by the moves' numbers (a meld emptied keeps its number)."""

    def fix(reason: str) -> str:
        found = _MELD_AFTER.match(reason)
        if found is None:
            return reason
        index = int(found.group(1)) - 1
        if not 0 <= index < len(numbers):
            return reason
        return f"meld {numbers[index]} after the moves" + reason[found.end():]

    return tuple(fix(reason) for reason in reasons)
