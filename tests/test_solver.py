"""Known-answer tests for the rearrangement solver (issue: the tricky cases, docs/rules.md
cited)."""

from __future__ import annotations

from collections import Counter

import pytest
from support.checks import checked_solve

from rami import parse_position, solve
from rami.errors import InvalidPositionError, UnsupportedError
from rami.solver.api import Objective, Status


def solved(text: str, **options):
    return checked_solve(text, proved=False, **options)


def table_text(solution) -> list[str]:
    return [str(meld) for meld in solution.table]


def test_qka_run_on_the_table_extends_downwards():
    """docs/rules.md common: the ace goes above the king (Q-K-A)."""
    solution = solved("QH KH AH | 5S 6S 7S / JH 8S / rami-chinois opened")
    assert solution.status is Status.OPTIMAL
    assert solution.penalty_after == 0 and solution.cards_moved == 0
    assert "JH QH KH AH" in table_text(solution)


def test_no_wrap_around_the_ace():
    """docs/rules.md common: K-A-2 is illegal, so 2H cannot join Q-K-A."""
    solution = solved("QH KH AH / 2H / rami-chinois opened")
    assert solution.played == ()
    assert solution.penalty_after == 2


def test_rummikub_has_no_ace_high():
    """docs/rules.md rummikub: a run never goes above 13."""
    solution = solved("JH QH KH / AH / rummikub opened")
    assert solution.played == ()


def test_joker_sliding_inside_its_run_is_a_move_to_follow():
    """The jokers of 4S 5S 6S 7S * stay in their meld but stand for 3S once 2S comes: the move
    list says so before adding 2S, and the hint's key move is that slide."""
    from rami.hints import make_hint

    solution = solved("4S 5S 6S 7S * / 2S / rami-chinois opened")
    assert table_text(solution) == ["2S * 4S 5S 6S 7S"] and solution.cards_moved == 0
    assert [move.kind for move in solution.moves] == ["shift", "add"]
    assert solution.moves[0].text == "in meld 1, slide the joker to stand for 3S (not 8S)"
    assert make_hint(solution, 2).text == (
        "Key move: in meld 1, slide the joker to stand for 3S (not 8S)"
    )


def test_joker_at_the_end_of_a_run_is_kept():
    """A run ending in a joker is kept as it is (a trap some other solvers fall into)."""
    solution = solved("4C 5C 6C * / 3C / rami-chinois opened")
    assert solution.penalty_after == 0 and solution.cards_moved == 0
    assert len(solution.table) == 1 and len(solution.table[0]) == 5


def test_four_card_set_holding_a_joker():
    """A 4-card set holding a joker is kept as it is, untouched (the same kind of trap)."""
    solution = solved("9H 9D 9C * | 5S 6S 7S / 8S / rami-chinois opened")
    assert "9H 9D 9C *" in table_text(solution)
    assert solution.cards_moved == 0 and solution.penalty_after == 0


def test_three_jokers_never_make_an_all_joker_meld():
    """docs/rules.md jokers: a meld keeps at least one real card, even with 3+ jokers about."""
    solution = solved("5S 6S 7S / * * * / rami-chinois opened")
    assert solution.penalty_after == 0
    assert all(meld.real_cards for meld in solution.table)


def test_three_hand_jokers_on_an_empty_table_cannot_be_laid():
    solution = solved("- / * * * / rami-chinois opened")
    assert solution.played == () and solution.penalty_after == 150


def test_meld_needing_the_second_copy_of_a_card():
    """docs/rules.md common: two identical copies exist; both 7H are on the final table."""
    solution = solved("5H 6H 7H / 7H 8H 9H / rami-chinois opened")
    assert solution.penalty_after == 0 and solution.cards_moved == 0
    assert (
        Counter(card for meld in solution.table for card in meld.cards)[
            parse_position("- / 7H / rami-chinois").hand[0]
        ]
        == 2
    )


def test_long_run_cut_in_two_counts_decision_7():
    """docs/rules.md decision 7: a 10-card run split 6 + 4 moves the 4 cards of the smaller part."""
    solution = solved("3H 4H 5H 6H 7H 8H 9H TH JH QH / 8H 8C 8D 8S / rami-chinois opened")
    assert solution.penalty_after == 0
    # 8S 8C 8D 8H as a set keeps the run whole: nothing moves.
    assert solution.cards_moved == 0


