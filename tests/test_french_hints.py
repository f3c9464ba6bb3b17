"""Moves, notes and hints in French (docs/notation.md, "French"): the issue's examples, every
sentence of a turn in the phrase book, each phrase reading back what it says, and a note said
from the reason the solution keeps (not read back from its message)."""

from __future__ import annotations

import re

import pytest
from support.french import _ENGLISH_CARD

from rami import parse_position, solve
from rami.hints import make_hint, solution_lines
from rami.lang import FRENCH
from rami.phrases import PHRASES, phrase_of, translate


def test_the_issue_examples_are_said_in_french() -> None:
    solution = solve(
        parse_position("3C 4C 5C 6C 7C 8C 9C | DP DK DT / 6C RP / rami-chinois opened", FRENCH)
    )
    assert [move.said(FRENCH) for move in solution.moves] == [
        "coupez 3♥..9♥ (combinaison 1) après 6♥ : 7♥ 8♥ 9♥ devient la combinaison 3",
        "ajoutez 6♥ de votre main à la combinaison 3",
    ]
    assert make_hint(solution, 1, FRENCH).text == (
        "Vous pouvez vous défaire de 6 points (jouer 1 de vos 2 cartes)."
    )
    assert make_hint(solution, 2, FRENCH).text.startswith("Coup clé : coupez 3♥..9♥")
    lines = solution_lines(solution, FRENCH)
    assert lines[1] == "Note : 1 carte jouée sur 2, 10 points restants"
    assert lines[2:6] == [
        "Nouvelle table (3 combinaisons) :",
        "  1. 3♥ 4♥ 5♥ 6♥",
        "  2. D♠ D♦ D♣",
        "  3. 6♥ 7♥ 8♥ 9♥",
    ]
    assert "Main restante (1) : R♠" in lines


#: Positions whose best turns say every kind of move: split, add, lay, move, a joker slid,
#: a joker replaced (rami fou), swapped (BFmania, Café), discards, and turns playing nothing.
SAYING_EVERYTHING = [
    "3H 4H 5H 6H 7H 8H 9H | QS QD QC / 6H KS / rami-chinois opened",
    "4S 5S 6S 7S * / 2S / rami-chinois opened",
    "5H 6H 7H * / 8H 9C 9D 2S / rami-fou opened",
    "5D * 7D | 2H 3H 4H / 6D 5H 9S 9C 9D KC / bfmania-51 opened",
    "- / AS 2S 3S 9C 9D 9H KH / rami-chinois",
    "- / AS KD 7C / rami-fou",
    "- / 2H 5C 9D / rami-51",
    "5C 6C 7C | 8D 9D TD / 5D 6D 7D 8C QH / cafe-rummy opened",
    "- / - / rami-chinois opened",
    "TH JH QH KH / 5D 9S 2C / rummikub opened",
]


@pytest.mark.parametrize("text", SAYING_EVERYTHING)
def test_every_sentence_of_a_turn_is_in_the_phrase_book(text: str) -> None:
    """No English is left in the French report: each move and note is a phrase of the book
    (or a note built in French), and no English card remains."""
    solution = solve(parse_position(text))
    for move in solution.moves:
        assert phrase_of(move.text) is not None, move.text
        assert move.said(FRENCH) != move.text
        assert not _ENGLISH_CARD.search(move.said(FRENCH)), move.said(FRENCH)
    for line in solution_lines(solution, FRENCH):
        assert not _ENGLISH_CARD.search(line), line
        assert not re.search(r"\b(?:from|your|meld|cards?|played|left|discard)\b", line), line
    data = solution.to_json(FRENCH)
    assert [move["cards"] for move in data["moves"]] == [
        [str(card) for card in move.cards] for move in solution.moves
    ]


def test_each_phrase_reads_back_what_it_says() -> None:
    numbers = {"source", "target", "points"}
    for phrase in PHRASES:
        fields = {name: "3" if name in numbers else "7H 8H" for name in phrase.pattern.groupindex}
        english = phrase.say(**fields)
        assert phrase_of(english) == (phrase, fields)
        french = translate(english, FRENCH)
        assert french == phrase.french.format(
            **{name: value if name in numbers else "7♥ 8♥" for name, value in fields.items()}
        )
        assert not _ENGLISH_CARD.search(french)


def test_a_note_is_said_from_the_reason_the_solution_keeps_not_read_back() -> None:
    from dataclasses import replace

    from rami.phrases import why_nothing

    checked = 0
    for text in SAYING_EVERYTHING:
        solution = solve(parse_position(text))
        if solution.played or not solution.message.startswith(why_nothing(solution.position)):
            continue
        kept = replace(solution, reason="", message="(not read)")
        assert kept.note(FRENCH) == solution.note(FRENCH)
        checked += 1
    assert checked >= 2
