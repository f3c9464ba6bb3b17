"""``rami play``'s whole game: the person at seat 0 (:class:`rami.game.human.TerminalPlayer`)
against one bot per level, told as the table sees it, kept in a record after every action
(``--out``) and resumed from one (``--resume``); a quit, a Ctrl-C or an internal error ends it
with the game so far kept.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from rami.errors import EXIT_INTERRUPTED
from rami.game.actions import GameInternalError
from rami.game.human import QuitGame, TerminalPlayer
from rami.game.human_follow import Followers
from rami.game.human_record import Keeper, Resume, ResumeError, SavedGame, Seat, record_header
from rami.game.human_tell import Narrator, TableOrder
from rami.game.human_text import line_editing
from rami.game.levels import check_table, level_note, make_bot
from rami.game.match import play_game
from rami.game.presets import GameOptions
from rami.lang import ENGLISH, Language
from rami.phrasebook import BOOKS, say_count
from rami.phrasebook import say as phrase
from rami.rules import Ruleset, get_ruleset


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
        narrator.pause = lambda number: _pause(reader, number, language)

    follow = Followers(narrator, keeper, resume, echo, resume_from)
    players = [Seat(human, resume, follow.watch)] + [
        Seat(make_bot(level, seed + seat), resume, follow.watch)
        for seat, level in enumerate(levels, 1)
    ]
    against = ", ".join(level_word(level, language) for level in levels)
    title = rules_title(ruleset, language)
    echo(phrase("play.welcome", language, title=title, levels=against, seed=seed))
    notes = (level_note(level, ruleset, language) for level in levels)
    for note in dict.fromkeys(filter(None, notes)):
        echo(phrase("play.note", language, note=note))
    kept = kept_note(out, language)
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
        return _stopped(stop, echo, warn, kept, resume.live, resume_from, language)
    keeper.writing = True
    keeper.save(record)
    shown = narrator.names  # the person and the bots' levels in the player's words
    echo(
        phrase(
            "play.game-over",
            language,
            winners=winners_text(record, shown, language),
            totals=totals_text(record, shown, language),
            record=phrase("play.record-in", language, out=out) if out else "",
        )
    )
    return 0


def rules_title(ruleset: Ruleset, language: Language = ENGLISH) -> str:
    """The preset's title in ``language`` (most are the game's own name in both)."""
    key = f"play.title.{ruleset.name}"
    return phrase(key, language) if key in BOOKS[language] else ruleset.title


def level_word(level: str, language: Language = ENGLISH) -> str:
    """A bot's level in the player's words (``confirmed``, ``confirmé``)."""
    key = f"level.{level}"
    return phrase(key, language) if key in BOOKS[language] else level


def _seat_names(ruleset: Ruleset, levels: tuple[str, ...]) -> list[str]:
    """The players' names, "You" at seat 0 and one bot per level; the levels and the number of
    players checked against the rules."""
    names = ["You"] + [f"P{seat + 2} ({level})" for seat, level in enumerate(levels)]
    check_table(ruleset, levels, len(names))
    return names


def _stopped(
    stop: BaseException,
    echo: Callable[[str], None],
    warn: Callable[[str], None],
    kept: str,
    live: bool,
    resume_from: str,
    language: Language = ENGLISH,
) -> int:
    """A game that stopped before its end: quit (0), interrupted, or an internal error (1);
    an error in the recorded actions of a resumed game is a :class:`ResumeError`."""
    if isinstance(stop, QuitGame):
        echo(phrase("play.abandoned", language, kept=kept))
        return 0
    if isinstance(stop, KeyboardInterrupt):
        echo(phrase("play.interrupted", language, kept=kept))
        return EXIT_INTERRUPTED
    if not live:  # a recorded bot action the referee refuses
        raise ResumeError(f"{resume_from} does not continue: {stop}") from None
    warn(f"Internal error (a bug, please report it): {stop}.{kept}")
    return 1


def _pause(read: Callable[[str], str | None], number: int, language: Language) -> None:
    """Between rounds at a terminal: the person says when to deal the next one."""
    line = read(phrase("play.pause", language, number=number))
    if line is None or line.strip().lower() == "quit":
        raise QuitGame


def kept_note(out: str | None, language: Language = ENGLISH) -> str:
    """Where a game left before its end is kept (nothing without ``--out``)."""
    return phrase("play.kept", language, out=out) if out else ""


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


def winners_text(record: dict[str, Any], names: list[str], language: Language = ENGLISH) -> str:
    """Who won (``names[0]`` is the person, spoken to)."""
    seats = record["winners"]
    key = "play.win.you" if 0 in seats else "play.win.several" if len(seats) > 1 else "play.win.one"
    winners = phrase("log.and", language).join(names[seat] for seat in seats)
    tie = phrase("play.tie", language) if record.get("draw") else ""
    return phrase(key, language, winners=winners) + tie


def totals_text(record: dict[str, Any], names: list[str], language: Language = ENGLISH) -> str:
    return ", ".join(
        f"{name} {say_count('play.points', total, language)}"
        for name, total in zip(names, record["totals"], strict=True)
    )


__all__ = ["kept_note", "level_word", "play_in_terminal", "rules_title", "terminal_reader"]
