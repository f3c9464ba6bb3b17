"""One round: the deal, the turns (draw, play, discard), claims, reshuffles, going out, scores.

:class:`Round` is a state machine. It says whose move it is and what it asks (``phase``: draw,
play or claim), builds that seat's :class:`~rami.game.state.View`, and applies the answer after
checking it: every turn goes through :func:`rami.referee.validate_turn`, and the engine adds its
own checks (which pile may be drawn, decision 10, Rummikub's draw). An illegal action raises
:class:`~rami.game.actions.IllegalActionError` and changes nothing. Every applied step is logged
as a JSON event (the game record's ``actions``), and every card is accounted for after each one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.game.actions import (
    DISCARD,
    STOCK,
    Action,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
)
from rami.game.checks import (
    deal_problems,
    deck_difference,
    engine_problems,
    judged_position,
    lost_cards,
    same_table,
)
from rami.game.deck import Deal, Reshuffler, make_deck, random_reshuffler
from rami.game.presets import DrawRule, GameOptions, StockEmpty, game_rules
from rami.game.scoring import BLOCKED, CAP, OUT, TURN_LIMIT, RoundResult, score_round
from rami.game.scoring import STOCK as STOCK_OUT
from rami.game.state import CLAIM, DRAW, OVER, PLAY, RoundState, View
from rami.notation import meld_to_json
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import Ruleset


class Round:
    """A round in progress. ``first`` is the seat that plays first; ``active`` the seats in it."""

    def __init__(
        self,
        rules: Ruleset,
        options: GameOptions,
        deal_: Deal,
        *,
        first: int,
        active: Sequence[bool],
        number: int = 1,
        scores: Sequence[int] | None = None,
        reshuffler: Reshuffler | None = None,
        deal_sizes: bool = True,
    ) -> None:
        self.rules = rules
        self.game = game_rules(rules)
        self.options = options
        self.number = number
        self.active = tuple(active)
        self.players = len(self.active)
        self.first = first
        self.totals = tuple(scores) if scores is not None else (0,) * self.players
        self.reshuffler = reshuffler or random_reshuffler(random.Random(0))
        self.deck = Counter(make_deck(rules))
        self.deal = deal_
        self.events: list[dict[str, Any]] = []
        self.turns = 0
        self.reshuffles = 0
        self.passes = 0
        self.phase = PLAY
        self.to_move = first
        self.taken: Card | None = None
        self.drawn: Card | None = None
        self.claimed = False
        self.claim_queue: list[int] = []
        self.after_claims = first
        self.result: RoundResult | None = None
        self._check_deal(deal_sizes)
        seats = [seat for seat in range(self.players) if self.active[seat]]
        self.state = RoundState(
            stock=list(reversed(deal_.stock)),
            discard=[deal_.discard] if deal_.discard is not None else [],
            hands={seat: Counter(deal_.hands[seat]) for seat in seats},
            opened=dict.fromkeys(seats, False),
            laid=dict.fromkeys(seats, False),
            known={seat: Counter() for seat in seats},
        )
        if self.game.claims and self.state.discard:
            self._offer_claims(first, include=True, then=first)
        else:
            self._start_turn(first)
        self._check_cards()

    # ------------------------------------------------------------------ setup and checks

    @property
    def where(self) -> str:
        return f"round {self.number}, turn {self.turns + 1}, seat {self.to_move}"

    def _check_deal(self, sizes: bool) -> None:
        """The deal holds the whole deck; with ``sizes``, each hand the preset's deal size (a
        test may deal short hands to set up a known position)."""
        problems = deal_problems(
            self.deal, self.game, self.rules.name, self.active, self.deck, sizes
        )
        if not 0 <= self.first < self.players or not self.active[self.first]:
            problems.append(f"seat {self.first} cannot play first")
        if problems:
            raise IllegalActionError(problems, f"round {self.number}, deal")

    def _check_cards(self) -> None:
        lost = lost_cards(self.state, self.deck)
        if lost:
            raise GameInternalError(f"{self.where}: cards not conserved: {lost}")

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, seat: int) -> None:
        self.to_move = seat
        self.taken = self.drawn = None
        self.claimed = False
        if self.game.turn_cap is not None and self.turns >= self.game.turn_cap:
            self._finish(CAP)
            return
        if self.turns >= self.options.max_turns:
            self._finish(TURN_LIMIT)
            return
        if self.game.draw is DrawRule.NONE:
            self.phase = PLAY
            return
        if not self.state.stock and not self._refill():
            return
        draws = self.legal_draws()
        if draws == (STOCK,):
            self._draw(STOCK)
            self.phase = PLAY
        else:
            self.phase = DRAW

    def _refill(self) -> bool:
        """The stock is empty and a card must be drawn: reshuffle, or end the round."""
        game = self.game
        discard = self.state.discard
        if (
            game.stock_empty is not StockEmpty.RESHUFFLE
            or (game.max_reshuffles is not None and self.reshuffles >= game.max_reshuffles)
            or len(discard) <= 1
        ):
            self._finish(STOCK_OUT)
            return False
        rest = discard[:-1]
        new_stock = list(self.reshuffler(list(rest), self.reshuffles + 1))
        if Counter(new_stock) != Counter(rest):
            raise IllegalActionError(
                [deck_difference("the reshuffled stock", Counter(new_stock), Counter(rest))],
                f"round {self.number}, reshuffle {self.reshuffles + 1}",
            )
        self.reshuffles += 1
        self.state.stock = list(reversed(new_stock))
        self.state.discard = [discard[-1]]
        self.events.append({"reshuffle": self.reshuffles, "stock": [str(c) for c in new_stock]})
        return True

    def legal_draws(self) -> tuple[str, ...]:
        if self.phase == OVER or self.game.draw is DrawRule.NONE:
            return ()
        if self.game.draw in (DrawRule.STOCK_ONLY, DrawRule.STOCK_CLAIM) or not self.state.discard:
            return (STOCK,)
        return (STOCK, DISCARD)

    def _draw(self, source: str) -> None:
        seat = self.to_move
        if source == STOCK:
            card = self.state.stock.pop()
        else:
            card = self.state.discard.pop()
            self.taken = card
            self.state.known[seat][card] += 1
        self.state.hands[seat][card] += 1
        self.drawn = card
        self.events.append({"seat": seat, "draw": source, "card": str(card)})

    def _next(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            other = (seat + step) % self.players
            if self.active[other]:
                return other
        return seat

    def _offer_claims(self, seat: int, *, include: bool, then: int) -> None:
        """Rami fou (decision 9): the last discard is offered to each player in turn order."""
        self.after_claims = then
        if not self.state.stock or not self.state.discard:
            self._start_turn(then)
            return
        order = [seat] if include else []
        other = self._next(seat)
        while other != seat:
            order.append(other)
            other = self._next(other)
        self.claim_queue = order
        self.phase = CLAIM
        self.to_move = order[0]

    # ------------------------------------------------------------------ actions

    def apply(self, action: Action) -> None:
        """Check and apply the answer of the seat to move; IllegalActionError changes nothing."""
        if self.phase == OVER:
            raise IllegalActionError(["the round is over"], f"round {self.number}")
        if self.phase == DRAW:
            if not isinstance(action, Draw):
                raise IllegalActionError(
                    [f"expected a draw ({', '.join(self.legal_draws())})"], self.where
                )
            allowed = self.legal_draws()
            if action.source not in allowed:
                raise IllegalActionError(
                    [
                        f"{self.rules.name} draws from {' or '.join(allowed)} here, not "
                        f"{action.source!r}"
                    ],
                    self.where,
                )
            self._draw(action.source)
            self.phase = PLAY
        elif self.phase == CLAIM:
            if not isinstance(action, Claim):
                raise IllegalActionError(["expected a claim answer (take it or not)"], self.where)
            self._claim(action.take)
        else:
            if not isinstance(action, Play):
                raise IllegalActionError(
                    ["expected a play (table after, cards played, discard)"], self.where
                )
            self._play(action)
        self._check_cards()

    def _claim(self, take: bool) -> None:
        seat = self.claim_queue[0]
        if not take:
            self.claim_queue.pop(0)
            if self.claim_queue:
                self.to_move = self.claim_queue[0]
            else:
                self._start_turn(self.after_claims)
            return
        self.claim_queue = []
        card = self.state.discard.pop()
        penalty = self.state.stock.pop()
        hand = self.state.hands[seat]
        hand[card] += 1
        hand[penalty] += 1
        self.state.known[seat][card] += 1
        self.to_move = seat
        self.taken, self.drawn, self.claimed = card, penalty, True
        self.phase = PLAY
        self.events.append({"seat": seat, "claim": str(card), "penalty": str(penalty)})

    def position(self) -> Position:
        """The position of the seat to move (its turn after the draw)."""
        seat = self.to_move
        return Position(
            self.state.table,
            tuple(self.state.hands[seat].elements()),
            self.state.opened[seat],
            self.rules,
            self.taken,
        )

    def _play(self, play: Play) -> None:
        seat = self.to_move
        position = self.position()
        verdict = validate_turn(
            judged_position(self.rules, position, play), play.table, play.played, play.discard
        )
        problems = list(verdict.problems)
        if verdict.legal:
            problems.extend(
                engine_problems(self.rules, self.game, self.state.table, self.taken, position, play)
            )
        if problems:
            raise IllegalActionError(problems, self.where)
        state = self.state
        opened_before = state.opened[seat]
        event: dict[str, Any] = {"seat": seat, "played": [str(card) for card in play.played]}
        changed = not same_table(play.table, state.table)
        if changed:
            event["table"] = [meld_to_json(meld) for meld in play.table]
        if play.discard is not None:
            event["discard"] = str(play.discard)
        state.hands[seat] = Counter(verdict.hand_after)
        if changed:
            state.table = play.table
        if play.discard is not None:
            state.discard.append(play.discard)
        state.opened[seat] = verdict.opened_after
        if play.played:
            state.laid[seat] = True
        state.known[seat] = state.known[seat] & state.hands[seat]
        self.turns += 1
        self.events.append(event)
        if not state.hands[seat]:
            self._finish(OUT, seat, self.game.rami_sec and not opened_before)
            return
        if self.game.draw is DrawRule.NONE:
            if play.played:
                self.passes = 0
            elif state.stock:
                card = state.stock.pop()
                state.hands[seat][card] += 1
                self.events.append({"seat": seat, "draw": STOCK, "card": str(card)})
                self.passes = 0
            else:
                self.passes += 1
                if self.passes >= sum(self.active):
                    self._finish(BLOCKED)
                    return
        if play.discard is not None and self.game.claims:
            self._offer_claims(seat, include=False, then=self._next(seat))
        else:
            self._start_turn(self._next(seat))

    def _finish(self, reason: str, winner: int | None = None, rami_sec: bool = False) -> None:
        self.phase = OVER
        self.claim_queue = []
        self.result = score_round(
            self.rules,
            self.game,
            self.players,
            self.state.hands,
            self.state.opened,
            reason,
            winner,
            rami_sec,
        )

    @property
    def over(self) -> bool:
        return self.phase == OVER

    # ------------------------------------------------------------------ what a seat sees

    def view(self, seat: int | None = None) -> View:
        """The visible state of ``seat`` (the seat to move by default), for the current request."""
        seat = self.to_move if seat is None else seat
        state = self.state
        asked = seat == self.to_move and self.phase != OVER
        phase = self.phase if asked else PLAY
        return View(
            rules=self.rules,
            seat=seat,
            phase=phase,
            hand=tuple(state.hands.get(seat, Counter()).elements()),
            table=state.table,
            discard_pile=tuple(state.discard),
            stock_size=len(state.stock),
            hand_sizes=tuple(
                sum(state.hands[s].values()) if s in state.hands else 0 for s in range(self.players)
            ),
            opened=tuple(state.opened.get(s, False) for s in range(self.players)),
            active=self.active,
            known=tuple(
                tuple(sorted(state.known[s].elements())) if s in state.known else ()
                for s in range(self.players)
            ),
            scores=self.totals,
            round=self.number,
            turn=self.turns,
            first=self.first,
            draws=self.legal_draws() if asked and phase == DRAW else (),
            taken_discard=self.taken if asked and phase == PLAY else None,
            drawn=self.drawn if asked and phase == PLAY else None,
            claim_card=state.discard[-1] if asked and phase == CLAIM else None,
            claimed=self.claimed if asked and phase == PLAY else False,
            reshuffles=self.reshuffles,
            target=self.options.target,
        )

    def hands(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(
            tuple(sorted(self.state.hands[s].elements())) if s in self.state.hands else ()
            for s in range(self.players)
        )
