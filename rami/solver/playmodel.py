"""The max-play model (levels 1-2), built once per ruleset shape and re-bounded per position.

Building a CP-SAT model through the Python API costs more than solving it on small tables.
This model holds every meld template and card type; a position only changes variable
bounds, right-hand sides and objective coefficients, written straight into the model's proto.
Templates the position cannot fill are bounded to zero rather than left out.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from ortools.sat.python import cp_model

from rami.cards import NUM_TYPES
from rami.position import Position
from rami.rules import Ruleset
from rami.solver.counts import CardCounts
from rami.solver.templates import Template, free_templates

#: Most jokers any preset deals (Café Rummy); the joker-only guard uses it as a big-M.
MAX_JOKERS = 6
MAX_COPIES = 2


@dataclass
class PlayVariables:
    """What the decoder reads back; the same names as the per-position model's."""

    model: cp_model.CpModel
    templates: list[Template]
    uses: list[cp_model.IntVar]
    play: list[cp_model.IntVar]
    play_jokers: cp_model.IntVar
    joker_for: list[cp_model.IntVar]
    pure: tuple[Any, ...] = ()
    slots: tuple[Any, ...] = ()
    exact_jokers: bool = False
    opening: bool = False
    #: Proto indices of ``uses``, ``play`` and ``joker_for``, for reading a solution fast.
    indices: tuple[Sequence[int], Sequence[int], Sequence[int]] = ((), (), ())


@dataclass(frozen=True)
class PlayBounds:
    """A position's bounds on the prebuilt model: what :meth:`PlayModel.load` writes."""

    #: Upper bounds of the cards played and of the jokers standing for each type.
    hand: Sequence[int]
    jokers: int
    hand_jokers: int
    #: Right-hand sides: each type's table cards (the demand rows), the table's jokers.
    table: Sequence[int]
    table_jokers: int
    #: Upper bounds of each template's copies.
    uses: list[int]
    #: The jokers-alone row's right-hand side.
    alone_limit: int


