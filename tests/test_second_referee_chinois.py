"""The second referee (tests/support/second_referee/): known answers in rami chinois (passing, no
discard, full rearrangement and the cards moved, going out, the opening with a pure run and without
touching the table, decision 1's flag) and in Rummikub (30 points from the hand, no discard), legal
and illegal."""

from __future__ import annotations

from support.second_referee_turns import hand, illegal, legal, turn


def test_rami_chinois_pass_and_penalty():
    verdict = legal(turn("7H 8H 9H / 2C KD * / rami-chinois", ["7H 8H 9H"]))
    assert hand(verdict) == "KD 2C *"
    assert verdict.penalty_after == 62 and verdict.opened_after is False
    assert verdict.cards_moved == 0


def test_rami_chinois_never_discards():
    illegal(turn("7H 8H 9H / 2C KD / rami-chinois opened", ["7H 8H 9H"], "", "2C"), "discard")


def test_rami_chinois_full_rearrangement_and_cards_moved():
    verdict = legal(
        turn(
            "AH 2H 3H 4H 5H 6H 7H 8H 9H / 5H / rami-chinois opened",
            ["AH 2H 3H 4H 5H", "5H 6H 7H 8H 9H"],
            "5H",
        )
    )
    assert verdict.cards_moved == 4 and verdict.penalty_after == 0
    verdict = legal(
        turn(
            "7S 7H 7D / 5S 6S 5H 6H 8D 9D / rami-chinois opened",
            ["5S 6S 7S", "5H 6H 7H", "7D 8D 9D"],
            "5S 6S 5H 6H 8D 9D",
        )
    )
    assert verdict.cards_moved == 2
    # The table joker moves freely; identical copies are no move.
    verdict = legal(
        turn(
            "7S 8S 9S | 5D 6D * / 7D 7S 2C / rami-chinois opened",
            ["5D 6D 7D", "7S 8S 9S *"],
            "7D",
        )
    )
    assert verdict.cards_moved == 1
    verdict = legal(
        turn(
            "7S 8S 9S / 7S TS / rami-chinois opened",
            ["7S 8S 9S TS"],
            "TS",
        )
    )
    assert verdict.cards_moved == 0 and hand(verdict) == "7S"


def test_rami_chinois_going_out_places_the_last_card():
    verdict = legal(turn("7H 8H 9H / TH / rami-chinois opened", ["7H 8H 9H TH"], "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0


def test_rami_chinois_opening_needs_a_pure_run():
    legal(turn("- / 5H 6H 7H * * * / rami-chinois", ["5H 6H 7H"], "5H 6H 7H"))
    illegal(
        turn("- / 5H 6H 7H * * * / rami-chinois", ["5H * *", "6H 7H *"], "5H 6H 7H * * *"),
        "pure run",
    )
    illegal(
        turn("- / 5H 6H * 9S 9D 9C / rami-chinois", ["5H 6H *", "9S 9D 9C"], "5H 6H * 9S 9D 9C"),
        "pure run",
    )
    verdict = legal(
        turn("- / 5H 6H 7H * * 2C / rami-chinois", ["5H 6H 7H", "set: 2C * *"], "5H 6H 7H * * 2C")
    )
    assert verdict.opened_after and verdict.penalty_after == 0


def test_rami_chinois_opening_turn_leaves_the_table_alone():
    """Decision 1: new melds from the hand only in the opening turn."""
    legal(turn("7H 8H 9H / TH JH QH KH / rami-chinois", ["7H 8H 9H", "TH JH QH KH"], "TH JH QH KH"))
    illegal(
        turn("7H 8H 9H / TH JH QH KH / rami-chinois", ["7H 8H 9H TH", "JH QH KH"], "TH JH QH KH"),
        "changed",
    )
    # A set written in another order is unchanged.
    legal(turn("QS QH QC / 4D 5D 6D / rami-chinois", ["QC QS QH", "4D 5D 6D"], "4D 5D 6D"))
    # Nothing played: the table stays as it is.
    illegal(turn("4H 5H 6H 7H 8H 9H / 2C / rami-chinois", ["4H 5H 6H", "7H 8H 9H"]), "changed")


def test_decision_1_flag_rearranging_in_the_opening_turn():
    flag = "rami-chinois[open_and_rearrange_same_turn=true]"
    legal(turn(f"7H 8H 9H / TH JH QH 2C / {flag}", ["7H 8H 9H TH JH QH"], "TH JH QH"))
    illegal(turn(f"7H 8H 9H / TH JH QH 2C / {flag}", ["7H 8H 9H TH"], "TH"), "opening")
    illegal(turn(f"QS QH QC / QD * 5C / {flag}", ["QS QH QC", "QD * *"], ""), "appeared")
    illegal(turn(f"QS QH QC / QD * 5C / {flag}", ["QS QH QC QD"], "QD"), "opening")
    # The played cards need only hold the opening: JD QD KD, the joker joins it or the set.
    legal(turn(f"QS QH QC / JD QD KD 3C * / {flag}", ["QS QH QC *", "JD QD KD"], "JD QD KD *"))
    legal(turn(f"QS QH QC / JD QD KD 3C * / {flag}", ["QS QH QC", "JD QD KD *"], "JD QD KD *"))
    # Nothing played: the table stays.
    illegal(turn(f"4H 5H 6H 7H 8H 9H / 2C / {flag}", ["4H 5H 6H", "7H 8H 9H"]), "changed")


def test_rummikub_opening_30_points_from_the_hand():
    legal(turn("- / TH JH QH / rummikub", ["TH JH QH"], "TH JH QH"))
    illegal(turn("- / 7H 8H 9H / rummikub", ["7H 8H 9H"], "7H 8H 9H"), "24 points")
    legal(turn("- / KH * * / rummikub", ["* * KH"], "KH * *"))  # 11 + 12 + 13
    illegal(turn("- / AH * * / rummikub", ["AH * *"], "AH * *"), "6 points")
    legal(turn("- / KH KS KD AC AS AD / rummikub", ["KH KS KD", "AC AS AD"], "KH KS KD AC AS AD"))
    illegal(turn("- / AC AS AD 9H / rummikub", ["AC AS AD"], "AC AS AD"), "3 points")
    flag = "rummikub[open_and_rearrange_same_turn=true]"
    legal(
        turn(f"7S 7H 7D / 7C KD KH KS 2S / {flag}", ["7S 7H 7D 7C", "KD KH KS"], "7C KD KH KS")
    )  # KD KH KS hold 39 points
    illegal(turn(f"7S 7H 7D / 7C KD KH 2S 3S / {flag}", ["7S 7H 7D 7C"], "7C"), "opening")


def test_rummikub_no_discard_and_penalties():
    verdict = legal(turn("7H 8H 9H / KC * / rummikub", ["7H 8H 9H"]))
    assert verdict.penalty_after == 13 + 30
