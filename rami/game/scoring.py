"""Round scores and the end of the game, per preset (docs/rules.md "The whole game", decision 11).

Scores are the points each seat adds to its total. Under the rami presets they are penalties
(lower is better); under Rummikub they are signed (decision 11: the others score minus their
tiles, the winner plus their total; higher is better).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import Card
from rami.game.presets import GameEnd, GameOptions, GameRules
from rami.position import hand_penalty
from rami.rules import Ruleset

#: Why a round ended.
OUT = "out"  # a player went out
STOCK = "stock"  # the stock ran out (rami chinois; BFmania after 3 reshuffles; nothing to shuffle)
CAP = "cap"  # Café Rummy's 120 turns: the lowest hand wins
BLOCKED = "blocked"  # Rummikub: the pool is empty and nobody played in a whole round of turns
TURN_LIMIT = "turn-limit"  # the engine's safety net (GameOptions.max_turns), not a rule
REASONS = (OUT, STOCK, CAP, BLOCKED, TURN_LIMIT)


@dataclass(frozen=True)
class RoundResult:
    reason: str
    winners: tuple[int, ...]
    rami_sec: bool
    scores: tuple[int, ...]


def tiles_value(hand: Counter[Card], rules: Ruleset) -> int:
    return sum(rules.card_penalty(card.rank) * count for card, count in hand.items())


def score_round(
    rules: Ruleset,
    game: GameRules,
    players: int,
    hands: dict[int, Counter[Card]],
    opened: dict[int, bool],
    reason: str,
    winner: int | None = None,
    rami_sec: bool = False,
) -> RoundResult:
    """The scores of a finished round; ``hands`` and ``opened`` hold the seats that played it."""
    scores = [0] * players
    seats = sorted(hands)
    if game.rummikub_scoring:
        left = {seat: tiles_value(hands[seat], rules) for seat in seats}
        if winner is not None:
            winners = [winner]
            for seat in seats:
                if seat != winner:
                    scores[seat] = -left[seat]
            scores[winner] = sum(left[seat] for seat in seats if seat != winner)
        else:
            # Blocked: the lowest rack wins; the others lose what they hold above it, and the
            # winners share that total (integer shares, the remainder to the first in seat order).
            low = min(left.values())
            winners = [seat for seat in seats if left[seat] == low]
            total = 0
            for seat in seats:
                if seat not in winners:
                    scores[seat] = -(left[seat] - low)
                    total += left[seat] - low
            share, rest = divmod(total, len(winners))
            for index, seat in enumerate(winners):
                scores[seat] = share + (1 if index < rest else 0)
        return RoundResult(reason, tuple(winners), False, tuple(scores))
    penalty = {seat: hand_penalty(hands[seat].elements(), rules, opened[seat]) for seat in seats}
    if reason == OUT:
        assert winner is not None
        winners = [winner]
        for seat in seats:
            if seat == winner:
                continue
            if rami_sec:
                if not opened[seat] and rules.rami_sec_flat_penalty is not None:
                    scores[seat] = rules.rami_sec_flat_penalty
                else:
                    scores[seat] = 2 * penalty[seat]
            else:
                scores[seat] = penalty[seat]
    elif reason == CAP:
        low = min(penalty.values())
        winners = [seat for seat in seats if penalty[seat] == low]
        for seat in seats:
            scores[seat] = 0 if seat in winners else penalty[seat]
    else:
        winners = []
        for seat in seats:
            scores[seat] = penalty[seat]
    return RoundResult(reason, tuple(winners), rami_sec, tuple(scores))


@dataclass(frozen=True)
class GameResult:
    over: bool
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    eliminated: tuple[int, ...] = ()
    reason: str = ""

    @property
    def draw(self) -> bool:
        return len(self.winners) > 1


def _lowest(totals: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    low = min(totals[seat] for seat in seats)
    return tuple(seat for seat in seats if totals[seat] == low)


def game_after_round(
    game: GameRules,
    options: GameOptions,
    totals: Sequence[int],
    active: Sequence[bool],
    rounds_played: int,
) -> GameResult:
    """Is the game over after this round? ``active`` are the seats still playing (Café Rummy
    eliminates); returns the seats eliminated by this round too."""
    seats = [seat for seat, playing in enumerate(active) if playing]
    target = options.target
    if game.end is GameEnd.ROUNDS:
        if rounds_played >= (options.rounds or 1) or rounds_played >= options.max_rounds:
            high = max(totals[seat] for seat in seats)
            return GameResult(True, tuple(s for s in seats if totals[s] == high), reason="rounds")
        return GameResult(False)
    assert target is not None
    reached = [seat for seat in seats if totals[seat] >= target]
    if game.end is GameEnd.ELIMINATION:
        left = [seat for seat in seats if seat not in reached]
        if len(left) == 1:
            return GameResult(True, (left[0],), eliminated=tuple(reached), reason="elimination")
        if not left:
            return GameResult(
                True, _lowest(totals, reached), eliminated=tuple(reached), reason="elimination"
            )
        if rounds_played >= options.max_rounds:
            return GameResult(
                True, _lowest(totals, left), eliminated=tuple(reached), reason="max-rounds"
            )
        return GameResult(False, eliminated=tuple(reached))
    if reached:
        losers = tuple(reached) if game.end is GameEnd.REACHER_LOSES else ()
        return GameResult(True, _lowest(totals, seats), losers=losers, reason="target")
    if rounds_played >= options.max_rounds:
        return GameResult(True, _lowest(totals, seats), reason="max-rounds")
    return GameResult(False)
