"""The move language (rami.moves): one parser and one applier for the solver's moves, the game's
typed moves and the puzzles' answers."""

from __future__ import annotations

import pytest

from rami.cards import JOKER, parse_cards
from rami.errors import NotationError
from rami.moves import Layout, Move, MoveError, MoveKind, parse_move, read_move
from rami.notation import parse_position, parse_table
from rami.rules import get_ruleset


@pytest.mark.parametrize(
    ("text", "kind", "cards", "source", "target"),
    [
        ("lay 7H 8H 9H from your hand as meld 4", MoveKind.LAY, "7H 8H 9H", None, 4),
        ("LAY 7h 8h 9h", MoveKind.LAY, "7H 8H 9H", None, None),
        ("add QH from your hand to meld 2", MoveKind.ADD, "QH", None, 2),
        ("add 8C onto 3", MoveKind.ADD, "8C", None, 3),
        ("move 5C from your hand to 3", MoveKind.ADD, "5C", None, 3),
        ("move 5C 6C from meld 3 to meld 5", MoveKind.MOVE, "5C 6C", 3, 5),
        ("put 5H from your hand in place of the joker in meld 3", MoveKind.REPLACE, "5H", None, 3),
        (
            "put 5H in place of the joker in meld 3: the joker goes to your hand",
            MoveKind.SWAP,
            "5H",
            None,
            3,
        ),
        (
            "put 5H in place of the joker in meld 3: lay the joker again this turn",
            MoveKind.SWAP,
            "5H",
            None,
            3,
        ),
        ("swap 5H in 3", MoveKind.SWAP, "5H", None, 3),
        ("discard KD to end your turn", MoveKind.DISCARD, "KD", None, None),
    ],
)
def test_one_parser_reads_typed_moves_and_the_solvers(
    text: str, kind: MoveKind, cards: str, source: int | None, target: int | None
) -> None:
    move = parse_move(text)
    assert (move.kind, move.cards, move.source, move.target) == (
        kind,
        parse_cards(cards),
        source,
        target,
    )


def test_splits_and_slides_as_the_solver_prints_them() -> None:
    split = parse_move("split 3H..9H (meld 1) after 6H: 7H 8H 9H becomes meld 4")
    assert (split.kind, split.source, split.target, split.after) == (
        MoveKind.SPLIT,
        1,
        4,
        parse_cards("6H")[0],
    )
    assert parse_move("split meld 2 after 5C").target is None
    shift = parse_move("in meld 2, slide the joker to stand for 5H (not 8H)")
    assert (shift.kind, shift.source, shift.target) == (MoveKind.SHIFT, 2, 2)


def test_bad_notation_is_a_notation_error_that_says_why() -> None:
    assert read_move("fly 7H") is None
    with pytest.raises(MoveError, match="unknown move 'fly'"):
        parse_move("fly 7H")
    with pytest.raises(MoveError, match="not understood"):
        parse_move("add 8C")
    with pytest.raises(NotationError, match="unknown card"):
        parse_move("lay 7X 8H 9H")


def test_replace_keeps_the_joker_on_the_table_and_swap_gives_it_to_the_hand() -> None:
    rules = get_ruleset("rami-fou")
    start = Layout.start(rules, parse_table("7H * 9H"), parse_cards("8H 2C"))
    replaced, _ = start.apply(parse_move("put 8H from your hand in place of the joker in meld 1"))
    assert sorted(replaced.piles[0]) == sorted((*parse_cards("7H 8H 9H"), JOKER))
    assert replaced.hand == parse_cards("2C")
    moved, done = replaced.apply(parse_move("move * from meld 1 to meld 2"))
    assert done.target == 2 and [str(m) for m in moved.table()] == ["7H 8H 9H", "*"]
    swapped, _ = start.apply(parse_move("swap 8H in 1"))
    assert [str(m) for m in swapped.table()] == ["7H 8H 9H"]
    assert sorted(swapped.hand) == sorted((*parse_cards("2C"), JOKER))
    with pytest.raises(MoveError, match="holds no joker"):
        swapped.apply(parse_move("swap 2C in 1"))


def test_a_split_names_what_it_cut_and_a_refused_move_changes_nothing() -> None:
    rules = get_ruleset("rami-chinois")
    start = Layout.start(rules, parse_table("3H 4H 5H 6H 7H | QS QD QC"), parse_cards("8H"))
    after, done = start.apply(parse_move("split 1 after 4H"))
    assert (done.cards, done.target) == (parse_cards("5H 6H 7H"), 3)
    assert [number for number, _ in after.numbered()] == [1, 2, 3]
    for text, message in (
        ("split 2 after QS", "is not a run"),
        ("split 1 after 7H", "no card after 7H"),
        ("move QS from 2 to 5", "there is no meld 5"),
        ("add 9H to 1", "your hand does not hold 9H"),
        ("move 3H from 1 to 1", "in meld 1 already"),
    ):
        with pytest.raises(MoveError, match=message):
            start.apply(parse_move(text))
    assert start.piles == (parse_cards("3H 4H 5H 6H 7H"), parse_cards("QS QD QC"))


def test_every_move_the_solver_writes_reads_back_and_replays_to_its_table() -> None:
    from rami.solver.api import solve

    position = parse_position(
        "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"
    )
    solution = solve(position)
    assert {MoveKind.SPLIT, MoveKind.MOVE} <= {move.kind for move in solution.moves}
    layout = Layout.start(position.rules, position.table, position.hand)
    for move in solution.moves:
        read = parse_move(move.text)
        assert read.kind is move.kind and read.source == move.source
        layout, done = layout.apply(read)
        assert isinstance(done, Move) and done.target == move.target
    assert sorted(map(str, layout.table())) == sorted(map(str, solution.table))


def test_hint_2_and_the_review_agree_that_a_joker_slide_takes_no_card_from_the_table() -> None:
    from dataclasses import replace

    from rami.hints import key_move
    from rami.review import missed_move
    from rami.solver.api import solve

    solution = solve(parse_position("5S 6S 7S * | QS QD QC / 4S 9H 9D 9C / rami-chinois"))
    slide = parse_move("in meld 1, slide the joker to stand for 8S (not 3S)")
    add = parse_move("add 4S from your hand to meld 1")
    take = parse_move("move QS from meld 2 to meld 3")
    best = replace(solution, moves=(slide, add, take))
    assert key_move(best) == (2, take)
    assert missed_move(best, ()) == take
    alone = replace(solution, moves=(slide, add))
    assert key_move(alone) == (0, slide)


def test_a_move_is_said_in_french_from_its_phrase_never_read_back() -> None:
    import pickle
    from dataclasses import replace

    from rami.lang import FRENCH
    from rami.phrases import BOOK
    from rami.solver.api import solve

    solution = solve(
        parse_position(
            "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"
        )
    )
    assert {move.phrase for move in solution.moves} >= {"split", "move", "add"}
    for move in solution.moves:
        phrase = BOOK[move.phrase]
        assert move.text == phrase.say(**dict(move.fields))
        assert move.said(FRENCH) == phrase.say(FRENCH, **dict(move.fields))
        # The French comes from the phrase and its fields, not from the English text.
        assert replace(move, text="(changed)").said(FRENCH) == move.said(FRENCH)
        assert pickle.loads(pickle.dumps(move)).said(FRENCH) == move.said(FRENCH)
    typed = parse_move("add QH to 2")
    assert typed.phrase == "" and typed.said(FRENCH) == "add D♥ to 2"
