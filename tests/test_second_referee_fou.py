"""The second referee (tests/support/second_referee/): known answers in rami fou, legal and
illegal: pinned table jokers (never into another meld's place, freed only by their card, the ties
between matchings in the player's favour, a cut run keeping its joker), hand jokers anywhere, the
51-point opening without a pure run, and the discard."""

from __future__ import annotations

from itertools import permutations

from support.second_referee_turns import illegal, legal, turn

FOU = "rami-fou opened"


def test_rami_fou_joker_into_a_set_of_fives_is_illegal():
    illegal(
        turn(f"5H * 7H / 5S 5D 7S 7D 2C / {FOU}", ["5S 5H 5D *", "7S 7H 7D"], "5S 5D 7S 7D", "2C"),
        "decision 5",
    )


def test_rami_fou_set_joker_turned_into_a_run_card_is_illegal():
    illegal(
        turn(f"5H 5S * / 4H 6S 7S 2C / {FOU}", ["4H 5H *", "5S 6S 7S"], "4H 6S 7S", "2C"),
        "decision 5",
    )


def test_rami_fou_freed_joker_back_into_its_own_meld_is_illegal():
    illegal(turn(f"5H 6H 7H * / 8H 2S / {FOU}", ["* 5H 6H 7H 8H"], "8H", "2S"), "decision 5")
    # The joker may stay where it is while the run grows.
    legal(turn(f"5H 6H 7H * / 8H 2S / {FOU}", ["5H 6H 7H *"], "", "8H"))


def test_rami_fou_joker_never_slides_to_another_card():
    position = f"* QC KC | * 7C 8C / 8H 8D QD 9C TC / {FOU}"
    illegal(
        turn(position, ["* QC KC", "7C * 9C TC", "8H 8D 8C"], "8H 8D 9C TC", "QD"), "decision 5"
    )
    illegal(turn(position, ["QC KC *", "* 7C 8C 9C TC"], "9C TC", "8H"), "decision 5")
    legal(turn(position, ["* QC KC", "* 7C 8C 9C TC"], "9C TC", "QD"))


def test_rami_fou_freed_joker_relaid_elsewhere_is_legal():
    verdict = legal(
        turn(f"5H * 7H / 6H 8S 8D 2C / {FOU}", ["5H 6H 7H", "8S 8D *"], "6H 8S 8D", "2C")
    )
    assert verdict.cards_moved == 1 and verdict.penalty_after == 0
    legal(turn(f"5H * 7H 8H / 9H 2C / {FOU}", ["5H * 7H 8H 9H"], "9H", "2C"))
    # The freed joker joins another existing meld.
    legal(turn(f"5H * 7H | 9S 9D 9C / 6H 2C / {FOU}", ["5H 6H 7H", "9S 9D 9C *"], "6H", "2C"))
    # Freed but never laid again: back to a hand, illegal.
    illegal(turn(f"5H * 7H / 6H 2C / {FOU}", ["5H 6H 7H"], "6H", "2C"), "joker")


def test_rami_fou_set_joker_pinned_or_freed():
    legal(turn(f"5H 5S * / 5D 2C / {FOU}", ["5H 5S 5D *"], "5D", "2C"))  # still pinned
    legal(turn(f"5H 5S * / 5D 8C 9C 2S / {FOU}", ["5H 5S 5D", "8C 9C *"], "5D 8C 9C", "2S"))
    # A joker leaves a set only for a card of a suit the set lacked.
    illegal(
        turn(f"5H 5S 5D * / 8C 9C 2S / {FOU}", ["5H 5S 5D", "8C 9C *"], "8C 9C", "2S"), "decision 5"
    )
    # The card that frees it may come from another table meld.
    legal(turn(f"5H 5S * | 5D 6D 7D 8D / 2S / {FOU}", ["5H 5S 5D", "6D 7D 8D *"], "", "2S"))
    # Two jokers, one freed card: one joker must stay.
    legal(turn(f"set: 5H * * / 5S 8C 9C 2D / {FOU}", ["5H 5S *", "8C 9C *"], "5S 8C 9C", "2D"))
    legal(
        turn(
            f"set: 5H * * / 5S 5D 8C 9C 2D / {FOU}", ["5H 5S 5D", "8C 9C * *"], "5S 5D 8C 9C", "2D"
        )
    )
    legal(turn(f"5H 5D * * / 5S 8C 9C 2D / {FOU}", ["5H 5D 5S *", "8C 9C *"], "5S 8C 9C", "2D"))
    illegal(
        turn(f"5H 5D * * / 5S 8C 9C 2D / {FOU}", ["5H 5D 5S", "8C 9C * *"], "5S 8C 9C", "2D"),
        "decision 5",
    )


def test_rami_fou_ties_between_matchings_favour_the_player():
    """5H 5S * shares one card with each meld after; the turn is legal by the matching that
    keeps the joker in a set of fives."""
    legal(turn(f"5H 5S * / 5D 6S 7S 2C / {FOU}", ["5H 5D *", "5S 6S 7S"], "5D 6S 7S", "2C"))


