"""``rami play``: a person against bots in the terminal, the person's seat (the whole game is
:mod:`rami.game.human_game`).

The person is a player like the bots (:class:`TerminalPlayer`, acting on its
:class:`~rami.game.state.View` only); moves are typed in the language of :mod:`rami.game.moves`
and the turn goes to the engine, hence to the referee, when it is submitted (``discard`` or
``done``): an illegal turn is refused with the referee's reasons and the person fixes it
(``undo``) or starts again. Other players' actions are told as the table sees them: a card drawn
from the stock is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rami.cards import Card
from rami.game.actions import (
    DISCARD,
    Action,
    Claim,
    Draw,
    IllegalActionError,
    Play,
)
from rami.game.advice_text import card_name
from rami.game.human_hint import PLAY_HINT, hint_text, hinted_action, is_play_hint
from rami.game.human_tell import TableOrder
from rami.game.human_text import (
    card_text,
    cards_text,
    english_line,
    expand,
    hand_text,
    not_now,
    refusal,
    say,
    sources_text,
    table_text,
)
from rami.game.moves import Command, MoveError, WorkTable, parse_command
from rami.game.state import CLAIM, DRAW, View
from rami.game.taking import taking_problem, taking_reminder
from rami.lang import ENGLISH, Language
from rami.phrasebook import say as phrase
from rami.phrasebook import template

#: The commands as ``help`` lists them in English (the phrase book's ``play.help``, said in the
#: player's language).
HELP = template("play.help", ENGLISH)


class QuitGame(Exception):
    """The person typed quit."""


class TerminalPlayer:
    level = "human"

    def __init__(
        self,
        read: Callable[[str], str | None],
        echo: Callable[[str], None],
        language: Language = ENGLISH,
        order: TableOrder | None = None,
    ) -> None:
        self.read = read
        self.echo = echo
        self.language = language
        self.order = order or TableOrder()
        self.work: WorkTable | None = None
        self.turn_key: tuple[int, int] | None = None

    def cards(self, cards: Any) -> str:
        return cards_text(cards, self.language)

    def card(self, card: Card | None) -> str:
        return card_text(card, self.language)

    def ask(self, prompt: str, view: View | None = None) -> Command:
        while True:
            line = self.read(prompt)
            if line is None:
                raise QuitGame
            if is_play_hint(line):
                return Command(PLAY_HINT)
            if not line.strip():
                self.echo(f"  {phrase('play.empty', self.language)}")
                continue
            try:
                typed = expand(line, view, self.language)
                command = parse_command(english_line(typed, self.language))
            except MoveError as error:
                self.echo(f"  {say(str(error), self.language)}")
                continue
            if command.verb == "quit":
                raise QuitGame
            if command.verb == "help":
                self.echo(template("play.help", self.language))
                continue
            return command

    def refused(self, error: IllegalActionError) -> None:
        self.echo(phrase("play.refused", self.language))
        self.echo(f"  - {refusal(error.problems, self.language)}")
        self.echo(phrase("play.fix", self.language))

    def act(self, view: View) -> Action:
        if view.phase == DRAW:
            return self._draw(view)
        if view.phase == CLAIM:
            return self._claim(view)
        return self._play(view)

    def _show(self, view: View, work: WorkTable | None = None) -> None:
        self.echo(table_text(view, work, self.language, self.order.arrange(view.table)))
        self.echo(hand_text(view, work, self.language))

    def _asked_anywhere(self, command: Command, view: View) -> bool:
        """The commands of every decision: show the table and hand, a hint. True if done."""
        if command.verb in ("table", "hand"):
            self._show(view, self.work if view.phase not in (DRAW, CLAIM) else None)
        elif command.verb == "hint":
            work = self.work if view.phase not in (DRAW, CLAIM) else None
            self.echo(hint_text(view, int(command.word), self.language, work))
        else:
            return False
        return True

    def _draw(self, view: View) -> Action:
        self._show(view)
        self.echo(phrase("play.top", self.language, card=self.card(view.top_discard)))
        sources = sources_text(view, self.language)
        while True:
            command = self.ask(phrase("play.ask-draw", self.language, sources=sources), view)
            if command.verb == PLAY_HINT:
                action = hinted_action(view, self.echo, self.language)
                if not isinstance(action, Draw):
                    continue
                command = Command("draw", word=action.source)
            if command.verb == "draw" and command.word in view.draws:
                if command.word == DISCARD:
                    problem = taking_problem(view, self.language)
                    if problem is not None:
                        self.echo(f"  {problem}")
                        continue
                    reminder = taking_reminder(view, self.language)
                    if reminder is not None:
                        self.echo(f"  {reminder}")
                return Draw(command.word)
            if not self._asked_anywhere(command, view):
                self.echo(f"  {not_now(command.verb, view, self.language)}")

    def _claim(self, view: View) -> Action:
        self._show(view)  # the hand, before the question
        while True:
            asked = phrase("play.ask-claim", self.language, card=self.card(view.claim_card))
            command = self.ask(asked, view)
            if command.verb == PLAY_HINT:
                action = hinted_action(view, self.echo, self.language)
                if isinstance(action, Claim):
                    return action
            elif command.verb in ("claim", "pass"):
                return Claim(command.verb == "claim")
            elif not self._asked_anywhere(command, view):
                self.echo(f"  {not_now(command.verb, view, self.language)}")

    def _play(self, view: View) -> Action:
        key = (view.round, view.turn)
        if self.work is None or self.turn_key != key:
            self.work = WorkTable.start(view.rules, self.order.arrange(view.table), view.hand)
            self.turn_key = key
            if view.drawn is not None:
                self.echo(self._taken(view))
            self._show(view, self.work)
        work = self.work
        rules = view.rules
        language = self.language
        while True:
            command = self.ask(phrase("play.ask-move", self.language), view)
            verb = command.verb
            if self._asked_anywhere(command, view):
                continue
            if verb == "undo":
                said = phrase("play.undone" if work.undo() else "play.nothing-to-undo", language)
                self.echo(f"  {said}")
                self._show(view, work)
            elif verb == PLAY_HINT:
                action = hinted_action(view, self.echo, self.language, work)
                if action is not None:
                    return action
            elif verb == "discard":
                if not rules.discard:
                    self.echo(f"  {phrase('play.no-discard', language, rules=rules.name)}")
                    continue
                return Play(work.table(), work.played(), command.cards[0])
            elif verb == "done":
                if rules.discard and work.hand_cards():
                    self.echo(f"  {phrase('play.end-with-discard', language)}")
                    continue
                return Play(work.table(), work.played(), None)
            elif verb in ("lay", "add", "move", "split", "swap"):
                try:
                    self.echo(f"  {work.apply(command, language)}")
                except MoveError as error:
                    self.echo(f"  {say(str(error), self.language)}")
                    continue
                self._show(view, work)
            else:
                self.echo(f"  {not_now(verb, view, self.language)}")

    def _taken(self, view: View) -> str:
        """The card the person took at the start of the turn (and the penalty card)."""
        language = self.language
        assert view.drawn is not None
        card = card_name(view.taken_discard or view.drawn, language)
        if view.claimed:
            penalty = card_name(view.drawn, language)
            return phrase("play.you-claim", language, card=card, penalty=penalty)
        key = "play.you-draw" if view.taken_discard is None else "play.you-take"
        return phrase(key, language, card=card)


__all__ = ["HELP", "QuitGame", "TerminalPlayer"]
