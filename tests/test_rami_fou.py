"""Rami fou turns: known answers, and the solver against the exhaustive rami fou reference.

docs/rules.md presets rami-fou: full rearrangement, but a table joker leaves its meld only when the
card it stands for takes its place and is laid again in the same turn (decision 5); the turn
ends with a discard (decisions 6 and 8; going out is discarding the last card); 51 opening
points without a pure run; jokers 20 in the hand; not opened: flat 100.

The differential part compares every level (penalty after the discard, cards played, cards
moved) with :mod:`support.fou_reference`, which lists every table and asks the referee; the
solver must prove each answer optimal. ``make test-slow`` runs a larger sample.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.checks import checked_solve
from support.fou_reference import MAX_CARDS, _partitions, fou_reference_solve

import rami.solver.rearrange.pinned as pinned
from rami import parse_position, solve
from rami.cards import parse_cards
from rami.generate import medium_position, small_position
from rami.melds import Meld
from rami.referee import unpinned_jokers, validate_turn
from rami.rules import get_ruleset
from rami.solver.api import Status
from rami.solver.cpsat import Clock
from rami.solver.rearrange.going_out import lay_in_place
from rami.solver.rearrange.stages import Turn

RULES = get_ruleset("rami-fou")


def solved(text: str, **options):
    """Solve and check the answer (support.checks); a rami fou turn always ends with a discard,
    told as the last move."""
    solution = checked_solve(text, proved=False, **options)
    assert solution.discard is not None, "a rami fou turn always ends with a discard"
    assert [move.kind for move in solution.moves][-1] == "discard"
    return solution


def tables(solution) -> list[str]:
    return [str(meld) for meld in solution.table]


def test_table_joker_stays_pinned_without_its_card():
    """Decision 5: rami chinois would take the joker from 5H 6H 7H * for 9C 9D *; rami fou may
    not, so nothing is played and the costliest card is discarded."""
    free = solve(parse_position("5H 6H 7H * / 9C 9D 2S / rami-chinois opened"))
    assert free.penalty_after == 2
    solution = solved("5H 6H 7H * / 9C 9D 2S / rami-fou opened")
    assert solution.status is Status.OPTIMAL
    assert solution.played == () and str(solution.discard) in ("9C", "9D")
    assert solution.penalty_after == 11
    assert tables(solution) == ["5H 6H 7H *"]


def test_joker_freed_by_its_card_is_laid_again():
    """Decision 5: 8H takes the joker's place in 5H 6H 7H *; the joker makes 9C 9D * at once."""
    solution = solved("5H 6H 7H * / 8H 9C 9D 2S / rami-fou opened")
    assert solution.status is Status.OPTIMAL
    assert sorted(tables(solution)) == ["5H 6H 7H 8H", "9D 9C *"]
    assert str(solution.discard) == "2S" and solution.penalty_after == 0
    assert solution.cards_moved == 1  # the joker


def test_set_joker_freed_by_a_missing_suit():
    """Decision 5 for a set: the joker of 7S 7H * stands for a missing suit; 7D takes it."""
    solution = solved("7S 7H * / 7D 4C 5C 2S / rami-fou opened")
    assert sorted(tables(solution)) == ["4C 5C *", "7S 7H 7D"]
    assert solution.penalty_after == 0


def test_joker_never_slides_inside_its_own_meld():
    """Decision 5 (revised): until it is freed a table joker keeps standing for the same card;
    it does not slide to stand for another card of its run. The joker of 4S 5S 6S 7S * is the
    8S: it may not become the 3S that 2S needs."""
    solution = solved("4S 5S 6S 7S * / 2S 9C / rami-fou opened")
    assert tables(solution) == ["4S 5S 6S 7S *"]
    assert solution.played == () and str(solution.discard) == "9C"
    assert solution.penalty_after == 2
    slid = validate_turn(
        parse_position("4S 5S 6S 7S * / 2S 9C / rami-fou opened"),
        [Meld.parse("2S * 4S 5S 6S 7S")],
        parse_position("- / 2S / rami-fou").hand,
        parse_position("- / 9C / rami-fou").hand[0],
    )
    assert not slid.legal and "decision 5" in slid.problems[0]


