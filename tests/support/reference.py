"""An independent, exhaustive reference solver for small positions.

It shares nothing with the CP-SAT engine (no OR-Tools, no ``rami.solver`` module) nor with the
primary referee: legality is judged by the second referee (:mod:`support.second_referee`), which
lays no meld, scores no opening and counts no card moved with the project's own code. It is
exponential and meant for small positions (about 16 cards in table and hand together); larger
ones are refused with :class:`~rami.errors.UnsupportedError` rather than left to run for hours.

Method (docs/rules.md decisions 1, 6 and 7):

* Cards are counted per card *type*, never per physical copy, so identical copies are
  interchangeable by construction (docs/rules.md "Identical copies are interchangeable").
* Every legal meld that the available cards allow is listed once as a multiset of card types
  (runs of 3..13 cards, sets of 3..4 distinct suits, jokers in every legal place), and each one is
  laid out with :func:`rami.melds.arrange` and judged by the second referee's ``meld_faults``.
* A multiset of cards is split into melds by a memoised search that always covers the smallest
  real card type left first, with a meld whose smallest real card is that type.
* Opened player: every sub-multiset ``P`` of the hand is a candidate play; the table after the
  turn must be a partition of (table cards + ``P``) into legal melds. Plays are tried in the
  order of the first two levels; every feasible play of the best level is then searched for the
  final table that keeps the most table cards in place. "Kept" is searched jointly with the
  matching of decision 7: each new meld may be labelled with one distinct old meld and keeps the
  cards the two share; the best labelling of a partition is exactly the maximum-weight matching
  of decision 7; the second referee judges the answer and counts its cards moved as a
  cross-check.
* Player not opened: the table stays as it is; a non-empty play must split into new melds of
  hand cards only that meet the opening requirement (a pure run in rami chinois, 30 points in
  Rummikub, each meld scored at its best joker placement, with the second referee's places).
  With the decision 1 flag (``open_and_rearrange_same_turn``) the turn is searched as an opened
  player's, over the plays that hold such an opening by themselves.

The modules: this one (the limits, :func:`reference_solve` and its two searches),
:mod:`support.reference_melds` (the packed card space and the meld enumeration),
:mod:`support.reference_kept` (the cards kept of decision 7) and
:mod:`support.reference_opening` (the opening requirement).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rami.cards import Card
from rami.errors import UnsupportedError
from rami.melds import Meld
from rami.position import Position, hand_penalty
from rami.rules import Ruleset
from support.reference_kept import KeptSearch
from support.reference_melds import IMPOSSIBLE, Space, _sub_multisets, candidate_melds, fits
from support.reference_opening import opening_melds, opening_search, opening_test
from support.second_referee import judge

#: Presets whose turn this solver models (full rearrangement, free table jokers, no discard).
SUPPORTED_PRESETS = ("rami-chinois", "rummikub")
#: Largest position accepted: cards in table and hand together.
MAX_CARDS = 22
#: Largest number of distinct plays (sub-multisets of the hand) accepted.
MAX_PLAYS = 1 << 13

OBJECTIVES = ("points", "cards")


@dataclass(frozen=True)
class ReferenceResult:
    """The optimum of one turn, level by level, with one final table that reaches it."""

    penalty_after: int
    cards_played: int
    cards_moved: int
    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    opened_after: bool


def _check_supported(position: Position, objective: str) -> None:
    rules = position.rules
    if objective not in OBJECTIVES:
        raise UnsupportedError(f"unknown objective {objective!r}: use 'points' or 'cards'")
    if rules.name not in SUPPORTED_PRESETS:
        raise UnsupportedError(
            f"the reference solver handles {' and '.join(SUPPORTED_PRESETS)} only, "
            f"not {rules.option_string}"
        )
    total = sum(len(meld.cards) for meld in position.table) + len(position.hand)
    if total > MAX_CARDS:
        raise UnsupportedError(
            f"position too large for the exhaustive reference solver: {total} cards in table "
            f"and hand, at most {MAX_CARDS}"
        )
    plays = 1
    for count in Counter(position.hand).values():
        plays *= count + 1
    if plays > MAX_PLAYS:
        raise UnsupportedError(
            f"position too large for the exhaustive reference solver: {plays} possible plays "
            f"from the hand, at most {MAX_PLAYS}"
        )


def reference_solve(position: Position, objective: str = "points") -> ReferenceResult:
    """The exact optimum of the turn of the player to move (docs/rules.md decision 6).

    ``objective="points"``: least hand penalty left, then most cards played, then fewest table
    cards moved (decision 7). ``objective="cards"``: most cards played first, then least penalty,
    then fewest cards moved.
    """
    position.checked()
    _check_supported(position, objective)
    if position.opened:
        return _solve_opened(position, objective)
    if position.rules.open_and_rearrange_same_turn:
        # Decision 1 flag: the opener may rearrange the table at once; the cards played from
        # the hand must hold an opening by themselves.
        return _solve_opened(position, objective, opening_test(position))
    return _solve_not_opened(position, objective)


def _level(
    hand: Counter[Card], play: Counter[Card], rules: Ruleset, opened_after: bool, objective: str
) -> tuple[int, int]:
    penalty = hand_penalty((hand - play).elements(), rules, opened_after)
    played = sum(play.values())
    return (penalty, -played) if objective == "points" else (-played, penalty)


def _solve_opened(
    position: Position, objective: str, opens: Callable[[Counter[Card]], bool] | None = None
) -> ReferenceResult:
    """``opens``: for a player not opened yet (decision 1 flag), which plays open."""
    rules = position.rules
    table = position.table_cards
    hand = Counter(position.hand)
    space = Space(list(table) + list(hand))
    candidates = candidate_melds(space, table + hand, rules, with_points=False)
    feasible_memo: dict[int, bool] = {}

    def feasible(code: int) -> bool:
        known = feasible_memo.get(code)
        if known is not None:
            return known
        first = space.first_real(code)
        if first < 0:
            result = code == 0  # jokers alone never make a meld (>= 1 real card per meld)
        else:
            result = any(
                fits(candidate, code) and feasible(code - candidate.code)
                for candidate in candidates.get(first, ())
            )
        feasible_memo[code] = result
        return result

    # A hand card that no candidate meld holds can never be played: drop it from the plays.
    playable = {card for group in candidates.values() for c in group for card in c.meld.cards}
    playable_hand = Counter({card: n for card, n in hand.items() if card in playable})
    plays = sorted(
        (
            play
            for play in _sub_multisets(playable_hand)
            if opens is None or not play or opens(play)
        ),
        key=lambda play: _level(hand, play, rules, True, objective),
    )
    table_code = space.pack(table)
    best: list[Counter[Card]] = []
    for _, group in itertools.groupby(
        plays, key=lambda play: _level(hand, play, rules, True, objective)
    ):
        best = [play for play in group if feasible(table_code + space.pack(play))]
        if best:
            break
    assert best, "the table itself is always a legal final table"
    olds = [meld.counts() for meld in position.table]
    search = KeptSearch(space, candidates, olds, feasible)
    every_old = (1 << len(olds)) - 1
    best_kept = IMPOSSIBLE
    best_play: Counter[Card] = Counter()
    for play in best:
        kept = search.kept(table_code + space.pack(play), every_old)
        if kept > best_kept:
            best_kept, best_play = kept, play
    final = search.table(table_code + space.pack(best_play), every_old)
    if not best_play and not position.opened:
        final = tuple(position.table)  # a player who does not open leaves the table as it is
    moved = _refereed(position, final, best_play).cards_moved
    total = sum(table.values())
    if moved != total - best_kept:  # pragma: no cover - would be a bug here or in the referee
        raise AssertionError(
            f"reference: kept search says {total - best_kept} moved, the referee says {moved}"
        )
    penalty = hand_penalty((hand - best_play).elements(), rules, True)
    return ReferenceResult(
        penalty_after=penalty,
        cards_played=sum(best_play.values()),
        cards_moved=moved,
        table=final,
        played=tuple(sorted(best_play.elements())),
        opened_after=position.opened or bool(best_play),
    )


def _solve_not_opened(position: Position, objective: str) -> ReferenceResult:
    rules = position.rules
    hand = Counter(position.hand)
    search = space, candidates, best_opening = opening_search(position)
    opens = opening_test(position, search)

    playable = {card for group in candidates.values() for c in group for card in c.meld.cards}
    playable_hand = Counter({card: n for card, n in hand.items() if card in playable})
    plays = sorted(
        _sub_multisets(playable_hand),
        key=lambda play: _level(hand, play, rules, bool(play), objective),
    )
    chosen: Counter[Card] = Counter()
    for play in plays:
        if not play or opens(play):
            chosen = play
            break
    new_melds = opening_melds(space, candidates, best_opening, space.pack(chosen), rules)
    final = tuple(position.table) + new_melds
    return ReferenceResult(
        penalty_after=hand_penalty((hand - chosen).elements(), rules, bool(chosen)),
        cards_played=sum(chosen.values()),
        cards_moved=_refereed(position, final, chosen).cards_moved,
        table=final,
        played=tuple(sorted(chosen.elements())),
        opened_after=bool(chosen) or position.opened,
    )


def _refereed(position: Position, final: tuple[Meld, ...], played: Counter[Card]):
    """The second referee's verdict on the reference's answer; it must be legal."""
    verdict = judge(position, final, tuple(played.elements()))
    if not verdict.legal:  # pragma: no cover - a bug here or in the second referee
        raise AssertionError(f"reference answer refused for {position}: {verdict.problems}")
    return verdict
