"""The turn referee (rami.referee.validate_turn) on table jokers, legal and illegal with their
reasons (docs/rules.md presets row "table joker", decisions 4 and 5): never back to a hand but
in BFmania (swapped for the card it stands for, after the opening), laid again the same turn in
Café Rummy, staying in rami 51, pinned in rami fou unless its card replaces it (a cut run still
pins it); a swap's meld paired with the meld that extends it."""

from __future__ import annotations

from itertools import permutations

import pytest
from support.referee_turns import hand, illegal, legal, turn

from rami.cards import JOKER, Card, parse_cards
from rami.notation import parse_position, parse_table
from rami.referee import validate_turn


def test_rami_chinois_table_joker_never_returns_to_a_hand():
    """docs/rules.md presets rami-chinois: a table joker never returns to a hand, even when the card
    it stands for is brought."""
    verdict = illegal(
        turn("5D * 7D / 6D 2C / rami-chinois opened", ["5D 6D 7D"], "6D"),
        "1 table joker went back to a hand: under rami-chinois a joker on the table moves "
        "freely in rearrangements, never returns to a hand",
    )
    assert JOKER not in verdict.hand_after


def test_bfmania_joker_swap_to_hand_is_legal_after_opening():
    """docs/rules.md presets BFmania: joker swapped by the card it stands for, goes to the hand."""
    verdict = legal(turn("5D * 7D / 6D 2C KS / bfmania-51 opened", ["5D 6D 7D"], "6D", "KS"))
    assert hand(verdict) == "2C *" and verdict.penalty_after == 22
    set_swap = legal(turn("9S 9H * / 9D 2C 3C / bfmania-30 opened", ["9S 9H 9D"], "9D", "3C"))
    assert hand(set_swap) == "2C *"
    legal(turn("5D * 7D / 6D 2C / bfmania-51 opened", ["5D 6D 7D"], "6D", "*"))


def test_bfmania_joker_swap_needs_the_card_it_stands_for():
    """docs/rules.md presets BFmania: the joker is swapped by the card it stands for only."""
    illegal(
        turn("5D * 7D / 8D 2C KS / bfmania-51 opened", ["5D 7D 8D"], "8D", "KS"),
        "meld 1 after the turn",
    )
    illegal(
        turn("5D * 7D 8D / 9D 2C KS / bfmania-51 opened", ["5D 7D 8D 9D"], "9D", "KS"),
        "meld 1 after the turn",
    )


def test_decision_4_no_joker_swap_before_opening():
    """docs/rules.md decision 4: before opening a player can neither lay off nor swap a joker."""
    illegal(
        turn("5D * 7D / 6D 2C KS / bfmania-51", ["5D 6D 7D"], "6D", "KS"),
        "opening counts 0 points: bfmania-51 needs at least 51",
        "meld 1 (5D * 7D) changed before the player opened: before opening a player lays off "
        "or swaps a joker only once the opening melds are down",
    )