def test_long_run_must_be_cut():
    solution = solved("3H 4H 5H 6H 7H 8H 9H TH JH / 7S 7D / rami-chinois opened")
    assert solution.penalty_after == 0
    # 7H joins 7S 7D: keep 3H..6H or 8H..JH (4 cards) in place, move 7H and the other 4.
    assert solution.cards_moved == 5
    assert any(move.kind == "split" for move in solution.moves)


def test_table_joker_must_move():
    """docs/rules.md rami-chinois: a table joker moves freely but stays on the table."""
    solution = solved("4C 5C 6C * / 7C KS KH / rami-chinois opened")
    assert solution.penalty_after == 0
    assert solution.cards_moved == 1
    assert "KS KH *" in table_text(solution)


def test_identical_copies_are_not_moves():
    """docs/rules.md: swapping the two 7 of hearts is never a move."""
    solution = solved("5H 6H 7H | 7H 8H 9H / 4H / rami-chinois opened")
    assert solution.cards_moved == 0
    assert all(move.source is None for move in solution.moves)


def test_untouched_melds_come_back_exactly():
    text = "2D 3D * 5D | QS QD QC | 7H 8H 9H TH JH QH KH / 9S / rami-chinois opened"
    solution = solved(text)
    assert table_text(solution) == ["2D 3D * 5D", "QS QD QC", "7H 8H 9H TH JH QH KH"]
    assert solution.played == () and solution.moves == ()


def test_opening_needs_a_pure_run():
    """docs/rules.md rami-chinois opening: >= 1 pure run, no points; decision 3."""
    solution = solved("- / QS QD QC * / rami-chinois")
    assert solution.played == () and not solution.opened
    assert "pure run" in solution.message


def test_opening_with_a_pure_run_lays_the_rest_too():
    solution = solved("- / 7H 8H 9H QS QD QC * / rami-chinois")
    assert solution.opened and solution.penalty_after == 0
    assert "7H 8H 9H" in table_text(solution)


def test_opening_does_not_touch_the_table():
    """Decision 1: the opening turn only lays new melds from the hand."""
    solution = solved("5S 6S 7S / 8S 2H 3H 4H / rami-chinois")
    assert "5S 6S 7S" in table_text(solution)
    assert [str(c) for c in solution.hand] == ["8S"]


def test_rummikub_opening_needs_30_points():
    """docs/rules.md rummikub: first meld >= 30 points from the hand."""
    assert solved("- / 2H 3H 4H / rummikub").played == ()
    assert len(solved("- / 9H TH JH / rummikub").played) == 3


def test_objective_levels_are_ordered():
    """Decision 6 order, swapped by objective=cards: each answer wins on its own first level."""
    text = "AH AD AC | 9S TS JS | 4C 5C 6C / AS 8S 7S 3C KD / rami-chinois opened"
    by_points = solved(text)
    by_cards = solved(text, objective="cards")
    assert by_points.penalty_after <= by_cards.penalty_after
    assert by_cards.cards_played >= by_points.cards_played


def test_points_objective_prefers_the_heavy_card():
    # One ace (11) or the two small cards 2S 3S (5): least penalty first.
    text = "AH AD AC | 4S 5S 6S / AS 2S 3S / rami-chinois[jokers=0] opened"
    solution = solved(text)
    assert solution.penalty_after == 0


def test_same_input_same_answer():
    text = "3H 4H 5H 6H 7H 8H 9H TH JH | 5S 5D 5C | KS KH KD / 7S 7D 5H KC 2H / rami-chinois opened"
    first = solved(text)
    second = solved(text)
    assert first.to_json() | {"ms": 0} == second.to_json() | {"ms": 0}


def test_invalid_position_is_refused():
    with pytest.raises(InvalidPositionError):
        solve(parse_position("KH AH 2H / 3H / rami-chinois opened"))


