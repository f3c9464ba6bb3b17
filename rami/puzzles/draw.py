"""One puzzle candidate, a pure function of its seed (docs/puzzles.md, "Generation").

Draw a target final table in a small region of ranks and suits (so that runs and sets cross),
take the hand from cards the target needs, then re-split the rest into a different starting
table (:func:`rami.puzzles.resplit.resplit`, which tries the target's own melds last). A
best-score candidate also gets a few extra hand cards that may not all find a place. How big
each part is comes from the candidate's profile (:mod:`rami.puzzles.profiles`). Candidate ``i``
of a run with seed ``S`` draws from ``random.Random(candidate_seed(S, i))`` only; the generator
(:mod:`rami.puzzles.generator`) judges it.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid
from rami.position import COPIES_PER_CARD, Position
from rami.puzzles.profiles import PROFILES, Profile
from rami.puzzles.resplit import _card_at, resplit
from rami.rules import Ruleset, get_ruleset
from rami.solver.templates import type_at


def candidate_seed(master_seed: int, index: int) -> int:
    """The seed of candidate ``index`` of a run (stable across machines and Python versions)."""
    digest = hashlib.sha256(f"rami-puzzle:{master_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def rules_for(jokers: int) -> Ruleset:
    if jokers not in (0, 4):
        raise ValueError(f"rami-chinois is played with 0 or 4 jokers, not {jokers}")
    return get_ruleset("rami-chinois" if jokers else "rami-chinois[jokers=0]")


def _draw_target(
    rng: random.Random, deck: Counter[Card], profile: Profile, rules: Ruleset
) -> list[Meld]:
    width = rng.randint(*profile.width)
    low = rng.randint(1, rules.top_rank - width + 1)
    window = list(range(low, low + width))
    suits = rng.sample(range(4), rng.randint(*profile.suits))
    wanted = rng.randint(*profile.melds)
    melds: list[Meld] = []
    for _ in range(60):
        if len(melds) == wanted:
            break
        if rng.random() < profile.set_share:
            position = rng.choice(window)
            rank = 1 if position == 14 else position
            size = rng.choice((3, 3, 4))
            pool = suits + [s for s in range(4) if s not in suits]
            chosen = sorted(rng.sample(pool[: max(size, len(suits))], size))
            cards = [Card.of(rank, s) for s in chosen]
            kind = MeldKind.SET
        else:
            suit = rng.choice(suits)
            length = rng.randint(3, min(profile.max_run, width + 1))
            start = rng.randint(
                max(1, low - 1), max(1, min(low + width - length + 1, rules.top_rank - length + 1))
            )
            cards = [_card_at(p, suit) for p in range(start, start + length)]
            kind = MeldKind.RUN
        need = Counter(cards)
        if any(deck[card] < n for card, n in need.items()):
            continue
        deck.subtract(need)
        melds.append(Meld(tuple(cards), kind))
    return melds


def _add_jokers(rng: random.Random, melds: list[Meld], deck: Counter[Card], count: int) -> None:
    """Replace ``count`` real cards of the target by jokers (each meld keeps 2 real cards)."""
    for _ in range(count):
        spots = [
            (number, slot)
            for number, meld in enumerate(melds)
            if len(meld.real_cards) > 2
            for slot, card in enumerate(meld.cards)
            if not card.is_joker
        ]
        if not spots:
            return
        number, slot = rng.choice(spots)
        meld = melds[number]
        deck[meld.cards[slot]] += 1
        cards = (*meld.cards[:slot], JOKER, *meld.cards[slot + 1 :])
        if meld.kind is MeldKind.SET:
            cards = (*sorted(c for c in cards if not c.is_joker), *(JOKER,) * (meld.jokers + 1))
        melds[number] = Meld(cards, meld.kind)


def _inside(meld: Meld, target: list[tuple[MeldKind, Counter[Card]]]) -> int:
    """2 when ``meld`` is one of the target's melds, 1 when its real cards lie in one, else 0;
    ``target``: each target meld's kind and real cards, counted once per candidate (this is
    asked for every meld the re-split lists: a quarter of the draw's time when each call
    counted them again).

    The starting table is re-split with such melds last: a table that keeps the target's melds
    (or pieces of them) lets the hand go out by lay-offs, which is no puzzle.
    """
    real = Counter(meld.real_cards)
    found = 0
    for kind, other in target:
        if kind is meld.kind and other == real:
            return 2
        if all(other[card] >= n for card, n in real.items()):
            found = 1
    return found


def _decoy(
    rng: random.Random, deck: Counter[Card], target: list[Meld], rules: Ruleset
) -> Meld | None:
    """A meld of deck cards next to the target region (a run or set sharing a rank or suit)."""
    real = [card for meld in target for card in meld.real_cards]
    if not real:
        return None
    for _ in range(30):
        anchor = rng.choice(real)
        if rng.random() < 0.5:
            suits = [s for s in range(4) if deck[Card.of(anchor.rank, s)] > 0]
            if len(suits) < 3:
                continue
            chosen = sorted(rng.sample(suits, 3))
            meld = Meld(tuple(Card.of(anchor.rank, s) for s in chosen), MeldKind.SET)
        else:
            suit = anchor.index // 13
            start = anchor.rank + rng.choice((-4, -3, 1, 2))
            if start < 1 or start + 2 > rules.top_rank:
                continue
            meld = Meld(tuple(_card_at(p, suit) for p in range(start, start + 3)), MeldKind.RUN)
        need = Counter(meld.cards)
        if all(deck[card] >= n for card, n in need.items()) and is_valid(meld, rules):
            deck.subtract(need)
            return meld
    return None


def _extras(rng: random.Random, deck: Counter[Card], table: list[Meld], count: int) -> list[Card]:
    """Extra hand cards, mostly next to the table (tempting), from what the deck has left."""
    near = sorted(
        {
            Card(type_at(card.index // 13, p))
            for meld in table
            for card in meld.real_cards
            for p in (card.rank - 1, card.rank + 1, card.rank + 2)
            if 1 <= p <= 14
        }
        | {Card.of(card.rank, s) for meld in table for card in meld.real_cards for s in range(4)}
    )
    chosen: list[Card] = []
    for _ in range(count):
        pool = [c for c in near if deck[c] > 0] if rng.random() < 0.7 else []
        if not pool:
            pool = sorted(c for c in deck if deck[c] > 0 and not c.is_joker)
        card = rng.choice(pool)
        deck[card] -= 1
        chosen.append(card)
    return chosen


def candidate(seed: int, *, tier: str, jokers: int, kind: str | None = None) -> Position | None:
    """The candidate position of ``seed`` drawn by profile ``tier`` (a key of
    :data:`PROFILES`; None when the draw fails)."""
    rng = random.Random(seed)
    profile = PROFILES[tier].for_jokers(jokers)
    rules = rules_for(jokers)
    deck: Counter[Card] = Counter({Card(i): COPIES_PER_CARD for i in range(52)})
    target = _draw_target(rng, deck, profile, rules)
    if len(target) < 2:
        return None
    if jokers:
        _add_jokers(rng, target, deck, rng.choice(profile.joker_cards))
    pool = [card for meld in target for card in meld.cards]

    avoided: dict[Meld, int] = {}
    counted = [(meld.kind, Counter(meld.real_cards)) for meld in target]

    def avoid(meld: Meld) -> int:
        found = avoided.get(meld)
        if found is None:
            found = avoided[meld] = _inside(meld, counted)
        return found

    table: list[Meld] | None = None
    for _ in range(profile.hand_tries):
        size = min(rng.randint(*profile.hand), len(pool) - 3)
        if size < 1:
            return None
        hand = rng.sample(pool, size)
        rest = Counter(pool)
        rest.subtract(hand)
        table = resplit(rng, +rest, rest[JOKER], rules, avoid)
        if table:
            break
    if not table:
        return None
    rng.shuffle(table)
    if rng.random() < profile.decoy:
        decoy = _decoy(rng, deck, target, rules)
        if decoy is not None:
            table.insert(rng.randrange(len(table) + 1), decoy)
    if kind == "best-score" or (kind is None and rng.random() < profile.best_score):
        hand += _extras(rng, deck, table, rng.randint(*profile.extra))
    position = Position(tuple(table), tuple(hand), True, rules)
    if position.problems():  # pragma: no cover - a bug in this module
        raise AssertionError(f"generated an invalid position: {position.problems()}")
    return position
