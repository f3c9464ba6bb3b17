"""The second referee (tests/support/second_referee/): known answers in the lay-off presets (rami
51, BFmania 51/30, Café Rummy), legal and illegal: the opening turn then lay-offs, pure runs and
points, lay-offs only, BFmania's joker swap to the hand, Café Rummy's swapped joker laid again, a
joker swapped in the opening turn, going out, each meld paired with the one extending it; and
decision 8 (the taken discard and its twin)."""

from __future__ import annotations

import pytest
from support.second_referee_turns import hand, illegal, legal, turn

OPENING_WITH_LAYOFF = "7H 8H 9H / 9S TS JS QD QC QH TH 2D / {}"


@pytest.mark.parametrize("rules", ["rami-51", "bfmania-51"])
def test_opening_turn_then_lay_off_51(rules: str):
    position = OPENING_WITH_LAYOFF.format(rules)
    verdict = legal(
        turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D")
    )
    assert verdict.opened_after and verdict.penalty_after == 0 and verdict.cards_moved == 0
    illegal(turn(position, ["7H 8H 9H TH"], "TH", "2D"), "new meld")
    # The lay-off does not count towards the 51 points: 29 + 30 = 59 without TH, but
    # 9S TS JS with QD QC only is no opening.
    illegal(turn(position, ["7H 8H 9H TH", "9S TS JS"], "9S TS JS TH", "2D"), "points")


