"""``rami simulate``, ``rami replay`` and ``rami play``: whole games (docs/game.md).

Registered on the main app by :mod:`rami.cli.main`. Exit codes as everywhere in the CLI: 0
success, 1 a game failed (an internal error) or a record does not replay, 2 bad input. The game
engine and the solver load inside the commands.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from rami.cli.inputs import CliError
from rami.cli.options import JsonOpt, LangOpt, OptionalRulesOpt, RulesOpt
from rami.cli.output import echo_error, echo_json, echo_lines, fail, report_failure
from rami.cli.scale import RayOpt
from rami.errors import RamiError
from rami.game.levels import lookahead_tables
from rami.lang import Language

EXIT_FAILED = 1

#: ``--target`` of ``rami simulate`` and ``rami play``.
TargetOpt = Annotated[
    int | None,
    typer.Option(
        "--target",
        metavar="POINTS",
        min=1,
        help="Points that end the game (the preset's by default; BFmania 250, 500 or 1000).",
        show_default=False,
    ),
]


def _bad_input(message: str, json_output: bool = False) -> typer.Exit:
    """Bad input, exit 2: the message on standard error, or under ``--json`` the JSON error
    (type ``UsageError``) on standard output. A library error goes to ``output.fail``."""
    return typer.Exit(report_failure(CliError(message), json_output, message))


def _levels(text: str, option: str) -> tuple[str, ...]:
    levels = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    if not levels:
        raise CliError(
            f"{option} needs one or more levels: beginner, novice, intermediate, "
            "confirmed, expert, lookahead (or elo:N)"
        )
    return levels


def _options(rules: str, rounds: int | None, target: int | None) -> Any:
    from rami.game import GameOptions, game_rules
    from rami.rules import get_ruleset

    ruleset = get_ruleset(rules)
    if rounds is not None and game_rules(ruleset).rummikub_scoring:
        return GameOptions(target=target, rounds=rounds)
    if rounds is not None:
        return GameOptions(target=target, max_rounds=rounds)
    return GameOptions(target=target)


def simulate(
    out: Annotated[
        str,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the game records here, one JSON object per line (JSONL).",
            show_default=False,
        ),
    ],
    rules: RulesOpt = "rami-chinois",
    players: Annotated[
        str,
        typer.Option(
            "--players",
            metavar="L1,L2[,...]",
            help="The bots' levels, one per "
            "seat: beginner, novice, intermediate, confirmed, expert, lookahead "
            f"({lookahead_tables()}) or elo:N.",
        ),
    ] = "beginner,beginner",
    games: Annotated[int, typer.Option("--games", metavar="N", min=1, help="Games to play.")] = 10,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", metavar="S", help="Seed of the simulation: game i is seeded from (S, i)."
        ),
    ] = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="K",
            min=1,
            help="Processes playing the games (same records whatever K).",
        ),
    ] = 1,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            metavar="N",
            min=1,
            help="Rounds at most per game (Rummikub: the rounds agreed, default 1).",
            show_default=False,
        ),
    ] = None,
    target: TargetOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists.")] = False,
    json_output: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """Play bots against each other; write the records and print wins, scores and Elo."""
    from rami.cli.scale import RetryLog, executor_for
    from rami.game import Simulation, run_simulation, summary_lines
    from rami.scale import Progress

    path = Path(out)
    if path.exists() and not force:
        raise _bad_input(f"{out} exists: use --force to overwrite it", json_output)
    try:
        simulation = Simulation(
            rules, _levels(players, "--players"), games, seed, _options(rules, rounds, target)
        ).checked()
    except RamiError as error:
        fail(error, json_output)
    executor = executor_for(workers, ray, json_output)
    try:
        handle = path.open("w", encoding="utf-8")
    except OSError as error:
        executor.close()
        raise _bad_input(f"cannot write {out!r}: {error.strerror}", json_output) from None
    with handle, executor, Progress(games, "playing") as progress:

        def write(record: dict[str, Any]) -> None:
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")

        retries = RetryLog(progress, "game")
        summary = run_simulation(
            simulation,
            workers,
            write,
            executor=executor,
            on_outcome=lambda _: progress.advance(),
            on_retry=retries,
        )
    summary["out"] = out
    summary["retries"] = retries.retries
    if json_output:
        echo_json(summary)
    else:
        echo_lines(summary_lines(summary, out))
    if summary["errors"]:
        echo_error([f"{len(summary['errors'])} game(s) failed (internal errors, see above)"])
        raise typer.Exit(EXIT_FAILED)


def replay(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Game records, one JSON object per line (JSONL); '-' for standard input.",
            show_default=False,
        ),
    ],
) -> None:
    """Re-check game records: every turn by the referee, every card, every score."""
    from rami.cli.inputs import text_lines
    from rami.game import MAX_RECORD_BYTES, RecordError, game_label, read_records, replay_record

    faults = []
    count = rounds = turns = 0
    try:  # one record at a time, whatever the file's size (a bound on each record)
        for line, record in read_records(text_lines(file, max_line_bytes=MAX_RECORD_BYTES)):
            count += 1
            try:
                summary = replay_record(record, game_label(record, line))
            except RecordError as error:
                faults.append(str(error))
                continue
            rounds += summary.rounds
            turns += summary.turns
    except CliError as error:
        raise _bad_input(error.message) from None
    except RamiError as error:
        raise _bad_input(f"{file}: {error}") from None
    if not count:
        raise _bad_input(f"{file}: no game record in it")
    clean = count - len(faults)
    if faults:
        echo_error([f"{len(faults)} of {count} record(s) do not replay:", *faults])
        raise typer.Exit(EXIT_FAILED)
    echo_lines(
        [
            f"{clean} record{'s' if clean != 1 else ''} replayed clean: {rounds} rounds, "
            f"{turns} turns, every turn legal, every card conserved, every score equal"
        ]
    )


def play(
    rules: OptionalRulesOpt = None,
    vs: Annotated[
        str | None,
        typer.Option(
            "--vs",
            metavar="LEVEL[,LEVEL...]",
            help="The bots you play "
            "against, one per seat: beginner, novice, intermediate, "
            f"confirmed, expert, lookahead ({lookahead_tables()}) or elo:N.  "
            "[default: confirmed]",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            metavar="S",
            help="Seed of the game (random if not given).",
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            metavar="N",
            min=1,
            help="Rounds at most (Rummikub: the rounds agreed, default 1).",
            show_default=False,
        ),
    ] = None,
    target: TargetOpt = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Keep the game's record here, written after every action (see rami replay).",
            show_default=False,
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="FILE",
            help="Go on with the game kept in "
            "FILE (by --out); the record goes on being written there "
            "unless --out names another file.",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite the --out FILE if it exists.")
    ] = False,
    lang: LangOpt = Language.EN,
) -> None:
    """Play a game against bots in the terminal (type 'help' at your turn)."""
    from rami.cli import interrupt
    from rami.game import kept_note, load_game, play_in_terminal
    from rami.phrasebook import say

    saved = None
    try:
        if resume is not None:
            given = [
                name
                for name, value in (
                    ("--rules", rules),
                    ("--vs", vs),
                    ("--seed", seed),
                    ("--rounds", rounds),
                    ("--target", target),
                )
                if value is not None
            ]
            if given:
                raise _bad_input(
                    f"{', '.join(given)}: a resumed game keeps the rules, players, "
                    f"seed and options of its record ({resume})"
                )
            saved = load_game(resume)
            out = out or resume
            game_rules, levels, game_seed = saved.rules, saved.levels, saved.seed
            options = saved.options
        else:
            game_rules = rules or "rami-chinois"
            levels = _levels(vs or "confirmed", "--vs")
            game_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
            options = _options(game_rules, rounds, target)
        if out is not None and out != resume and Path(out).exists() and not force:
            raise _bad_input(
                f"{out} exists: use --resume {out} to go on with its game, or "
                "--force to overwrite it"
            )
        # Ctrl-C, even during a bot's solve: say where the game is kept and exit 130 (the
        # record was written after the last action), in the game's language.
        stopped = "\n" + say("play.interrupted", lang, kept=kept_note(out, lang))
        with interrupt.solving(lambda: typer.echo(stopped)):
            code = play_in_terminal(
                game_rules,
                levels,
                game_seed,
                sys.stdin,
                typer.echo,
                options=options,
                out=out,
                saved=saved,
                resume_from=resume or "",
                language=lang,
                warn=lambda message: typer.echo(message, err=True),
            )
    except RamiError as error:
        fail(error)
    raise typer.Exit(code)
