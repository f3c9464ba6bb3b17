"""The move language of ``rami play`` (rami.game.moves): parsing, the work table, undo."""

from __future__ import annotations

import pytest

from rami.cards import parse_cards
from rami.game.moves import Command, MoveError, WorkTable, arrange_like, parse_command
from rami.melds import Meld
from rami.notation import parse_table
from rami.rules import get_ruleset


def cards(text: str):
    return parse_cards(text)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("draw stock", Command("draw", word="stock")),
        ("Draw  Discard", Command("draw", word="discard")),
        ("draw from the discard pile", Command("draw", word="discard")),
        ("lay 7H 8H 9H", Command("lay", cards("7H 8H 9H"))),
        ("lay AS 2S 3S from your hand as meld 1", Command("lay", cards("AS 2S 3S"), target=1)),
        ("add 8C to 3", Command("add", cards("8C"), target=3)),
        ("add QH from your hand to meld 2", Command("add", cards("QH"), target=2)),
        ("move 5C from 3 to 5", Command("move", cards("5C"), source=3, target=5)),
        ("move 5C from meld 3 to meld 5", Command("move", cards("5C"), source=3, target=5)),
        ("split 1 after 6H", Command("split", cards("6H"), source=1)),
        (
            "split 3H..9H (meld 1) after 6H: 7H 8H 9H becomes meld 4",
            Command("split", cards("6H"), source=1),
        ),
        ("swap 5H in 3", Command("swap", cards("5H"), target=3)),
        (
            "put 5H in place of the joker in meld 3: the joker goes to your hand",
            Command("swap", cards("5H"), target=3),
        ),
        ("discard 2S", Command("discard", cards("2S"))),
        ("discard KD to end your turn", Command("discard", cards("KD"))),
        ("hint", Command("hint", word="1")),
        ("hint 3", Command("hint", word="3")),
        ("done", Command("done")),
        ("UNDO", Command("undo")),
        ("table", Command("table")),
        ("quit", Command("quit")),
        ("claim", Command("claim")),
    ],
)
def test_parse_command(line: str, command: Command) -> None:
    assert parse_command(line) == command


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "empty command"),
        ("fly 7H", "not understood"),
        ("lay 7X 8H", "unknown card"),
        ("discard 2S 3S", "one card"),
        ("add 8C", "not understood"),
    ],
)
def test_parse_errors(line: str, message: str) -> None:
    with pytest.raises(MoveError, match=message):
        parse_command(line)


def test_work_table_moves_and_undo() -> None:
    rules = get_ruleset("rami-chinois")
    table = parse_table("3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C")
    work = WorkTable.start(rules, table, cards("5S 6H QH 5D KD 8C"))
    for line in (
        "split 1 after 6H",
        "move 5C from 3 to 5",
        "add QH to 2",
        "add 8C to 3",
        "add 6H to 4",
        "add 5S 5D to 5",
    ):
        work.apply(parse_command(line))
    assert [str(meld) for meld in work.table()] == [
        "3H 4H 5H 6H",
        "QS QH QD QC",
        "6C 7C 8C",
        "6H 7H 8H 9H",
        "5S 5D 5C",
    ]
    assert work.played() == tuple(sorted(cards("5S 6H QH 5D 8C")))
    assert work.hand_cards() == cards("KD")
    assert [number for number, _ in work.numbered()] == [1, 2, 3, 4, 5]
    assert work.undo() and work.hand_cards() == tuple(sorted(cards("5S 5D KD")))
    while work.undo():
        pass
    assert work.table() == table and not work.undo()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("lay 2S 3S 4S", "does not hold 2S 3S 4S"),
        ("add KD to 9", "no meld 9"),
        ("move 8H from 2 to 1", "meld 2 does not hold 8H"),
        ("split 1 after 9H", "no card after 9H"),
        ("swap KD in 2", "no joker"),
        ("lay KD as meld 2", "a new meld is number 4"),
    ],
)
def test_work_table_refuses_what_is_not_there(line: str, message: str) -> None:
    rules = get_ruleset("rami-chinois")
    work = WorkTable.start(
        rules, parse_table("3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C"), cards("5S KD")
    )
    with pytest.raises(MoveError, match=message):
        work.apply(parse_command(line))
    assert work.hand_cards() == cards("5S KD") and not work.history


def test_swap_puts_the_joker_in_the_hand_and_it_is_not_played() -> None:
    rules = get_ruleset("bfmania-51")
    work = WorkTable.start(rules, parse_table("7H * 9H"), cards("8H 2C"))
    work.apply(parse_command("swap 8H in 1"))
    assert [str(meld) for meld in work.table()] == ["7H 8H 9H"]
    assert work.played() == cards("8H")
    assert work.hand_cards() == (*cards("2C"), Meld.parse("* 2C 3C").cards[0])


def test_jokers_keep_their_place_when_a_run_grows() -> None:
    rules = get_ruleset("rami-fou")
    old = Meld.parse("5H 6H *")  # the joker stands for 7H
    assert str(arrange_like(list(cards("4H 5H 6H *")), rules, old)) == "4H 5H 6H *"
    low = Meld.parse("* 6H 7H")  # the joker stands for 5H
    assert str(arrange_like(list(cards("6H 7H * 8H")), rules, low)) == "* 6H 7H 8H"
    assert str(arrange_like(list(cards("7H 9H *")), rules, None)) == "7H * 9H"
    assert str(arrange_like(list(cards("7H 9S 2D")), rules, None)) == "7H 9S 2D"