def test_going_out_is_discarding_the_last_card():
    """docs/rules.md rami-fou: going out = discard the last card, so one card stays for it."""
    solution = solved("5H 6H 7H / 8H 3C / rami-fou opened")
    assert solution.played == (parse_position("- / 8H / rami-fou").hand[0],)
    assert str(solution.discard) == "3C" and solution.hand == ()
    assert solution.moves[-1].text == "discard 3C: your hand is empty, you go out"
    # A hand that could meld whole still keeps one card back for the discard.
    whole = solved("5H 6H 7H / 8H 9H TH / rami-fou opened")
    assert len(whole.played) == 2 and whole.hand == () and whole.discard is not None


def test_taken_discard_is_kept_unless_last():
    """Decision 8: the card just taken from the discard pile is not discarded this turn, unless
    it is the last card."""
    kept = solved("5H 6H 7H / 2S KS / rami-fou opened discard=KS")
    assert str(kept.discard) == "2S" and kept.penalty_after == 10
    last = solved("5H 6H 7H / KS / rami-fou opened discard=KS")
    assert str(last.discard) == "KS" and last.penalty_after == 0


def test_jokers_left_in_hand_cost_20():
    """docs/rules.md rami-fou: a joker left in the hand counts 20."""
    solution = solved("5H 6H 7H / * 2S 3D / rami-fou opened")
    # The joker is played (5H 6H 7H *): cheaper than keeping it; 3D is discarded.
    assert solution.penalty_after == 2
    assert str(solution.discard) == "3D"


def test_opening_counts_51_points_without_a_pure_run():
    """docs/rules.md rami-fou: the opening needs 51 points (decision 2), no pure run."""
    solution = solved("- / KS KH KD QS QH QD 2C / rami-fou")
    assert solution.opened and sorted(tables(solution)) == ["KS KH KD", "QS QH QD"]
    assert str(solution.discard) == "2C" and solution.penalty_after == 0
    short = solved("- / KS KH KD 5S 6S 7S 2C / rami-fou")  # 30 + 18 = 48 points
    assert not short.opened and short.played == ()
    assert short.penalty_after == 100  # flat, not opened


def test_player_who_cannot_open_keeps_the_joker():
    """docs/rules.md rami-fou: not opened, the hand counts a flat 100 whatever is discarded
    (decision 6 ties): the advice keeps the joker and lets the costliest other card go."""
    solution = solved("- / KS KH 5S 6S * 2C / rami-fou")  # KS KH * makes 30 of the 51
    assert solution.played == () and solution.penalty_after == 100
    assert str(solution.discard) in ("KS", "KH")


def test_a_joker_never_counts_as_the_card_that_keeps_its_meld():
    """Decision 5 (revised) with decision 7: 8H 9H * JH shares two cards with 7H 8H 9H and,
    counting the joker, two with JH * *; a joker never keeps its meld matched to it, so its own
    meld is 7H 8H 9H (two real cards against one), and the TH joker left it without its card.
    The verdict is the same whatever the order the melds are listed in."""
    position = parse_position("8H 9H * JH / 7H 6D * / rami-fou opened")
    after = [Meld.parse("7H 8H 9H"), Meld.parse("JH * *")]
    played = parse_position("- / 7H * / rami-fou").hand
    discard = parse_position("- / 6D / rami-fou").hand[0]
    for order in (after, after[::-1]):
        verdict = validate_turn(position, order, played, discard)
        assert not verdict.legal and "decision 5" in verdict.problems[0]


