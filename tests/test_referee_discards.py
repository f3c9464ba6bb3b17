"""The turn referee (rami.referee.validate_turn) on discards, legal and illegal with their
reasons (docs/rules.md presets rows "discard pile" and "going out", decision 8), and the
penalty after the turn (the presets' card values, flat 100 unopened)."""

from __future__ import annotations

import pytest
from support.referee_turns import hand, illegal, legal, turn


def test_rami_chinois_never_discards():
    """docs/rules.md presets rami-chinois: no discard pile, never discard."""
    illegal(
        turn("7H 8H 9H / 2C KD / opened", ["7H 8H 9H"], "", "2C"),
        "rami-chinois has no discard: a turn never ends by discarding",
    )


def test_discarding_preset_needs_a_discard():
    """docs/rules.md presets: discard pile yes: every turn ends with a discard."""
    for rules in ("rami-fou", "rami-51", "bfmania-51", "cafe-rummy"):
        illegal(
            turn(f"7H 8H 9H / 2C KD / {rules} opened", ["7H 8H 9H"]),
            f"{rules} ends every turn with a discard; none was given",
        )
    verdict = legal(turn("7H 8H 9H / 2C KD / rami-fou opened", ["7H 8H 9H"], "", "KD"))
    assert hand(verdict) == "2C" and verdict.penalty_after == 2


def test_discard_must_be_in_the_hand():
    """docs/rules.md presets row "discard pile": the discard comes from the hand left after the
    turn."""
    illegal(
        turn("7H 8H 9H / TH KD / rami-51 opened", ["7H 8H 9H TH"], "TH", "TH"),
        "the discard TH is not left in the hand",
    )


@pytest.mark.parametrize("rules", ["rami-fou", "rami-51", "cafe-rummy"])
def test_going_out_by_discarding_the_last_card(rules):
    """docs/rules.md presets: going out = discard the last card (rami-fou, rami-51, Café)."""
    verdict = legal(turn(f"7H 8H 9H / TH KD / {rules} opened", ["7H 8H 9H TH"], "TH", "KD"))
    assert verdict.hand_after == () and verdict.penalty_after == 0
    illegal(
        turn(f"7H 8H 9H / TH / {rules} opened", ["7H 8H 9H TH"], "TH"),
        "ends every turn with a discard; none was given",
    )


@pytest.mark.parametrize("rules", ["bfmania-51", "bfmania-30"])
def test_bfmania_going_out_by_placing_or_discarding(rules):
    """docs/rules.md presets BFmania: going out = place or discard the last card."""
    legal(turn(f"7H 8H 9H / TH / {rules} opened", ["7H 8H 9H TH"], "TH"))
    legal(turn(f"7H 8H 9H / TH KD / {rules} opened", ["7H 8H 9H TH"], "TH", "KD"))


def test_decision_8_taken_discard_not_discarded_unless_last_card():
    """docs/rules.md decision 8: the card just taken from the discard pile may not be discarded in
    the same turn unless it is the last card in the hand (every discarding preset)."""
    for rules in ("rami-fou", "rami-51", "bfmania-51", "bfmania-30", "cafe-rummy"):
        illegal(
            turn(f"7H 8H 9H / KD 2C / {rules} opened discard=KD", ["7H 8H 9H"], "", "KD"),
            "KD was just taken from the discard pile: neither copy may be discarded",
        )
        legal(turn(f"7H 8H 9H / KD 2C / {rules} opened discard=KD", ["7H 8H 9H"], "", "2C"))
        legal(turn(f"7H 8H 9H / KD TH / {rules} opened discard=KD", ["7H 8H 9H TH"], "TH", "KD"))
    # Two identical copies: the lock covers the twin, since copies are interchangeable (decision
    # 8, revised: "holding the twin of the card taken does not allow discarding that card type").
    illegal(
        turn("7H 8H 9H / KD KD 2C / rami-51 opened discard=KD", ["7H 8H 9H"], "", "KD"),
        "neither copy may be discarded",
    )
    illegal(turn("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", ["7H 8H 9H"], "", "KC"))
    legal(turn("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC", ["7H 8H 9H"], "", "2C"))


def test_cafe_joker_discarded_only_as_the_last_card():
    """docs/rules.md presets cafe-rummy: a joker is never discarded except as the last card."""
    illegal(
        turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "*"),
        "cafe-rummy never discards a joker except as the last card",
    )
    legal(turn("7H 8H 9H / * 2C / cafe-rummy opened", ["7H 8H 9H"], "", "2C"))
    legal(turn("6D 7D 8D / * 9D / cafe-rummy opened", ["6D 7D 8D 9D"], "9D", "*"))
    # Other presets may discard a joker at any time.
    legal(turn("7H 8H 9H / * 2C / rami-51 opened", ["7H 8H 9H"], "", "*"))


# --- Penalties after the turn -----------------------------------------------------------------


def test_penalty_after_counts_the_preset_values_and_flat_100():
    """docs/rules.md presets: hand penalty values; rami-fou / rami-51 unopened: flat 100."""
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-fou", ["7H 8H 9H"], "", "2C"))
    assert verdict.opened_after is False and verdict.penalty_after == 100
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-fou opened", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 10 + 20 + 11
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / rami-chinois", ["7H 8H 9H"]))
    assert verdict.penalty_after == 2 + 10 + 50 + 11
    verdict = legal(turn("7H 8H 9H / 2C KD * AS / cafe-rummy", ["7H 8H 9H"], "", "2C"))
    assert verdict.penalty_after == 10 + 25 + 11
