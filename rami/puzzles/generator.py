"""Puzzle generation, backwards from a target final table (NOTES.md, "Puzzles").

One *candidate* is a pure function of its seed: draw a target final table in a small region of
ranks and suits (so that runs and sets cross), take the hand from cards the target needs, then
re-split the rest into a different starting table (a randomised exact search that tries the
target's own melds last). A best-score candidate also gets a few extra hand cards that may not
all find a place. How big each part is comes from the candidate's :class:`Profile`, by name
(:data:`PROFILES`; each tier's default in :data:`DEFAULT_PROFILES`); records store the name, and
a profile's draw never changes (a better one is a new name). The candidate is then judged by
:func:`rami.puzzles.evaluate.evaluate`; most rejections are cheap (the lay-off test and the
uniqueness test come before the metrics).

Candidates are numbered; candidate ``i`` of a run with seed ``S`` draws from
``random.Random(candidate_seed(S, i))`` only. Accepting candidates in number order makes the
output of ``--workers K`` (or ``--ray``) identical to one worker: the workers (rami.scale) judge
a window of candidates, the results are read back in order, and whatever a worker judged past
the last accepted puzzle is thrown away.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, replace
from itertools import combinations, islice
from typing import Any

from rami.cards import JOKER, Card
from rami.errors import SolverBugError
from rami.melds import Meld, MeldKind, is_valid
from rami.position import COPIES_PER_CARD, Position
from rami.puzzles.difficulty import TIERS
from rami.puzzles.evaluate import Evaluation, Rejected, evaluate
from rami.rules import Ruleset, get_ruleset
from rami.scale.executor import Executor, LocalExecutor, RetryListener
from rami.solver.templates import type_at

BEST_SCORE_SHARE = 0.4
HAND_TRIES = 20


@dataclass(frozen=True)
class Profile:
    """How a candidate is drawn.

    The first fields are the draw of the original profiles (``easy`` .. ``expert``); the
    others default to what those profiles do, so their candidates never change.
    """

    melds: tuple[int, int]
    hand: tuple[int, int]
    width: tuple[int, int]
    suits: tuple[int, int]
    set_share: float
    max_run: int
    decoy: float
    extra: tuple[int, int]
    #: The share of best-score candidates when no kind is asked for.
    best_score: float = BEST_SCORE_SHARE
    #: Real cards of the target made jokers (one drawn from this tuple), with jokers.
    joker_cards: tuple[int, ...] = (1, 1, 2)
    #: Re-split tries (a new hand each) before the draw fails.
    hand_tries: int = HAND_TRIES
    #: The draw with jokers, when it differs (None: this one).
    with_jokers: Profile | None = None

    def for_jokers(self, jokers: int) -> Profile:
        return self.with_jokers if jokers and self.with_jokers is not None else self


#: The draws of the second profiles without jokers (with jokers: see PROFILES).
_HARD_2 = Profile(melds=(4, 4), hand=(4, 6), width=(4, 5), suits=(2, 3), set_share=0.55,
                  max_run=7, decoy=0.1, extra=(1, 2))
_EXPERT_2 = Profile(melds=(5, 6), hand=(4, 5), width=(5, 7), suits=(4, 4), set_share=0.6,
                    max_run=7, decoy=0.0, extra=(2, 3))

PROFILES: dict[str, Profile] = {
    "easy": Profile(melds=(2, 3), hand=(1, 3), width=(4, 6), suits=(1, 3), set_share=0.3,
                    max_run=6, decoy=0.0, extra=(1, 1)),
    "medium": Profile(melds=(3, 4), hand=(2, 4), width=(4, 6), suits=(2, 3), set_share=0.4,
                      max_run=6, decoy=0.2, extra=(1, 2)),
    "hard": Profile(melds=(4, 6), hand=(3, 6), width=(4, 6), suits=(2, 4), set_share=0.45,
                    max_run=7, decoy=0.3, extra=(1, 2)),
    "expert": Profile(melds=(5, 7), hand=(4, 7), width=(5, 7), suits=(3, 4), set_share=0.45,
                      max_run=7, decoy=0.4, extra=(1, 3)),
    # The second profiles (docs/puzzles.md, "Profiles"): smaller targets, more sets, no
    # decoy with jokers, one joker in the target; several times more puzzles of the tier per
    # CPU-second than the originals.
    "hard-2": replace(_HARD_2, with_jokers=replace(_HARD_2, decoy=0.0, joker_cards=(1,))),
    "expert-2": replace(_EXPERT_2, with_jokers=replace(
        _EXPERT_2, melds=(5, 5), hand=(4, 6), set_share=0.75, joker_cards=(1,))),
}

#: The profile that draws a tier's candidates by default (``easy``, ``medium``, ``hard`` and
#: ``expert`` are the original profiles, which made the shipped pack; records name theirs).
DEFAULT_PROFILES: dict[str, str] = {"easy": "easy", "medium": "medium", "hard": "hard-2",
                                    "expert": "expert-2"}

SPLIT_BUDGET = 3000
SOLVER_BUG = "internal solver error"


def candidate_seed(master_seed: int, index: int) -> int:
    """The seed of candidate ``index`` of a run (stable across machines and Python versions)."""
    digest = hashlib.sha256(f"rami-puzzle:{master_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def rules_for(jokers: int) -> Ruleset:
    if jokers not in (0, 4):
        raise ValueError(f"rami-chinois is played with 0 or 4 jokers, not {jokers}")
    return get_ruleset("rami-chinois" if jokers else "rami-chinois[jokers=0]")


def _card_at(position: int, suit: int) -> Card:
    return Card(type_at(suit, position))


def _draw_target(rng: random.Random, deck: Counter[Card], profile: Profile,
                 rules: Ruleset) -> list[Meld]:
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
            start = rng.randint(max(1, low - 1), max(1, min(low + width - length + 1,
                                                           rules.top_rank - length + 1)))
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


#: ``_CARDS_AT[suit][position]``: the card at run position 1..14 of a suit (index 0 unused).
_CARDS_AT: tuple[tuple[Card, ...], ...] = tuple(
    (JOKER, *(_card_at(position, suit) for position in range(1, 15))) for suit in range(4)
)


def _melds_with(first: Card, cards: Counter[Card], jokers: int, rules: Ruleset,
                max_run: int) -> list[Meld]:
    """Valid melds holding ``first`` and other cards of ``cards`` (jokers fill gaps only).

    Runs come by position of ``first``, then length, then start; then sets by size (the order
    matters: the re-split shuffles this list with the candidate's random generator).
    """
    found: list[Meld] = []
    suit = first.index // 13
    top = rules.top_rank
    row = _CARDS_AT[suit]
    own = (1, 14) if first.rank == 1 and top == 14 else (first.rank,)
    for position in own:
        # Which run positions hold a card of ``cards`` (``first``'s own always does).
        held = [False, *(cards[row[p]] > 0 or p == position for p in range(1, top + 1))]
        for length in range(3, max_run + 1):
            for start in range(max(1, position - length + 1), position + 1):
                end = start + length - 1
                if end > top:
                    break
                if not (held[start] and held[end]):
                    continue
                if length - sum(held[start : end + 1]) > jokers:
                    continue
                meld = Meld(tuple(row[p] if held[p] else JOKER for p in range(start, end + 1)),
                            MeldKind.RUN)
                if is_valid(meld, rules):
                    found.append(meld)
    others = [s for s in range(4) if s != suit and cards[Card.of(first.rank, s)] > 0]
    for size in range(len(others) + 1):
        for chosen in combinations(others, size):
            for extra in range(min(jokers, 3 - size) + 1):
                if 3 <= 1 + size + extra <= 4:
                    real = sorted([first, *(Card.of(first.rank, s) for s in chosen)])
                    found.append(Meld((*real, *(JOKER,) * extra), MeldKind.SET))
    return found


#: The cards whose presence decides :func:`_melds_with`'s list for a card: its suit's, and its
#: rank's in the other suits.
_NEIGHBOURS: dict[Card, tuple[Card, ...]] = {
    card: (*(Card(card.index // 13 * 13 + rank) for rank in range(13)),
           *(Card.of(card.rank, suit) for suit in range(4) if suit != card.index // 13))
    for card in (Card(index) for index in range(52))
}


class _OutOfBudget(Exception):
    pass


#: :func:`_melds_with`'s lists, kept across re-splits and candidates: a list is a pure function
#: of (card, jokers left, the pattern of its suit's and rank's cards left, rules, longest run),
#: and a run meets the same few patterns again and again (the windows are small). Kept per
#: process: 1,500 hard-2 candidates without jokers list 58,387 melds lists in 21,083 re-splits
#: with a cache per re-split, 3,436 with this one (with jokers 5,924). Cleared past
#: :data:`MELDS_CACHE_SIZE` entries (0.76 kB each, measured: 15 MB at most).
_MELDS_CACHE: dict[tuple[Ruleset, int],
                   dict[tuple[Card, int, int], list[tuple[Meld, tuple[Card, ...], int]]]] = {}
MELDS_CACHE_SIZE = 20_000


def resplit(rng: random.Random, cards: Counter[Card], jokers: int, rules: Ruleset,
            avoid: Callable[[Meld], int], max_run: int = 8) -> list[Meld] | None:
    """A random partition of ``cards`` (and ``jokers``) into valid melds.

    Melds are tried in random order, those with a higher ``avoid(meld)`` last.
    """
    nodes = 0
    # A card's melds depend only on which cards of its suit and of its rank are left (and on the
    # jokers left): the search meets the same few patterns again and again.
    listed = _MELDS_CACHE.setdefault((rules, max_run), {})
    if len(listed) > MELDS_CACHE_SIZE:
        listed.clear()

    def search(left: dict[Card, int], jokers_left: int) -> list[Meld] | None:
        """``left``: the cards still to place, each with a positive count."""
        nonlocal nodes
        nodes += 1
        if nodes > SPLIT_BUDGET:
            raise _OutOfBudget
        if not left:
            return [] if jokers_left == 0 else None
        first = min(left)
        pattern = 0
        for card in _NEIGHBOURS[first]:
            pattern = pattern * 2 + (card in left)
        key = (first, jokers_left, pattern)
        melds = listed.get(key)
        if melds is None:
            melds = listed[key] = [
                (meld, meld.real_cards, meld.jokers)
                for meld in _melds_with(first, Counter(left), jokers_left, rules, max_run)
            ]
        options = list(melds)
        rng.shuffle(options)
        options.sort(key=lambda option: avoid(option[0]))
        for meld, used, jokers in options:
            rest = dict(left)
            for card in used:  # a meld holds each card once
                if rest[card] > 1:
                    rest[card] -= 1
                else:
                    del rest[card]
            found = search(rest, jokers_left - jokers)
            if found is not None:
                return [meld, *found]
        return None

    real = {card: n for card, n in cards.items() if not card.is_joker and n > 0}
    # Jokers that find no gap go to the ends of runs or into sets afterwards.
    for placed in range(jokers, -1, -1):
        try:
            melds = search(real, placed)
        except _OutOfBudget:
            return None
        if melds is None:
            continue
        return _absorb(rng, melds, jokers - placed, rules)
    return None


def _absorb(rng: random.Random, melds: list[Meld], jokers: int,
            rules: Ruleset) -> list[Meld] | None:
    from rami.puzzles.greedy import lay_off

    for _ in range(jokers):
        spots = [(i, grown) for i, meld in enumerate(melds)
                 if (grown := lay_off(meld, JOKER, rules)) is not None]
        if not spots:
            return None
        index, grown = rng.choice(spots)
        melds[index] = grown
    return melds


def _decoy(rng: random.Random, deck: Counter[Card], target: list[Meld],
           rules: Ruleset) -> Meld | None:
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
    near = sorted({
        Card(type_at(card.index // 13, p))
        for meld in table
        for card in meld.real_cards
        for p in (card.rank - 1, card.rank + 1, card.rank + 2)
        if 1 <= p <= 14
    } | {Card.of(card.rank, s) for meld in table for card in meld.real_cards for s in range(4)})
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


@dataclass(frozen=True)
class Attempt:
    index: int
    seed: int
    #: The profile that draws the candidate (a key of PROFILES; the record's ``profile``).
    tier: str
    jokers: int
    kind: str | None
    #: The only tier kept (None: any). The judge stops as soon as the candidate cannot be of it.
    wanted: str | None = None


@dataclass(frozen=True)
class Outcome:
    attempt: Attempt
    evaluation: Evaluation | None
    reason: str
    seconds: float


def run_attempt(attempt: Attempt) -> Outcome:
    import time

    started = time.perf_counter()
    position = candidate(attempt.seed, tier=attempt.tier, jokers=attempt.jokers,
                         kind=attempt.kind)
    if position is None:
        return Outcome(attempt, None, "draw failed", time.perf_counter() - started)
    try:
        evaluation = evaluate(position, attempt.kind, tier=attempt.wanted)
    except Rejected as error:
        return Outcome(attempt, None, str(error), time.perf_counter() - started)
    except SolverBugError as error:  # never taken for a puzzle; reported by the CLI
        return Outcome(attempt, None, f"{SOLVER_BUG}: {error}", time.perf_counter() - started)
    reason = "accepted"
    return Outcome(attempt, evaluation, reason, time.perf_counter() - started)


def profile_of(tier: str) -> str:
    """The profile that draws the candidates of a tier (:data:`DEFAULT_PROFILES`)."""
    return DEFAULT_PROFILES[tier]


def attempts(seed: int, *, tier: str | None, jokers: int, kind: str | None,
             profile: str | None = None) -> Iterator[Attempt]:
    index = 0
    while True:
        cseed = candidate_seed(seed, index)
        # Without a tier request, the profile cycles through the tiers (a mix of sizes).
        drawn = profile or profile_of(tier if tier is not None else TIERS[index % len(TIERS)])
        yield Attempt(index, cseed, drawn, jokers, kind, tier)
        index += 1


@dataclass(frozen=True)
class Judged:
    """A judged candidate as it comes back from a task: the verdict, and the record when the
    candidate is a sound puzzle."""

    attempt: Attempt
    reason: str
    record: dict[str, Any] | None
    seconds: float


def judge_task(attempt: dict[str, Any]) -> dict[str, Any]:
    """One candidate as a task of :mod:`rami.scale` (plain data in and out: the position is
    drawn, judged and turned into its record inside the worker)."""
    from rami.puzzles.record import make_record

    outcome = run_attempt(Attempt(**attempt))
    record = None
    if outcome.evaluation is not None:
        record = make_record(outcome.evaluation, seed=attempt["seed"], profile=attempt["tier"])
    return {"attempt": attempt, "reason": outcome.reason, "record": record,
            "seconds": outcome.seconds}


def generate(
    count: int,
    *,
    seed: int = 0,
    tier: str | None = None,
    jokers: int = 0,
    kind: str | None = None,
    workers: int = 1,
    max_attempts: int | None = None,
    profile: str | None = None,
    on_outcome: Callable[[Judged, int], None] | None = None,
    executor: Executor | None = None,
    on_retry: RetryListener | None = None,
) -> Iterator[dict[str, Any]]:
    """Sound puzzles as records, in candidate order; the same arguments give the same records
    whatever runs the candidates (``workers`` local processes, or ``executor``: Ray).

    ``profile`` (a key of :data:`PROFILES`) draws every candidate; by default each tier's
    profile (:data:`DEFAULT_PROFILES`) draws its candidates.

    ``on_outcome(judged, accepted_so_far)`` is told about every judged candidate (progress).
    """
    if tier is not None and tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}: choose from {', '.join(TIERS)}")
    if profile is not None and profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}: choose from {', '.join(PROFILES)}")
    rules_for(jokers)
    accepted = 0
    seen: set[str] = set()
    stream: Iterator[Attempt] = attempts(seed, tier=tier, jokers=jokers, kind=kind,
                                         profile=profile)
    if max_attempts is not None:
        stream = islice(stream, max_attempts)
    own = executor is None
    if executor is None:
        executor = LocalExecutor(workers)
    # Candidates are judged a few per worker ahead; what is judged past the last puzzle wanted
    # is thrown away (closing the iterator cancels it), so the output is the one-worker output.
    results = executor.ordered(judge_task, (asdict(attempt) for attempt in stream),
                               on_retry=on_retry)
    try:
        for result in results:
            if accepted >= count:
                break
            judged = Judged(Attempt(**result["attempt"]), result["reason"], result["record"],
                            result["seconds"])
            record = judged.record
            if record is not None and (
                (tier is not None and record["difficulty"]["tier"] != tier)
                or record["id"] in seen
            ):
                record = None
            if record is not None:
                seen.add(record["id"])
                accepted += 1
            if on_outcome is not None:
                on_outcome(judged, accepted)
            if record is not None:
                yield record
                if accepted >= count:
                    break
    finally:
        results.close()
        if own:
            executor.close()
