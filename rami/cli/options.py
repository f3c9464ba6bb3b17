"""The options several ``rami`` commands share, each declared here once with one help text.

A command takes one by its annotation (``json_output: JsonOpt = False``); its default stays in
the command's signature. ``--rules`` has two forms, both with :data:`RULES_HELP`: with a default
(``rami simulate``, ``rami puzzle mine``) and without one (``rami play``, where a resumed game
keeps its own rules).
"""

from __future__ import annotations

from typing import Annotated

import typer

from rami.lang import LANG_VARIABLE, Language
from rami.solver.api import Objective

__all__ = [
    "RULES_HELP",
    "JsonOpt",
    "LangOpt",
    "NoMinMovesOpt",
    "ObjectiveOpt",
    "OptionalRulesOpt",
    "RulesOpt",
    "TimeLimitOpt",
]

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]

LangOpt = Annotated[
    Language,
    typer.Option(
        "--lang",
        envvar=LANG_VARIABLE,
        case_sensitive=False,
        help="The cards' notation and the texts' language: 'en' (KH, TD) or 'fr' "
        "(R♥ or RC, 10♦ or 10K); default from RAMI_LANG, else en.",
    ),
]

ObjectiveOpt = Annotated[
    Objective,
    typer.Option(
        "--objective",
        help="What to maximise first: 'points' (least hand penalty) or 'cards' (most played).",
        case_sensitive=False,
    ),
]

NoMinMovesOpt = Annotated[
    bool,
    typer.Option("--no-min-moves", help="Do not minimise the table cards moved (faster)."),
]

TimeLimitOpt = Annotated[
    float,
    typer.Option("--time-limit", metavar="S", help="Seconds the solver may search."),
]

RULES_HELP = "The preset, with options if any ('rami-chinois[jokers=0]')."
RulesOpt = Annotated[str, typer.Option("--rules", metavar="R", help=RULES_HELP)]
OptionalRulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules", metavar="R", help=f"{RULES_HELP}  [default: rami-chinois]", show_default=False
    ),
]
