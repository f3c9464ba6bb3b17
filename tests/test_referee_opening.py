"""The turn referee (rami.referee.validate_turn) on opening requirements, legal and illegal with
their reasons (docs/rules.md presets row "opening requirement", decisions 2-4): pure runs and
points in every preset, aces and jokers counted where they stand, no rearranging nor laying off
before the opening."""

from __future__ import annotations

from support.referee_turns import illegal, legal, turn


def test_rami_chinois_opening_needs_a_pure_run():
    """docs/rules.md presets rami-chinois: opening >= 1 pure run (3+ cards, no joker)."""
    illegal(
        turn("- / 2S * 4S KD KC KH", ["2S * 4S", "KD KC KH"], "2S * 4S KD KC KH"),
        "opening needs a pure run",
    )
    legal(turn("- / 2S 3S 4S 5S", ["2S 3S 4S 5S"], "2S 3S 4S 5S"))  # a 4-card pure run qualifies


def test_rami_51_opening_needs_51_points_with_a_pure_run():
    """docs/rules.md presets rami-51: >= 51 points incl. a pure run (decision 2 counting)."""
    position = "- / QH KH AH TS TD TC 2C / rami-51"
    legal(turn(position, ["QH KH AH", "TS TD TC"], "QH KH AH TS TD TC", "2C"))  # 31 + 30
    illegal(
        turn(
            "- / AH 2H 3H TS TD TC 2C / rami-51",
            ["AH 2H 3H", "TS TD TC"],
            "AH 2H 3H TS TD TC",
            "2C",
        ),
        "opening counts 36 points: rami-51 needs at least 51",
    )
    illegal(
        turn(
            "- / QH * AH TS TD TC 2C / rami-51", ["QH * AH", "TS TD TC"], "QH * AH TS TD TC", "2C"
        ),
        "opening needs a pure run",
    )


def test_bfmania_51_seed_example_59_points():
    """Seed 001: 9-10-J of hearts (29) with a set of queens (30) make 59: the opening is legal."""
    position = "- / 9H TH JH QS QD QC 2C 5D / bfmania-51"
    legal(turn(position, ["9H TH JH", "QS QD QC"], "9H TH JH QS QD QC", "2C"))
    illegal(turn(position, ["9H TH JH"], "9H TH JH", "2C"), "opening counts 29 points")


def test_bfmania_51_table_option_without_pure_run():
    """docs/rules.md presets bfmania-51 (table option: without a pure run, only the 51 points)."""
    play = (["QS QD QC", "KS KD *"], "QS QD QC KS KD *", "2C")
    illegal(turn("- / QS QD QC KS KD * 2C 3C / bfmania-51", *play), "opening needs a pure run")
    legal(turn("- / QS QD QC KS KD * 2C 3C / bfmania-51[opening_pure_run=false]", *play))


def test_bfmania_30_opening():
    """Seed 001, rami 30: 30 points without pure run; three kings, joker included, suffice."""
    legal(turn("- / KS KH * 2C 3C / bfmania-30", ["KS KH *"], "KS KH *", "2C"))
    illegal(
        turn("- / 9S 9H * 2C 3C / bfmania-30", ["9S 9H *"], "9S 9H *", "2C"),
        "opening counts 27 points: bfmania-30 needs at least 30",
    )


def test_rami_fou_opening_51_points_no_pure_run_needed():
    """docs/rules.md presets rami-fou: >= 51 points (joker counts as the card it stands for)."""
    legal(
        turn(
            "- / QS QD * KS KD KC 2C / rami-fou", ["QS QD *", "KS KD KC"], "QS QD * KS KD KC", "2C"
        )
    )
    illegal(
        turn("- / QS QD * 2C 3C / rami-fou", ["QS QD *"], "QS QD *", "2C"),
        "opening counts 30 points: rami-fou needs at least 51",
    )


def test_cafe_opening_any_one_valid_meld():
    """docs/rules.md presets cafe-rummy: opening = any one valid meld, even a set of 2s."""
    legal(turn("- / 2S 2H 2D 9C KC / cafe-rummy", ["2S 2H 2D"], "2S 2H 2D", "9C"))


