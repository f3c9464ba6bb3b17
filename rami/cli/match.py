"""``rami match``: a level against another on paired deals, with a sequential test
(docs/game.md, "Matches"). Registered on the main app by :mod:`rami.cli.main`; the library
(:mod:`rami.game.paired`) decides, this module only reads options and prints.

Exit codes: 0 the match ran (whatever its verdict), 1 a game failed (an internal error),
2 bad input.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from rami.cli.game import _options
from rami.cli.options import JsonOpt, RulesOpt
from rami.cli.output import echo_error, echo_json, echo_lines, fail
from rami.cli.scale import RayOpt, executor_for
from rami.errors import RamiError
from rami.game.sprt import format_elo

EXIT_FAILED = 1


def match(
    candidate: Annotated[
        str,
        typer.Argument(
            metavar="CANDIDATE",
            help="The level tested: "
            "beginner, novice, intermediate, confirmed, "
            "expert, lookahead (the expert weighing other turns on sampled hidden "
            "cards; measured here at any table), elo:N, or the ceiling yardstick.",
            show_default=False,
        ),
    ],
    baseline: Annotated[
        str,
        typer.Argument(
            metavar="BASELINE",
            help="The level it plays against (every other seat).",
            show_default=False,
        ),
    ],
    rules: RulesOpt = "rami-chinois",
    pairs: Annotated[
        int,
        typer.Option(
            "--pairs",
            metavar="N",
            min=1,
            help="Deals at most; each is played once per seat rotation.",
        ),
    ] = 200,
    seats: Annotated[
        int, typer.Option("--seats", metavar="K", min=2, help="Players at the table.")
    ] = 2,
    seed: Annotated[
        int, typer.Option("--seed", metavar="S", help="Deal i is seeded from (S, i).")
    ] = 0,
    fixed: Annotated[
        bool,
        typer.Option(
            "--fixed", help="Play every pair and report the interval, without the sequential test."
        ),
    ] = False,
    elo0: Annotated[float, typer.Option("--elo0", help="H0 of the sequential test (Elo).")] = 0.0,
    elo1: Annotated[float, typer.Option("--elo1", help="H1 of the sequential test (Elo).")] = 30.0,
    alpha: Annotated[float, typer.Option("--alpha", help="False positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option("--beta", help="False negative rate.")] = 0.05,
    rounds: Annotated[
        int | None,
        typer.Option(
            "--rounds",
            metavar="N",
            min=1,
            help="Rounds at most per game (1: one-round games); whole games by default.",
            show_default=False,
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            metavar="K",
            min=1,
            help="Processes playing the pairs (same report whatever K).",
        ),
    ] = 1,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            metavar="FILE",
            help="Keep every finished pair in FILE (JSON lines); run again with the same FILE "
            "to go on from the first pair not kept.",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
    ray: RayOpt = None,
) -> None:
    """Play CANDIDATE against BASELINE on paired deals; say whether it is stronger."""
    from rami.game import FIXED, SEQUENTIAL, Match, run_match
    from rami.game.match_log import MatchLog, read_log
    from rami.scale import Progress

    try:
        game = Match(
            rules,
            candidate.strip().lower(),
            baseline.strip().lower(),
            pairs,
            seed,
            seats,
            _options(rules, rounds, None),
            FIXED if fixed else SEQUENTIAL,
            elo0,
            elo1,
            alpha,
            beta,
        ).checked()
        logged, keep = read_log(log, game) if log is not None else ([], 0)
        writer = MatchLog(log, game, keep) if log is not None else None
    except RamiError as error:
        fail(error, json_output)
    executor = executor_for(workers, ray, json_output)
    with executor, Progress(max(1, pairs - len(logged)), "pairs") as progress:

        def on_pair(report: dict[str, Any]) -> None:
            progress.advance(note=progress_note(report))

        try:
            report = run_match(
                game,
                executor,
                on_pair,
                logged=logged,
                log=writer.pair if writer is not None else None,
            )
        finally:
            if writer is not None:
                writer.close()
    if json_output:
        echo_json(report)
    else:
        echo_lines(report_lines(report))
    if report["errors"]:
        echo_error([f"{len(report['errors'])} pair(s) failed (internal errors, see above)"])
        raise typer.Exit(EXIT_FAILED)


def progress_note(report: dict[str, Any]) -> str:
    sprt = report["sprt"]
    text = f"score {report['score']:.3f}, Elo {format_elo(report['elo'])}"
    if sprt is not None:
        text += f", LLR {sprt['llr']:+.2f} ({sprt['lower']:+.2f}, {sprt['upper']:+.2f})"
    return text


def report_lines(report: dict[str, Any]) -> list[str]:
    match = report["match"]
    independent = report["independent"]
    lines = [
        f"{match['candidate']} against {match['baseline']}, {match['rules']}, "
        f"{match['seats']} seats, seed {match['seed']}: {report['pairs']} pairs, "
        f"{report['games']} games in {report['seconds']:.0f} s "
        f"({report['games_per_minute']} games/min)"
        + (f"; {report['resumed']} pairs read from the log" if report["resumed"] else ""),
        f"Score {report['score']:.3f}: Elo {format_elo(report['elo'])} "
        f"[{format_elo(report['elo_low'])}, {format_elo(report['elo_high'])}] (95 %, pairs)",
        f"The same games on independent deals: [{format_elo(independent['elo_low'])}, "
        f"{format_elo(independent['elo_high'])}]; pairing's interval is "
        f"{independent['width_ratio']} of that width",
    ]
    if report["pentanomial"] is not None:
        lines.append(
            "Pairs by points (0, 1/2, 1, 3/2, 2): " + " ".join(map(str, report["pentanomial"]))
        )
    sprt = report["sprt"]
    if sprt is not None:
        lines.append(
            f"SPRT H0 {sprt['elo0']:+g} / H1 {sprt['elo1']:+g} Elo (alpha "
            f"{sprt['alpha']}, beta {sprt['beta']}): LLR {sprt['llr']:+.2f} in "
            f"({sprt['lower']:+.2f}, {sprt['upper']:+.2f}): H1 {sprt['result']}"
        )
    for level, times in report["move_ms"].items():
        if times["moves"]:
            lines.append(
                f"{level}: {times['moves']} moves, median {times['median']} ms, "
                f"p99 {times['p99']} ms"
            )
    feeding = report["feeding_discards"]
    lines.append(f"Feeding discards: {feeding['fed']} made, {feeding['avoided']} avoided")
    moved = report["table_cards_moved"]
    lines.append(
        f"Table cards moved: {moved['played']} over {moved['turns']} turns on a table "
        f"({moved['without_level']} without the cards-moved level)"
    )
    for failure in report["fallbacks"]:
        lines.append(f"Fallback ({failure['level']}): {failure['position']}: {failure['error']}")
    for error in report["errors"]:
        lines.append(f"Failed: {error}")
    return lines
