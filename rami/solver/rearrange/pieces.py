"""Rami fou's pieces (decision 5, revised): where a run holding a pinned joker is cut, the
piece that keeps the joker, standing for the same card beside real cards of that run, is its own
meld. The runs that may hold such a joker away from its slot, and the places it may stand there,
as constraints (mixed into ``StageModel`` through
:class:`rami.solver.rearrange.slotmodel.SlotConstraints`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ortools.sat.python import cp_model

from rami.rules import Ruleset
from rami.solver.cpsat import Expr
from rami.solver.realize import MeldSpec
from rami.solver.rearrange.decode import value_of
from rami.solver.rearrange.slots import Lane, Slot
from rami.solver.templates import type_at


class PieceConstraints:
    """The pieces and the away places of pinned run jokers."""

    # Set by StageModel.__init__ before the slots are added.
    model: cp_model.CpModel
    rules: Ruleset
    real_cover: list[list[Expr]]
    slots: list[Slot]
    run_pins: list[tuple[Slot, int, cp_model.IntVar, object]]
    pieces: list[Slot]
    away_places: list[tuple[Slot, cp_model.IntVar]]

    def _add_pieces(self, cover: list[list[Expr]]) -> None:
        """Runs that may hold a pinned joker away from its slot (decision 5, revised): one for
        each table joker of a run, in its suit, of any length. They are melds matched to no
        original; :meth:`piece_specs` reads them back."""
        model = self.model
        top = self.rules.top_rank
        suits = Counter(t // 13 for _, t, _, _ in self.run_pins)
        for suit, count in sorted(suits.items()):
            previous: Lane | None = None
            for number in range(count):
                name = f"pc{suit}_{number}"
                lane = Lane(model, name, suit, 1, top)
                piece = Slot(original=-1, real_types=(), jokers=0, lanes=[lane])
                places: dict[int, list[Expr]] = {}
                for p, var in lane.cover.items():
                    t = type_at(suit, p)
                    cover[t].append(var)
                    places.setdefault(t, []).append(var)
                for t, vars_covering in places.items():
                    here = piece.here[t] = sum(vars_covering)
                    real = model.new_bool_var(f"{name}r{t}")
                    piece.real_at[t] = real
                    self.real_cover[t].append(real)
                    model.add(real <= here)
                model.add(sum(piece.real_at.values()) >= lane.used)
                if previous is not None:
                    model.add(previous.used >= lane.used)  # the pieces of a suit are alike
                previous = lane
                self.pieces.append(piece)

    def _add_away_places(self) -> None:
        """A run's joker neither kept in its slot nor freed there stands for its card in another
        piece of its run: a run (another original's slot, or a piece) holding a joker in that
        place and a real card of its old run. One joker a place: a slot's own kept joker, or
        one joker away from its slot."""
        model = self.model
        hosts = [slot for slot in self.slots if slot.lanes] + self.pieces
        at: dict[tuple[int, int], list[Expr]] = {}
        piece_used: dict[int, list[Expr]] = {}
        for number, (slot, t, _kept, away) in enumerate(self.run_pins):
            suit = t // 13
            places = []
            for index, host in enumerate(hosts):
                if host is slot or t not in host.real_at:
                    continue
                in_run = [
                    var
                    for lane in host.lanes
                    if lane.suit == suit
                    for p, var in lane.cover.items()
                    if type_at(suit, p) == t
                ]
                beside = [host.real_at[r] for r in slot.real_types if r in host.real_at]
                if not in_run or not beside:
                    continue
                var = model.new_bool_var(f"aw{number}_{index}")
                model.add(var <= sum(in_run))
                model.add(var <= host.here[t] - host.real_at[t])
                model.add(var <= sum(beside))
                places.append(var)
                at.setdefault((index, t), []).append(var)
                self.away_places.append((host, var))
                if host.original < 0:
                    piece_used.setdefault(index, []).append(var)
            model.add(sum(places) == away)
        own_kept = {(slot.original, t): kept for slot, t, kept, _ in self.run_pins}
        for (index, t), vars_there in at.items():
            host = hosts[index]
            kept = own_kept.get((host.original, t), 0)
            model.add(sum(vars_there) + kept <= host.here[t] - host.real_at[t])
        for index, host in enumerate(hosts):
            if host.original < 0:
                # A piece is laid only to keep a joker (any other run is a free meld).
                model.add(host.used <= sum(piece_used.get(index, [])))

    def piece_specs(self, values: Sequence[int]) -> list[MeldSpec]:
        """The pieces a solution lays (see :meth:`_add_pieces`), as melds matched to no
        original."""
        specs = []
        for piece in self.pieces:
            template = piece.chosen(values)
            if template is not None:
                real = frozenset(t for t, v in piece.real_at.items() if value_of(values, v))
                specs.append(MeldSpec(template, real_places=real))
        return specs
