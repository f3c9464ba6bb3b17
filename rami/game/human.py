"""``rami play``: a person against bots in the terminal.

The person is a player like the bots (:class:`TerminalPlayer`, acting on its
:class:`~rami.game.state.View` only); moves are typed in the language of :mod:`rami.game.moves`
and the turn goes to the engine, hence to the referee, when it is submitted (``discard`` or
``done``): an illegal turn is refused with the referee's reasons and the person fixes it
(``undo``) or starts again. Other players' actions are told as the table sees them: a card drawn
from the stock is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Any

from rami.cards import Card, format_cards
from rami.game.actions import DISCARD, Action, Claim, Draw, IllegalActionError, Play
from rami.game.levels import level_note, make_bot
from rami.game.match import play_game
from rami.game.moves import Command, MoveError, WorkTable, parse_command
from rami.game.presets import GameOptions
from rami.game.rounds import Round
from rami.game.state import CLAIM, DRAW, View
from rami.position import Position
from rami.rules import get_ruleset

HELP = """Commands:
  draw stock | draw discard     take a card (where the rules let you choose)
  lay 7H 8H 9H                  lay a new meld from your hand
  add 8C to 3                   add hand cards to meld 3
  move 5C from 3 to 5           move table cards from meld 3 to meld 5 (a new number: new meld)
  split 1 after 6H              cut meld 1 after 6H; the rest becomes a new meld
  swap 5H in 3                  put 5H in place of the joker of meld 3
  discard 2S                    end your turn with this discard
  done                          end your turn (presets without a discard, or going out)
  undo                          take back your last move this turn
  hint [1|2|3]                  a hint from the solver (3: the whole turn)
  table | hand                  show the table, your hand
  claim | pass                  (rami fou) take the last discard out of turn, or not
  quit                          leave the game"""


class QuitGame(Exception):
    """The person typed quit."""


class TerminalPlayer:
    level = "human"

    def __init__(self, read: Callable[[], str | None], echo: Callable[[str], None]) -> None:
        self.read = read
        self.echo = echo
        self.work: WorkTable | None = None
        self.turn_key: tuple[int, int] | None = None

    def ask(self, prompt: str) -> Command:
        while True:
            self.echo(prompt)
            line = self.read()
            if line is None:
                raise QuitGame
            try:
                command = parse_command(line)
            except MoveError as error:
                self.echo(f"  {error}")
                continue
            if command.verb == "quit":
                raise QuitGame
            if command.verb == "help":
                self.echo(HELP)
                continue
            return command

    def refused(self, error: IllegalActionError) -> None:
        self.echo("Refused by the referee:")
        for problem in error.problems:
            self.echo(f"  - {problem}")
        self.echo("Fix the turn (undo, more moves) and submit it again.")

    def act(self, view: View) -> Action:
        if view.phase == DRAW:
            return self._draw(view)
        if view.phase == CLAIM:
            return self._claim(view)
        return self._play(view)

    def _show(self, view: View, work: WorkTable | None = None) -> None:
        self.echo(table_text(view, work))
        self.echo(hand_text(view, work))

    def _draw(self, view: View) -> Action:
        self._show(view)
        self.echo(f"Top of the discard pile: {view.top_discard}")
        while True:
            command = self.ask(f"Draw from {' or '.join(view.draws)}? ")
            if command.verb == "draw" and command.word in view.draws:
                if command.word == DISCARD and not _can_follow(view):
                    self.echo(f"  no legal turn would follow with {view.top_discard} "
                              "(it could not be discarded, decision 8): draw stock")
                    continue
                if command.word == DISCARD and view.rules.name == "rami-51":
                    self.echo(f"  you must lay {view.top_discard} this turn"
                              + ("" if view.is_opened else ", in your opening") + " (decision 10)")
                return Draw(command.word)
            if command.verb in ("table", "hand"):
                self._show(view)
                continue
            self.echo(f"  you draw first: draw {' or draw '.join(view.draws)}")

    def _claim(self, view: View) -> Action:
        while True:
            command = self.ask(f"Claim {view.claim_card} (and a penalty card from the stock)? "
                               "claim / pass ")
            if command.verb in ("claim", "pass"):
                return Claim(command.verb == "claim")
            if command.verb in ("table", "hand"):
                self._show(view)

    def _play(self, view: View) -> Action:
        key = (view.round, view.turn)
        if self.work is None or self.turn_key != key:
            self.work = WorkTable.start(view.rules, view.table, view.hand)
            self.turn_key = key
            if view.drawn is not None:
                self.echo(f"You {'claim' if view.claimed else 'draw'} "
                          f"{view.taken_discard or view.drawn}"
                          + (f" and the penalty card {view.drawn}" if view.claimed else "")
                          + ("" if view.taken_discard is None or view.claimed
                             else " from the discard pile"))
            self._show(view, self.work)
        work = self.work
        rules = view.rules
        while True:
            command = self.ask("Your move? ")
            verb = command.verb
            if verb in ("table", "hand"):
                self._show(view, work)
            elif verb == "undo":
                self.echo("  undone" if work.undo() else "  nothing to undo this turn")
                self._show(view, work)
            elif verb == "hint":
                self.echo(hint_text(view, int(command.word)))
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
                    self.echo(f"  {work.apply(command)}")
                except MoveError as error:
                    self.echo(f"  {error}")
                    continue
                self._show(view, work)
            else:
                self.echo(f"  '{verb}' is not a move now; type 'help'")


def _can_follow(view: View) -> bool:
    """Does some legal turn follow taking the top discard? (A card taken may not be discarded
    in the same turn, decision 8: a hand of its copies alone could not end the turn.)"""
    from rami.errors import IllegalTurnError
    from rami.solver.api import solve

    top = view.top_discard
    assert top is not None
    position = Position(view.table, (*view.hand, top), view.is_opened, view.rules, top)
    try:
        solve(position, min_moves=False, time_limit=1.0)
    except IllegalTurnError:
        return False
    return True


def table_text(view: View, work: WorkTable | None = None) -> str:
    melds = work.numbered() if work is not None else list(enumerate(view.table, start=1))
    if not melds:
        return "Table: (empty)"
    return "Table:\n" + "\n".join(f"  {number}. {meld}" for number, meld in melds)


def hand_text(view: View, work: WorkTable | None = None) -> str:
    hand = work.hand_cards() if work is not None else view.hand
    others = ", ".join(
        f"P{seat + 1}: {size} cards{' (opened)' if view.opened[seat] else ''}"
        for seat, size in enumerate(view.hand_sizes) if seat != view.seat and view.active[seat]
    )
    return (f"Your hand ({len(hand)}): {format_cards(hand) or '-'}"
            f"{' (opened)' if view.is_opened else ''}\n"
            f"Others: {others}; stock {view.stock_size}; discard pile top "
            f"{view.top_discard or '-'}")


def hint_text(view: View, level: int) -> str:
    from rami.errors import SolverBugError
    from rami.game.fallback import note_failure
    from rami.hints import make_hint
    from rami.solver.api import solve

    position = Position(view.table, view.hand, view.is_opened, view.rules, view.taken_discard)
    try:
        solution = solve(position, min_moves=True, time_limit=2.0)
    except SolverBugError as error:
        # The game goes on: the failure is logged with its position for a report.
        note_failure("hint", view, error)
        return ("No hint this time: the solver failed on this position (an internal error, "
                "logged with the position). Your game goes on.")
    return make_hint(solution, level).text


def play_in_terminal(
    rules: str, levels: tuple[str, ...], seed: int, stdin: IO[str], echo: Callable[[str], None]
) -> int:
    """Play a whole game: the person at seat 0, one bot per level. Returns the exit code."""
    ruleset = get_ruleset(rules)

    def read() -> str | None:
        line = stdin.readline()
        if not line:
            return None
        echo(f"> {line.rstrip()}") if not stdin.isatty() else None
        return line

    names = ["You"] + [f"P{seat + 2} ({level})" for seat, level in enumerate(levels)]
    human = TerminalPlayer(read, echo)
    players = [human] + [make_bot(level, seed + seat) for seat, level in enumerate(levels, 1)]

    def listener(rnd: Round, events: list[dict[str, Any]]) -> None:
        for line in event_lines(events, names, rnd):
            echo(line)

    def round_done(entry: dict[str, Any]) -> None:
        echo(f"Round {entry['number']} over ({entry['end']['reason']}).")
        for seat, name in enumerate(names):
            if entry["active"][seat]:
                echo(f"  {name}: {' '.join(entry['hands'][seat]) or '-'} -> "
                     f"{entry['scores'][seat]:+d} (total {entry['totals'][seat]})")

    echo(f"{ruleset.title}: you against {', '.join(levels)} (seed {seed}). Type 'help'.")
    for note in dict.fromkeys(filter(None, (level_note(level, ruleset) for level in levels))):
        echo(f"Note: {note}.")
    try:
        record = play_game(ruleset, players, seed, options=GameOptions(), names=names,
                           levels=["human", *levels], listener=listener,
                           round_listener=round_done)
    except QuitGame:
        echo("Game abandoned.")
        return 0
    winners = " and ".join(names[seat] for seat in record["winners"])
    verb = "win" if winners == "You" or len(record["winners"]) > 1 else "wins"
    echo(f"Game over: {winners} {verb}; totals {record['totals']}.")
    return 0


def event_lines(events: list[dict[str, Any]], names: list[str], rnd: Round) -> list[str]:
    """What the person at seat 0 sees of the events: never a card drawn from the stock by
    another player."""
    lines = []
    for event in events:
        seat = event.get("seat")
        if "reshuffle" in event:
            lines.append(f"The discard pile (less its top) becomes the new stock "
                         f"({len(event['stock'])} cards).")
            continue
        assert isinstance(seat, int)  # every other event names its seat
        who = names[seat]
        if "claim" in event:
            lines.append(f"{who} claims {event['claim']} and takes a penalty card.")
        elif "draw" in event:
            if seat == 0:
                continue  # told when the turn starts
            card = f" {event['card']}" if event["draw"] == DISCARD else ""
            lines.append(f"{who} draws{card} from the {event['draw']}.")
        elif seat == 0:
            lines.append("Turn accepted by the referee.")
        else:
            played = [Card.parse(card) for card in event["played"]]
            text = f"{who} lays {format_cards(played)}" if played else f"{who} lays nothing"
            if event.get("discard"):
                text += f", discards {event['discard']}"
            lines.append(text + f" ({sum(rnd.state.hands[seat].values())} cards left).")
    return lines


__all__ = ["HELP", "QuitGame", "TerminalPlayer", "play_in_terminal"]
