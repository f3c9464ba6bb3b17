"""An independent, exhaustive reference for the presets without rearrangement (rami 51, BFmania
51/30, Café Rummy), to test :mod:`rami.solver.layoff` against.

It shares nothing with that engine (no OR-Tools, no model, no other ``rami.solver`` module): it
builds every legal final table card by card (the second referee's ``meld_faults`` judges every
meld it lays, and its ``judge`` every final turn, counting the cards moved) and scores each with
``hand_penalty``.
It is exponential and meant for small positions: larger ones are refused with
:class:`~rami.errors.UnsupportedError`.

Method (docs/rules.md presets table, decisions 2-4 and 6-8):

* Opened player. Each meld on the table may become any legal meld that holds its cards at the
  same places (a set: the same real cards) and adds cards around them: for a run, every wider
  window of its suit with each new place holding the real card (from the hand) or a joker; each
  of its jokers kept or, where the preset swaps jokers, replaced by the real card it stands for;
  for a set, every choice of missing suits from the hand and every final number of jokers (fewer
  only by swapping, at most one joker freed per suit added). Every combination over the table's
  melds is tried; the jokers it frees go to the hand (BFmania), must all be laid again (Café
  Rummy: the table ends with at least its jokers) or never leave (rami 51).
  The cards left (hand cards and jokers) are then split every possible way into "laid as new
  melds" (any partition into legal melds, searched exhaustively) and "kept".
* Player not opened: either lay nothing, or open: new melds from the hand whose opening points
  (decision 2, each joker scored as the card it stands for, every layout tried) and pure run
  meet the preset's requirement (any meld in Café Rummy), holding no more jokers than the hand,
  and then, as an opened player, lay-offs and swaps in the same turn (decision 4).
* Every resulting hand is ended by every legal discard (decision 8's card and Café Rummy's
  jokers only as the last card; BFmania may go out without one) and scored: least penalty after
  the discard (rami 51: flat 100 while not opened), then most cards played (or the reverse for
  ``objective="cards"``), then fewest cards moved, counted by :func:`rami.matching.cards_moved`
  on every final table of the best plays.

The modules: this one (the limits, the end of the turn and the search),
:mod:`support.layoff_reference_melds` (new melds and the partitions into them) and
:mod:`support.layoff_reference_table` (the futures of the table's melds).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.errors import UnsupportedError
from rami.melds import Meld
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, Ruleset, TableJoker
from support.layoff_reference_melds import Cards, Splitter, multiset, sub_multisets
from support.layoff_reference_table import table_futures
from support.reference_melds import is_pure, meld_points
from support.second_referee import judge

#: Largest hand accepted, and largest table (melds).
MAX_HAND = 9
MAX_TABLE_MELDS = 4
OBJECTIVES = ("points", "cards")


@dataclass(frozen=True)
class LayoffReferenceResult:
    """The optimum of one turn, level by level, with one turn that reaches it."""

    penalty_after: int
    cards_played: int
    cards_moved: int
    table: tuple[Meld, ...]
    played: Cards
    discard: Card | None
    opened_after: bool


def _check(position: Position, objective: str) -> None:
    rules = position.rules
    if objective not in OBJECTIVES:
        raise UnsupportedError(f"unknown objective {objective!r}: use 'points' or 'cards'")
    if rules.rearrangement or not rules.discard:
        raise UnsupportedError(
            f"the lay-off reference handles presets without rearrangement that discard, "
            f"not {rules.option_string}"
        )
    if rules.open_and_rearrange_same_turn:
        raise UnsupportedError("the lay-off reference does not handle open_and_rearrange_same_turn")
    if len(position.hand) > MAX_HAND or len(position.table) > MAX_TABLE_MELDS:
        raise UnsupportedError(
            f"position too large for the exhaustive lay-off reference: at most {MAX_HAND} hand "
            f"cards and {MAX_TABLE_MELDS} table melds"
        )


# --- Ending the turn -------------------------------------------------------------------------


def _discards(position: Position, left: Cards) -> list[Card | None]:
    """Every legal way to end the turn with ``left`` in hand (decision 6 and 8, presets)."""
    rules = position.rules
    if not left:
        return [None] if rules.going_out is GoingOut.PLACE_OR_DISCARD else []
    last = len(left) == 1
    out: list[Card | None] = []
    in_hand = Counter(left)
    for card in sorted(in_hand):
        if not last and card == position.taken_discard:
            continue  # decision 8: neither copy of the card taken, jokers all alike
        if not last and card.is_joker and rules.joker_kept_until_last:
            continue
        out.append(card)
    return out


@dataclass(frozen=True)
class _End:
    key: tuple[int, int]
    played: Cards
    discard: Card | None
    penalty: int


def _key(penalty: int, played: int, objective: str) -> tuple[int, int]:
    """The first two levels of decision 6, smaller is better."""
    return (penalty, -played) if objective == "points" else (-played, penalty)


def _end(position: Position, left: Cards, opened_after: bool, objective: str) -> _End | None:
    """The best legal discard for a hand ``left`` (cards and jokers held before discarding)."""
    rules = position.rules
    hand = Counter(position.hand)
    kept = Counter(left)
    played = Counter({c: n for c, n in (hand - kept).items() if not c.is_joker})
    played[JOKER] = max(0, hand[JOKER] - kept[JOKER])
    count = sum(played.values())
    best: _End | None = None
    for discard in _discards(position, left):
        after = kept.copy()
        if discard is not None:
            after[discard] -= 1
        penalty = hand_penalty((+after).elements(), rules, opened_after)
        key = _key(penalty, count, objective)
        if best is None or key < best.key:
            best = _End(key, multiset(played), discard, penalty)
    return best


# --- The search ------------------------------------------------------------------------------


def layoff_reference(position: Position, objective: str = "points") -> LayoffReferenceResult | None:
    """The exact optimum of the turn of the player to move; None when no turn is legal."""
    position.checked()
    _check(position, objective)
    if position.opened:
        return _opened(position, objective)
    return _not_opened(position, objective)


def _opened(
    position: Position, objective: str, *, opening: bool = False
) -> LayoffReferenceResult | None:
    """The best turn of an opened player; with ``opening``, of a player who opens this turn
    (decision 4): the new melds meet the opening with the hand's cards, then lay-offs and
    swaps follow."""
    rules = position.rules
    hand_jokers = Counter(position.hand)[JOKER]
    swap_to_hand = rules.table_joker is TableJoker.SWAP_TO_HAND
    futures = table_futures(position)
    most_jokers = hand_jokers + max((-net for _, net in futures), default=0)
    splitter = Splitter(
        Counter(card for card in position.hand if not card.is_joker)
        + Counter({JOKER: max(0, most_jokers)}),
        rules,
    )
    # Per state of the hand after the lay-offs: the best end and the new melds that reach it.
    best_key: tuple[int, int] | None = None
    group: list[tuple[tuple[Meld, ...], Cards, _End]] = []
    for (reals_left, net), tables in sorted(futures.items()):
        jokers = hand_jokers - net
        if jokers < 0:
            continue  # more jokers laid off than the hand holds
        cards = reals_left + (JOKER,) * jokers
        for laid in sub_multisets(cards):
            if not splitter.can_split(laid):
                continue
            left = multiset(Counter(cards) - Counter(laid))
            played_jokers = max(0, hand_jokers - Counter(left)[JOKER])
            if opening and not any(
                _opens(split, rules, played_jokers) for split in splitter.splits(laid)
            ):
                continue
            if Counter(left)[JOKER] > hand_jokers and not swap_to_hand:
                continue  # Café Rummy: a swapped joker must be laid again in the same turn
            end = _end(position, left, True, objective)
            if end is None:
                continue
            if best_key is None or end.key < best_key:
                best_key, group = end.key, []
            if end.key == best_key:
                group.extend((table, laid, end) for table in tables)
    if best_key is None:
        return None
    best: tuple[int, tuple[Meld, ...], _End] | None = None
    for table, laid, end in group:
        for split in splitter.splits(laid):
            if opening and not _opens(split, rules, Counter(end.played)[JOKER]):
                continue
            final = (*table, *split)
            verdict = judge(position, final, end.played, end.discard)
            if not verdict.legal:
                continue
            if verdict.penalty_after != end.penalty:  # pragma: no cover - a bug, here or there
                raise AssertionError(f"layoff reference and second referee differ on {final}")
            if best is None or verdict.cards_moved < best[0]:
                best = (verdict.cards_moved, final, end)
    if best is None:  # pragma: no cover - a bug here or in the second referee
        raise AssertionError(f"the second referee refuses every best turn of {position}")
    moved, final, end = best
    return LayoffReferenceResult(
        end.penalty, len(end.played), moved, final, end.played, end.discard, True
    )


def _not_opened(position: Position, objective: str) -> LayoffReferenceResult | None:
    """Stay unopened (discard only), or open and lay off in the same turn (decision 4)."""
    hand = tuple(sorted(position.hand))
    stay = _end(position, hand, False, objective)
    opens = _opened(position, objective, opening=True)
    if opens is not None and (
        stay is None or _key(opens.penalty_after, opens.cards_played, objective) < stay.key
    ):
        return opens
    if stay is None:
        return None
    return LayoffReferenceResult(
        stay.penalty, len(stay.played), 0, position.table, stay.played, stay.discard, False
    )


def _opens(melds: tuple[Meld, ...], rules: Ruleset, played_jokers: int) -> bool:
    """Do these new melds meet the opening requirement (decisions 2-4), holding no more jokers
    than the hand played?"""
    if not melds or sum(meld.jokers for meld in melds) > played_jokers:
        return False
    if rules.opening_pure_run and not any(is_pure(meld) for meld in melds):
        return False
    return sum(meld_points(meld, rules) for meld in melds) >= rules.opening_points