def test_a_tie_of_matchings_goes_to_the_player():
    """Decision 5 with decision 7: 5H * 7H 8H split into 5H * 7H and 8H 9H TH (TH, 9H from
    the hand) leaves two real cards of the old meld in the first piece and one in the second:
    the joker's own meld is the first piece, where it still stands for 6H. Listed either way,
    the verdict is the same."""
    position = parse_position("5H * 7H 8H / 9H TH 2C / rami-fou opened")
    after = [Meld.parse("5H * 7H"), Meld.parse("8H 9H TH")]
    played = parse_position("- / 9H TH / rami-fou").hand
    discard = parse_position("- / 2C / rami-fou").hand[0]
    for order in (after, after[::-1]):
        verdict = validate_turn(position, order, played, discard)
        assert verdict.legal, verdict.problems
    # 4H 5H * 7H | 8H 9H TH: the pieces share 2 and 1 real cards, wherever the joker is.
    tie = parse_position("4H 5H * 7H 8H 9H / 6H 2C / rami-fou opened")
    split = [Meld.parse("4H 5H 6H"), Meld.parse("7H 8H 9H")]
    verdict = validate_turn(
        tie,
        split,
        parse_position("- / 6H / rami-fou").hand,
        parse_position("- / 2C / rami-fou").hand[0],
    )
    assert not verdict.legal  # the joker vanished: 6H freed it, but it is nowhere


def test_same_input_same_answer():
    text = (
        "3S 3H 3D 3C | * JH QH KH | 5H * 7H | 4S 5S 6S 7S / AH 5H KH AD 2D AC 3C 4C "
        "/ rami-fou opened"
    )
    first = solved(text)
    second = solved(text)
    assert first.to_json() | {"ms": 0} == second.to_json() | {"ms": 0}


#: Positions that once tripped the pinned model (a slot that is not the referee's match).
REGRESSIONS = [
    "AS * AD AC | 8S * 8D 8C | QD KD AD / 2S JS QH 7D / rami-fou opened",
    "5S 5D 5C | 4S 5S 6S 7S * / 2S 4H 5C 9C / rami-fou opened",
    "* QH * AH | JD QD KD * / QS 5H AD 8C / rami-fou opened",
    "AS * 3S * * | 4S 5S 6S / 9D 7C * / rami-fou opened",
    "4H 5H 6H 7H 8H * | 2H 3H 4H 5H / 4S 4S 7D 8D 4C * / rami-fou opened",
    "* 2D 3D | 2S * * 5S | QS * QC / 3S 3H 4D 5C / rami-fou opened",
    "8H 9H * JH / 7H 6D * / rami-fou opened",
    # Pins judge 8C 9C TC JC (9C took the joker's place), the cards moved QC KC * (3 kept).
    "* TC JC QC KC / QH 4D 8C 9C / rami-fou opened",
    # A real TD in a set (TS TH TD *) must not stop the TD joker staying in its run: 8D frees
    # the other joker, which joins the set; 1 card moved (the pinned model once said 3).
    "TS TH TD | 7D * 9D * JD / 4D 8D 8C / rami-fou opened",
]


def agree(text_or_position, objective: str, min_moves: bool) -> bool:
    """The answer has the reference's values and is legal; True when it is also proved.

    An unproved answer must say so with bounds the reference's values meet: where pins hold
    the slots to one matching and the cards moved count another, the cards-moved bound is a
    relaxation that some positions with several table jokers do not reach (docs/solver.md).
    """
    position = (
        parse_position(text_or_position) if isinstance(text_or_position, str) else text_or_position
    )
    reference = fou_reference_solve(position, objective, min_moves=min_moves)
    solution = solve(position, objective=objective, min_moves=min_moves)
    context = f"{position} ({objective}, min_moves={min_moves})"
    assert solution.penalty_after == reference.penalty_after, context
    assert solution.cards_played == reference.cards_played, context
    if min_moves:
        assert solution.cards_moved == reference.cards_moved, context
    verdict = validate_turn(position, solution.table, solution.played, solution.discard)
    assert verdict.legal, (context, verdict.problems)
    proved = solution.status is Status.OPTIMAL
    if not proved:
        assert solution.status is Status.FEASIBLE, context
        assert set(solution.bounds) == {"cards_moved_at_least"}, (context, solution.bounds)
        assert solution.bounds["cards_moved_at_least"] < reference.cards_moved, context
    return proved


