"""The move language read back: one typed move (or one line of the solver's) as a :class:`Move`.

The words in brackets may be left out; case and spacing do not matter (docs/notation.md)::

    lay CARDS [from your hand] [as meld N]          a new meld of hand cards
    add CARDS [from your hand] to [meld] N          hand cards onto meld N (or the next new meld)
    move CARDS from [meld] A to [meld] B            table cards from meld A to meld B
    move CARDS from [your] hand to [meld] B         the same as add
    split [meld] N after CARD                       the cards after CARD in run N: a new meld
    put CARD [from your hand] in place of the joker in [meld] N
                                                    CARD takes the joker's place; the joker
                                                    stays until a move takes it (rami fou)
    swap CARD in [meld] N                           CARD takes the joker's place, the joker
                                                    goes to the hand (BFmania, Café Rummy)
    discard CARD                                    the card that ends the turn

The solver's own lines are read as printed: ``split 3H..9H (meld 1) after 6H: 7H 8H 9H becomes
meld 4``, ``put 5H in place of the joker in meld 3: the joker goes to your hand`` (a swap), ``in
meld 2, slide the joker to stand for 5H (not 8H)`` (a shift: nothing to do).
"""

from __future__ import annotations

import re

from rami.cards import Card, parse_cards
from rami.errors import NotationError
from rami.moves.move import Move, MoveError, MoveKind

#: The verbs a move starts with.
VERBS = ("lay", "add", "move", "split", "put", "swap", "discard")
#: The moves in one line, for messages.
GRAMMAR = (
    "lay CARDS, add CARDS to N, move CARDS from A to B, split N after CARD, "
    "put CARD in place of the joker in N"
)

_FROM_HAND = r"(?:\s+from\s+(?:your\s+|the\s+)?hand)?"
_TO = r"\s+(?:to|on|onto)\s+(?:meld\s+)?(?P<to>\d+)"
_IN = r"in\s+(?:meld\s+)?(?P<to>\d+)"
_JOKER_PLACE = r"in\s+place\s+of\s+(?:the\s+|a\s+)?joker\s+"
_PATTERNS: tuple[tuple[MoveKind, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.I))
    for kind, pattern in (
        (
            MoveKind.LAY,
            rf"lay\s+(?P<cards>[^()]+?){_FROM_HAND}"
            r"(?:\s+as\s+(?:a\s+new\s+)?(?:meld\s+)?(?P<to>\d+))?",
        ),
        (MoveKind.ADD, rf"add\s+(?P<cards>.+?){_FROM_HAND}{_TO}"),
        (MoveKind.ADD, rf"move\s+(?P<cards>.+?)\s+from\s+(?:your\s+|the\s+)?hand{_TO}"),
        (MoveKind.MOVE, rf"move\s+(?P<cards>.+?)\s+from\s+(?:meld\s+)?(?P<src>\d+){_TO}"),
        (
            MoveKind.SPLIT,
            r"split\s+(?:meld\s+(?P<n1>\d+)|(?P<n2>\d+)|(?:\S+\s+)?"
            r"\(meld\s+(?P<n3>\d+)\))\s+after\s+(?P<card>[^\s:]+)"
            r"(?::.*?(?:becomes\s+meld\s+(?P<to>\d+))?)?",
        ),
        (MoveKind.SWAP, rf"swap\s+(?P<cards>\S+)\s+{_IN}"),
        (MoveKind.REPLACE, rf"put\s+(?P<cards>\S+){_FROM_HAND}\s+{_JOKER_PLACE}{_IN}"),
        (MoveKind.SWAP, rf"put\s+(?P<cards>\S+){_FROM_HAND}\s+(?:{_JOKER_PLACE})?{_IN}(?::.*)?"),
        (MoveKind.SHIFT, r"in\s+meld\s+(?P<to>\d+),\s+slide\s+the\s+jokers?\s+.+"),
        (MoveKind.DISCARD, r"discard\s+(?P<cards>.+?)(?::.*|\s+to\s.*)?"),
    )
)


def _cards(text: str) -> tuple[Card, ...]:
    try:
        cards = parse_cards(text)
    except NotationError as error:
        raise MoveError(str(error)) from None
    if not cards:
        raise MoveError("no card named")
    return cards


def _number(text: str | None) -> int | None:
    return None if text is None else int(text)


def read_move(text: str) -> Move | None:
    """The move ``text`` says, None when it is no move of the language; MoveError when its
    cards do not parse."""
    line = " ".join(text.split())
    for kind, pattern in _PATTERNS:
        found = pattern.fullmatch(line)
        if found is None:
            continue
        groups = found.groupdict()
        target = _number(groups.get("to"))
        if kind is MoveKind.SPLIT:
            source = int(groups["n1"] or groups["n2"] or groups["n3"])
            return Move(kind, (), source, target, line, after=_cards(groups["card"])[0])
        if kind is MoveKind.SHIFT:
            return Move(kind, (), target, target, line)
        return Move(kind, _cards(groups["cards"]), _number(groups.get("src")), target, line)
    return None


def parse_move(text: str) -> Move:
    """One move of the language; MoveError says what was not understood."""
    move = read_move(text)
    if move is not None:
        return move
    verb = text.split(maxsplit=1)[0].lower() if text.split() else ""
    if verb in VERBS:
        raise MoveError(f"not understood; the moves are: {GRAMMAR}")
    raise MoveError(f"unknown move {verb!r}; the moves are: {GRAMMAR}")


__all__ = ["GRAMMAR", "VERBS", "parse_move", "read_move"]
