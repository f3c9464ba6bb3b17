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
Each turn is told as moves (:mod:`rami.game.turn_text`), a bot's melds kept in the table's
order (a meld keeps its number from turn to turn; :mod:`rami.game.session_log`); the log's
sentences are in the language asked (:mod:`rami.game.session_text`).
:attr:`GameSession.journal` lists every action applied (the bots', the person's, ``{"action":
"next"}`` for a round dealt), and ``GameSession(..., journal=...)`` replays it without asking
the bots: the same game in any process (a bot's solve cut by the wall clock could answer
otherwise).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.errors import NotationError
from rami.game.actions import (
    DISCARD,
    SOURCES,
    Action,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
    action_from_json,
)
from rami.game.deck import deal, random_reshuffler, stream
from rami.game.levels import check_table, make_bot
from rami.game.match import first_seat, round_first
from rami.game.moves import arrange_like
from rami.game.presets import GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.scoring import game_after_round
from rami.game.session_log import TableLog, entry_json
from rami.game.state import CLAIM, DRAW, PLAY
from rami.game.turn_text import in_table_order
from rami.lang import ENGLISH, Language
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

#: The entry of :attr:`GameSession.journal` that deals the next round.
NEXT = {"action": "next"}


class NotAskedError(IllegalActionError):
    """An answer to what the game does not ask now (a draw while a play is asked, say)."""


class ReplayError(GameInternalError):
    """A journal that does not replay: an action the engine refuses, or one left over."""


