"""Differential test of the two referees: rami.referee.validate_turn (the primary, which every
solver asks) against tests/support/second_referee.judge (written from the rules alone, sharing no
code with it).

Turns written by hand: the rules' examples and turns where the two referees once disagreed. Both
referees must agree on legal; where both say legal, on the hand penalty after the turn and the
cards moved (decision 7).
"""

from __future__ import annotations

import pytest
from support.differential import compare

from rami.cards import Card
from rami.notation import parse_position, parse_table

#: Turns written by hand (position, table after, cards played, discard): the rules' examples
#: and turns where the two referees once disagreed.
KNOWN_TURNS = [
    # Rami fou pinned jokers (decision 5, revised).
    ("5H * 7H / 5S 5D 7S 7D 2C / rami-fou opened", "5S 5H 5D * | 7S 7H 7D", "5S 5D 7S 7D", "2C"),
    ("5H 5S * / 4H 6S 7S 2C / rami-fou opened", "4H 5H * | 5S 6S 7S", "4H 6S 7S", "2C"),
    ("5H 6H 7H * / 8H 2S / rami-fou opened", "* 5H 6H 7H 8H", "8H", "2S"),
    (
        "* QC KC | * 7C 8C / 8H 8D QD 9C TC / rami-fou opened",
        "* QC KC | 7C * 9C TC | 8H 8D 8C",
        "8H 8D 9C TC",
        "QD",
    ),
    ("5H * 7H / 6H 8S 8D 2C / rami-fou opened", "5H 6H 7H | 8S 8D *", "6H 8S 8D", "2C"),
    ("5H * 7H 8H / 9H 2C / rami-fou opened", "5H * 7H 8H 9H", "9H", "2C"),
    (
        "5H * 7H / * 8H 5D 5C 7D 7C 2S / rami-fou opened",
        "5H 5D 5C | 7H 7D 7C | * * 8H",
        "* 8H 5D 5C 7D 7C",
        "2S",
    ),
    ("5H * 7H 8H / 5D 5C 2S / rami-fou opened", "5H 5D 5C | * 7H 8H", "5D 5C", "2S"),
    # The joker stood for the ace of hearts above the king; it still does, below the 2.
    (
        "QH KH * / 2H 3H 4H 5H 6H 7H 8H 9H TH JH 2C / rami-fou opened",
        "* 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
        "2C",
    ),
    # Decision 4 (revised): opening and laying off in one turn.
    (
        "7H 8H 9H / 9S TS JS QD QC QH TH 2D / rami-51",
        "7H 8H 9H TH | 9S TS JS | QD QC QH",
        "9S TS JS QD QC QH TH",
        "2D",
    ),
    ("7H 8H 9H / 9S TS JS QD QC QH TH 2D / rami-51", "7H 8H 9H TH", "TH", "2D"),
    (
        "7H 8H 9H / 9S TS JS QD QC QH TH 2D / bfmania-51",
        "7H 8H 9H TH | 9S TS JS | QD QC QH",
        "9S TS JS QD QC QH TH",
        "2D",
    ),
    ("7H 8H 9H / 9S TS JS QD QC QH TH 2D / bfmania-51", "7H 8H 9H TH", "TH", "2D"),
    (
        "7H 8H 9H / 9S TS JS QD QC QH TH 2D / cafe-rummy",
        "7H 8H 9H TH | QD QC QH",
        "QD QC QH TH",
        "2D",
    ),
    ("7H 8H 9H / 9S TS JS QD QC QH TH 2D / cafe-rummy", "7H 8H 9H TH", "TH", "2D"),
    # The verdict does not depend on the order of the melds after: the table's 7H 8H 9H is
    # left as it was and the new run 7H..QH opens (54 points), listed first or last.
    (
        "7H 8H 9H / 7H 8H 9H TH JH QH 2C / rami-51",
        "7H 8H 9H | 7H 8H 9H TH JH QH",
        "7H 8H 9H TH JH QH",
        "2C",
    ),
    (
        "7H 8H 9H / 7H 8H 9H TH JH QH 2C / rami-51",
        "7H 8H 9H TH JH QH | 7H 8H 9H",
        "7H 8H 9H TH JH QH",
        "2C",
    ),
    # Decision 4 (the project's reading): a joker swapped in the opening turn never joins a new
    # meld of that turn, even one laid after the opening melds (both referees: illegal).
    (
        "5D * 7D / 2S 2H 2D 6D 9C TC 3C / cafe-rummy",
        "2S 2H 2D | 5D 6D 7D | 9C TC *",
        "2S 2H 2D 6D 9C TC",
        "3C",
    ),
    (
        "5D * 7D / KS KH KD 6D 9C TC 3C / bfmania-30",
        "KS KH KD | 5D 6D 7D | 9C TC *",
        "KS KH KD 6D 9C TC",
        "3C",
    ),
    # BFmania: a table joker goes to the hand only when swapped by the card it stands for (a
    # joker said to be played that is not on the table is no swap).
    ("9C TC JC * / QH * / bfmania-51 opened", "9C TC JC *", "*", "QH"),
    # ... and a joker swapped after the opening may be the one kept or discarded: the opening
    # 5D 5C 5H * | TH TD TC * holds the hand's joker (played), the swapped one is discarded;
    # said with no joker played, the new meld's joker would be the swapped one (illegal).
    (
        "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
        "5D 5C 5H * | TH TD TC * | 9C TC JC",
        "5H TH TD 9C TC TC JC *",
        "*",
    ),
    (
        "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
        "5D 5C 5H * | TH TD TC * | 9C TC JC",
        "5H TH TD 9C TC TC JC",
        "*",
    ),
    # Café Rummy: the joker swapped out is laid again, so the hand's joker was discarded and
    # the only new meld holds the swapped joker: no opening from the hand (decision 4)...
    ("* JD QD / TS TD TD * / cafe-rummy", "TD JD QD | TS TD *", "TS TD TD", "*"),
    ("5D * 7D / 6D 9C TC 3C / cafe-rummy", "5D 6D 7D | 9C TC *", "6D 9C TC", "3C"),
    # ... nor does it join AS AC * laid from the hand (illegal); on the old meld it may go.
    ("* 2D 3D / AS AD AC * * / cafe-rummy", "AD 2D 3D | AS AC * *", "AS AD AC *", "*"),
    ("* 2D 3D / AS AD AC * * / cafe-rummy", "AD 2D 3D * | AS AC *", "AS AD AC *", "*"),
    # Decision 8 (revised): the twin of the card taken is locked too.
    ("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", "7H 8H 9H", "", "KC"),
    ("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", "7H 8H 9H", "", "2C"),
    # Rami chinois openings with jokers.
    ("- / 5H 6H 7H * * * / rami-chinois", "5H 6H 7H", "5H 6H 7H", None),
    ("- / 5H 6H 7H * * * / rami-chinois", "5H * * | 6H 7H *", "5H 6H 7H * * *", None),
]


@pytest.mark.parametrize(("position", "after", "played", "discard"), KNOWN_TURNS)
def test_known_turns(position: str, after: str, played: str, discard: str | None) -> None:
    from rami.cards import parse_cards

    found = compare(
        parse_position(position).checked(),
        parse_table(after),
        parse_cards(played),
        Card.parse(discard) if discard else None,
    )
    assert found is None, found
