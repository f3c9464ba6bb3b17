"""The first two levels of decision 6 folded into one exact integer objective, and back."""

from __future__ import annotations

from collections import Counter

from rami.cards import NUM_TYPES, Card
from rami.melds import MeldKind
from rami.position import Position, hand_penalty
from rami.rules import Ruleset
from rami.solver.solution import Objective
from rami.solver.templates import Template


def play_weights(position: Position, objective: Objective) -> tuple[list[int], int]:
    """Weights per card type (and per joker) whose weighted sum of cards played orders plays
    exactly as the first two levels do: the second level is bounded, so it cannot outweigh
    one unit of the first."""
    rules = position.rules
    penalty = [rules.card_penalty(t % 13 + 1) for t in range(NUM_TYPES)]
    if objective is Objective.POINTS:
        scale = len(position.hand) + 1
        return [p * scale + 1 for p in penalty], rules.joker_penalty * scale + 1
    scale = sum(rules.card_penalty(card.rank) for card in position.hand) + 1
    return [scale + p for p in penalty], scale + rules.joker_penalty


def discard_weight(position: Position, objective: Objective, card: Card) -> int:
    """The discard sheds its penalty at the first or second level, as in :func:`play_weights`,
    without counting as a card played."""
    rules = position.rules
    penalty = rules.joker_penalty if card.is_joker else rules.card_penalty(card.rank)
    if objective is Objective.POINTS:
        return penalty * (len(position.hand) + 1)
    return penalty


def play_value(played: Counter[Card], weights: tuple[list[int], int]) -> int:
    """The stage-1 objective of playing ``played`` (see play_weights)."""
    per_type, per_joker = weights
    return sum(
        count * (per_joker if card.is_joker else per_type[card]) for card, count in played.items()
    )


def play_bounds(position: Position, objective: Objective, bound: int) -> dict[str, int]:
    """Read the first level back out of a bound on the folded objective (see play_weights)."""
    rules = position.rules
    before = hand_penalty(position.hand, rules, position.opened)
    if objective is Objective.POINTS:
        most_shed = bound // (len(position.hand) + 1)
        return {"penalty_after_at_least": max(0, before - most_shed)}
    hand_points = sum(rules.card_penalty(card.rank) for card in position.hand)
    return {"cards_played_at_most": min(len(position.hand), bound // (hand_points + 1))}


def template_points(template: Template, rules: Ruleset) -> int:
    if template.kind is MeldKind.SET:
        rank = template.rank
        value = rules.opening_value(14 if rank == 1 and not rules.tiles else rank)
        return len(template.types) * value
    return sum(rules.opening_value(p) for p in template.positions)