def test_cafe_opening_any_meld_then_lay_off():
    position = OPENING_WITH_LAYOFF.format("cafe-rummy")
    legal(turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D"))
    legal(turn(position, ["7H 8H 9H TH", "QD QC QH"], "QD QC QH TH", "2D"))
    illegal(turn(position, ["7H 8H 9H TH"], "TH", "2D"), "new meld")
    legal(turn("- / 2S 2H 2D 9C / cafe-rummy", ["2S 2H 2D"], "2S 2H 2D", "9C"))


def test_rami_51_opening_needs_a_pure_run_and_51():
    illegal(
        turn(
            "- / KS KH KD QS QH QD 2C / rami-51",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        ),
        "pure run",
    )
    legal(
        turn(
            "- / QH KH AH TS TD TC 2C / rami-51",
            ["QH KH AH", "TS TD TC"],
            "QH KH AH TS TD TC",
            "2C",
        )
    )  # 31 + 30
    illegal(
        turn(
            "- / AH 2H 3H TS TD TC 2C / rami-51",
            ["AH 2H 3H", "TS TD TC"],
            "AH 2H 3H TS TD TC",
            "2C",
        ),
        "36 points",
    )
    # A run with a joker is no pure run, whatever its points.
    illegal(
        turn(
            "- / 9H TH JH * AS AD AC 2C / rami-51",
            ["9H TH JH *", "AS AD AC"],
            "9H TH JH * AS AD AC",
            "2C",
        ),
        "pure run",
    )
    verdict = legal(turn("7H 8H 9H / 2C 3C / rami-51", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 100


def test_bfmania_table_option_and_rami_30():
    illegal(
        turn(
            "- / KS KH KD QS QH QD 2C / bfmania-51",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        ),
        "pure run",
    )
    legal(
        turn(
            "- / KS KH KD QS QH QD 2C / bfmania-51[opening_pure_run=false]",
            ["KS KH KD", "QS QH QD"],
            "KS KH KD QS QH QD",
            "2C",
        )
    )
    legal(turn("- / KS KH * 2C / bfmania-30", ["KS KH *"], "KS KH *", "2C"))
    legal(turn("- / TH JH * 2C 5D / bfmania-30", ["TH JH *"], "TH JH *", "2C"))  # 10 10 10
    illegal(turn("- / TH JH * 2C 5D / bfmania-30", ["* TH JH"], "TH JH *", "2C"), "29 points")
    # The joker counts as the card it stands for, where it stands (the low ace counts 1).
    illegal(
        turn(
            "- / 7S 7D 7C 2H 3H * 5C / bfmania-30",
            ["7S 7D 7C", "* 2H 3H"],
            "7S 7D 7C 2H 3H *",
            "5C",
        ),
        "27 points",
    )
    legal(
        turn(
            "- / 7S 7D 7C 2H 3H * 5C / bfmania-30",
            ["7S 7D 7C", "2H 3H *"],
            "7S 7D 7C 2H 3H *",
            "5C",
        )
    )
    illegal(
        turn(
            "- / AS AD AC 2H 3H 4H 5C / rami-51",
            ["AS AD AC", "2H 3H 4H"],
            "AS AD AC 2H 3H 4H",
            "5C",
        ),
        "42 points",
    )  # aces of a set count 11
    verdict = legal(turn("- / TH JH 2C 5D / bfmania-30", [], "", "2C"))
    assert verdict.penalty_after == 10 + 10 + 5  # no flat penalty in bfmania


def test_rami_51_lay_off_only():
    legal(turn("5D 6D 7D / * 2C / rami-51 opened", ["5D 6D 7D *"], "*", "2C"))
    legal(turn("5D 6D 7D / * 2C / rami-51 opened", ["* 5D 6D 7D"], "*", "2C"))
    legal(turn("9S 9H 9D / 9C 2C / rami-51 opened", ["9S 9H 9C 9D"], "9C", "2C"))
    illegal(
        turn("4H 5H 6H 7H 8H 9H / 2C 3C / rami-51 opened", ["4H 5H 6H", "7H 8H 9H"], "", "2C"),
        "lay-offs",
    )
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["5D 6D 7D", "*"], "6D", "2C"))
    illegal(turn("5D * 7D / 6D 2C / rami-51 opened", ["* 5D 6D 7D"], "6D", "2C"), "lay-offs")
    legal(turn("5D * 7D / 8D 9D 2C / rami-51 opened", ["5D * 7D 8D 9D"], "8D 9D", "2C"))
    # Lay-offs before opening: illegal.
    illegal(turn("5D 6D 7D / 8D 2C / rami-51", ["5D 6D 7D 8D"], "8D", "2C"))


def test_bfmania_joker_swap_to_hand():
    verdict = legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["5D 6D 7D"], "6D", "2C"))
    assert hand(verdict) == "*" and verdict.penalty_after == 20 and verdict.cards_moved == 1
    verdict = legal(turn("9S 9H * / 9D 2C / bfmania-30 opened", ["9S 9H 9D"], "9D", "2C"))
    assert hand(verdict) == "*"
    # The joker may also go straight out as the discard.
    verdict = legal(turn("9S 9H * / 9D 2C / bfmania-30 opened", ["9S 9H 9D"], "9D", "*"))
    assert hand(verdict) == "2C"
    # Or be laid again at once (here at the other end of its own run).
    legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["* 5D 6D 7D"], "6D", "2C"))
    # Only the card it stands for swaps it.
    illegal(turn("9S 9H * / 9S 2C / bfmania-30 opened", ["9S 9H 9S"], "9S", "2C"))
    illegal(turn("5D * 7D 8D / 9D 2C / bfmania-51 opened", ["5D 7D 8D 9D"], "9D", "2C"))
    # A joker does not leave without a swap.
    illegal(turn("5D 6D 7D * / 2C 3C / bfmania-51 opened", ["5D 6D 7D"], "", "2C"))
    illegal(turn("9S 9H 9D * / 2C 3C / bfmania-51 opened", ["9S 9H 9D"], "", "2C"))
    # Decision 4: a player not opened swaps only once the opening melds are down.
    illegal(turn("5D * 7D / 6D 2C 3C / bfmania-51", ["5D 6D 7D"], "6D", "2C"), "new meld")
    legal(
        turn(
            "5D * 7D / 6D KS KH KD AS AD AC 2C / bfmania-30",
            ["5D 6D 7D", "KS KH KD"],
            "6D KS KH KD",
            "2C",
        )
    )


def test_bfmania_going_out_by_placing_or_discarding():
    for rules in ("bfmania-51", "bfmania-30"):
        verdict = legal(turn(f"5D 6D 7D / 8D / {rules} opened", ["5D 6D 7D 8D"], "8D"))
        assert verdict.hand_after == () and verdict.penalty_after == 0
        legal(turn(f"5D 6D 7D / 8D / {rules} opened", ["5D 6D 7D"], "", "8D"))
        illegal(turn(f"5D 6D 7D / 8D 2C / {rules} opened", ["5D 6D 7D 8D"], "8D"), "discard")


