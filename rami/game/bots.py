"""Bots at three levels, each acting on its seat's :class:`~rami.game.state.View` only.

- ``beginner``: draws from the stock, lays the melds and lay-offs it sees (greedy, no solver),
  never rearranges the table, discards its costliest useless card; never claims.
- ``confirmed``: the solver's best turn every time (:func:`rami.solve`), takes the discard (or
  claims it) when the solver's best turn with it lays it and ends lower, and the solver's discard.
- ``expert`` (:mod:`rami.game.expert`): the confirmed bot's turn with what the solver does not
  decide made sharper: a discard taken when it lays at no cost or builds the opening, the dead
  card discarded first (else the live card with the fewest outs), rami fou's hold-back and
  claims weighed on seeded samples of the unseen cards.

:func:`bot_turn` is the stateless entry point for apps: a view (object or JSON) in, an action
out.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.errors import IllegalTurnError, RamiError, SolverBugError
from rami.game.actions import DISCARD, STOCK, Action, Claim, Draw, Play, action_from_json
from rami.game.discards import guarded_discard
from rami.game.fallback import note_failure
from rami.game.greedy import (
    accepts,
    allowed_discards,
    cards_of,
    costliest_useless,
    hand_melds,
    is_useful,
    lay_offs,
)
from rami.game.state import CLAIM, DRAW, View
from rami.melds import Meld, MeldKind, is_pure_run, is_valid, opening_points
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import GoingOut
from rami.solver.solution import Solution

#: Solver calls made by the bots of this process, and their time (simulation statistics).
SOLVER_STATS: dict[str, float] = {"calls": 0, "ms": 0.0}

#: Turns on a non-empty table the bots of this process played, and the table cards they moved:
#: as played, and as the solver's first answer without the cards-moved level would have.
MOVE_STATS: dict[str, int] = {"turns": 0, "without_level": 0, "played": 0}

#: The solver's time limit per call: CP-SAT's deterministic time alone (``wall_clock=False``),
#: so a game replays the same from its seed however loaded the machine that plays it.
SOLVER_TIME_LIMIT = 1.0
#: The deterministic time the bots give the cards-moved level of the turn they play: it finds
#: 161 table cards moved where a whole second finds 145 and none 341 (157 rami-chinois turns),
#: at a tenth of the tail.
MOVES_TIME_LIMIT = 0.1


def timed_solve(
    position: Position, time_limit: float = SOLVER_TIME_LIMIT, min_moves: bool = True
) -> Any:
    """``rami.solve``, timed into :data:`SOLVER_STATS`. A bot plays with the cards-moved level
    (``min_moves``): among turns equally good for it, the one that moves the fewest table cards
    (decision 7), so that a person can follow the table; lookahead rollouts, where nobody
    watches, leave it out."""
    from rami.solver.api import solve

    started = time.perf_counter()
    try:
        return solve(position, min_moves=min_moves, time_limit=time_limit, wall_clock=False)
    finally:
        SOLVER_STATS["calls"] += 1
        SOLVER_STATS["ms"] += (time.perf_counter() - started) * 1000


def laid_by_rule(position: Position, play: Play, card: Card) -> bool:
    """Decision 10 (rami 51): is the card taken from the discard laid, and, for a player not
    yet opened, laid in a new meld of the opening?"""
    played = Counter(play.played)
    if not played[card]:
        return False
    if position.opened:
        return True
    return any(card in meld.cards and not (meld.counts() - played) for meld in play.table)


class Bot:
    """Base class: ``act(view)`` dispatches on the view's phase."""

    level = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, view: View) -> Action:
        """The bot's answer; where the solver behind it fails (an internal error), the
        beginner's answer instead, and the failure noted (:mod:`rami.game.fallback`)."""
        try:
            return self.decide(view)
        except (SolverBugError, RamiError) as error:
            note_failure(self.level, view, error)
            return BeginnerBot(self.seed).decide(view)

    def decide(self, view: View) -> Action:
        if view.phase == DRAW:
            return Draw(self.draw(view))
        if view.phase == CLAIM:
            return Claim(self.claim(view))
        return self.play(view)

    def draw(self, view: View) -> str:
        return STOCK

    def claim(self, view: View) -> bool:
        return False

    def play(self, view: View) -> Play:
        raise NotImplementedError


#: Reshuffles of the stock after which a beginner plays the confirmed bot's answers: with only
#: greedy melds, a table of beginners can go round for ever (nobody reaches 51 points, or an
#: opened player never lays its last card), where a person would look harder.
STUCK_RESHUFFLES = 2


