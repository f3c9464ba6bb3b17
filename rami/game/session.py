"""A game played one request at a time: a person at seat 0 against bots (the page's game mode).

:func:`rami.game.match.play_game` runs a whole game in one call, asking each player in turn;
an app that answers one request at a time (``rami serve``'s ``/games``, docs/page.md) needs the
same game as a state that waits for the person. :class:`GameSession` is that: it deals the
rounds from the seed exactly as ``play_game`` does (first player by lot, one seat on each round,
the same named streams), runs the bots' turns until the person is asked something, and applies
the person's answer through the engine, hence the referee: an illegal answer raises
:class:`~rami.game.actions.IllegalActionError` with the referee's reasons and changes nothing.

What leaves the session is what seat 0 sees: :meth:`GameSession.to_json` is the person's
:class:`~rami.game.state.View` plus a log of the game as the table sees it (a card another
player draws from the stock is never named; a reshuffle gives the new stock's size, never its
order). Hands are shown only at the end of a round, when they are laid down to be counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card, format_cards
from rami.game.actions import (
    DISCARD,
    SOURCES,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
)
from rami.game.deck import deal, random_reshuffler, stream
from rami.game.levels import check_level, make_bot
from rami.game.match import first_seat, round_first
from rami.game.moves import arrange_like
from rami.game.presets import DrawRule, GameError, GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.scoring import game_after_round
from rami.game.state import CLAIM, DRAW, PLAY
from rami.melds import Meld
from rami.rules import get_ruleset

#: The person's seat.
HUMAN = 0
#: What the person is asked besides the round's phases.
ROUND_OVER = "round-over"
GAME_OVER = "game-over"
#: Bot turns in a row after which the session stops (a safety net: the round's own turn limit
#: ends a round long before).
MAX_BOT_STEPS = 20_000

_REASONS = {
    "out": "a player went out",
    "stock": "the stock ran out",
    "cap": "the turn cap was reached",
    "blocked": "nobody could play",
    "turn-limit": "the engine's turn limit was reached",
}


class NotAskedError(IllegalActionError):
    """An answer to what the game does not ask now (a draw while a play is asked, say)."""


class GameSession:
    """One game: the person at seat 0, one bot per level after it."""

    def __init__(
        self,
        rules: str,
        levels: Sequence[str],
        seed: int,
        options: GameOptions | None = None,
    ) -> None:
        self.rules = get_ruleset(rules)
        self.game = game_rules(self.rules)
        self.options = (options or GameOptions()).resolved(self.rules)
        for level in levels:
            check_level(level, self.rules)
        self.levels = tuple(levels)
        count = 1 + len(self.levels)
        if not self.game.min_players <= count <= self.game.max_players:
            raise GameError(
                f"{self.rules.name} is played by {self.game.min_players} to "
                f"{self.game.max_players} players, not {count} (you and {len(self.levels)} "
                "bots)"
            )
        self.seed = seed
        self.names = ["You"] + [f"P{seat + 1} ({level})"
                                for seat, level in enumerate(self.levels, start=1)]
        self.bots = [None] + [make_bot(level, seed + seat)
                              for seat, level in enumerate(self.levels, start=1)]
        self.active = [True] * count
        self.totals = [0] * count
        self.first = first_seat(seed, count)
        self.number = 0
        self.log: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.round_over = False
        self._seen = 0  # events of the round already logged
        self.round = self._deal()
        self._advance()

    # ------------------------------------------------------------------ the flow

    def _deal(self) -> Round:
        self.number += 1
        if self.number > 1:
            self.first = round_first(self.first, self.active)
        dealt = deal(self.rules, self.active, stream(self.seed, "deal", self.number))
        self._seen = 0
        self.round_over = False
        self.log.append({"kind": "deal", "round": self.number, "seat": self.first,
                         "text": f"Round {self.number}: {self.names[self.first]} "
                                 f"{'play' if self.first == HUMAN else 'plays'} first."})
        return Round(
            self.rules, self.options, dealt, first=self.first, active=self.active,
            number=self.number, scores=self.totals,
            reshuffler=random_reshuffler(stream(self.seed, "reshuffle", self.number)),
        )

    def _advance(self) -> None:
        """Play the bots' turns until the person is asked something or the round ends."""
        rnd = self.round
        for _ in range(MAX_BOT_STEPS):
            self._log_events()
            if rnd.over:
                self._end_round()
                return
            if rnd.to_move == HUMAN:
                return
            seat = rnd.to_move
            bot = self.bots[seat]
            assert bot is not None
            view = rnd.view()
            action = bot.act(view)
            try:
                rnd.apply(action)
            except IllegalActionError as error:
                raise GameInternalError(
                    f"{self.names[seat]} proposed an illegal {view.phase} at {error.where}: "
                    f"{'; '.join(error.problems)}; action {action.to_json()}"
                ) from error
        raise GameInternalError(f"{MAX_BOT_STEPS} bot steps without the person being asked")

    def _end_round(self) -> None:
        rnd = self.round
        assert rnd.result is not None
        self.totals = [total + score
                       for total, score in zip(self.totals, rnd.result.scores, strict=True)]
        outcome = game_after_round(self.game, self.options, self.totals, self.active,
                                   self.number)
        summary = {
            "number": self.number,
            "reason": rnd.result.reason,
            "winners": list(rnd.result.winners),
            "rami_sec": rnd.result.rami_sec,
            "hands": [[str(card) for card in hand] for hand in rnd.hands()],
            "scores": list(rnd.result.scores),
            "totals": list(self.totals),
            "eliminated": list(outcome.eliminated),
        }
        self.rounds.append(summary)
        winners = " and ".join(self.names[seat] for seat in rnd.result.winners) or "nobody"
        self.log.append({"kind": "round-over", "round": self.number,
                         "text": f"Round {self.number} over: "
                                 f"{_REASONS.get(rnd.result.reason, rnd.result.reason)}; "
                                 f"won by {winners}. Scores "
                                 + ", ".join(f"{name} {score:+d}" for name, score
                                             in zip(self.names, rnd.result.scores, strict=True))
                                 + "."})
        for seat in outcome.eliminated:
            self.active[seat] = False
        self.round_over = True
        if outcome.over:
            self.result = {
                "totals": list(self.totals),
                "winners": list(outcome.winners),
                "losers": list(outcome.losers),
                "draw": outcome.draw,
                "reason": outcome.reason,
            }
            names = " and ".join(self.names[seat] for seat in outcome.winners)
            verb = "win" if names == "You" or len(outcome.winners) > 1 else "wins"
            self.log.append({"kind": "game-over", "round": self.number,
                             "text": f"Game over: {names} {verb}."})

    # ------------------------------------------------------------------ what seat 0 is asked

    @property
    def phase(self) -> str:
        if self.result is not None:
            return GAME_OVER
        if self.round_over:
            return ROUND_OVER
        return self.round.phase

    def _expect(self, *phases: str) -> None:
        if self.phase not in phases:
            raise NotAskedError(
                [f"you are asked to {_ASKED.get(self.phase, self.phase)}, not to "
                 f"{' or '.join(_ASKED.get(p, p) for p in phases)}"],
                f"round {self.number}")

    def draw(self, source: str) -> None:
        """Draw from ``source`` (stock or discard) where the preset lets the person choose."""
        self._expect(DRAW)
        if source not in SOURCES:
            raise IllegalActionError([f"draw from 'stock' or 'discard', not {source!r}"],
                                     self.round.where)
        view = self.round.view()
        if source == DISCARD and DISCARD in view.draws and not _can_follow(view):
            raise IllegalActionError(
                [f"no legal turn would follow taking {view.top_discard} (a card taken from the "
                 "discard pile may not be discarded the same turn): draw from the stock"],
                self.round.where)
        if source == DISCARD and DISCARD in view.draws and self.game.draw is DrawRule.LAID_ONLY \
                and not _lays_it(view):
            raise IllegalActionError(
                [f"no turn the solver finds lays {view.top_discard} as {self.rules.name} asks "
                 "(decision 10: a card taken from the discard pile is laid in the same turn"
                 + ("" if view.is_opened else ", in the opening") + "): draw from the stock"],
                self.round.where)
        self.round.apply(Draw(source))
        self._advance()

    def claim(self, take: bool) -> None:
        """Rami fou: take the last discard (and a penalty card) out of turn, or let it go."""
        self._expect(CLAIM)
        self.round.apply(Claim(take))
        self._advance()

    def play(self, melds: Sequence[Sequence[Card]], discard: Card | None = None) -> None:
        """The person's turn: the melds as they lie after it, in the page's numbering (the
        table's melds first, in their order, an emptied one as an empty list; new melds
        after), and the discard. The cards played are the cards the table gained; the melds are
        laid out by the library (jokers kept where they stood where they can)."""
        self._expect(PLAY)
        rnd = self.round
        before = rnd.state.table
        table = tuple(
            arrange_like(list(cards), self.rules, before[index] if index < len(before) else None)
            for index, cards in enumerate(melds) if cards
        )
        gained = _counts(table) - _counts(before)
        rnd.apply(Play(table, tuple(sorted(gained.elements())), discard))
        self._advance()

    def next_round(self) -> None:
        """Deal the next round, once the person has seen the last one's scores."""
        self._expect(ROUND_OVER)
        self.round = self._deal()
        self._advance()

    # ------------------------------------------------------------------ what seat 0 sees

    def _log_events(self) -> None:
        rnd = self.round
        for event in rnd.events[self._seen:]:
            self.log.append(self._visible(event, rnd))
        self._seen = len(rnd.events)

    def _visible(self, event: dict[str, Any], rnd: Round) -> dict[str, Any]:
        base = {"round": self.number}
        if "reshuffle" in event:
            size = len(event["stock"])
            return {**base, "kind": "reshuffle", "stock_size": size,
                    "text": f"The discard pile (less its top) is shuffled into a new stock of "
                            f"{size} cards."}
        seat = event["seat"]
        who = self.names[seat]
        if "claim" in event:
            penalty = event["penalty"] if seat == HUMAN else None
            return {**base, "kind": "claim", "seat": seat, "card": event["claim"],
                    "penalty": penalty,
                    "text": f"{who} {'claim' if seat == HUMAN else 'claims'} {event['claim']} "
                            f"and {'take' if seat == HUMAN else 'takes'} a penalty card"
                            + (f" ({penalty})." if penalty else ".")}
        if "draw" in event:
            shown = seat == HUMAN or event["draw"] == DISCARD
            card = event["card"] if shown else None
            verb = "draw" if seat == HUMAN else "draws"
            return {**base, "kind": "draw", "seat": seat, "source": event["draw"], "card": card,
                    "text": f"{who} {verb}{' ' + card if card else ' a card'} from the "
                            f"{event['draw']}{' pile' if event['draw'] == DISCARD else ''}."}
        played = [Card.parse(card) for card in event["played"]]
        verb = "lay" if seat == HUMAN else "lays"
        text = f"{who} {verb} {format_cards(played)}" if played else f"{who} {verb} nothing"
        if event.get("discard"):
            text += f", {'discard' if seat == HUMAN else 'discards'} {event['discard']}"
        if "table" in event and not played:
            text += " (the table rearranged)"
        left = sum(rnd.state.hands[seat].values()) if seat in rnd.state.hands else 0
        return {**base, "kind": "play", "seat": seat, "played": event["played"],
                "discard": event.get("discard"), "table": event.get("table"),
                "hand_size": left, "text": f"{text} ({left} card{'s' if left != 1 else ''} left)."}

    def to_json(self, events_from: int | None = None) -> dict[str, Any]:
        """What the person sees: their view, the game so far, and the log from
        ``events_from`` (the last 50 entries by default)."""
        view = self.round.view(HUMAN).to_json()
        asked = self.phase
        view["phase"] = asked
        start = max(0, len(self.log) - 50) if events_from is None else max(0, events_from)
        return {
            "rules": self.rules.option_string,
            "title": self.rules.title,
            "seed": self.seed,
            "players": [{"seat": seat, "name": name, "level": "human" if seat == HUMAN
                         else self.levels[seat - 1]} for seat, name in enumerate(self.names)],
            "phase": asked,
            "to_move": self.round.to_move if asked in (DRAW, PLAY, CLAIM) else None,
            "discard_rule": self.rules.discard,
            "going_out": self.rules.going_out.value,
            "view": view,
            "rounds": self.rounds,
            "totals": list(self.totals),
            "result": self.result,
            "events": self.log[start:],
            "event_count": len(self.log),
        }


_ASKED = {
    DRAW: "draw", PLAY: "play your turn", CLAIM: "answer the claim (take or pass)",
    ROUND_OVER: "start the next round", GAME_OVER: "start a new game (this one is over)",
}


def _counts(table: Sequence[Meld]) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for meld in table:
        counts.update(meld.cards)
    return counts


def _lays_it(view: Any) -> bool:
    """Rami 51: does the solver's best turn with the top discard lay it as decision 10 asks?
    (Else taking it would leave the person no turn the engine accepts.)"""
    from rami.errors import RamiError
    from rami.game.bots import laid_by_rule, timed_solve
    from rami.position import Position

    top = view.top_discard
    position = Position(view.table, (*view.hand, top), view.is_opened, view.rules, top)
    try:
        solution = timed_solve(position)
    except RamiError:
        return False
    return laid_by_rule(position, Play(solution.table, solution.played, solution.discard), top)


def _can_follow(view: Any) -> bool:
    from rami.game.human import _can_follow as can_follow

    return can_follow(view)


__all__ = ["GAME_OVER", "HUMAN", "ROUND_OVER", "GameSession", "NotAskedError"]
