"""The meld templates of :class:`rami.puzzles.model.PlayModel`, over card types.

Runs are templates of 3-5 places (every longer run cuts into those, and the signature ignores
cuts), with the jokers they hold pooled per (suit, position); sets are their real suits plus a
number of jokers. ``avail[t]`` is how many cards of type ``t`` the table and the hand hold;
``jokers`` how many jokers. Variables are created in a fixed order, so that the model, and every
solve of it, is the same from one build to the next.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from rami.signature import SetKey
from rami.solver.cpsat import Expr, Model
from rami.solver.templates import type_at


def add_run_templates(
    model: Model, avail: list[int], jokers: int, top: int, joker_places: list[Expr]
) -> dict[tuple[int, int], Expr]:
    """The run templates (3-5 places) the cards can fill. Returns the signature's runs: the
    real cards at each (suit, position); the jokers held there are added to ``joker_places``."""
    run_cover: dict[tuple[int, int], list[Expr]] = defaultdict(list)
    for suit in range(4):
        for length in (3, 4, 5):
            for low in range(1, top - length + 2):
                places = range(low, low + length)
                types = [type_at(suit, p) for p in places]
                if not any(avail[t] for t in types):
                    continue
                if sum(1 for t in types if not avail[t]) > jokers:
                    continue
                bound = min(4, *(avail[t] + jokers for t in types))
                var = model.new_int_var(0, bound, f"r{suit}_{low}_{length}")
                for p in places:
                    run_cover[(suit, p)].append(var)
    sig_runs: dict[tuple[int, int], Expr] = {}
    for key, cover in sorted(run_cover.items()):
        if jokers:
            held = model.new_int_var(0, jokers, f"jr{key[0]}_{key[1]}")
            model.add(held <= sum(cover))
            joker_places.append(held)
            sig_runs[key] = sum(cover) - held
        else:
            sig_runs[key] = sum(cover)
    return sig_runs


def add_set_templates(
    model: Model, avail: list[int], jokers: int, joker_places: list[Expr]
) -> tuple[dict[SetKey, Expr], dict[int, list[Expr]]]:
    """The set templates (real suits plus jokers); returns the signature's sets, and for
    each card type the set variables holding one of it."""
    set_real: dict[int, list[Expr]] = defaultdict(list)
    sig_sets: dict[SetKey, Expr] = {}
    for rank in range(1, 14):
        suits_there = [s for s in range(4) if avail[s * 13 + rank - 1]]
        for size in range(1, len(suits_there) + 1):
            for suits in combinations(suits_there, size):
                variants = []
                for joker_count in range(min(jokers, 4 - size) + 1):
                    if size + joker_count < 3:
                        continue
                    bound = min(avail[s * 13 + rank - 1] for s in suits)
                    if joker_count:
                        bound = min(bound, jokers // joker_count)
                    var = model.new_int_var(0, bound, f"s{rank}_{suits}_{joker_count}")
                    variants.append(var)
                    if joker_count:
                        joker_places.append(joker_count * var)
                    for s in suits:
                        set_real[s * 13 + rank - 1].append(var)
                if variants:
                    sig_sets[(rank, suits)] = sum(variants)
    return sig_sets, set_real