class BeginnerBot(Bot):
    level = "beginner"

    def decide(self, view: View) -> Action:
        if view.reshuffles >= STUCK_RESHUFFLES:
            return StuckBot(self.seed).decide(view)
        return super().decide(view)

    def play(self, view: View) -> Play:
        rules = view.rules
        position = view.position()
        melds = hand_melds(Counter(view.hand), rules)
        if view.is_opened:
            return self._lay(view, melds, lay_off=True)
        if _may_open(view, melds):
            # Decision 4: in the presets that never rearrange, an opening turn may lay off once
            # its opening melds are down; the referee judges the opening, with lay-offs first.
            tries = (True, False) if not rules.rearrangement else (False,)
            for lay_off in tries:
                play = self._lay(view, melds, lay_off)
                if validate_turn(position, play.table, play.played, play.discard).legal:
                    return play
        # Not an opening after all (points, pure run): lay nothing this turn.
        discard = (
            costliest_useless(Counter(view.hand), rules, position.taken_discard)
            if rules.discard
            else None
        )
        return Play(view.table, (), discard)

    def _lay(self, view: View, melds: list[Meld], lay_off: bool) -> Play:
        """The hand's melds, then (if ``lay_off``) the lay-offs it can see, and a discard."""
        rules = view.rules
        hand = Counter(view.hand)
        hand.subtract(cards_of(melds))
        table = list(view.table)
        played = cards_of(melds)
        table.extend(melds)
        laid_off: list[tuple[Card, int]] = []
        if lay_off:
            laid_off = lay_offs(table, hand, rules)
            played.extend(card for card, _ in laid_off)
        if rules.discard and not +hand and rules.going_out is not GoingOut.PLACE_OR_DISCARD:
            _keep_one(table, hand, played, laid_off, len(view.table), rules)
        discard = None
        if rules.discard and +hand:
            discard = costliest_useless(hand, rules, view.position().taken_discard)
        # Lay-offs and new melds are legal by construction once opened; an opening is checked.
        return Play(tuple(table), tuple(played), discard)


def _may_open(view: View, melds: list[Meld]) -> bool:
    """A quick look at the opening requirement before asking the referee."""
    if view.is_opened:
        return True
    rules = view.rules
    if not melds:
        return False
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in melds):
        return False
    return sum(opening_points(meld, rules) for meld in melds) >= rules.opening_points


def _keep_one(
    table: list[Meld],
    hand: Counter[Card],
    played: list[Card],
    laid_off: list[tuple[Card, int]],
    old: int,
    rules: Any,
) -> None:
    """A preset that goes out by discarding needs a card left for the discard: take back the
    last lay-off (from the meld it went to), or a card a new meld can spare, or the last new
    meld."""
    candidates: list[tuple[Card | None, range]] = []
    if laid_off:
        card, index = laid_off[-1]
        candidates.append((card, range(index, index + 1)))
    candidates.append((None, range(old, len(table))))
    for wanted, indices in candidates:
        for index in reversed(indices):
            meld = table[index]
            if wanted is not None and wanted not in meld.cards:
                continue
            cards = list(meld.cards)
            ends = (len(cards) - 1, 0) if meld.kind is MeldKind.RUN else range(len(cards))
            for at in ends:
                if wanted is not None and cards[at] != wanted:
                    continue
                if cards[at] not in played:
                    continue
                shorter = Meld(tuple(cards[:at] + cards[at + 1 :]), meld.kind)
                if is_valid(shorter, rules):
                    table[index] = shorter
                    played.remove(cards[at])
                    hand[cards[at]] += 1
                    return
    if len(table) > old:
        meld = table.pop()
        for card in meld.cards:
            played.remove(card)
            hand[card] += 1