class PlayModel:
    """One prebuilt model; ``load(position, weights)`` re-bounds it in place."""

    def __init__(self, top_rank: int) -> None:
        model = cp_model.CpModel()
        self.templates = list(free_templates(top_rank))
        self.play = [model.new_int_var(0, MAX_COPIES, f"p{t}") for t in range(NUM_TYPES)]
        self.play_jokers = model.new_int_var(0, MAX_JOKERS, "pj")
        self.joker_for = [model.new_int_var(0, MAX_JOKERS, f"j{t}") for t in range(NUM_TYPES)]
        self.uses = [
            model.new_int_var(0, MAX_COPIES + MAX_JOKERS, f"y{n}")
            for n in range(len(self.templates))
        ]
        cover: list[list[cp_model.IntVar]] = [[] for _ in range(NUM_TYPES)]
        for template, var in zip(self.templates, self.uses, strict=True):
            for t in template.types:
                cover[t].append(var)
        self.demand_rows = []
        for t in range(NUM_TYPES):
            self.demand_rows.append(len(model.proto.constraints))
            model.add(sum(cover[t]) - self.play[t] - self.joker_for[t] == 0)
        self.joker_row = len(model.proto.constraints)
        model.add(sum(self.joker_for) - self.play_jokers == 0)
        # Jokers alone make no meld: with no real card on the table, a joker needs a hand card.
        self.alone_row = len(model.proto.constraints)
        model.add(self.play_jokers - MAX_JOKERS * sum(self.play) <= MAX_JOKERS)
        model.maximize(sum(self.play) + self.play_jokers)
        objective = model.proto.objective
        position_of = {index: n for n, index in enumerate(objective.vars)}
        self.objective_slots = [position_of[var.index] for var in self.play]
        self.objective_joker_slot = position_of[self.play_jokers.index]
        # Template bonuses (see load) are appended after these terms and dropped again: even
        # at a coefficient of 0, objective terms for every template slowed max-play (20-60-card
        # medians 1.13-1.24x the code before them, against 1.01-1.18x without).
        self.base_terms = len(objective.vars)
        self.bonus_terms = 0
        self.model = model
        # Views into the proto, looked up once: each lookup through the bindings costs more than
        # the write it serves.
        proto = model.proto
        self.play_domains = [proto.variables[var.index].domain for var in self.play]
        self.joker_domains = [proto.variables[var.index].domain for var in self.joker_for]
        self.use_domains = [proto.variables[var.index].domain for var in self.uses]
        self.demand_domains = [proto.constraints[row].linear.domain for row in self.demand_rows]
        # Each template's card types, padded with a type past the last whose supply is never
        # short: the bounds of every template come out of one numpy expression.
        widest = max(len(template.types) for template in self.templates)
        self.template_types = np.array(
            [
                (*template.types, *[NUM_TYPES] * (widest - len(template.types)))
                for template in self.templates
            ],
            dtype=np.intp,
        )
        #: Bounds as last written into the proto, per kind: an unchanged one is not written
        #: again (each write through the bindings costs about as much as the test).
        self.written = {
            "play": [MAX_COPIES] * NUM_TYPES,
            "joker_for": [MAX_JOKERS] * NUM_TYPES,
            "demand_low": [0] * NUM_TYPES,
            "demand_high": [0] * NUM_TYPES,
            "uses": [MAX_COPIES + MAX_JOKERS] * len(self.templates),
        }
        indices = (
            [var.index for var in self.uses],
            [var.index for var in self.play],
            [var.index for var in self.joker_for],
        )
        self.use_index = dict(zip(self.templates, indices[0], strict=True))
        self.variables = PlayVariables(
            model,
            self.templates,
            self.uses,
            self.play,
            self.play_jokers,
            self.joker_for,
            indices=indices,
        )

    def bounds(self, position: Position) -> PlayBounds:
        """The position's bounds, not yet written into the model (see :meth:`load`)."""
        counts = CardCounts.of(position)
        table, hand = counts.table, counts.hand
        jokers = counts.jokers
        supply = [table[t] + hand[t] for t in range(NUM_TYPES)]
        return PlayBounds(
            hand=hand,
            table=table,
            jokers=jokers,
            hand_jokers=counts.hand_jokers,
            table_jokers=counts.table_jokers,
            uses=self._template_bounds(supply, jokers),
            alone_limit=0 if sum(table) == 0 else MAX_JOKERS,
        )

    def load(
        self,
        position: Position,
        card_weight: list[int],
        joker_weight: int,
        template_bonus: Mapping[Template, int] | None = None,
        bounds: PlayBounds | None = None,
    ) -> PlayVariables:
        """Bound the model to ``position`` (its ``bounds`` if computed already); maximise
        sum(weight * cards played), plus sum(bonus * uses) over the templates of
        ``template_bonus``."""
        proto = self.model.proto
        variables = proto.variables
        if bounds is None:
            bounds = self.bounds(position)
        table = bounds.table
        written = self.written
        _write_changed(self.play_domains, 1, bounds.hand, written["play"])
        _write_changed(self.joker_domains, 1, [bounds.jokers] * NUM_TYPES, written["joker_for"])
        _write_changed(self.demand_domains, 0, table, written["demand_low"])
        _write_changed(self.demand_domains, 1, table, written["demand_high"])
        variables[self.play_jokers.index].domain[1] = bounds.hand_jokers
        _write_changed(self.use_domains, 1, bounds.uses, self.written["uses"])
        row = proto.constraints[self.joker_row].linear.domain
        row[0] = bounds.table_jokers
        row[1] = bounds.table_jokers
        proto.constraints[self.alone_row].linear.domain[1] = bounds.alone_limit
        coeffs = proto.objective.coeffs
        # The proto stores a maximisation negated.
        for t, slot in enumerate(self.objective_slots):
            coeffs[slot] = -card_weight[t]
        coeffs[self.objective_joker_slot] = -joker_weight
        if self.bonus_terms or template_bonus:
            self._set_bonus(template_bonus or {})
        return self.variables

    def _template_bounds(self, supply: list[int], jokers: int) -> list[int]:
        """A template is used at most as often as its scarcest type allows with every joker
        helping, and never when more of its types are missing than there are jokers."""
        available = np.array([*supply, MAX_COPIES + MAX_JOKERS])[self.template_types]
        missing = (available == 0).sum(axis=1)
        most = np.minimum(available.min(axis=1) + jokers, MAX_COPIES + MAX_JOKERS)
        bounds: list[int] = np.where(missing <= jokers, most, 0).tolist()
        return bounds

    def _set_bonus(self, template_bonus: Mapping[Template, int]) -> None:
        objective = self.model.proto.objective
        variables = list(objective.vars)[: self.base_terms]
        coeffs = list(objective.coeffs)[: self.base_terms]
        for template, bonus in template_bonus.items():
            variables.append(self.use_index[template])
            coeffs.append(-bonus)
        objective.vars.clear()
        objective.coeffs.clear()
        objective.vars.extend(variables)
        objective.coeffs.extend(coeffs)
        self.bonus_terms = len(template_bonus)


def _write_changed(
    targets: list[Any], index: int, values: Sequence[int], written: list[int]
) -> None:
    """``targets[i][index] = values[i]`` where that differs from ``written[i]``."""
    for i, value in enumerate(values):
        if value != written[i]:
            targets[i][index] = written[i] = value


_local = threading.local()


def play_model_for(rules: Ruleset) -> PlayModel:
    """This thread's prebuilt model for the ruleset's run shape (one per thread: it mutates)."""
    cache: dict[int, PlayModel] = _local.__dict__.setdefault("models", {})
    model = cache.get(rules.top_rank)
    if model is None:
        model = cache[rules.top_rank] = PlayModel(rules.top_rank)
    return model