def test_cafe_swapped_joker_must_be_laid_again():
    position = "5D * 7D | 9S 9H 9C / 6D 2C 3C / cafe-rummy opened"
    verdict = legal(turn(position, ["5D 6D 7D", "9S 9H 9C *"], "6D", "2C"))
    assert verdict.cards_moved == 1
    illegal(turn(position, ["5D 6D 7D", "9S 9H 9C"], "6D", "2C"), "joker")
    legal(turn("5D * 7D / 6D 2C / cafe-rummy opened", ["5D 6D 7D *"], "6D", "2C"))
    legal(
        turn(
            "* 7D 7C / 7S 9S 9D TD QD / cafe-rummy opened discard=QD",
            ["7S 7D 7C", "9D TD *"],
            "7S 9D TD",
            "9S",
        )
    )
    # Not opened: the swap waits for the opening melds.
    illegal(turn("5D * 7D / 6D 2C 3C / cafe-rummy", ["5D 6D 7D *"], "6D", "2C"), "new meld")
    legal(
        turn(
            "5D * 7D / 6D 2C 2S 2H 3C / cafe-rummy", ["5D 6D 7D *", "2C 2S 2H"], "6D 2C 2S 2H", "3C"
        )
    )


def test_a_joker_swapped_in_the_opening_turn_never_joins_a_new_meld():
    """Decision 4 (the project's reading): in the opening turn the new melds hold no more jokers
    than the hand played; a joker swapped this turn goes on an old meld (Café) or to the hand
    (BFmania)."""
    illegal(
        turn(
            "5D * 7D / 2S 2H 2D 6D 9C TC 3C / cafe-rummy",
            ["2S 2H 2D", "5D 6D 7D", "9C TC *"],
            "2S 2H 2D 6D 9C TC",
            "3C",
        ),
        "decision 4",
    )
    illegal(
        turn("5D * 7D / 6D 9C TC 3C / cafe-rummy", ["5D 6D 7D", "9C TC *"], "6D 9C TC", "3C"),
        "decision 4",
    )
    illegal(
        turn(
            "5D * 7D / KS KH KD 6D 9C TC 3C / bfmania-30",
            ["KS KH KD", "5D 6D 7D", "9C TC *"],
            "KS KH KD 6D 9C TC",
            "3C",
        ),
        "decision 4",
    )
    illegal(
        turn("5D * 7D / KS KH 6D 9C TC 3C / bfmania-30", ["KS KH *", "5D 6D 7D"], "KS KH 6D", "3C"),
        "decision 4",
    )
    # Café Rummy: the hand's joker was discarded, so the new meld's joker is the swapped one.
    illegal(turn("* JD QD / TS TD TD * / cafe-rummy", ["TD JD QD", "TS TD *"], "TS TD TD", "*"))
    illegal(
        turn("* 2D 3D / AS AD AC * * / cafe-rummy", ["AD 2D 3D", "AS AC * *"], "AS AD AC *", "*")
    )
    # The hand's own jokers may be in the new melds, and a swapped one on an old meld.
    legal(turn("* 2D 3D / AS AD AC * * / cafe-rummy", ["AD 2D 3D *", "AS AC *"], "AS AD AC *", "*"))
    legal(
        turn("5D * 7D / 6D 9C TC * 3C / cafe-rummy", ["5D 6D 7D *", "9C TC *"], "6D 9C TC *", "3C")
    )
    # BFmania: the opening holds the hand's joker (played); the swapped joker comes to the hand
    # and is discarded. Said with no joker played, the new meld's joker came from the table.
    legal(
        turn(
            "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
            ["5D 5C 5H *", "TH TD TC *", "9C TC JC"],
            "5H TH TD 9C TC TC JC *",
            "*",
        )
    )
    illegal(
        turn(
            "* * 5D 5C / 5H TH TD 9C TC TC JC * / bfmania-51",
            ["5D 5C 5H *", "TH TD TC *", "9C TC JC"],
            "5H TH TD 9C TC TC JC",
            "*",
        )
    )