def test_rami_fou_joker_matching_counts_real_cards_only():
    """5H * 7H shares no real card with * * 8H, where its joker would still stand for 6H: that
    meld is not its own, so the joker left it without 6H taking its place."""
    illegal(
        turn(
            f"5H * 7H / * 8H 5D 5C 7D 7C 2S / {FOU}",
            ["5H 5D 5C", "7H 7D 7C", "* * 8H"],
            "* 8H 5D 5C 7D 7C",
            "2S",
        ),
        "decision 5",
    )
    # Its own meld may shrink around the pinned joker.
    legal(turn(f"5H * 7H 8H / 5D 5C 2S / {FOU}", ["5H 5D 5C", "* 7H 8H"], "5D 5C", "2S"))


def test_rami_fou_hand_jokers_go_anywhere():
    legal(turn(f"5H * 7H / * 9S 9D 2C / {FOU}", ["5H * 7H", "9S 9D *"], "* 9S 9D", "2C"))
    # The hand's joker takes the set; the table joker stays pinned.
    legal(turn(f"5H * 7H / * 9S 9D 2C / {FOU}", ["5H * 7H", "* 9S 9D"], "* 9S 9D", "2C"))


def test_rami_fou_cutting_a_run_does_not_move_its_joker():
    """docs/rules.md decision 5 (revised), "Cutting its run does not move it": the piece of a cut
    run that keeps the joker, standing for the same card beside real cards of that run, is its
    own meld too, whichever piece decision 7 matches to the old run. Original text 003 forbids
    only taking a joker without its card ("on peut prendre un joker si on peut l'échanger avec
    la carte qu'il remplace, mais le joker doit permettre de faire immédiatement une autre
    combinaison"); nobody takes it here."""
    position = f"3H 4H * 6H 7H 8H 9H / 6S 6D 2C / {FOU}"
    for order in permutations(["3H 4H *", "7H 8H 9H", "6S 6D 6H"]):
        verdict = legal(turn(position, list(order), "6S 6D", "2C"))
        assert verdict.penalty_after == 0 and verdict.hand_after == ()
        assert verdict.cards_moved == 4
    legal(
        turn(
            f"3H 4H * 6H 7H 8H 9H / 2H 6S 6D 2C / {FOU}",
            ["2H 3H 4H *", "7H 8H 9H", "6S 6D 6H"],
            "2H 6S 6D",
            "2C",
        )
    )
    # The piece may grow beside the old run's 7H 8H.
    legal(turn(f"3H 4H 5H * 7H 8H / 9H 2C / {FOU}", ["3H 4H 5H", "* 7H 8H 9H"], "9H", "2C"))
    # Still pinned: no slide (the joker as 2H), no run without a real card of the old run (7H
    # 8H from the hand), and its card frees it only in the piece decision 7 matches.
    illegal(turn(position, ["* 3H 4H", "7H 8H 9H", "6S 6D 6H"], "6S 6D", "2C"), "decision 5")
    illegal(
        turn(f"3H 4H 5H * / 7H 8H 2C / {FOU}", ["3H 4H 5H", "* 7H 8H"], "7H 8H", "2C"), "decision 5"
    )
    illegal(
        turn(
            f"3H 4H * 6H 7H 8H 9H / 5H 6S 6D 2C / {FOU}",
            ["3H 4H 5H", "6H 7H 8H 9H", "6S 6D *"],
            "5H 6S 6D",
            "2C",
        ),
        "decision 5",
    )


def test_rami_fou_opening_51_points_no_pure_run():
    verdict = legal(
        turn(
            "- / KS KH KD QS QH QD 2C / rami-fou",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        )
    )
    assert verdict.opened_after and verdict.penalty_after == 0
    legal(
        turn(
            "- / KS KH KD 7S 7H 7D 2C / rami-fou",
            ["KS KH KD", "7S 7H 7D"],
            "KS KH KD 7S 7H 7D",
            "2C",
        )
    )  # exactly 51
    illegal(
        turn(
            "- / KS KH KD 6S 6H 6D 2C / rami-fou",
            ["KS KH KD", "6S 6H 6D"],
            "KS KH KD 6S 6H 6D",
            "2C",
        ),
        "48 points",
    )
    # Not opened after the turn: the flat 100.
    verdict = legal(turn("7H 8H 9H / 2C 3C / rami-fou", ["7H 8H 9H"], "", "3C"))
    assert verdict.penalty_after == 100 and not verdict.opened_after
    # The opening turn leaves the table alone (decision 1).
    illegal(
        turn(
            "7H 8H 9H / KS KH KD QS QH QD TH 2C / rami-fou",
            ["7H 8H 9H TH", "KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD TH",
            "2C",
        ),
        "changed",
    )


def test_rami_fou_discard_rules():
    illegal(turn(f"7H 8H 9H / TH / {FOU}", ["7H 8H 9H TH"], "TH"), "discard")
    verdict = legal(turn(f"7H 8H 9H / TH / {FOU}", ["7H 8H 9H"], "", "TH"))
    assert verdict.hand_after == () and verdict.penalty_after == 0
    illegal(turn(f"7H 8H 9H / TH 2C / {FOU}", ["7H 8H 9H"], ""), "discard")
    illegal(turn(f"7H 8H 9H / TH 2C / {FOU}", ["7H 8H 9H TH"], "TH", "TH"), "not in the hand")
