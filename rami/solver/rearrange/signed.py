"""The puzzle signature (:mod:`rami.puzzles.signature`) of a stage model's table, as linear
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
:func:`rami.puzzles.signature.answer_signature`, and a set can always hold it). So the model's
signature is the answer signature of the table the decoder realises, and a no-good on
it removes every table of that signature (cuts, copies, order, where the jokers stand) at once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

from ortools.sat.python import cp_model

from rami.melds import MeldKind
from rami.puzzles.signature import SetKey, Signature, answer_signature
from rami.solver.cpsat import Expr
from rami.solver.rearrange.model import StageModel
from rami.solver.templates import Template, type_at

RunKey = tuple[int, int]


def _subsets(types: tuple[int, ...]) -> list[frozenset[int]]:
    return [frozenset(combo) for size in range(1, len(types) + 1)
            for combo in combinations(types, size)]


def _set_key(template: Template, real: frozenset[int]) -> SetKey:
    return (template.rank, tuple(sorted(t // 13 for t in real)))


class SignedModel:
    """A stage model with its signature as expressions and a method to forbid one."""

    def __init__(self, stage: StageModel) -> None:
        if not stage.exact_jokers:
            raise ValueError("the signature needs a model that places every joker")
        self.stage = stage
        model = stage.model
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
        for number, template in enumerate(stage.templates):
            real_in = stage.real_in[number]
            if template.kind is MeldKind.RUN:
                for t, position in zip(template.types, template.positions, strict=True):
                    runs[(t // 13, position)].append(real_in[t])
                if len(template.types) <= 4:
                    # One real card and jokers is read as a set (answer_signature).
                    model.add(sum(real_in.values()) >= 2 * stage.uses[number])
                continue
            bound = stage.use_bounds[number]
            split: list[tuple[frozenset[int], cp_model.IntVar]] = []
            for places in _subsets(template.types):
                copies = model.new_int_var(0, bound, f"z{number}_{len(split)}")
                split.append((places, copies))
                sets[_set_key(template, places)].append(copies)
            model.add(sum(copies for _, copies in split) == stage.uses[number])
            for t in template.types:
                model.add(real_in[t] == sum(copies for places, copies in split if t in places))
            stage.set_split[number] = split
        for slot in stage.slots:
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
                    if len(reals) <= 4:
                        model.add(sum(reals) >= 2 * chosen)
                    continue
                flags: list[cp_model.IntVar] = []
                for places in _subsets(template.types):
                    flag = model.new_bool_var(f"ss{slot.original}_{template.types}_{len(flags)}")
                    flags.append(flag)
                    sets[_set_key(template, places)].append(flag)
                    for t in places:
                        parts[t].append(flag)
                model.add(sum(flags) == chosen)
            for t, real_at in slot.real_at.items():
                model.add(real_at == sum(parts[t]))
        self.runs: dict[RunKey, Expr] = {
            key: sum(runs.get(key, [])) + constant_runs[key]
            for key in sorted(set(runs) | set(constant_runs))
        }
        self.sets: dict[SetKey, Expr] = {
            key: sum(sets.get(key, [])) + constant_sets[key]
            for key in sorted(set(sets) | set(constant_sets))
        }
        self._flags = 0

    def signature_of(self, solver: cp_model.CpSolver) -> Signature:
        runs = {key: _value(solver, expr) for key, expr in self.runs.items()}
        sets = Counter({key: _value(solver, expr) for key, expr in self.sets.items()})
        return Signature.build({key: n for key, n in runs.items() if n}, +sets)

    def exclude(self, excluded: Signature) -> None:
        """A no-good: the table must not have the signature ``excluded``."""
        wanted_sets = excluded.set_counts()
        if any(key not in self.sets for key in wanted_sets) or any(
            excluded.run_count(suit, position) and (suit, position) not in self.runs
            for suit in range(4) for position in range(1, 15)
        ):
            return  # no table of this model has it
        pairs = [(expr, excluded.run_count(*key)) for key, expr in self.runs.items()]
        pairs += [(expr, wanted_sets.get(key, 0)) for key, expr in self.sets.items()]
        if any(isinstance(expr, int) and expr != value for expr, value in pairs):
            return  # a constant part differs already
        self.stage.model.add_bool_or(
            [self._differs(expr, value) for expr, value in pairs if not isinstance(expr, int)]
        )

    def _differs(self, expr: Expr, value: int) -> cp_model.IntVar:
        flag = self.stage.model.new_bool_var(f"ng{self._flags}")
        self._flags += 1
        self.stage.model.add(expr != value).only_enforce_if(flag)
        return flag


def _value(solver: cp_model.CpSolver, expr: Expr) -> int:
    return expr if isinstance(expr, int) else int(solver.value(expr))