class GameSession:
    """One game: the person at seat 0, one bot per level after it."""

    def __init__(
        self,
        rules: str,
        levels: Sequence[str],
        seed: int,
        options: GameOptions | None = None,
        *,
        journal: Sequence[dict[str, Any]] = (),
    ) -> None:
        self.rules = get_ruleset(rules)
        self.game = game_rules(self.rules)
        self.options = (options or GameOptions()).resolved(self.rules)
        self.levels = tuple(levels)
        count = 1 + len(self.levels)
        check_table(self.rules, self.levels, count, f" (you and {len(self.levels)} bots)")
        self.seed = seed
        self.names = ["You"] + [
            f"P{seat + 1} ({level})" for seat, level in enumerate(self.levels, start=1)
        ]
        self.bots = [None] + [
            make_bot(level, seed + seat) for seat, level in enumerate(self.levels, start=1)
        ]
        self.active = [True] * count
        self.totals = [0] * count
        self.first = first_seat(seed, count)
        self.number = 0
        #: What the table saw; keys starting with "_" stay in the session (to_json).
        self._table_log = TableLog()
        self.log = self._table_log.entries
        self.rounds: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.round_over = False
        #: Every action applied, in order (the record the session is rebuilt from).
        self.journal: list[dict[str, Any]] = []
        #: The person's answers applied so far (draws, claims, plays, next rounds).
        self.decisions = 0
        self._script: deque[dict[str, Any]] = deque(journal)
        self.round = self._deal()
        self._advance()
        if self._script:
            raise ReplayError(
                f"{len(self._script)} journal entries left over after the game "
                f"replayed to {self.phase}"
            )

    # ------------------------------------------------------------------ the flow

    def _deal(self) -> Round:
        self.number += 1
        if self.number > 1:
            self.first = round_first(self.first, self.active)
        dealt = deal(self.rules, self.active, stream(self.seed, "deal", self.number))
        self.round_over = False
        self._table_log.dealt(self.number, self.first)
        return Round(
            self.rules,
            self.options,
            dealt,
            first=self.first,
            active=self.active,
            number=self.number,
            scores=self.totals,
            reshuffler=random_reshuffler(stream(self.seed, "reshuffle", self.number)),
        )

    def _advance(self) -> None:
        """Play on until the person is asked something: the journal's actions left to replay
        first (a round dealt on its "next"), then the bots' own answers."""
        for _ in range(MAX_BOT_STEPS + len(self._script)):
            self._log_events()
            rnd = self.round
            if rnd.over and not self.round_over:
                self._end_round()
            if self.round_over:
                if self.result is None and self._script and self._script[0] == NEXT:
                    self._script.popleft()
                    self._count(NEXT, HUMAN)
                    self.round = self._deal()
                    continue
                return
            seat = rnd.to_move
            if self._script:
                action = self._replayed(self._script.popleft())
                try:
                    self._apply(action, seat)
                except IllegalActionError as error:
                    raise ReplayError(
                        f"journal entry {len(self.journal)} refused: {'; '.join(error.problems)}"
                    ) from error
                continue
            if seat == HUMAN:
                return
            bot = self.bots[seat]
            assert bot is not None
            view = rnd.view()
            action = bot.act(view)
            if isinstance(action, Play) and action.table:  # the table keeps its numbering
                action = Play(
                    in_table_order(action.table, rnd.state.table), action.played, action.discard
                )
            try:
                self._apply(action, seat)
            except IllegalActionError as error:
                raise GameInternalError(
                    f"{self.names[seat]} proposed an illegal {view.phase} at {error.where}: "
                    f"{'; '.join(error.problems)}; action {action.to_json()}"
                ) from error
        raise GameInternalError(f"{MAX_BOT_STEPS} bot steps without the person being asked")

    def _replayed(self, entry: dict[str, Any]) -> Action:
        try:
            return action_from_json(entry)
        except NotationError as error:
            raise ReplayError(f"journal entry {len(self.journal)}: {error}") from None

    def _apply(self, action: Action, seat: int) -> None:
        """Apply one action to the round (the engine judges it: IllegalActionError changes
        nothing) and journal it."""
        self.round.apply(action)
        self._count(action.to_json(), seat)

    def _count(self, entry: dict[str, Any], seat: int) -> None:
        self.journal.append(entry)
        if seat == HUMAN:
            self.decisions += 1

    def _end_round(self) -> None:
        rnd = self.round
        assert rnd.result is not None
        self.totals = [
            total + score for total, score in zip(self.totals, rnd.result.scores, strict=True)
        ]
        outcome = game_after_round(self.game, self.options, self.totals, self.active, self.number)
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
        self.log.append(
            {
                "kind": "round-over",
                "round": self.number,
                "_reason": rnd.result.reason,
                "_winners": list(rnd.result.winners),
                "_scores": list(rnd.result.scores),
            }
        )
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
            self.log.append(
                {"kind": "game-over", "round": self.number, "_winners": list(outcome.winners)}
            )

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
                [
                    f"you are asked to {_ASKED.get(self.phase, self.phase)}, not to "
                    f"{' or '.join(_ASKED.get(p, p) for p in phases)}"
                ],
                f"round {self.number}",
            )

    def draw(self, source: str) -> None:
        """Draw from ``source`` (stock or discard) where the preset lets the person choose."""
        self._expect(DRAW)
        if source not in SOURCES:
            raise IllegalActionError(
                [f"draw from 'stock' or 'discard', not {source!r}"], self.round.where
            )
        if source == DISCARD:  # a draw no turn the referee accepts would follow is refused
            from rami.game.taking import taking_problem

            problem = taking_problem(self.round.view())
            if problem is not None:
                raise IllegalActionError([problem], self.round.where)
        self._apply(Draw(source), HUMAN)
        self._advance()

    def claim(self, take: bool) -> None:
        """Rami fou: take the last discard (and a penalty card) out of turn, or let it go."""
        self._expect(CLAIM)
        self._apply(Claim(take), HUMAN)
        self._advance()

    def play(self, melds: Sequence[Sequence[Card]], discard: Card | None = None) -> None:
        """The person's turn: the melds as they lie after it, in the page's numbering (the
        table's melds first, in their order, an emptied one as an empty list; new melds
        after), and the discard. The cards played are the cards the table gained; the melds are
        laid out by the library (jokers kept where they stood where they can)."""
        self._expect(PLAY)
        before = self.round.state.table
        table = self.laid_out(melds)
        gained = _counts(table) - _counts(before)
        self._apply(Play(table, tuple(sorted(gained.elements())), discard), HUMAN)
        self._advance()

    def laid_out(self, melds: Sequence[Sequence[Card]]) -> tuple[Meld, ...]:
        """Melds in the page's numbering (the table's first, an emptied one as an empty list)
        laid out by the library, empty ones dropped: the table of :meth:`play`, and the
        working table a hint starts from."""
        before = self.round.state.table
        return tuple(
            arrange_like(list(cards), self.rules, before[index] if index < len(before) else None)
            for index, cards in enumerate(melds)
            if cards
        )

    def next_round(self) -> None:
        """Deal the next round, once the person has seen the last one's scores."""
        self._expect(ROUND_OVER)
        self._count(NEXT, HUMAN)
        self.round = self._deal()
        self._advance()

    # ------------------------------------------------------------------ what seat 0 sees

    def _log_events(self) -> None:
        self._table_log.catch_up(self.round, self.number)

    def entry_json(self, entry: dict[str, Any], language: Language = ENGLISH) -> dict[str, Any]:
        """A log entry as sent (:func:`rami.game.session_log.entry_json`)."""
        return entry_json(entry, self.names, language)

    def to_json(
        self, events_from: int | None = None, language: Language = ENGLISH
    ) -> dict[str, Any]:
        """What the person sees: their view, the game so far, and the log from
        ``events_from`` (the last 50 entries by default), its sentences in ``language``."""
        view = self.round.view(HUMAN).to_json()
        asked = self.phase
        view["phase"] = asked
        start = max(0, len(self.log) - 50) if events_from is None else max(0, events_from)
        return {
            "rules": self.rules.option_string,
            "title": self.rules.title,
            "seed": self.seed,
            "players": [
                {
                    "seat": seat,
                    "name": name,
                    "level": "human" if seat == HUMAN else self.levels[seat - 1],
                }
                for seat, name in enumerate(self.names)
            ],
            "phase": asked,
            "to_move": self.round.to_move if asked in (DRAW, PLAY, CLAIM) else None,
            "discard_rule": self.rules.discard,
            "going_out": self.rules.going_out.value,
            "view": view,
            "rounds": self.rounds,
            "totals": list(self.totals),
            "result": self.result,
            "events": [self.entry_json(entry, language) for entry in self.log[start:]],
            "event_count": len(self.log),
        }


_ASKED = {
    DRAW: "draw",
    PLAY: "play your turn",
    CLAIM: "answer the claim (take or pass)",
    ROUND_OVER: "start the next round",
    GAME_OVER: "start a new game (this one is over)",
}


def _counts(table: Sequence[Meld]) -> Counter[Card]:
    return Counter(card for meld in table for card in meld.cards)


__all__ = [
    "GAME_OVER",
    "HUMAN",
    "NEXT",
    "ROUND_OVER",
    "GameSession",
    "NotAskedError",
    "ReplayError",
]