class ConfirmedBot(Bot):
    level = "confirmed"

    def __init__(self, seed: int = 0, time_limit: float = SOLVER_TIME_LIMIT) -> None:
        super().__init__(seed)
        self.time_limit = time_limit

    def solve(self, position: Position, min_moves: bool = False) -> Any:
        """The solver's best turn; ``min_moves`` for the turn played: the same points and
        cards, then the fewest table cards moved that :data:`MOVES_TIME_LIMIT` finds (the
        cards-moved level costs time and decides nothing the bot weighs)."""
        best = timed_solve(position, self.time_limit, False)
        return self.with_fewest_moves(position, best) if min_moves else best

    def with_fewest_moves(self, position: Position, best: Any) -> Any:
        """``best`` (the solver's turn on ``position``), or a turn as good that moves fewer
        table cards (:meth:`solve` with ``min_moves``)."""
        chosen = best
        if best.cards_moved:
            try:
                fewer = timed_solve(position, MOVES_TIME_LIMIT, True)
            except RamiError:
                fewer = best
            if (fewer.penalty_after, -fewer.cards_played) <= (
                best.penalty_after,
                -best.cards_played,
            ):
                chosen = fewer
        if position.table:
            MOVE_STATS["turns"] += 1
            MOVE_STATS["without_level"] += best.cards_moved
            MOVE_STATS["played"] += chosen.cards_moved
        return chosen

    def with_card(self, view: View, card: Card, extra: int = 0) -> Any:
        """The solver's best turn had ``card`` been taken from the discard pile (None when no
        legal turn follows)."""
        position = Position(view.table, (*view.hand, card), view.is_opened, view.rules, card)
        try:
            return self.solve(position)
        except RamiError:
            return None

    def takes(self, view: View, margin: int = 0) -> bool:
        top = view.top_discard
        if top is None or not could_use(view, top):
            return False
        taken = self.with_card(view, top)
        if taken is None or top not in taken.played:
            return False
        if view.rules.name == "rami-51" and not laid_by_rule(
            taken.position, Play(taken.table, taken.played, taken.discard), top
        ):
            return False
        base = self.solve(Position(view.table, view.hand, view.is_opened, view.rules))
        return bool(taken.penalty_after + margin < base.penalty_after)

    def draw(self, view: View) -> str:
        return DISCARD if DISCARD in view.draws and self.takes(view) else STOCK

    def claim(self, view: View) -> bool:
        # The claim costs a penalty card from the stock (about 6 points kept on average).
        return self.takes(view, margin=6)

    def play(self, view: View) -> Play:
        stuck = jokers_only_play(view)
        if stuck is not None:
            return stuck
        solution = self.solve(view.position(), min_moves=True)
        play = Play(solution.table, solution.played, solver_discard(view, solution))
        return self.keeping_useful_cards(view, play, solution.hand)

    def choose_discard(self, left: Counter[Card], view: View, taken: Card | None) -> Card | None:
        """The card to let go from ``left`` (the hand before the discard): the costliest card
        that starts no meld (None: the solver's choice stands)."""
        return costliest_useless(left, view.rules, taken)

    def keeping_useful_cards(self, view: View, play: Play, left: Sequence[Card]) -> Play:
        """The solver's turn, with :meth:`choose_discard`'s card instead of the solver's
        costliest card (the solver counts the points left now, a player keeps what may lay
        next turn), and never a card that feeds an opened next player when another costs no
        more (:mod:`rami.game.discards`). Going out keeps the solver's discard; the referee
        judges the change."""
        if play.discard is None or not left:
            return play
        kept = Counter(left)
        kept[play.discard] += 1
        taken = view.position().taken_discard
        discard = self.choose_discard(kept, view, taken) or play.discard
        discard = guarded_discard(view, play.table, kept, discard, taken)
        if discard == play.discard:
            return play
        other = Play(play.table, play.played, discard)
        if validate_turn(view.position(), other.table, other.played, discard).legal:
            return other
        return play


class StuckBot(ConfirmedBot):
    """A beginner's table after :data:`STUCK_RESHUFFLES` reshuffles: the confirmed bot's turns,
    and, not yet opened where the opening asks for points, the cheapest card let go, so that the
    hand gathers the points it lacks instead of throwing them away (the beginner's costliest
    discard is how a table of beginners goes round for ever)."""

    level = "beginner"

    def choose_discard(self, left: Counter[Card], view: View, taken: Card | None) -> Card | None:
        if view.is_opened or not view.rules.opening_points:
            return super().choose_discard(left, view, taken)
        allowed = [card for card in allowed_discards(left, view.rules, taken) if not card.is_joker]
        if not allowed:
            return super().choose_discard(left, view, taken)
        return min(allowed, key=lambda c: (is_useful(c, left), view.rules.card_penalty(c.rank), c))


def could_use(view: View, card: Card) -> bool:
    """A quick look before asking the solver about a discard: a joker, a card that starts a
    meld with the hand, or (once opened) one that extends a meld on the table."""
    if card.is_joker:
        return True
    hand = Counter(view.hand)
    hand[card] += 1
    if is_useful(card, hand):
        return True
    return view.is_opened and any(card in accepts(meld, view.rules) for meld in view.table)


def jokers_only_play(view: View) -> Play | None:
    """Café Rummy, a hand of jokers only that no meld can take: the solver finds no legal turn
    (a joker is discarded only as the last card); the engine lets one joker go (docs/game.md)."""
    rules = view.rules
    if not (rules.joker_kept_until_last and view.hand and all(c.is_joker for c in view.hand)):
        return None
    try:
        timed_solve(view.position())
    except IllegalTurnError:
        return Play(view.table, (), view.hand[0])
    return None


def solver_discard(view: View, solution: Solution) -> Card | None:
    """The solver's discard; when it names none though a card must go (Café Rummy, a hand of
    jokers only), the joker the engine lets go (docs/game.md)."""
    if (
        solution.discard is None
        and view.rules.discard
        and solution.hand
        and all(card.is_joker for card in solution.hand)
        and view.rules.joker_kept_until_last
    ):
        return solution.hand[0]
    return solution.discard


__all__ = ["BeginnerBot", "Bot", "ConfirmedBot", "action_from_json"]
