"""Why a player who has not opened plays nothing: the note names the requirement the hand
really misses (docs/rules.md presets table, row "opening requirement"; decisions 2 and 3), never
a pure run the hand holds."""

from __future__ import annotations

import pytest

from rami import parse_position, solve, solve_top
from rami.lang import FRENCH
from rami.phrases import why_nothing


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # Issue 36: 5H 6H 7H is a pure run; TS JS QS (30) with it makes 48, short of 51.
        (
            "* 9D TD / 8S TS JS QS 8D 5H 6H 7H 2C / bfmania-51",
            "no opening possible: the hand cannot make 51 points of melds with a pure run",
        ),
        (
            "- / 8S TS JS QS 8D 5H 6H 7H 2C / rami-51",
            "no opening possible: the hand cannot make 51 points of melds with a pure run",
        ),
        # 60 points of sets, but no pure run.
        (
            "- / QS QD QC KS KD KC 2H / bfmania-51",
            "no opening possible: the hand holds no pure run (3+ in a row, no joker)",
        ),
        (
            "- / QS QD QC KS KD KC 2H / bfmania-51[opening_pure_run=false]",
            "the hand could open but does not this turn",
        ),
        # The table option drops the pure run: then only the points are missing.
        (
            "- / 8S TS JS QS 5H 6H 7H 2C / bfmania-51[opening_pure_run=false]",
            "no opening possible: the hand cannot make 51 points of melds",
        ),
        (
            "- / 5H 6H 7H 2C 9D / bfmania-30",
            "no opening possible: the hand cannot make 30 points of melds",
        ),
        (
            "- / 5H 6H 8H 2C 9D / rami-fou",
            "no opening possible: the hand cannot make 51 points of melds",
        ),
        (
            "- / 5H 6H 8H 2C 9D / rami-chinois",
            "no opening possible: the hand holds no pure run (3+ in a row, no joker)",
        ),
        ("- / 5H 6H 8H 2C 9D / cafe-rummy", "no card of the hand can be played"),
        ("- / 5H 6H 7H 2C 9D / rami-chinois opened", "no card of the hand can be played"),
    ],
)
def test_the_reason_is_the_requirement_missed(text: str, reason: str) -> None:
    assert why_nothing(parse_position(text)) == reason


def test_issue_36_solve_names_the_points() -> None:
    """A position whose note once said "the hand holds no pure run"."""
    position = parse_position("* 9D TD / 8S TS JS QS 8D 5H 6H 7H 2C / bfmania-51")
    solution = solve(position)
    assert not solution.played and not solution.opened
    assert solution.message == (
        "no opening possible: the hand cannot make 51 points of melds with a pure run, discard QS"
    )
    assert solution.note(FRENCH) == (
        "pas d'ouverture possible : la main ne fait pas 51 points de combinaisons avec une "
        "suite pure, défausse D♠"
    )


def test_a_pass_offered_among_the_best_turns_says_the_hand_could_open() -> None:
    """``--top``: the pass is an answer too, but the hand holds a pure run (rami chinois)."""
    answers = solve_top(parse_position("- / 3H 4H 5H 9C KD / rami-chinois"), 3)
    notes = [solution.message for solution in answers.solutions]
    assert notes[-1] == "the hand could open but does not this turn"
    assert not any("no opening possible" in note for note in notes)