#: Regressions whose cards-moved bound stays below the answer (see agree).
UNPROVED_REGRESSIONS = {"* 2D 3D | 2S * * 5S | QS * QC / 3S 3H 4D 5C / rami-fou opened"}


@pytest.mark.parametrize("text", REGRESSIONS)
@pytest.mark.parametrize("objective", ["points", "cards"])
@pytest.mark.parametrize("min_moves", [True, False])
def test_regressions_agree_with_the_reference(text, objective, min_moves):
    proved = agree(text, objective, min_moves)
    assert proved or (min_moves and text in UNPROVED_REGRESSIONS)


# --- Decision 5 (revised): cutting a run does not move its joker --------------------------------
# docs/rules.md decision 5, "Cutting its run does not move it": where a run holding a pinned joker
# is cut into pieces, the piece that keeps the joker, standing for the same card beside real cards
# of that run, is its own meld too, whichever piece decision 7 matches to the old run. Original
# text 003 forbids only taking a joker without its card ("on peut prendre un joker si on peut
# l'échanger avec la carte qu'il remplace, mais le joker doit permettre de faire immédiatement une
# autre combinaison"); nobody takes it here.

CUT_RUNS = [
    "3H 4H * 6H 7H 8H 9H / 6S 6D 2C / rami-fou opened",
    "5H * 7H 8H 9H TH JH / 8S 8D 2C / rami-fou opened",
    "AD * 3D 4D 5D 6D 7D | 9S 9H 9C / 4S 4C 2H / rami-fou opened",
    "3H 4H * 6H 7H 8H 9H / 6S 6D 5C 5D 2C / rami-fou opened",
]


def test_the_piece_keeping_the_joker_is_its_own_meld_too():
    """The rule's example: 6H leaves the run for 6S 6D, and 3H 4H * keeps the joker although
    7H 8H 9H holds more real cards of the old run; 2C discarded, nothing left. (Before the
    revision 3H 4H * was refused, and the answer discarded 6D keeping the run whole: 8 left.)"""
    solution = solved(CUT_RUNS[0])
    assert solution.status is Status.OPTIMAL
    assert solution.penalty_after == 0 and solution.hand == ()
    assert str(solution.discard) == "2C"
    assert sorted(tables(solution)) == ["3H 4H *", "6S 6H 6D", "7H 8H 9H"]
    assert solution.cards_moved == 4  # decision 7: one piece leaves the old run
    longer = solved(CUT_RUNS[1])
    assert sorted(tables(longer)) == ["5H * 7H", "8S 8H 8D", "9H TH JH"]
    assert longer.penalty_after == 0 and longer.status is Status.OPTIMAL


def test_the_pinned_model_keeps_a_joker_in_a_piece():
    """The pinned slot model itself (pinned._pinned_stages, not the free relaxation's answer that
    the referee happens to accept) lays the piece keeping the joker, proved, with the cards moved
    of decision 7 as its bound."""
    position = parse_position(CUT_RUNS[0])
    empty = Turn([], Counter(), None, False, {})
    for min_moves in (True, False):
        found = pinned._pinned_stages(
            position,
            "points",
            min_moves,
            20.0,
            Clock(None, wall_clock=False),
            empty,
            None,
            None,
            set(),
            whole=False,
            cut=False,
        )
        assert found.play_proved and found.turn is not None
        assert sorted(str(meld) for meld in found.turn.table) == ["3H 4H *", "6S 6H 6D", "7H 8H 9H"]
        assert found.least_moved == (4 if min_moves else None)


@pytest.mark.parametrize("text", CUT_RUNS)
@pytest.mark.parametrize("objective", ["points", "cards"])
@pytest.mark.parametrize("min_moves", [True, False])
def test_cut_runs_agree_with_the_reference(text, objective, min_moves):
    assert agree(text, objective, min_moves)


