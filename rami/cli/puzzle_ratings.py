"""``rami puzzle attempts`` and ``rami puzzle ratings``: the attempts database read back; and
``rami puzzle start-ratings``, the puzzles' ratings before any attempt.

Registered on the puzzle CLI by :mod:`rami.cli.puzzle`. ``attempts`` prints every attempt as a
JSON line (:meth:`rami.puzzles.attempts.Attempt.to_json`); ``ratings`` prints the Glicko-2
ratings of :mod:`rami.puzzles.ratings` (``--json``: :meth:`Ratings.summary`). Both open an
existing database only: a missing or foreign file is bad input (exit 2, the JSON error under
``--json``), never a traceback. ``start-ratings`` writes the document of
:func:`rami.puzzles.human_model.start_ratings` (what rami/data/start_ratings.json ships).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rami.cli.options import JsonOpt
from rami.cli.output import echo_json, echo_lines, reporting_errors
from rami.errors import RamiError

DbOpt = Annotated[
    Path,
    typer.Option(
        "--db",
        metavar="FILE",
        help="The attempts database (rami serve --db FILE).",
        show_default=False,
    ),
]
PlayerOpt = Annotated[
    str | None,
    typer.Option("--player", metavar="ID", help="Only this player.", show_default=False),
]


def attempts(db: DbOpt, player: PlayerOpt = None) -> None:
    """Every puzzle attempt recorded, one JSON object per line, in the order stored."""
    from rami.puzzles import AttemptStore

    with reporting_errors(False), AttemptStore(db, create=False) as store:
        stored = store.attempts(player=player)
    for attempt in stored:
        echo_json(attempt.to_json(), compact=True)


def _tiers(pack: str | None) -> dict[str, str]:
    from rami.puzzles import read_pack, shipped_packs

    puzzles = read_pack(pack) if pack else shipped_packs()
    return {puzzle.id: puzzle.tier for puzzle in puzzles}


def ratings(
    db: DbOpt,
    pack: Annotated[
        str | None,
        typer.Option(
            "--pack",
            metavar="FILE",
            help="The puzzles' tiers from this pack "
            "(default: the shipped packs); a puzzle without a starting rating of the "
            "model of human solvers starts from its tier's.",
            show_default=False,
        ),
    ] = None,
    player: PlayerOpt = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, help="At most this many puzzles and players.")
    ] = 20,
    json_output: JsonOpt = False,
) -> None:
    """Glicko-2 ratings of puzzles and players from first attempts (docs/puzzles.md,
    "Ratings"), highest first."""
    from rami.puzzles import AttemptStore, Ratings

    with reporting_errors(json_output):
        try:
            tiers = _tiers(pack)
        except OSError as error:
            raise RamiError(f"--pack: cannot read {pack!r}: {error.strerror or error}") from None
        with AttemptStore(db, create=False) as store:
            rated = Ratings(tiers=tiers).add_all(store.attempts())
    summary = rated.summary(limit)
    if player is not None:
        summary["players"] = [rated.player_json(player)]
    if json_output:
        echo_json(summary)
        return
    lines = [
        f"{rated.attempts} attempts, {rated.first_attempts} first attempts (rated)",
        f"Puzzles ({len(rated.puzzles)} rated, highest first):",
    ]
    lines += [
        f"  {item['id']}  {item['rating']:7.1f} ± {item['deviation']:5.1f}  "
        f"{item['tier'] or '-':6}  {_games(item['games'])}"
        for item in summary["puzzles"]
    ]
    lines.append(f"Players ({len(rated.players)}, highest first):" if player is None else "Player:")
    lines += [
        f"  {item['id']}  {item['rating']:7.1f} ± {item['deviation']:5.1f}  {_games(item['games'])}"
        for item in summary["players"]
    ]
    echo_lines(lines)


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def start_ratings(
    pack: Annotated[
        str | None,
        typer.Option(
            "--pack",
            metavar="FILE",
            help="Rate the puzzles of this pack (default: both shipped packs).",
            show_default=False,
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Write the ratings here (default: print them).",
            show_default=False,
        ),
    ] = None,
    json_output: JsonOpt = False,
) -> None:
    """Starting ratings from the model of human solvers (docs/puzzles.md, "Starting
    ratings"): a ladder of limited solvers attempts each puzzle; the JSON document that
    rami/data/start_ratings.json ships. Deterministic: the same pack, the same file."""
    import time

    from rami.cli.puzzle_common import check_pack_file, reporting
    from rami.puzzles import MODEL_VERSION, document_text, read_pack, shipped_packs
    from rami.puzzles import start_ratings as rate

    with reporting(json_output):
        if out is not None and not out.parent.is_dir():
            raise RamiError(f"--out: no directory {str(out.parent)!r} to write in")
        if pack is not None:
            check_pack_file(pack)
        puzzles = read_pack(pack) if pack else shipped_packs()
        started = time.perf_counter()
        document = rate(puzzles)
        text = document_text(document)
        if out is not None:
            out.write_text(text, encoding="utf-8")
    seconds = round(time.perf_counter() - started, 1)
    if out is None:
        typer.echo(text, nl=False)
    elif json_output:
        echo_json(
            {
                "model": MODEL_VERSION,
                "puzzles": len(document["puzzles"]),
                "seconds": seconds,
                "out": str(out),
            }
        )
    else:
        typer.echo(
            f"{len(document['puzzles'])} puzzles rated by the model {MODEL_VERSION} in "
            f"{seconds} s: {out}"
        )