def test_opening_and_rearranging_in_one_turn():
    """docs/rules.md decision 1 flag: the opener may touch the table in the same turn. The cards
    played must hold the opening themselves (7H 8H 9H, a pure run); 4S then joins the table's
    run at once."""
    text = "5S 6S 7S / 7H 8H 9H 4S 2C / rami-chinois[open_and_rearrange_same_turn=true]"
    solution = solved(text)
    assert solution.status is Status.OPTIMAL and solution.opened
    assert sorted(table_text(solution)) == ["4S 5S 6S 7S", "7H 8H 9H"]
    assert solution.penalty_after == 2
    # Without the flag the opening turn lays new melds only: 4S stays in the hand.
    plain = solved("5S 6S 7S / 7H 8H 9H 4S 2C / rami-chinois")
    assert plain.penalty_after == 6


def test_flag_without_an_opening_plays_nothing():
    """Decision 1 flag: rearranging still needs the opening from the hand (no pure run here)."""
    solution = solved("5S 6S 7S / 4S 8H 9H / rami-chinois[open_and_rearrange_same_turn=true]")
    assert solution.played == () and not solution.opened


def test_flag_is_refused_where_the_turn_ends_with_a_discard():
    """Rami fou with the decision 1 flag is not modelled: said plainly (UnsupportedError)."""
    position = parse_position(
        "5S 6S 7S / 7H 8H 9H 4S 2C / rami-fou[open_and_rearrange_same_turn=true]"
    )
    with pytest.raises(UnsupportedError, match="same turn"):
        solve(position)


def test_min_moves_off_still_reports_moves_honestly():
    text = "3H 4H 5H 6H 7H 8H 9H TH JH / 7S 7D / rami-chinois opened"
    solution = solved(text, min_moves=False)
    assert solution.penalty_after == 0 and solution.cards_moved >= 5


def test_stage_one_bonus_is_cleared_for_the_next_position() -> None:
    """The full objective loads the shared max-play model with a bonus per table template; the
    next load without one must leave every template's objective coefficient at zero, or a
    max-play answer would trade cards played for templates kept."""
    from rami.solver.playmodel import play_model_for
    from rami.solver.rearrange.decode import table_pieces
    from rami.solver.rearrange.objective import play_weights

    position = parse_position("5S 6S 7S 8S 9S TS JS | 7H 7D 7C / 2H 3H / rami-chinois opened")
    weights = play_weights(position, Objective.POINTS)
    model = play_model_for(position.rules)
    pieces = table_pieces(position)
    use_vars = set(model.use_index.values())

    def bonus_terms() -> list[tuple[int, int]]:
        objective = model.model.proto.objective
        return [
            (var, coeff)
            for var, coeff in zip(objective.vars, objective.coeffs, strict=True)
            if var in use_vars
        ]

    model.load(position, *weights, dict.fromkeys(pieces, 1))
    assert sorted(bonus_terms()) == sorted((model.use_index[piece], -1) for piece in pieces)
    model.load(position, *weights)
    assert bonus_terms() == []


def test_table_pieces_cut_long_runs_into_templates() -> None:
    """A 7-card run is kept as a 4 and a 3 (templates are 3-5 long), a set as itself."""
    from rami.solver.rearrange.decode import table_pieces

    position = parse_position("5S 6S 7S 8S 9S TS JS | 7H 7D * / 2H / rami-chinois opened")
    pieces = table_pieces(position)
    assert [(piece.kind.name, piece.positions) for piece in pieces if piece.kind.name == "RUN"] == [
        ("RUN", (5, 6, 7, 8)),
        ("RUN", (9, 10, 11)),
    ]
    assert len(pieces) == 3


def test_without_the_wall_clock_only_the_deterministic_limit_counts() -> None:
    """Self-play solves with ``wall_clock=False``: a loaded machine cannot change its answer."""
    import time

    from rami.solver.cpsat import Clock

    clock = Clock(0.01, wall_clock=False)
    time.sleep(0.03)
    assert clock.wall_left() is None and not clock.out_of_time()
    promised = Clock(0.01)
    time.sleep(0.03)
    assert promised.wall_left() == 0 and promised.out_of_time()
    position = parse_position("3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C")
    free, timed = solve(position, wall_clock=False), solve(position)
    assert free.status is Status.OPTIMAL and not free.stopped_by_clock
    assert free.to_json() | {"ms": 0} == timed.to_json() | {"ms": 0}
