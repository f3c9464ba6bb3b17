"""Advice at every decision of a game: what the strongest bot would do, and why, in plain words.

:func:`advise` answers the decision a :class:`~rami.game.state.View` asks of its seat:

- at the draw, whether to take the top discard or draw from the stock, and why (what taking it
  lays; or why not: it makes no meld, it cannot be laid this turn, it gains nothing);
- at a claim (rami fou), claim or pass, and why;
- at the play, the expert's plan where it holds back (:mod:`rami.game.holdback`: open with
  the fewest cards, then lay nothing until the turn that goes out;
  :func:`rami.game.expert.holds_to_go_out`: lay nothing and discard), said as such, else the
  best turn (the solver's, fewest table cards moved among the best turns); where the preset
  discards, the card to let go and why. Once the player has moved table cards this turn, the
  turn they started is finished instead of held.

The draw, the claim and the card to discard are the expert bot's decisions
(:class:`rami.game.expert.ExpertBot`), seeded from the view, so the same view gets the same
advice. ``level`` follows :mod:`rami.hints` at the play: 1 what the turn achieves, 2 its key
move, 3 the whole turn as moves a player types (:attr:`Advice.moves`, melds numbered as the
table stands). At the draw and the claim every level gives the decision and its reason.
``working`` is the table as the player has rearranged it so far this turn: the advice starts
from there when the turn can still be finished from it, else from the start of the turn (and
says so). A solver failure gives advice that says there is no hint this time; the game goes on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rami.cards import Card
from rami.errors import RamiError, SolverBugError
from rami.game.actions import DISCARD, STOCK, Claim, Draw, Play
from rami.game.advice_discard import discard_move, why_discard
from rami.game.advice_text import cards_name, moves_count, text
from rami.game.bots import (
    SOLVER_TIME_LIMIT,
    could_use,
    jokers_only_play,
    laid_by_rule,
    timed_solve,
)
from rami.game.deck import derive_seed
from rami.game.expert import ExpertBot, holds_to_go_out
from rami.game.holdback import held_play, holds_back
from rami.game.presets import DrawRule, game_rules
from rami.game.state import CLAIM, DRAW, View
from rami.game.taking import can_follow, taking_problem, taking_reminder
from rami.lang import ENGLISH, Language
from rami.melds import Meld, is_valid
from rami.position import Position
from rami.referee import validate_turn
from rami.solver.solution import Solution

PHASE_DRAW, PHASE_CLAIM, PHASE_PLAY = "draw", "claim", "play"


@dataclass(frozen=True)
class Advice:
    """The advice for one decision; the fields the decision does not ask stay None."""

    phase: str  # "draw" | "claim" | "play": the decision the view asks
    text: str  # plain words for a player, in the language asked
    draw: str | None = None  # at the draw: "stock" or "discard"
    claim: bool | None = None  # at a claim (rami fou): take (True) or pass (False)
    table: tuple[Meld, ...] | None = None  # at the play (level 3): the table after the turn
    discard: Card | None = None  # at the play (level 3), in presets with a discard
    moves: tuple[str, ...] = ()  # the advised turn as moves, melds numbered as the table stands

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "text": self.text,
            "draw": self.draw,
            "claim": self.claim,
            "table": None
            if self.table is None
            else [[str(card) for card in meld.cards] for meld in self.table],
            "discard": None if self.discard is None else str(self.discard),
            "moves": list(self.moves),
        }


class _Adviser(ExpertBot):
    """The expert bot, its solver answers kept for the view (a reason asks what the decision
    asked already)."""

    level = "hint"

    def __init__(self, seed: int, time_limit: float) -> None:
        super().__init__(seed, time_limit=time_limit)
        self._solved: dict[tuple[Position, bool], Any] = {}

    def solve(self, position: Position, min_moves: bool = False) -> Any:
        key = (position, min_moves)
        if key not in self._solved:
            try:
                self._solved[key] = super().solve(position, min_moves)
            except RamiError as error:
                self._solved[key] = error
        answer = self._solved[key]
        if isinstance(answer, RamiError):
            raise answer
        return answer


def advise(
    view: View,
    *,
    level: int = 3,
    language: Language = ENGLISH,
    working: Sequence[Meld] | None = None,
    time_limit: float = 2.0,
) -> Advice:
    """The advice for the decision ``view`` asks (see the module's docstring)."""
    if level not in (1, 2, 3):
        raise ValueError(f"hint level must be 1, 2 or 3, got {level!r}")
    seed = derive_seed(
        "advice",
        view.rules.name,
        view.round,
        view.turn,
        view.phase,
        view.seat,
        " ".join(map(str, view.hand)),
    )
    bot = _Adviser(seed, min(time_limit, SOLVER_TIME_LIMIT))
    phase = _phase(view)
    try:
        if phase == PHASE_DRAW:
            return _draw(view, bot, language)
        if phase == PHASE_CLAIM:
            return _claim(view, bot, language)
        return _play(view, bot, level, language, working, time_limit)
    except SolverBugError as error:
        from rami.game.fallback import note_failure

        note_failure("hint", view, error)  # logged with its position, for a report
        return Advice(phase, text("no hint", language))


def _phase(view: View) -> str:
    return {DRAW: PHASE_DRAW, CLAIM: PHASE_CLAIM}.get(view.phase, PHASE_PLAY)


def advised_action(view: View, advice: Advice) -> Draw | Claim | Play | None:
    """The action that follows ``advice`` from the start of ``view``'s decision (None: the
    advice names none, a level below 3 at the play or no hint)."""
    if advice.draw is not None:
        return Draw(advice.draw)
    if advice.claim is not None:
        return Claim(advice.claim)
    if advice.table is None:
        return None
    left = Counter(view.hand)
    for meld in view.table:
        left.update(meld.cards)
    for meld in advice.table:
        left.subtract(meld.cards)  # the hand before the discard
    # The cards that left the hand for the table (a joker taken back is not one).
    played = Counter(view.hand) - (+left)
    return Play(advice.table, tuple(sorted(played.elements())), advice.discard)


# ---------------------------------------------------------------------- the draw and the claim


def _laid_in(card: Card, solution: Solution | None) -> Meld | None:
    """The meld of ``solution``'s table that ``card`` was laid in."""
    if solution is None or card not in solution.played:
        return None
    before = Counter(card for meld in solution.position.table for card in meld.cards)
    for meld in solution.table:
        if meld.counts()[card] > before[card]:
            return meld
    return next((meld for meld in solution.table if card in meld.cards), None)


def _draw(view: View, bot: _Adviser, language: Language) -> Advice:
    top = view.top_discard
    if DISCARD not in view.draws or top is None:
        return Advice(PHASE_DRAW, text("stock only", language), draw=STOCK)
    choice = bot.draw(view)
    usable = could_use(view, top)
    taken = bot.with_card(view, top) if usable else None
    meld = _laid_in(top, taken)
    if choice == DISCARD:
        reason = (
            text("take lays", language, card=top, meld=meld)
            if meld is not None
            else text("take builds", language, card=top)
        )
        return Advice(PHASE_DRAW, reason, draw=DISCARD)
    if not usable:
        key = "stock useless"
    elif taken is None:
        key = "stock stuck"
    elif meld is None:
        key = (
            "stock not laid"
            if view.is_opened or game_rules(view.rules).draw is not DrawRule.FREE
            else "stock no meld yet"
        )
    elif view.rules.name == "rami-51" and not laid_by_rule(
        taken.position, Play(taken.table, taken.played, taken.discard), top
    ):
        key = "stock not in opening"
    else:
        key = "stock no gain"
    return Advice(PHASE_DRAW, text(key, language, card=top), draw=STOCK)


def _claim(view: View, bot: _Adviser, language: Language) -> Advice:
    card = view.claim_card or view.top_discard
    take = bot.claim(view)
    if card is None:
        return Advice(PHASE_CLAIM, text("pass empty stock", language), claim=False)
    if take:
        meld = _laid_in(card, bot.with_card(view, card))
        reason = (
            text("claim lays", language, card=card, meld=meld)
            if meld is not None
            else text("claim", language, card=card)
        )
        return Advice(PHASE_CLAIM, reason, claim=True)
    if view.stock_size < 1:
        key = "pass empty stock"
    elif not could_use(view, card):
        key = "pass useless"
    else:
        key = "pass no gain"
    return Advice(PHASE_CLAIM, text(key, language, card=card), claim=False)


# ---------------------------------------------------------------------- the play


def _working_view(view: View, working: Sequence[Meld]) -> View | None:
    """The view with the table as the player has rearranged it and the hand that leaves
    (None: not a table this turn can stand on: a meld not valid, cards from nowhere)."""
    working = tuple(working)
    rules = view.rules
    if not all(is_valid(meld, rules) for meld in working):
        return None
    total = Counter(view.hand)
    for meld in view.table:
        total.update(meld.cards)
    laid: Counter[Card] = Counter()
    for meld in working:
        laid.update(meld.cards)
    if laid - total:
        return None
    hand = tuple(sorted((total - laid).elements()))
    moved = sorted(map(str, laid.elements())) != sorted(
        str(card) for meld in view.table for card in meld.cards
    )
    opened = tuple(flag or (seat == view.seat and moved) for seat, flag in enumerate(view.opened))
    taken = view.taken_discard if view.taken_discard in hand else None
    return replace(view, table=working, hand=hand, opened=opened, taken_discard=taken)


def _play(
    view: View,
    bot: _Adviser,
    level: int,
    language: Language,
    working: Sequence[Meld] | None,
    time_limit: float,
) -> Advice:
    stuck = jokers_only_play(view)
    if stuck is not None and stuck.discard is not None:
        return Advice(
            PHASE_PLAY,
            text("jokers only", language, card=stuck.discard),
            table=stuck.table,
            discard=stuck.discard,
            moves=(discard_move(stuck.discard, view.hand[1:], language),),
        )
    note = ""
    seen = view
    if working is not None:
        seen = _working_view(view, working) or view
        if seen is view:
            note = text("from start", language)
    advice = _turn(seen, view, bot, level, language, time_limit)
    if advice is None and seen is not view:  # the moves so far lead to no legal turn
        note = text("from start", language)
        advice = _turn(view, view, bot, level, language, time_limit)
    if advice is None:
        raise SolverBugError("the turn's start has no legal turn the referee accepts")
    return replace(advice, text=f"{note}\n{advice.text}" if note else advice.text)


def _turn(
    seen: View, start: View, bot: _Adviser, level: int, language: Language, time_limit: float
) -> Advice | None:
    """The best turn from ``seen`` (the table as it stands), checked from ``start`` (the
    turn's start); None when the referee would refuse it from there."""
    from rami.hints import make_hint
    from rami.solver.explain import explain_moves, in_number_order

    position = seen.position()
    try:
        solution = timed_solve(position, time_limit, min_moves=True)
    except SolverBugError:
        raise
    except RamiError:
        return None
    # The expert's plan where it holds back; once the player has moved table cards this turn,
    # the turn they started is finished instead.
    held = _held(seen, bot, position, solution) if seen.table == start.table else None
    play = (
        held[0]
        if held is not None
        else bot.keeping_useful_cards(
            seen, Play(solution.table, solution.played, solution.discard), solution.hand
        )
    )
    left = Counter(solution.hand)
    if solution.discard is not None:
        left[solution.discard] += 1  # the hand before the discard
    if play.discard is not None:
        left[play.discard] -= 1
    whole = advised_action(start, Advice(PHASE_PLAY, "", table=play.table, discard=play.discard))
    assert isinstance(whole, Play)
    if not validate_turn(start.position(), whole.table, whole.played, whole.discard).legal:
        return None
    plan = None if held is None else _plan_text(held, language)
    if level < 3:
        return Advice(PHASE_PLAY, plan or make_hint(solution, level, language).text)
    after = tuple(in_number_order(seen.table, play.table))
    moves = [
        move.said(language) for move in explain_moves(seen.table, after, tuple(sorted(play.played)))
    ]
    lines = [] if plan is None else [plan]
    if play.discard is not None:
        moves.append(discard_move(play.discard, tuple((+left).elements()), language))
    if not play.played and plan is None:
        lines.append(make_hint(solution, 1, language).text)
    if moves:
        lines.append(text("best turn", language, count=moves_count(len(moves), language)))
        width = len(str(len(moves)))
        lines.extend(f"  {n:>{width}}. {move}" for n, move in enumerate(moves, start=1))
    if play.discard is not None:
        lines.append(why_discard(seen, bot, play.discard, left, language))
    return Advice(
        PHASE_PLAY, "\n".join(lines), table=after, discard=play.discard, moves=tuple(moves)
    )


def _held(
    view: View, bot: _Adviser, position: Position, solution: Solution
) -> tuple[Play, str] | None:
    """The expert's plan where it holds back instead of laying the solver's whole turn
    (:mod:`rami.game.holdback`: open small, then lay nothing until the turn that goes out;
    :func:`rami.game.expert.holds_to_go_out`: lay nothing, discard), with the key of its
    sentence; None where the expert lays the solver's turn."""
    if holds_back(view, solution):
        play = held_play(view, solution)
        return play, "open small" if play.played else "hold"
    if holds_to_go_out(view, solution):
        discarding = bot.held_discarding(view, position, solution)
        if discarding is not None:
            return discarding, "hold discard"
    return None


def _plan_text(held: tuple[Play, str], language: Language) -> str:
    play, key = held
    if key == "open small":
        return text(key, language, cards=cards_name(sorted(play.played), language))
    if key == "hold discard":
        assert play.discard is not None
        return text(key, language, card=play.discard)
    return text(key, language)


__all__ = ["Advice", "advise", "advised_action", "can_follow", "taking_problem", "taking_reminder"]