@pytest.mark.parametrize("rules", ["rami-51", "bfmania-51", "bfmania-30", "cafe-rummy"])
def test_decision_4_the_opener_lays_off_once_the_opening_melds_are_down(rules):
    """Decision 4 (revised), seed 004: "Si le joueur a déjà ouvert (ou peut poser au moins 51
    points avec une suite franche), il peut poser des combinaisons valides ou ajouter des
    cartes aux combinaisons déjà présentes sur la table"."""
    position = "7H 8H 9H / 9S TS JS QD QC QH TH 2D / " + rules
    verdict = legal(
        turn(position, ["7H 8H 9H TH", "9S TS JS", "QD QC QH"], "9S TS JS QD QC QH TH", "2D")
    )
    assert verdict.opened_after and verdict.penalty_after == 0
    # The lay-off does not count towards the opening: 9S TS JS (29) + TH is not 51.
    if rules in ("rami-51", "bfmania-51"):
        illegal(
            turn(position, ["7H 8H 9H TH", "9S TS JS"], "9S TS JS TH", "2D"),
            "opening counts 29 points",
        )
    # Without the opening melds, no lay-off.
    illegal(
        turn(position, ["7H 8H 9H TH"], "TH", "2D"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )


def test_decision_4_the_opening_melds_come_from_the_hand():
    """Decision 4: a joker swapped out this turn cannot be part of the opening melds; the new
    melds hold no more jokers than the hand did."""
    illegal(
        turn(
            "5D * 7D / 6D 9S TS JS QD QC 2C / bfmania-51",
            ["5D 6D 7D", "9S TS JS", "QD QC *"],
            "6D 9S TS JS QD QC",
            "2C",
        ),
        "the new melds hold 1 joker but 0 came from the hand",
    )


def test_rami_51_joker_stays():
    """docs/rules.md presets rami-51: the joker on the table stays."""
    illegal(
        turn("5D * 7D / 6D 2C KS / rami-51 opened", ["5D 6D 7D"], "6D", "KS"),
        "went back to a hand: under rami-51 a joker on the table stays where it is",
    )
    illegal(
        turn("5D * 7D / 6D 8S 9S KS / rami-51 opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S", "KS"),
        "meld 1 (5D * 7D) was rearranged: rami-51 allows only lay-offs",
    )


def test_cafe_joker_swapped_must_be_laid_again_the_same_turn():
    """docs/rules.md presets cafe-rummy: joker swapped (after opening), laid again in the same
    turn."""
    legal(
        turn(
            "5D * 7D | 9S 9H 9C / 6D 2C 3C / cafe-rummy opened",
            ["5D 6D 7D", "9S 9H 9C *"],
            "6D",
            "2C",
        )
    )
    illegal(
        turn("5D * 7D / 6D 2C 3C / cafe-rummy opened", ["5D 6D 7D"], "6D", "2C"),
        "went back to a hand: under cafe-rummy",
    )
    illegal(
        turn("5D * 7D / 6D 2C 3C / cafe-rummy", ["5D 6D 7D"], "6D", "2C"),
        "changed before the player opened",
    )


def test_cafe_recovered_joker_is_not_the_final_discard():
    """Seed 002: a joker just recovered from the table cannot serve as the final discard."""
    illegal(
        turn("5D * 7D / 6D / cafe-rummy opened", ["5D 6D 7D"], "6D", "*"),
        "went back to a hand",
    )


def test_rami_fou_joker_pinned_unless_replaced():
    """docs/rules.md presets rami-fou / decision 5: a table joker leaves its meld only when the card
    it stands for replaces it, and must be laid again in the same turn."""
    legal(
        turn("5D * 7D / 6D 8S 9S KC / rami-fou opened", ["5D 6D 7D", "8S 9S *"], "6D 8S 9S", "KC")
    )
    # Replaced, but not laid again: it may not go to the hand.
    illegal(
        turn("5D * 7D / 6D 2C KC / rami-fou opened", ["5D 6D 7D"], "6D", "KC"),
        "1 table joker went back to a hand: under rami-fou",
    )
    # A set's joker leaves without a missing suit taking its place.
    illegal(
        turn("7S 7H 7D * / 8C 9C 2C / rami-fou opened", ["7S 7H 7D", "8C 9C *"], "8C 9C", "2C"),
        "meld 1: a joker left its meld without the card it stands for",
    )


def test_rami_fou_joker_moved_without_its_card_is_illegal():
    """docs/rules.md decision 5: a table joker may change meld only when the card it stands for is
    played in its place in that turn."""
    position = "TD JD QD * / 8S 9S 2C 3C / rami-fou opened"
    # The joker (KD) leaves for 8S 9S *, and no KD takes its place: illegal.
    illegal(
        turn(position, ["TD JD QD", "8S 9S *"], "8S 9S", "2C"),
        "meld 1: a joker left its meld without the card it stands for taking its place",
    )
    # The same in rami-chinois is fine: jokers move freely there.
    legal(turn("TD JD QD * / 8S 9S 2C 3C / rami-chinois opened", ["TD JD QD", "8S 9S *"], "8S 9S"))


def test_rami_fou_joker_replaced_by_its_card_may_move():
    """docs/rules.md presets rami-fou / decision 5: replaced by its card (run or missing suit of a
    set),
    the joker may join another meld."""
    legal(
        turn(
            "TD JD QD * / KD 8S 9S 2C / rami-fou opened",
            ["TD JD QD KD", "8S 9S *"],
            "KD 8S 9S",
            "2C",
        )
    )
    legal(
        turn(
            "7S 7H * / 7D 8C 9C 2C / rami-fou opened",
            ["7S 7H 7D", "8C 9C *"],
            "7D 8C 9C",
            "2C",
        )
    )


CUT = "3H 4H * 6H 7H 8H 9H / 6S 6D 2C / rami-fou opened"


def test_rami_fou_cutting_a_run_does_not_move_its_joker():
    """docs/rules.md decision 5 (revised), "Cutting its run does not move it": where a run holding
    a pinned joker is cut into pieces, the piece that keeps the joker, standing for the same card
    beside real cards of that run, is its own meld too, whichever piece decision 7 matches to the
    old run. Seed 003 forbids only taking a joker without its card ("on peut prendre un joker si
    on peut l'échanger avec la carte qu'il remplace, mais le joker doit permettre de faire
    immédiatement une autre combinaison"); nobody takes it here. 7H 8H 9H holds three real cards
    of the old run and 3H 4H * two, yet the turn is legal, in any order of the melds."""
    after = ["3H 4H *", "7H 8H 9H", "6S 6D 6H"]
    for order in permutations(after):
        verdict = legal(turn(CUT, list(order), "6S 6D", "2C"))
        assert verdict.penalty_after == 0 and verdict.hand_after == ()
        assert verdict.cards_moved == 4  # decision 7: 3H 4H * or 7H 8H 9H leaves the old run
    # Three real cards on the joker's side (decision 7 matches that piece): legal before too.
    legal(
        turn(
            "3H 4H * 6H 7H 8H 9H / 2H 6S 6D 2C / rami-fou opened",
            ["2H 3H 4H *", "7H 8H 9H", "6S 6D 6H"],
            "2H 6S 6D",
            "2C",
        )
    )


def test_rami_fou_a_cut_run_still_pins_its_joker():
    """docs/rules.md decision 5 (revised): in its piece the joker still stands for the same card;
    it does not slide, and a run holding no real card of its old run is no piece of it."""
    # Slid: * 3H 4H makes the joker the 2H.
    illegal(turn(CUT, ["* 3H 4H", "7H 8H 9H", "6S 6D 6H"], "6S 6D", "2C"), "decision 5")
    # Still the 6H, but beside 7H 8H from the hand only: the joker left its run.
    illegal(
        turn("3H 4H 5H * / 7H 8H 2C / rami-fou opened", ["3H 4H 5H", "* 7H 8H"], "7H 8H", "2C"),
        "decision 5",
    )
    # Beside the old run's 7H 8H, the piece may grow (9H from the hand), though 3H 4H 5H is the
    # piece decision 7 matches to the old run.
    legal(
        turn("3H 4H 5H * 7H 8H / 9H 2C / rami-fou opened", ["3H 4H 5H", "* 7H 8H 9H"], "9H", "2C")
    )
    # Its card still frees it only in the piece decision 7 matches: 5H in 3H 4H 5H does not.
    illegal(
        turn(
            "3H 4H * 6H 7H 8H 9H / 5H 6S 6D 2C / rami-fou opened",
            ["3H 4H 5H", "6H 7H 8H 9H", "6S 6D *"],
            "5H 6S 6D",
            "2C",
        ),
        "decision 5",
    )


def test_lay_off_presets_pair_each_meld_with_the_one_that_extends_it():
    """docs/rules.md bfmania row: a swap keeps the meld; the referee must find the meld that extends
    it even when another meld after shares as many cards with it."""
    position = parse_position("JH JD * / JS JS 9H JD / bfmania-30 opened discard=JS")
    verdict = validate_turn(
        position, parse_table("JS JD * | JH JD JS"), parse_cards("JS JS JD"), Card.parse("9H")
    )
    assert verdict.legal, verdict.problems
    assert verdict.penalty_after == 0
