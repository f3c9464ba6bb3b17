"""The templates of :class:`rami.puzzles.model.LayoffModel`, over card types: the lay-offs onto
each table meld, and the new melds from the hand.

``hand[t]`` is how many cards of type ``t`` the hand holds, ``hand_jokers`` its jokers. Each
function adds its variables to ``places`` (the variables putting a real card or a joker at a
(suit, position) of a run), ``set_real`` (the set variables holding a card of each type) and
``joker_uses`` (the jokers each uses), in a fixed order: the model is the same from one build to
the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from rami.melds import MeldKind, stands_for
from rami.position import Position
from rami.solver.cpsat import Expr, Model
from rami.solver.templates import type_at


def add_layoffs(
    model: Model,
    position: Position,
    hand: Sequence[int],
    hand_jokers: int,
    places: dict[tuple[int, int], list[Expr]],
    set_real: dict[int, list[Expr]],
    joker_uses: list[Expr],
) -> None:
    """At most one lay-off per table meld: a run grown at its ends (within the longest run
    allowed), a set given missing suits or jokers."""
    rules = position.rules
    top = rules.top_rank
    for number, meld in enumerate(position.table):
        options = []
        if meld.kind is MeldKind.RUN:
            ranks = stands_for(meld, rules)
            suit = meld.real_cards[0].index // 13
            low, high = ranks[0], ranks[-1]
            for down in range(low):
                for up in range(top - high + 1):
                    if not down and not up:
                        continue
                    if (high + up) - (low - down) + 1 > rules.max_run_length:
                        continue
                    added = [*range(low - down, low), *range(high + 1, high + up + 1)]
                    missing = sum(1 for p in added if not hand[type_at(suit, p)] > 0)
                    if missing > hand_jokers:
                        continue
                    var = model.new_bool_var(f"x{number}_{down}_{up}")
                    options.append(var)
                    for p in added:
                        places[(suit, p)].append(var)
        else:
            rank = meld.real_cards[0].rank
            have = {card.index // 13 for card in meld.real_cards}
            room = 4 - len(meld.cards)
            missing_suits = [s for s in range(4) if s not in have and hand[s * 13 + rank - 1] > 0]
            for size in range(len(missing_suits) + 1):
                for suits in combinations(missing_suits, size):
                    for joker_count in range(min(hand_jokers, room - size) + 1):
                        if size + joker_count == 0:
                            continue
                        var = model.new_bool_var(f"x{number}_{suits}_{joker_count}")
                        options.append(var)
                        for s in suits:
                            set_real[s * 13 + rank - 1].append(var)
                        if joker_count:
                            joker_uses.append(joker_count * var)
        if options:
            model.add(sum(options) <= 1)


def add_new_melds(
    model: Model,
    hand: Sequence[int],
    hand_jokers: int,
    top: int,
    places: dict[tuple[int, int], list[Expr]],
    set_real: dict[int, list[Expr]],
    joker_uses: list[Expr],
) -> None:
    """New runs (3-5 places) and sets from the hand, each up to twice."""
    for suit in range(4):
        if not any(hand[suit * 13 : suit * 13 + 13]):
            continue  # no new run of this suit (the same model, built faster)
        for length in (3, 4, 5):
            for low in range(1, top - length + 2):
                types = [type_at(suit, p) for p in range(low, low + length)]
                if not any(hand[t] for t in types):
                    continue
                if sum(1 for t in types if not hand[t]) > hand_jokers:
                    continue
                bound = min(2, *(hand[t] + hand_jokers for t in types))
                var = model.new_int_var(0, bound, f"n{suit}_{low}_{length}")
                for p in range(low, low + length):
                    places[(suit, p)].append(var)
    for rank in range(1, 14):
        suits_there = [s for s in range(4) if hand[s * 13 + rank - 1]]
        for size in range(1, len(suits_there) + 1):
            for suits in combinations(suits_there, size):
                for joker_count in range(min(hand_jokers, 4 - size) + 1):
                    if size + joker_count < 3:
                        continue
                    var = model.new_int_var(0, 2, f"ns{rank}_{suits}_{joker_count}")
                    for s in suits:
                        set_real[s * 13 + rank - 1].append(var)
                    if joker_count:
                        joker_uses.append(joker_count * var)
