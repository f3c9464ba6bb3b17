"""A CP-SAT solution read back: templates and cards played, then real melds (:mod:`.realize`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from rami.cards import JOKER, Card
from rami.errors import SolverBugError
from rami.melds import MIN_MELD, Meld, MeldKind, stands_for
from rami.position import Position
from rami.rules import Ruleset
from rami.solver.cpsat import Expr
from rami.solver.playmodel import PlayVariables
from rami.solver.realize import MeldSpec, realize
from rami.solver.templates import FREE_RUN_LENGTHS, Template, run_template, set_template

if TYPE_CHECKING:
    from rami.solver.rearrange.model import StageModel


def value_of(values: Sequence[int], expr: Expr) -> int:
    """Value of a variable (or constant) in a solution read once as a list."""
    return expr if isinstance(expr, int) else int(values[expr.index])


def _counts_read(
    model: StageModel | PlayVariables, values: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """Copies of each template used, cards of each type played, jokers standing for each."""
    if isinstance(model, PlayVariables):
        # The prebuilt model's proto indices are looked up once, not per solve.
        uses, play, joker_for = model.indices
        return [values[i] for i in uses], [values[i] for i in play], [values[i] for i in joker_for]
    return (
        [value_of(values, expr) for expr in model.uses],
        [value_of(values, expr) for expr in model.play],
        [value_of(values, expr) for expr in model.joker_for],
    )


@dataclass
class Decoded:
    specs: list[MeldSpec]
    played: Counter[Card]
    joker_for: Counter[int]
    discard: Card | None = None


def decode(model: StageModel | PlayVariables, solver: cp_model.CpSolver) -> Decoded:
    return decode_values(model, list(solver.response_proto.solution))


def decode_values(model: StageModel | PlayVariables, values: list[int]) -> Decoded:
    """A solution given as every variable's value, in the order of the model's proto."""
    uses, play, joker_for = _counts_read(model, values)
    specs: list[MeldSpec] = []
    for template, var in model.pure:
        specs.extend(MeldSpec(template, pure=True) for _ in range(value_of(values, var)))
    for number, (template, copies) in enumerate(zip(model.templates, uses, strict=True)):
        if not copies:
            continue
        if not model.exact_jokers:
            specs.extend(MeldSpec(template) for _ in range(copies))
            continue
        assert not isinstance(model, PlayVariables)  # its jokers are never exact
        split = model.set_split.get(number)
        if split:
            # The alternatives' sets: how many copies hold each subset of real places.
            for places, var in split:
                specs.extend(
                    MeldSpec(template, real_places=places) for _ in range(value_of(values, var))
                )
            continue
        # Deal each type's real cards round the copies in turn: every copy gets one.
        real_sets: list[set[int]] = [set() for _ in range(copies)]
        turn = 0
        for t, real in model.real_in[number].items():
            for _ in range(value_of(values, real)):
                real_sets[turn % copies].add(t)
                turn += 1
        specs.extend(MeldSpec(template, real_places=frozenset(real)) for real in real_sets)
    for slot in model.slots:
        template = slot.chosen(values)
        if template is None:
            continue
        real_places = (
            frozenset(t for t, v in slot.real_at.items() if value_of(values, v))
            if model.exact_jokers
            else None
        )
        specs.append(
            MeldSpec(
                template,
                original=slot.original,
                real_places=real_places,
                keep_real=frozenset(t for t, v in slot.keep_real.items() if value_of(values, v)),
                keep_joker=frozenset(t for t, v in slot.keep_joker.items() if value_of(values, v)),
            )
        )
    played: Counter[Card] = Counter({Card(t): count for t, count in enumerate(play) if count})
    jokers = value_of(values, model.play_jokers)
    if jokers:
        played[JOKER] = jokers
    stand_ins = Counter({t: count for t, count in enumerate(joker_for) if count})
    discards = getattr(model, "discard", {})
    discard = next((card for card, var in discards.items() if value_of(values, var)), None)
    return Decoded(specs, played, stand_ins, discard)


def realize_table(position: Position, decoded: Decoded, opening: bool) -> list[Meld]:
    real = Counter({card: n for card, n in decoded.played.items() if not card.is_joker})
    if opening:
        return list(position.table) + realize(
            decoded.specs, real, decoded.joker_for, position.rules, ()
        )
    real += Counter({card: n for card, n in position.table_cards.items() if not card.is_joker})
    return realize(decoded.specs, real, decoded.joker_for, position.rules, position.table)


def realize_relaxed(position: Position, decoded: Decoded) -> list[Meld] | None:
    """A table for the relaxation's answer, or None where its jokers cannot all be placed."""
    try:
        return realize_table(position, decoded, opening=False)
    except SolverBugError:
        return None


def template_of(meld: Meld, rules: Ruleset) -> Template:
    """The template a realised meld covers (set jokers stand for the first missing suits)."""
    if meld.kind is MeldKind.RUN:
        ranks = stands_for(meld, rules)
        suit = meld.real_cards[0].index // 13
        return run_template(suit, ranks[0], ranks[-1])
    rank = meld.real_cards[0].rank
    suits = sorted(card.index // 13 for card in meld.real_cards)
    spare = [suit for suit in range(4) if suit not in suits]
    return set_template(rank, tuple(sorted(suits + spare[: meld.jokers])))


def joker_types(meld: Meld, template: Template) -> list[int]:
    if meld.kind is MeldKind.RUN:
        return [t for t, card in zip(template.types, meld.cards, strict=True) if card.is_joker]
    real = {card.index for card in meld.real_cards}
    return [t for t in template.types if t not in real]


def free_pieces(template: Template, piece: int = MIN_MELD) -> list[Template]:
    """``template`` as free templates: a run longer than the longest is cut from its low end
    into runs of ``piece`` cards (shorter where the rest would fall under a meld) and a rest."""
    longest = FREE_RUN_LENGTHS[-1]
    if template.kind is MeldKind.SET or len(template.types) <= longest:
        return [template]
    pieces = []
    low, high = template.positions[0], template.positions[-1]
    while high - low + 1 > longest:
        size = min(piece, high - low + 1 - MIN_MELD)
        pieces.append(run_template(template.suit, low, low + size - 1))
        low += size
    pieces.append(run_template(template.suit, low, high))
    return pieces


def table_pieces(position: Position) -> list[Template]:
    """The templates the table's melds are made of, long runs cut into runs of 5 and a rest of
    3-4. Any cut is correct (it only guides the search); this one made the full objective 10-20%
    faster on the 60-card suites than cutting into runs of 3 (two interleaved runs)."""
    return [
        piece
        for meld in position.table
        for piece in free_pieces(template_of(meld, position.rules), FREE_RUN_LENGTHS[-1])
    ]