def test_opening_does_not_depend_on_the_order_of_the_melds():
    for after in (["7H 8H 9H", "7H 8H 9H TH JH QH"], ["7H 8H 9H TH JH QH", "7H 8H 9H"]):
        legal(turn("7H 8H 9H / 7H 8H 9H TH JH QH 2C / rami-51", after, "7H 8H 9H TH JH QH", "2C"))


def test_bfmania_joker_said_to_be_played_but_not_on_the_table():
    illegal(turn("9C TC JC * / QH * / bfmania-51 opened", ["9C TC JC *"], "*", "QH"), "swapped")
    legal(turn("9C TC JC * / QH * / bfmania-51 opened", ["9C TC JC *"], "", "QH"))


def test_rami_fou_pinned_joker_keeps_its_card_across_the_ace():
    """The joker of QH KH * stands for the ace of hearts; below the 2 it still does."""
    legal(
        turn(
            "QH KH * / 2H 3H 4H 5H 6H 7H 8H 9H TH JH 2C / rami-fou opened",
            ["* 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"],
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH",
            "2C",
        )
    )
    legal(turn("QH KH * / JH 2C / rami-fou opened", ["JH QH KH *"], "JH", "2C"))
    illegal(turn("QH KH * / JH 2C / rami-fou opened", ["* JH QH KH"], "JH", "2C"), "decision 5")


def test_cafe_joker_discarded_only_as_the_last_card():
    illegal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "*"), "joker")
    legal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "2C"))
    legal(turn("7H 8H 9H / * / cafe-rummy opened", ["7H 8H 9H"], "", "*"))
    # Elsewhere a joker may be discarded.
    legal(turn("7H 8H 9H / * 2C / rami-51 opened", ["7H 8H 9H"], "", "*"))


def test_cafe_naturals_and_real_cards_on_lay_offs():
    legal(turn("5D 6D * / * 2C / cafe-rummy opened", ["5D 6D * *"], "*", "2C"))
    illegal(turn("5D 6D * * / * 2C / cafe-rummy opened", ["5D 6D * * *"], "*", "2C"))
    illegal(turn("- / 7H * * 2C / bfmania-51 opened", ["7H * *"], "7H * *", "2C"))


def test_cafe_going_out_discards():
    illegal(turn("5D 6D 7D / 8D / cafe-rummy opened", ["5D 6D 7D 8D"], "8D"), "discard")
    legal(turn("5D 6D 7D / 8D / cafe-rummy opened", ["5D 6D 7D"], "", "8D"))


def test_lay_off_pairs_each_meld_with_one_extending_it():
    verdict = legal(turn("JH JD * / JS 9H JC 2C / bfmania-30 opened", ["JH JD JS"], "JS", "2C"))
    assert hand(verdict) == "9H JC *"
    # Two melds after hold JD and a joker; only JH JD JS extends JH JD *, and the swapped joker
    # is laid again in the new meld.
    verdict = legal(
        turn(
            "JH JD * / JS JS 9H JD / bfmania-30 opened discard=JS",
            ["JS JD *", "JH JD JS"],
            "JS JS JD",
            "9H",
        )
    )
    assert verdict.hand_after == ()


# --- Decision 8 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["bfmania-51", "rami-51", "rami-fou", "cafe-rummy"])
def test_decision_8_taken_discard_and_its_twin(rules: str):
    position = f"7H 8H 9H / KC KC 2C / {rules} opened discard=KC"
    illegal(turn(position, ["7H 8H 9H"], "", "KC"), "decision 8")
    legal(turn(position, ["7H 8H 9H"], "", "2C"))
    illegal(turn(f"7H 8H 9H / KC 2C / {rules} opened discard=KC", ["7H 8H 9H"], "", "KC"))
    # The last card in the hand may be the taken one.
    legal(turn(f"7H 8H 9H / TH KC / {rules} opened discard=KC", ["7H 8H 9H TH"], "TH", "KC"))