def test_rummikub_opening_30_points_from_the_hand():
    """docs/rules.md rummikub: first meld >= 30 points from the hand (tiles at face value)."""
    legal(turn("- / JH QH KH 2C / rummikub", ["JH QH KH"], "JH QH KH"))  # 11 + 12 + 13
    illegal(
        turn("- / 8H 9H TH 2C / rummikub", ["8H 9H TH"], "8H 9H TH"),
        "opening counts 27 points: rummikub needs at least 30",
    )


def test_decision_2_ace_and_joker_count_where_they_stand():
    """docs/rules.md decision 2: ace 1 in A-2-3, 11 in Q-K-A or a set; a joker as its card."""
    base = "- / {} 9S 9H 9D 2C / rami-51"
    # Q-K-A (31) + 9 9 9 (27) = 58 >= 51.
    legal(turn(base.format("QH KH AH"), ["QH KH AH", "9S 9H 9D"], "QH KH AH 9S 9H 9D", "2C"))
    # A-2-3 (6) + 27 = 33 < 51.
    illegal(
        turn(base.format("AH 2H 3H"), ["AH 2H 3H", "9S 9H 9D"], "AH 2H 3H 9S 9H 9D", "2C"),
        "opening counts 33 points",
    )
    # Pure run J-Q-K (30) + set of aces with a joker (33) = 63.
    legal(
        turn("- / JH QH KH AS AD * 2C / rami-51", ["JH QH KH", "AS AD *"], "JH QH KH AS AD *", "2C")
    )


def test_decision_4_no_rearranging_before_opening():
    """docs/rules.md decisions 1 and 4: the opening player lays new melds from the hand only."""
    illegal(
        turn("4S 5S 6S 7S / 2S 3S KD", ["2S 3S 4S", "5S 6S 7S"], "2S 3S"),
        "meld 1 (4S 5S 6S 7S) changed before the player opened",
    )


def test_decision_4_no_lay_off_before_opening():
    """docs/rules.md decision 4: before opening a player can not lay off (every preset)."""
    illegal(
        turn("7H 8H 9H / 2S 3S 4S TH", ["2S 3S 4S", "7H 8H 9H TH"], "2S 3S 4S TH"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )
    # Once the opening melds are down, the lay-off is legal (decision 4, revised).
    legal(
        turn(
            "7H 8H 9H / QH KH AH TS TD TC TH 2C / rami-51",
            ["QH KH AH", "TS TD TC", "7H 8H 9H TH"],
            "QH KH AH TS TD TC TH",
            "2C",
        )
    )
    illegal(
        turn("7H 8H 9H / TH 2C / rami-51", ["7H 8H 9H TH"], "TH", "2C"),
        "meld 1 (7H 8H 9H) changed before the player opened",
    )


def test_set_written_in_another_order_is_unchanged():
    """docs/rules.md decisions 1 and 4: a set written in another card order is not a change before
    opening."""
    legal(turn("QS QD QC / 2S 3S 4S", ["QD QS QC", "2S 3S 4S"], "2S 3S 4S"))


def test_rami_51_lay_off_only_after_opening():
    """docs/rules.md presets rami-51: no rearrangement after opening, lay off only."""
    legal(
        turn(
            "7H 8H 9H | QS QD QC / TH QH 2C / rami-51 opened",
            ["7H 8H 9H TH", "QS QD QC QH"],
            "TH QH",
            "2C",
        )
    )
    illegal(
        turn("AH 2H 3H 4H 5H 6H / 2C 3C / rami-51 opened", ["AH 2H 3H", "4H 5H 6H"], "", "2C"),
        "meld 1 (AH 2H 3H 4H 5H 6H) was rearranged: rami-51 allows only lay-offs",
    )
    illegal(
        turn("AH 2H 3H 4H 5H 6H / 2C 3C / bfmania-51 opened", ["AH 2H 3H", "4H 5H 6H"], "", "2C"),
        "was rearranged: bfmania-51 allows only lay-offs and joker swaps",
    )
