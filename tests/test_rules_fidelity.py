"""Known answers that follow the original texts word for word (docs/rules.md decisions 4, 5, 8
and the opening of rami chinois), each with the sentence it rests on.

Every answer is checked twice (the ``solved`` fixture of conftest.py): by the solver's own
referee and by the second referee of ``tests/support``, which shares no code with it.
"""

from __future__ import annotations

import pytest


def melds(solution) -> list[str]:
    return sorted(str(meld) for meld in solution.table)


# --- Decision 5: rami fou's pinned jokers ----------------------------------------------------
# Original 003: "on peut prendre un joker si on peut l'échanger avec la carte qu'il remplace,
# mais le joker doit permettre de faire immédiatement une autre combinaison."


def test_a_run_joker_never_goes_into_a_set(solved):
    """The joker of 5H * 7H stands for 6H; no 6H, so it stays, and the fives and sevens stay in
    the hand: 19 points left (5S 7S 5D 2C, 7D discarded)."""
    solution = solved("5H * 7H / 5S 5D 7S 7D 2C / rami-fou opened")
    assert solution.penalty_after == 19
    assert melds(solution) == ["5H * 7H"]


def test_a_set_joker_never_becomes_a_run_card(solved):
    """The joker of 5H 5S * stands for a five; it may not become the 6H of 4H 5H 6H."""
    solution = solved("5H 5S * / 4H 6S 7S 2C / rami-fou opened")
    assert solution.penalty_after == 12
    assert melds(solution) == ["5H 5S *"]


def test_a_freed_joker_must_make_another_combination(solved):
    """8H frees the joker of 5H 6H 7H *, but the joker must then go into another combination,
    and there is none: it may not go back into its own run. Best: discard 8H, 2 left."""
    solution = solved("5H 6H 7H * / 8H 2S / rami-fou opened")
    assert solution.penalty_after == 2 and solution.played == ()
    assert str(solution.discard) == "8H"


def test_a_joker_never_slides_to_stand_for_another_card(solved):
    """The joker of * 7C 8C stands for 6C; it may not slide to stand for 8C so that 8C joins
    8H 8D: 9C and TC extend the runs (9C and TC after 8C, or 9C there and TC before the JC
    that the other joker stands for), nothing moved, 16 points left."""
    solution = solved("* QC KC | * 7C 8C / 8H 8D QD 9C TC / rami-fou opened")
    assert solution.penalty_after == 16 and solution.cards_moved == 0
    assert melds(solution) in (["* 7C 8C 9C TC", "* QC KC"], ["* 7C 8C 9C", "TC * QC KC"])


def test_a_freed_joker_joins_another_combination(solved):
    """6H takes the joker's place and the joker makes 8S 8D * at once: all played."""
    solution = solved("5H * 7H / 6H 8S 8D 2C / rami-fou opened")
    assert solution.penalty_after == 0
    assert melds(solution) == ["5H 6H 7H", "8S 8D *"]


# --- Decision 4: the opening turn of the lay-off presets ------------------------------------
# Original 004: "Si le joueur a déjà ouvert (ou peut poser au moins 51 points avec une suite
# franche), il peut poser des combinaisons valides ou ajouter des cartes aux combinaisons déjà
# présentes sur la table."


@pytest.mark.parametrize("rules", ["rami-51", "bfmania-51", "bfmania-30", "cafe-rummy"])
def test_the_opener_lays_off_in_the_same_turn(solved, rules):
    solution = solved(f"7H 8H 9H / 9S TS JS QD QC QH TH 2D / {rules}")
    assert solution.opened and solution.penalty_after == 0
    assert str(solution.discard) == "2D"
    assert melds(solution) == ["7H 8H 9H TH", "9S TS JS", "QH QD QC"]
    # The opening melds are laid first, the lay-off after them.
    kinds = [move.kind for move in solution.moves]
    assert kinds.index("add") > max(i for i, kind in enumerate(kinds) if kind == "lay")


# --- Decision 8: the taken discard's lock covers its twin -----------------------------------
# Original 001: "La carte que vous venez de prendre sur la défausse ne se rejette pas dans le
# même tour, sauf si c'est la dernière carte de votre main."


def test_the_twin_of_the_taken_discard_is_locked_too(solved):
    solution = solved("7H 8H 9H / KC KC 2C / bfmania-51 opened discard=KC")
    assert str(solution.discard) == "2C" and solution.penalty_after == 20


# --- Rami chinois openings with jokers in hand ----------------------------------------------
# Original 000: the first meld must hold a "tierce franche" (a run without a joker).


def test_an_opening_keeps_its_pure_run_when_jokers_cannot_be_placed(solved):
    """Three jokers with 5H 6H 7H: any meld holding them would spoil the only pure run, and
    jokers alone make no meld, so the jokers stay in the hand (150 points)."""
    solution = solved("- / 5H 6H 7H * * * / rami-chinois")
    assert melds(solution) == ["5H 6H 7H"] and solution.penalty_after == 150


def test_an_opening_never_joins_its_pure_run_with_a_joker_run(solved):
    """4C 5C 6C is the pure run; AC * 3C and TS * QS KS take the jokers: 19 points left."""
    solution = solved("- / TS 3H 8D 3C 6H * * AC 6C 4C 2H QS KS 5C / rami-chinois")
    assert melds(solution) == ["4C 5C 6C", "AC * 3C", "TS * QS KS"]
    assert solution.penalty_after == 19
