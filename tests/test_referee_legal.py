"""The turn referee (rami.referee.validate_turn): legal turns (decision 7's cards moved in the
verdict), and the illegal turns of any preset: a card that appears from nowhere or vanishes from
the table, a played card not in the hand, an invalid meld after the turn; the Python API takes
plain lists and text."""

from __future__ import annotations

import pytest
from support.referee_turns import hand, illegal, legal, turn

from rami.cards import Card
from rami.errors import NotationError
from rami.melds import Meld
from rami.position import Position
from rami.referee import validate_turn


def test_rami_chinois_pass_is_legal():
    """Seed 000: laying is optional; the player may draw and pass."""
    verdict = legal(turn("7H 8H 9H / 2C KD", ["7H 8H 9H"]))
    assert hand(verdict) == "KD 2C"
    assert verdict.penalty_after == 12 and verdict.opened_after is False
    assert verdict.cards_moved == 0


def test_rami_chinois_full_rearrangement_after_opening():
    """docs/rules.md presets rami-chinois: full rearrangement of any meld after opening; decision 7
    counts the cards moved."""
    verdict = legal(
        turn(
            "5H 6H 7H 8H | 7S 7D 7C 7H / 5S 6S KD / rami-chinois opened",
            ["5H 6H 7H 8H", "7D 7C 7H", "5S 6S 7S"],
            "5S 6S",
        )
    )
    assert verdict.cards_moved == 1  # the 7S left its set
    assert hand(verdict) == "KD" and verdict.penalty_after == 10


def test_decision_7_cards_moved_in_the_verdict():
    """docs/rules.md decision 7: splitting a 9-card run into 5 + 4 moves 4 cards."""
    verdict = legal(
        turn(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H / 5S / rami-chinois opened",
            ["AH 2H 3H 4H 5H", "6H 7H 8H 9H"],
        )
    )
    assert verdict.cards_moved == 4
    extension = legal(turn("7H 8H 9H / TH 2C / opened", ["7H 8H 9H TH"], "TH"))
    assert extension.cards_moved == 0


def test_rami_chinois_going_out_places_the_last_card():
    """docs/rules.md presets rami-chinois: going out = place the last card (no discard)."""
    verdict = legal(turn("7H 8H 9H / TH / opened", ["7H 8H 9H TH"], "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0


def test_rami_chinois_opening_with_a_pure_run_and_other_melds():
    """docs/rules.md presets rami-chinois: opening >= 1 pure run, no points; other melds may
    join."""
    verdict = legal(turn("- / 2S 3S 4S KD KC * 9H", ["2S 3S 4S", "KD KC *"], "2S 3S 4S KD KC *"))
    assert verdict.opened_after is True
    assert hand(verdict) == "9H" and verdict.penalty_after == 9


def test_rami_chinois_table_joker_moves_freely():
    """docs/rules.md presets rami-chinois: a table joker moves freely in rearrangements."""
    legal(turn("5D * 7D / 8S 9S 6D / opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S"))


def test_identical_copies_placed_differently_are_no_move():
    """docs/rules.md common: swapping the two 7 of hearts is never a move."""
    verdict = legal(turn("5H 6H 7H | 7H 7S 7D / 2C / opened", ["5H 6H 7H", "7S 7H 7D"]))
    assert verdict.cards_moved == 0


# --- Cards that appear or vanish, invalid melds ------------------------------------------------


def test_card_appearing_from_nowhere_is_illegal():
    """Referee: a card appeared on the table from neither the table nor the hand."""
    illegal(
        turn("7H 8H 9H / 2C / opened", ["7H 8H 9H TH"]),
        "1 card appeared on the table from nowhere: TH",
    )


def test_card_vanishing_from_the_table_is_illegal():
    """Referee: a table card vanished (docs/rules.md: the table stays on the table)."""
    illegal(
        turn("7H 8H 9H TH / 2C / opened", ["7H 8H 9H"]),
        "1 card vanished from the table: TH",
    )


def test_played_card_must_be_in_the_hand_and_on_the_table():
    """Referee: cards played come from the hand and end on the table."""
    illegal(
        turn("7H 8H 9H / 2C / opened", ["7H 8H 9H TH"], "TH"),
        "TH is played 1 time but the hand holds 0",
    )
    illegal(turn("7H 8H 9H / TH 2C / opened", ["7H 8H 9H"], "TH"), "vanished from the table: TH")
    illegal(
        turn("7H 8H 9H / * 2C / opened", ["7H 8H 9H"], "*"),
        "1 joker said to be played is not on the table",
    )


def test_invalid_meld_after_the_turn_is_illegal():
    """docs/rules.md common: the table must hold valid melds at the end of the turn."""
    illegal(
        turn("7H 8H 9H TH / 2C / opened", ["7H 8H", "9H TH"]),
        "meld 1 after the turn: meld 7H 8H has 2 cards: a meld needs at least 3",
        "meld 2 after the turn: meld 9H TH has 2 cards",
    )
    illegal(
        turn("QH KH AH / 2C / opened", ["KH AH QH"]),
        "meld 1 after the turn: run KH AH QH is not consecutive: AH then QH",
    )
    illegal(
        turn("- / KH AH 2H 5C / opened", ["KH AH 2H"], "KH AH 2H"),
        "meld 1 after the turn: K-A-2 wraps around",
    )


def test_validate_turn_takes_plain_lists_and_text():
    """The Python API: melds as Meld objects, text or lists of cards; cards as Card or text."""
    position = Position.parse("7H 8H 9H / TH 2C / rami-chinois opened")
    for table, played in (
        ([Meld.parse("7H 8H 9H TH")], [Card.parse("TH")]),
        (["7H 8H 9H TH"], ["TH"]),
        ([["7H", "8H", "9H", "TH"]], "TH"),
        ([[Card.parse(text) for text in ("7H", "8H", "9H", "TH")]], ("TH",)),
    ):
        verdict = validate_turn(position, table, played)
        assert verdict.legal and verdict.hand_after == (Card.parse("2C"),), (table, played)
    with pytest.raises(NotationError, match="8X"):
        validate_turn(position, ["7H 8X"], [])
