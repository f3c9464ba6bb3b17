"""Turn the solver's template counts into real melds: which places hold real cards, which jokers.

The model counts, per card type, how many places the melds cover, how many real copies and how
many jokers fill them. Here each place gets a real card or a joker so that every meld keeps the
real cards the model kept in it and holds at least one real card; then contiguous new runs of one
suit are joined so that long runs are not returned chopped into pieces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rami.cards import JOKER, Card
from rami.errors import SolverBugError
from rami.melds import Meld, MeldKind, arrange
from rami.rules import Ruleset
from rami.solver.templates import Template


@dataclass(frozen=True)
class MeldSpec:
    template: Template
    original: int | None = None
    pure: bool = False
    keep_real: frozenset[int] = frozenset()
    keep_joker: frozenset[int] = frozenset()
    #: Every place holding a real card, when the model decided them all.
    real_places: frozenset[int] | None = None


@dataclass
class _Draft:
    spec: MeldSpec
    kind: MeldKind
    suit: int
    positions: list[int]
    types: list[int]
    real: list[bool | None] = field(default_factory=list)

    def real_count(self) -> int:
        # Flags are True, False or None: list.count is a tenth of realize() faster than a sum.
        return self.real.count(True)


def _draft(spec: MeldSpec) -> _Draft:
    template = spec.template
    draft = _Draft(
        spec=spec,
        kind=template.kind,
        suit=template.suit,
        positions=list(template.positions),
        types=list(template.types),
    )
    draft.real = [None] * len(draft.types)
    for index, card_type in enumerate(draft.types):
        if spec.real_places is not None:
            draft.real[index] = card_type in spec.real_places
        elif spec.pure or card_type in spec.keep_real:
            draft.real[index] = True
        elif card_type in spec.keep_joker:
            draft.real[index] = False
    return draft


def realize(
    specs: Sequence[MeldSpec],
    real: Counter[Card],
    joker_for: Counter[int],
    rules: Ruleset,
    originals: Sequence[Meld],
) -> list[Meld]:
    drafts = [_draft(spec) for spec in specs]
    real_left = Counter({card.index: count for card, count in real.items()})
    jokers_left = Counter(joker_for)
    for draft in drafts:
        for index, flag in enumerate(draft.real):
            if flag is True:
                real_left[draft.types[index]] -= 1
            elif flag is False:
                jokers_left[draft.types[index]] -= 1
    if any(count < 0 for count in real_left.values()) or any(
        count < 0 for count in jokers_left.values()
    ):
        raise SolverBugError("the model kept more cards than it placed")
    # Give every meld a real card first, then fill the rest.
    for draft in sorted(drafts, key=lambda d: (d.real_count(), len(d.types))):
        if draft.real_count():
            continue
        for index, card_type in enumerate(draft.types):
            if draft.real[index] is None and real_left[card_type] > 0:
                draft.real[index] = True
                real_left[card_type] -= 1
                break
    for draft in drafts:
        for index, card_type in enumerate(draft.types):
            if draft.real[index] is not None:
                continue
            if real_left[card_type] > 0:
                draft.real[index] = True
                real_left[card_type] -= 1
            else:
                draft.real[index] = False
                jokers_left[card_type] -= 1
    if any(real_left.values()) or any(count != 0 for count in jokers_left.values()):
        raise SolverBugError("the melds do not use exactly the cards the model placed")
    _swap_reals_into_joker_melds(drafts)
    melds = [_to_meld(draft) for draft in drafts if draft.real_count()]
    stray_jokers = sum(len(draft.types) for draft in drafts if not draft.real_count())
    if stray_jokers:
        melds = _absorb_jokers(melds, stray_jokers, rules)
    origins = [draft.spec.original for draft in drafts if draft.real_count()]
    origins += [None] * (len(melds) - len(origins))
    pure = [draft.spec.pure for draft in drafts if draft.real_count()]
    pure += [False] * (len(melds) - len(pure))
    return _order(melds, origins, pure, originals, rules)


def _swap_reals_into_joker_melds(drafts: list[_Draft]) -> None:
    """Give an all-joker meld a real card from a meld that can spare one of the same type."""
    for draft in drafts:
        if draft.real_count():
            continue
        for index, card_type in enumerate(draft.types):
            donor = next(
                (
                    (other, spot)
                    for other in drafts
                    if other is not draft and other.real_count() >= 2
                    for spot, other_type in enumerate(other.types)
                    if other_type == card_type
                    and other.real[spot]
                    and card_type not in other.spec.keep_real
                    and not other.spec.pure
                ),
                None,
            )
            if donor is not None:
                other, spot = donor
                other.real[spot] = False
                draft.real[index] = True
                break


def _absorb_jokers(melds: list[Meld], jokers: int, rules: Ruleset) -> list[Meld]:
    """Place jokers that formed a meld of their own into melds with real cards.

    Two or more jokers take a real card that its meld can spare and form a new run with it
    (``6H 6D 6C`` + 3 jokers: ``6H * *``, ``6D 6C *``); a single joker joins a meld with room.
    """
    melds = list(melds)
    while jokers:
        spared = _spare_a_card(melds, jokers, rules) if jokers >= 2 else None
        if spared is not None:
            melds, jokers = spared
            continue
        for index, meld in enumerate(melds):
            grown = arrange([*meld.cards, JOKER], rules, prefer=meld.kind)
            if grown is not None:
                melds[index] = grown
                jokers -= 1
                break
        else:
            raise SolverBugError(f"{jokers} joker(s) could not be placed in a meld")
    return melds


def _spare_a_card(melds: list[Meld], jokers: int, rules: Ruleset) -> tuple[list[Meld], int] | None:
    for index, meld in enumerate(melds):
        for position, card in enumerate(meld.cards):
            if card.is_joker:
                continue
            rest = arrange(meld.cards[:position] + meld.cards[position + 1 :], rules, meld.kind)
            if rest is None:
                continue
            for extra in range(min(jokers, 12), 1, -1):
                new = arrange([card] + [JOKER] * extra, rules)
                if new is not None:
                    return [*melds[:index], rest, *melds[index + 1 :], new], jokers - extra
    return None


def _to_meld(draft: _Draft) -> Meld:
    if draft.kind is MeldKind.RUN:
        cards = tuple(
            Card(card_type) if flag else JOKER
            for card_type, flag in zip(draft.types, draft.real, strict=True)
        )
        return Meld(cards, MeldKind.RUN)
    real = sorted(
        Card(card_type) for card_type, flag in zip(draft.types, draft.real, strict=True) if flag
    )
    jokers = sum(1 for flag in draft.real if not flag)
    return Meld(tuple(real) + (JOKER,) * jokers, MeldKind.SET)


def _order(
    melds: list[Meld],
    origins: list[int | None],
    pure: list[bool],
    originals: Sequence[Meld],
    rules: Ruleset,
) -> list[Meld]:
    """Matched melds in their original order (unchanged ones exactly as they were), then new."""
    matched: dict[int, Meld] = {}
    free: list[tuple[Meld, bool]] = []
    for meld, origin, is_pure in zip(melds, origins, pure, strict=True):
        if origin is None or origin in matched:
            free.append((meld, is_pure))
            continue
        original = originals[origin]
        if original.counts() == meld.counts():
            meld = original
        matched[origin] = meld
    joined = _join_runs(free, rules)
    return [matched[i] for i in sorted(matched)] + sorted(joined, key=_meld_order)


def _meld_order(meld: Meld) -> tuple[bool, list[int]]:
    return (meld.kind is MeldKind.SET, [card.index for card in meld.cards])


def _join_runs(melds: list[tuple[Meld, bool]], rules: Ruleset) -> list[Meld]:
    """Join new runs of one suit that continue each other (3H-5H + 6H-8H is 3H-8H).

    A pure run an opening needs (flagged True) is never joined with a run holding a joker: the
    joined run would no longer be pure (``4C 5C 6C`` + ``AC * 3C`` stay two melds).
    """
    runs: dict[int, list[tuple[int, Meld, bool]]] = {}
    others: list[Meld] = []
    for meld, is_pure in melds:
        if meld.kind is MeldKind.RUN:
            suit = meld.real_cards[0].index // 13
            start = _run_low(meld, rules)
            runs.setdefault(suit, []).append((start, meld, is_pure))
        else:
            others.append(meld)
    joined: list[Meld] = []
    for _suit, pieces in sorted(runs.items()):
        pieces.sort(key=lambda item: (item[0], len(item[1])))
        merged: list[tuple[int, list[Card]]] = []
        used = [False] * len(pieces)
        for i, (start, meld, is_pure) in enumerate(pieces):
            if used[i]:
                continue
            used[i] = True
            low, cards, pure_kept = start, list(meld.cards), is_pure
            extended = True
            while extended:
                extended = False
                for j, (other_start, other, other_pure) in enumerate(pieces):
                    with_joker = JOKER in cards or other.jokers > 0
                    if (pure_kept or other_pure) and with_joker:
                        continue
                    if (
                        not used[j]
                        and other_start == low + len(cards)
                        and (len(cards) + len(other) <= rules.max_run_length)
                    ):
                        cards += list(other.cards)
                        pure_kept = pure_kept or other_pure
                        used[j] = True
                        extended = True
                        break
            merged.append((low, cards))
        joined.extend(Meld(tuple(cards), MeldKind.RUN) for _, cards in merged)
    return joined + others


def _run_low(meld: Meld, rules: Ruleset) -> int:
    from rami.melds import run_start

    start = run_start(meld, rules)
    if start is None:
        raise SolverBugError(f"{meld} is not a run")
    return start
