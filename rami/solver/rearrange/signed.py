"""The puzzle signature (:mod:`rami.signature`) of a stage model's table, as linear
expressions, and no-goods that forbid a signature: what the alternatives (``--top``) search on.

The model must track every place as real or joker (``StageModel(exact=True)``). Then

* a run's real cards per (suit, position) are the templates' real places (``real_in``) plus,
  for each slot, its real places on the lane in use (one boolean per lane place, summing to
  the slot's ``real_at`` with the set part below: a slot holds one meld at most);
* a run template a slot may hold counts its real places one boolean each;
* a set's key (rank and real suits) needs to know which places of each copy are real: a set
  template's copies are split by their subset of real places (``set_split``, which the decoder
  then lays exactly), and a slot's set by one boolean per template and real subset.

A run of one real card and up to three jokers is left out (such a meld is read as a set, see
:func:`rami.signature.answer_signature`, and a set can always hold it); so that no longer
run needs such a piece, the model also has runs of 6 cards and more (``StageModel(exact=True)``
with two jokers or more). So the model's
signature is the answer signature of the table the decoder realises, and a no-good on
it removes every table of that signature (cuts, copies, order, where the jokers stand) at once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

from ortools.sat.python import cp_model

from rami.melds import MeldKind
from rami.signature import SetKey, Signature, answer_signature
from rami.solver.cpsat import Expr
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.slots import Slot
from rami.solver.templates import Template, type_at

RunKey = tuple[int, int]


def _subsets(types: tuple[int, ...], jokers: int) -> list[frozenset[int]]:
    """The real places a meld over ``types`` may have: at least one, jokers in the rest."""
    least = max(1, len(types) - jokers)
    return [
        frozenset(combo)
        for size in range(least, len(types) + 1)
        for combo in combinations(types, size)
    ]


def _set_key(template: Template, real: frozenset[int]) -> SetKey:
    return (template.rank, tuple(sorted(t // 13 for t in real)))


class SignedModel:
    """A stage model with its signature as expressions and a method to forbid one."""

    def __init__(self, stage: StageModel) -> None:
        if not stage.exact_jokers:
            raise ValueError("the signature needs a model that places every joker")
        self.stage = stage
        jokers = stage.counts.hand_jokers if stage.opening else stage.counts.jokers
        #: A run of one real card needs two jokers at least.
        self.lone = jokers >= 2
        runs: dict[RunKey, list[Expr]] = defaultdict(list)
        sets: dict[SetKey, list[Expr]] = defaultdict(list)
        constant_runs: Counter[RunKey] = Counter()
        constant_sets: Counter[SetKey] = Counter()
        if stage.opening:
            # The table stays as it is: its signature is a constant part.
            fixed = answer_signature(stage.position.table, stage.rules)
            for suit in range(4):
                for position in range(1, 15):
                    if fixed.run_count(suit, position):
                        constant_runs[(suit, position)] += fixed.run_count(suit, position)
            constant_sets.update(fixed.set_counts())
        for template, var in stage.pure:
            for t, position in zip(template.types, template.positions, strict=True):
                runs[(t // 13, position)].append(var)
        self._sign_templates(jokers, runs, sets)
        for slot in stage.slots:
            self._sign_slot(slot, jokers, runs, sets)
        self.runs: dict[RunKey, Expr] = {
            key: sum(runs.get(key, [])) + constant_runs[key]
            for key in sorted(set(runs) | set(constant_runs))
        }
        self.sets: dict[SetKey, Expr] = {
            key: sum(sets.get(key, [])) + constant_sets[key]
            for key in sorted(set(sets) | set(constant_sets))
        }
        self._level_flags: dict[int, tuple[cp_model.IntVar, cp_model.IntVar]] = {}

    def _sign_templates(
        self, jokers: int, runs: dict[RunKey, list[Expr]], sets: dict[SetKey, list[Expr]]
    ) -> None:
        """The free templates' real places in the signature; set templates split by their real
        places."""
        stage = self.stage
        model = stage.model
        for number, template in enumerate(stage.templates):
            real_in = stage.real_in[number]
            if template.kind is MeldKind.RUN:
                for t, position in zip(template.types, template.positions, strict=True):
                    runs[(t // 13, position)].append(real_in[t])
                if self.lone and len(template.types) <= 4:
                    # One real card and jokers is read as a set (answer_signature).
                    model.add(sum(real_in.values()) >= 2 * stage.uses[number])
                continue
            bound = stage.use_bounds[number]
            split: list[tuple[frozenset[int], cp_model.IntVar]] = []
            for places in _subsets(template.types, jokers):
                copies = model.new_int_var(0, bound, f"z{number}_{len(split)}")
                split.append((places, copies))
                sets[_set_key(template, places)].append(copies)
            model.add(sum(copies for _, copies in split) == stage.uses[number])
            for t in template.types:
                model.add(real_in[t] == sum(copies for places, copies in split if t in places))
            stage.set_split[number] = split

    def _sign_slot(
        self,
        slot: Slot,
        jokers: int,
        runs: dict[RunKey, list[Expr]],
        sets: dict[SetKey, list[Expr]],
    ) -> None:
        """A slot's real places in the signature: per lane place, per run template, and per set
        template and real subset, summing to the slot's ``real_at``."""
        model = self.stage.model
        lone = self.lone
        parts: dict[int, list[Expr]] = defaultdict(list)
        for lane in slot.lanes:
            lane_real = []
            for position, cover in lane.cover.items():
                t = type_at(lane.suit, position)
                if t not in slot.real_at:
                    continue
                real = model.new_bool_var(f"sr{slot.original}_{lane.low}_{position}")
                model.add(real <= cover)
                parts[t].append(real)
                lane_real.append(real)
                runs[(lane.suit, position)].append(real)
            if lone:
                # A run of one real card holds five places or more (see above).
                single = model.new_bool_var(f"sx{slot.original}_{lane.low}")
                model.add(sum(lane_real) >= 2 * (lane.used - single))
                model.add(sum(lane.cover.values()) >= 5 * single)
        for template, chosen in slot.sets:
            if template.kind is MeldKind.RUN:
                # (A set's slot may hold a run: its jokers kept together.)
                reals = []
                for t, position in zip(template.types, template.positions, strict=True):
                    real = model.new_bool_var(f"st{slot.original}_{template.types}_{t}")
                    model.add(real <= chosen)
                    parts[t].append(real)
                    reals.append(real)
                    runs[(t // 13, position)].append(real)
                if lone and len(reals) <= 4:
                    model.add(sum(reals) >= 2 * chosen)
                continue
            flags: list[cp_model.IntVar] = []
            for places in _subsets(template.types, jokers):
                flag = model.new_bool_var(f"ss{slot.original}_{template.types}_{len(flags)}")
                flags.append(flag)
                sets[_set_key(template, places)].append(flag)
                for t in places:
                    parts[t].append(flag)
            model.add(sum(flags) == chosen)
        for t, real_at in slot.real_at.items():
            model.add(real_at == sum(parts[t]))

    def signature_of(self, solver: cp_model.CpSolver) -> Signature:
        runs = {key: _value(solver, expr) for key, expr in self.runs.items()}
        sets = Counter({key: _value(solver, expr) for key, expr in self.sets.items()})
        return Signature.build({key: n for key, n in runs.items() if n}, +sets)

    def exclude(self, excluded: Signature) -> None:
        """A no-good: the table must not have the signature ``excluded``. Every component of a
        signature is 0, 1 or 2 (two copies of a card), so it is written as two booleans
        (``>= 1``, ``>= 2``) and the no-good is one clause over them: far stronger for CP-SAT
        (and its LP) than a disjunction of ``!=``."""
        wanted_sets = excluded.set_counts()
        if any(key not in self.sets for key in wanted_sets) or any(
            excluded.run_count(suit, position) and (suit, position) not in self.runs
            for suit in range(4)
            for position in range(1, 15)
        ):
            return  # no table of this model has it
        pairs = [(expr, excluded.run_count(*key)) for key, expr in self.runs.items()]
        pairs += [(expr, wanted_sets.get(key, 0)) for key, expr in self.sets.items()]
        if any(isinstance(expr, int) and expr != value for expr, value in pairs):
            return  # a constant part differs already
        literals = []
        for index, (expr, value) in enumerate(pairs):
            if isinstance(expr, int):
                continue
            for level, flag in enumerate(self._levels(index, expr), start=1):
                literals.append(flag if value < level else flag.Not())
        self.stage.model.add_bool_or(literals)

    def _levels(self, index: int, expr: Expr) -> tuple[cp_model.IntVar, cp_model.IntVar]:
        """Booleans ``expr >= 1`` and ``expr >= 2`` (made once per component)."""
        if index not in self._level_flags:
            model = self.stage.model
            one = model.new_bool_var(f"sg{index}a")
            two = model.new_bool_var(f"sg{index}b")
            model.add(two <= one)
            model.add(expr == one + two)
            self._level_flags[index] = (one, two)
        return self._level_flags[index]


def _value(solver: cp_model.CpSolver, expr: Expr) -> int:
    return expr if isinstance(expr, int) else int(solver.value(expr))
