"""The answer corpus: recorded ``rami`` command lines and what they printed, replayed to show that
a refactor changes no answer.

A case is one command line (``args``, with ``stdin`` when it reads standard input) and what it
gave: ``exit``, ``stdout`` and ``stderr``. Cases are drawn here (:func:`build_cases`) from the
project's own generators with fixed seeds (:mod:`rami.generate`), the shipped examples and the
shipped puzzle packs; :func:`run_case` runs one in this process with Typer's ``CliRunner``.

Only timings vary from one run to the next, and only they are blanked (:func:`normalize`): a
JSON ``"ms"`` (or ``"..._ms"``) value and a text ``12.3 ms``.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rami.generate import medium_position, small_position
from rami.lang import ENGLISH, FRENCH, Language
from rami.notation import format_table
from rami.position import Position
from rami.rules import get_ruleset

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus.jsonl.gz"

#: Every preset, and the variants that change a rule the solver sees.
PRESETS = (
    "rami-chinois",
    "rami-chinois[jokers=0]",
    "rami-fou",
    "rami-51",
    "bfmania-51",
    "bfmania-30",
    "cafe-rummy",
    "rummikub",
)
#: Positions drawn per preset: small ones, then medium ones.
SMALL_PER_PRESET = 14
MEDIUM_PER_PRESET = 6
#: Generous: the cases are small, so the deterministic search ends long before the clock.
TIME_LIMIT = "60"
SEED = 38

_JSON_MS = re.compile(r'("(?:ms|[a-z_]+_ms)": )-?[0-9][0-9.e+-]*')
_TEXT_MS = re.compile(r"\b\d+(?:\.\d+)? ms\b")


def normalize(text: str) -> str:
    """``text`` with its timings blanked (and nothing else changed)."""
    return _TEXT_MS.sub("N ms", _JSON_MS.sub(r"\g<1>0", text))


# ------------------------------------------------------------------------------- running


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """Run one case's command line in this process: its exit code and normalized output."""
    from typer.testing import CliRunner

    from rami.cli.main import app

    runner = CliRunner()
    result = runner.invoke(
        app,
        case["args"],
        input=case.get("stdin"),
        prog_name="rami",
        env={"RAMI_LANG": None, "COLUMNS": "100"},
    )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{case['id']}: {result.exception!r}") from result.exception
    return {
        "exit": result.exit_code,
        "stdout": normalize(result.stdout),
        "stderr": normalize(result.stderr),
    }


def outcome(case: dict[str, Any]) -> dict[str, Any]:
    return {key: case[key] for key in ("exit", "stdout", "stderr")}


def load_corpus(path: Path = CORPUS) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The corpus file's header (commit, counts) and its cases."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        lines = [json.loads(line) for line in handle if line.strip()]
    return lines[0], lines[1:]