def sample(seed: int, count: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        maker = medium_position if rng.random() < 0.3 else small_position
        position = maker(rng, RULES, max_jokers=4)
        if sum(len(meld) for meld in position.table) + len(position.hand) > MAX_CARDS:
            continue
        found += 1
        yield position


def unproved_answers(seed: int, count: int) -> int:
    """How many of the sample's answers (both objectives, with and without the cards-moved
    level) agree with the reference unproved; every one must agree (see agree)."""
    proved = [
        agree(position, objective, min_moves)
        for position in sample(seed, count)
        for objective in ("points", "cards")
        for min_moves in (True, False)
    ]
    return proved.count(False)


@pytest.mark.parametrize("chunk", range(4))
def test_random_positions_agree_with_the_reference(chunk):
    """40 positions (about a third with 4 jokers), each for both objectives, with and without
    the cards-moved level; at most 2 of the 160 answers of a chunk unproved."""
    assert unproved_answers(1000 + chunk, 40) <= 2


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_many_random_positions_agree_with_the_reference(chunk):
    assert unproved_answers(5000 + chunk, 150) <= 6


def test_pin_verdict_does_not_depend_on_meld_order():
    """Decision 5 judged on the matching of decision 7: listing the melds after the turn in
    another order never changes the verdict (ties between matchings go to the player)."""
    rng = random.Random(77)
    checked = 0
    for position in sample(77, 300):
        if not position.opened or not any(meld.jokers for meld in position.table):
            continue
        for table in _partitions(position.table_cards + Counter(position.hand[:2]), RULES):
            verdicts = set()
            for _ in range(3):
                shuffled = list(table)
                rng.shuffle(shuffled)
                verdicts.add(bool(unpinned_jokers(position, shuffled)))
            assert len(verdicts) == 1, (str(position), [str(meld) for meld in table])
            checked += 1
    assert checked > 200


def test_max_play_lays_the_free_turn_in_place_where_it_can(monkeypatch):
    """Max-play (decision 6 without its last level): where the free relaxation's best turn
    breaks a pin (decision 5) but its cards go down with no table card moved, that table keeps
    every pin and is the answer, proved, before any pinned model runs."""
    position = parse_position(
        "QH KH * | QH QD QC | TD JD * KD | 8C 9C TC / 2S 9S KS 3H AD 3D 7D 9C / rami-fou opened"
    )
    solution = solve(position, min_moves=False)
    assert solution.status is Status.OPTIMAL
    assert solution.cards_moved == 0
    monkeypatch.setattr(pinned, "lay_in_place", lambda *args: None)
    through_the_models = solve(position, min_moves=False)
    assert (through_the_models.penalty_after, through_the_models.cards_played) == (
        solution.penalty_after,
        solution.cards_played,
    )
    assert through_the_models.cards_moved > 0


def test_laying_in_place_may_keep_back_another_card():
    """The free turn of rami-fou-020[19] lays * 7H 9D AH and discards 8D, breaking a pin; laid
    with nothing moved, 8D goes down and 7H is discarded instead: the same cards leave the hand
    and as many go down, so the turn is worth as much (decision 6), and it keeps every pin."""
    position = parse_position(
        "5S 6S 7S * 9S | TH JH QH KH | 6D 7D 8D | TH JH QH KH | 7C 8C 9C TC"
        " / 6S AH 7H 8D 9D 3C * / rami-fou opened"
    )
    played = Counter(parse_cards("* 7H 9D AH"))
    found = lay_in_place(position, played, parse_cards("8D")[0])
    assert found is not None
    assert Counter(found.played) == Counter(parse_cards("* 8D 9D AH"))
    assert found.discard == parse_cards("7H")[0]
    verdict = validate_turn(position, found.table, found.played, found.discard)
    assert verdict.legal and verdict.cards_moved == 0
    solution = solve(position, min_moves=False)
    assert solution.status is Status.OPTIMAL and solution.cards_moved == 0
    assert solution.penalty_after == verdict.penalty_after
