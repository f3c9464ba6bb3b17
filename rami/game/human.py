"""``rami play``: a person against bots in the terminal.

The person is a player like the bots (:class:`TerminalPlayer`, acting on its
:class:`~rami.game.state.View` only); moves are typed in the language of :mod:`rami.game.moves`
and the turn goes to the engine, hence to the referee, when it is submitted (``discard`` or
``done``): an illegal turn is refused with the referee's reasons and the person fixes it
(``undo``) or starts again. Other players' actions are told as the table sees them: a card drawn
from the stock is never shown.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from rami.cards import Card
from rami.errors import EXIT_INTERRUPTED
from rami.game.actions import (
    DISCARD,
    Action,
    Claim,
    Draw,
    GameInternalError,
    IllegalActionError,
    Play,
)
from rami.game.advice import can_follow, taking_problem, taking_reminder
from rami.game.advice_text import card_name
from rami.game.human_follow import Followers
from rami.game.human_hint import PLAY_HINT, hint_text, hinted_action, is_play_hint
from rami.game.human_record import Keeper, Resume, ResumeError, SavedGame, Seat, record_header
from rami.game.human_tell import Narrator, TableOrder
from rami.game.human_text import (
    card_text,
    cards_text,
    english_line,
    expand,
    hand_text,
    line_editing,
    not_now,
    refusal,
    say,
    table_text,
)
from rami.game.levels import check_level, level_note, make_bot
from rami.game.match import play_game
from rami.game.moves import Command, MoveError, WorkTable, parse_command
from rami.game.presets import GameError, GameOptions, game_rules
from rami.game.state import CLAIM, DRAW, View
from rami.lang import ENGLISH, Language
from rami.rules import Ruleset, get_ruleset

HELP = """Commands:
  draw stock | draw discard     take a card (where the rules let you choose); short: stock, pile
  lay 7H 8H 9H                  lay a new meld from your hand
  add 8C to 3                   add hand cards to meld 3
  move 5C from 3 to 5           move table cards from meld 3 to meld 5 (a new number: new meld)
  split 1 after 6H              cut meld 1 after 6H; the rest becomes a new meld
  swap 5H in 3                  put 5H in place of the joker of meld 3
  discard 2S                    end your turn with this discard
  done                          end your turn (presets without a discard, or going out)
  undo                          take back your last move this turn
  hint [1|2|3]                  a hint at the draw, at a claim or for your turn, from the
                                moves made so far (3: the whole turn, as moves)
  play hint | ph                do what the hint says (the referee judges the turn)
  table | hand                  show the table, your hand
  claim | pass                  (rami fou) take the last discard out of turn, or not
  quit                          leave the game (with --out, 'rami play --resume FILE' goes on)
  help | ?                      this list (at a terminal: arrows edit the line, up/down recall)"""


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
            try:
                command = parse_command(english_line(expand(line, view), self.language))
            except MoveError as error:
                self.echo(f"  {say(str(error), self.language)}")
                continue
            if command.verb == "quit":
                raise QuitGame
            if command.verb == "help":
                self.echo(HELP)
                continue
            return command

    def refused(self, error: IllegalActionError) -> None:
        self.echo("Refused by the referee:")
        self.echo(f"  - {refusal(error.problems, self.language)}")
        self.echo("Fix the turn (undo, more moves) and submit it again.")

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
        self.echo(f"Top of the discard pile: {self.card(view.top_discard)}")
        while True:
            command = self.ask(f"Draw from {' or '.join(view.draws)}? ", view)
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
            command = self.ask(
                f"Claim {self.card(view.claim_card)} (and a penalty card from "
                "the stock)? claim / pass ",
                view,
            )
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
                self.echo(
                    f"You {'claim' if view.claimed else 'draw'} "
                    f"{card_name(view.taken_discard or view.drawn, self.language)}"
                    + (
                        f" and the penalty card {card_name(view.drawn, self.language)}"
                        if view.claimed
                        else ""
                    )
                    + (
                        ""
                        if view.taken_discard is None or view.claimed
                        else " from the discard pile"
                    )
                )
            self._show(view, self.work)
        work = self.work
        rules = view.rules
        while True:
            command = self.ask("Your move? ", view)
            verb = command.verb
            if self._asked_anywhere(command, view):
                continue
            if verb == "undo":
                self.echo("  undone" if work.undo() else "  nothing to undo this turn")
                self._show(view, work)
            elif verb == PLAY_HINT:
                action = hinted_action(view, self.echo, self.language, work)
                if action is not None:
                    return action
            elif verb == "discard":
                if not rules.discard:
                    self.echo(f"  {rules.name} has no discard: type 'done'")
                    continue
                return Play(work.table(), work.played(), command.cards[0])
            elif verb == "done":
                if rules.discard and work.hand_cards():
                    self.echo("  end your turn with 'discard CARD'")
                    continue
                return Play(work.table(), work.played(), None)
            elif verb in ("lay", "add", "move", "split", "swap"):
                try:
                    self.echo(f"  {say(work.apply(command), self.language)}")
                except MoveError as error:
                    self.echo(f"  {say(str(error), self.language)}")
                    continue
                self._show(view, work)
            else:
                self.echo(f"  {not_now(verb, view, self.language)}")


def _can_follow(view: View) -> bool:
    """Does some legal turn follow taking the top discard? (The name other modules import;
    :func:`rami.game.advice.taking_problem` says why not, in plain words.)"""
    return can_follow(view)


def play_in_terminal(
    rules: str,
    levels: tuple[str, ...],
    seed: int,
    stdin: IO[str],
    echo: Callable[[str], None],
    *,
    options: GameOptions | None = None,
    out: str | None = None,
    saved: SavedGame | None = None,
    resume_from: str = "",
    language: Language = ENGLISH,
    warn: Callable[[str], None] | None = None,
) -> int:
    """Play a whole game: the person at seat 0, one bot per level. Returns the exit code.

    With ``out`` the game's record is written there after every action; with ``saved`` (read
    by :func:`rami.game.human_record.load_game` from ``resume_from``) the recorded actions are
    played again through the engine first, and the game goes on from where they stop.
    """
    ruleset = get_ruleset(rules)
    options = (options or GameOptions()).resolved(ruleset)
    warn = warn or echo
    names = _seat_names(ruleset, levels)
    keeper = Keeper(
        Path(out) if out else None, record_header(ruleset, options, seed, names, ["human", *levels])
    )
    if saved is None:
        keeper.save()  # the file exists, and can be written, before the game starts
    keeper.warn = warn
    resume = Resume(saved, resume_from)
    order = TableOrder()
    reader = terminal_reader(stdin, echo)
    human = TerminalPlayer(reader, echo, language, order)
    narrator = Narrator(names, ruleset, options, echo, order, language)
    if stdin.isatty():
        narrator.pause = lambda number: _pause(reader, number)

    follow = Followers(narrator, keeper, resume, echo, resume_from)
    players = [Seat(human, resume, follow.watch)] + [
        Seat(make_bot(level, seed + seat), resume, follow.watch)
        for seat, level in enumerate(levels, 1)
    ]
    echo(f"{ruleset.title}: you against {', '.join(levels)} (seed {seed}). Type 'help'.")
    for note in dict.fromkeys(filter(None, (level_note(level, ruleset) for level in levels))):
        echo(f"Note: {note}.")
    kept = kept_note(out)
    try:
        record = play_game(
            ruleset,
            players,
            seed,
            options=options,
            names=names,
            levels=["human", *levels],
            listener=follow.listener,
            round_listener=follow.round_done,
        )
    except (QuitGame, KeyboardInterrupt, GameInternalError) as stop:
        return _stopped(stop, echo, warn, kept, resume.live, resume_from)
    keeper.writing = True
    keeper.save(record)
    echo(
        f"Game over: {winners_text(record, names)}. Totals: {totals_text(record, names)}."
        + (f" The record is in {out}." if out else "")
    )
    return 0


def _seat_names(ruleset: Ruleset, levels: tuple[str, ...]) -> list[str]:
    """The players' names, "You" at seat 0 and one bot per level; the levels and the number of
    players checked against the rules."""
    names = ["You"] + [f"P{seat + 2} ({level})" for seat, level in enumerate(levels)]
    for level in levels:
        check_level(level, ruleset)
    whole = game_rules(ruleset)
    if not whole.min_players <= len(names) <= whole.max_players:
        raise GameError(
            f"{ruleset.name} is played by {whole.min_players} to "
            f"{whole.max_players} players, not {len(names)}"
        )
    return names


def _stopped(
    stop: BaseException,
    echo: Callable[[str], None],
    warn: Callable[[str], None],
    kept: str,
    live: bool,
    resume_from: str,
) -> int:
    """A game that stopped before its end: quit (0), interrupted, or an internal error (1);
    an error in the recorded actions of a resumed game is a :class:`ResumeError`."""
    if isinstance(stop, QuitGame):
        echo("Game abandoned." + kept)
        return 0
    if isinstance(stop, KeyboardInterrupt):
        echo("Interrupted." + kept)
        return EXIT_INTERRUPTED
    if not live:  # a recorded bot action the referee refuses
        raise ResumeError(f"{resume_from} does not continue: {stop}") from None
    warn(f"Internal error (a bug, please report it): {stop}.{kept}")
    return 1


def _pause(read: Callable[[str], str | None], number: int) -> None:
    """Between rounds at a terminal: the person says when to deal the next one."""
    line = read(f"Press Enter to deal round {number} (or type quit). ")
    if line is None or line.strip().lower() == "quit":
        raise QuitGame


def kept_note(out: str | None) -> str:
    """Where a game left before its end is kept (nothing without ``--out``)."""
    return (
        f" The game so far is kept in {out}: 'rami play --resume {out}' goes on with it."
        if out
        else ""
    )


def terminal_reader(stdin: IO[str], echo: Callable[[str], None]) -> Callable[[str], str | None]:
    """Reads one typed line after a prompt (None at the end of the input). At a terminal the
    line is read by ``input()`` with readline's editing and history where Python has it; a
    line read from a file or a pipe is echoed after the prompt, as a transcript."""
    if stdin is sys.stdin and stdin.isatty():
        line_editing()

        def edited(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:  # Ctrl-D
                echo("")
                return None

        return edited

    def read(prompt: str) -> str | None:
        echo(prompt)
        line = stdin.readline()
        if not line:
            return None
        if not stdin.isatty():
            echo(f"> {line.rstrip()}")
        return line

    return read


def winners_text(record: dict[str, Any], names: list[str]) -> str:
    winners = [names[seat] for seat in record["winners"]]
    verb = "win" if winners == ["You"] or len(winners) > 1 else "wins"
    return f"{' and '.join(winners)} {verb}" + (" (a draw)" if record.get("draw") else "")


def totals_text(record: dict[str, Any], names: list[str]) -> str:
    return ", ".join(
        f"{name} {total} point{'s' if total != 1 else ''}"
        for name, total in zip(names, record["totals"], strict=True)
    )


__all__ = ["HELP", "QuitGame", "TerminalPlayer", "play_in_terminal"]