def sample(cases: list[dict[str, Any]], count: int, seed: int = 0) -> list[dict[str, Any]]:
    """A deterministic sample of ``count`` cases, every kind represented."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        by_kind.setdefault(case["kind"], []).append(case)
    rng = random.Random(seed)
    chosen = [rng.choice(group) for group in by_kind.values()]
    ids = {case["id"] for case in chosen}
    rest = [case for case in cases if case["id"] not in ids]
    chosen += rng.sample(rest, max(0, min(len(rest), count - len(chosen))))
    return chosen


# ------------------------------------------------------------------------------- drawing


def _case(
    kind: str, preset: str, lang: str, args: list[str], stdin: str | None = None
) -> dict[str, Any]:
    return {"kind": kind, "preset": preset, "lang": lang, "args": args, "stdin": stdin}


def _positions(preset: str, rng: random.Random) -> Iterator[Position]:
    rules = get_ruleset(preset)
    for _ in range(SMALL_PER_PRESET):
        yield small_position(rng, rules)
    for _ in range(MEDIUM_PER_PRESET):
        yield medium_position(rng, rules)


def _review_turn(position: Position, language: Language) -> list[str]:
    """A turn to review: the turn that plays the most cards without minimising the moves (a
    different turn from the best one often), as ``--table``/``--discard`` options."""
    from rami.solver.api import Objective, solve

    turn = solve(position, objective=Objective.CARDS, min_moves=False, time_limit=60)
    table = format_table(turn.table, language) or "-"
    args = ["--table", table]
    if turn.discard is not None:
        args += ["--discard", turn.discard.text(language)]
    return args


def _position_cases(preset: str, index: int, position: Position) -> Iterator[dict[str, Any]]:
    """The commands run on one drawn position, the language alternating between positions."""
    first, second = (ENGLISH, FRENCH) if index % 2 == 0 else (FRENCH, ENGLISH)
    limit = ["--time-limit", TIME_LIMIT]
    for lang in (first, second):
        text = position.text(lang)
        code = ["--lang", lang.value]
        yield _case("validate", preset, lang.value, ["validate", text, *code, "--json"])
        yield _case("solve", preset, lang.value, ["solve", text, *code, "--json", *limit])
        yield _case(
            "solve-max-play", preset, lang.value, ["solve", text, *code, "--no-min-moves", *limit]
        )
        yield _case(
            "hint",
            preset,
            lang.value,
            ["hint", text, *code, "--level", str(1 + index % 3), *limit]
            + (["--json"] if index % 2 else []),
        )
    text = position.text(first)
    code = ["--lang", first.value]
    yield _case("solve", preset, first.value, ["solve", text, *code, *limit])
    yield _case(
        "solve-max-play",
        preset,
        first.value,
        ["solve", text, *code, "--json", "--no-min-moves", "--objective", "cards", *limit],
    )
    yield _case(
        "hint",
        preset,
        second.value,
        [
            "hint",
            position.text(second),
            "--lang",
            second.value,
            "--level",
            str(1 + (index + 1) % 3),
            "--objective",
            "cards",
            *limit,
        ],
    )
    yield _case("score", preset, first.value, ["score", text, *code, "--json"])
    for lang, json_flag in ((first, ["--json"]), (second, [])):
        yield _case(
            "review",
            preset,
            lang.value,
            [
                "review",
                position.text(lang),
                "--lang",
                lang.value,
                *_review_turn(position, lang),
                *json_flag,
                *limit,
            ],
        )
    if index % 5 == 0:
        yield _case(
            "solve-top", preset, first.value, ["solve", text, *code, "--top", "3", "--json", *limit]
        )


def _example_cases() -> Iterator[dict[str, Any]]:
    examples = ROOT / "examples"
    for name in ("demo.txt", "demo.json"):
        text = (examples / name).read_text(encoding="utf-8")
        for lang in ("en", "fr"):
            for args in (
                ["validate"],
                ["solve"],
                ["solve", "--json"],
                ["hint", "--level", "3"],
                ["score"],
            ):
                yield _case(
                    f"example-{args[0]}",
                    "rami-chinois",
                    lang,
                    [*args, "-", "--lang", lang],
                    stdin=text,
                )
    batch = (examples / "batch.jsonl").read_text(encoding="utf-8")
    for flags in ([], ["--no-min-moves"], ["--objective", "cards"]):
        yield _case(
            "example-batch",
            "mixed",
            "en",
            ["solve", "--batch", "-", *flags, "--time-limit", TIME_LIMIT],
            stdin=batch,
        )
    for preset in ("", *(p for p in PRESETS if "[" not in p)):
        yield _case("rules", preset or "all", "en", ["rules", *([preset] if preset else [])])
        yield _case(
            "rules", preset or "all", "en", ["rules", *([preset] if preset else []), "--json"]
        )


def _puzzle_cases(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Shipped puzzles shown, checked with their solution and with the position's own table
    (a wrong answer), and the daily puzzle of some fixed dates."""
    for pack in ("puzzles.jsonl", "mined.jsonl"):
        lines = (ROOT / "rami" / "data" / pack).read_text(encoding="utf-8").splitlines()
        for line in rng.sample(lines, 20):
            puzzle = json.loads(line)
            pid, preset = puzzle["id"], puzzle["rules"]
            yield _case("puzzle-show", preset, "en", ["puzzle", "show", pid])
            yield _case(
                "puzzle-show", preset, "en", ["puzzle", "show", pid, "--solution", "--json"]
            )
            right = json.dumps(puzzle["solution"])
            wrong = json.dumps(puzzle["position"]["table"])
            yield _case("puzzle-check", preset, "en", ["puzzle", "check", pid, "--answer", right])
            yield _case(
                "puzzle-check", preset, "en", ["puzzle", "check", pid, "--answer", wrong, "--json"]
            )
        for line in rng.sample(lines, 4):
            yield _case("puzzle-check", "pack", "en", ["puzzle", "check", json.loads(line)["id"]])
    for day in range(1, 13):
        yield _case(
            "puzzle-daily",
            "pack",
            "en",
            [
                "puzzle",
                "daily",
                "--date",
                f"2026-{day:02d}-{day + 10:02d}",
                *(["--json"] if day % 2 else ["--solution"]),
            ],
        )


#: Presets whose simulated games are reviewed turn by turn (lay-off games review fast; a rami
#: chinois game of 80 turns on a large table takes half a minute).
GAME_PRESETS = ("rami-51", "bfmania-51", "bfmania-30", "cafe-rummy")


def _game_record(preset: str, seed: int) -> str:
    """One simulated game of ``preset`` (one round), as ``rami simulate`` writes it."""
    import tempfile

    from typer.testing import CliRunner

    from rami.cli.main import app

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "game.jsonl"
        result = CliRunner().invoke(
            app,
            [
                "simulate",
                "--out",
                str(out),
                "--rules",
                preset,
                "--games",
                "1",
                "--rounds",
                "1",
                "--seed",
                str(seed),
            ],
        )
        if result.exit_code != 0:
            raise RuntimeError(f"simulate {preset}: {result.output}")
        return out.read_text(encoding="utf-8")


def _game_cases() -> Iterator[dict[str, Any]]:
    for number, preset in enumerate(GAME_PRESETS):
        record = _game_record(preset, SEED + number)
        for lang, flags in (("en", ["--json"]), ("fr", []), ("en", [])):
            yield _case(
                "review-game",
                preset,
                lang,
                ["review", "--game", "-", "--lang", lang, *flags, "--time-limit", TIME_LIMIT],
                stdin=record,
            )


def build_cases() -> list[dict[str, Any]]:
    """Every case, with a stable id, in a fixed order (the same on every run)."""
    rng = random.Random(SEED)
    cases: list[dict[str, Any]] = []
    for preset in PRESETS:
        for index, position in enumerate(_positions(preset, rng)):
            cases.extend(_position_cases(preset, index, position))
    cases.extend(_example_cases())
    cases.extend(_puzzle_cases(rng))
    cases.extend(_game_cases())
    for number, case in enumerate(cases):
        case["id"] = f"{number:05d}-{case['kind']}"
    return cases
