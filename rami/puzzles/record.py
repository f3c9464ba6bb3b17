"""Puzzle records (JSON lines), packs, the shipped pack, the daily puzzle, the JSON players see.

A record (format 1)::

    {"id": "rc-1a2b3c4d5e", "kind": "empty-hand", "rules": "rami-chinois[jokers=0]",
     "position": {... rami.notation.position_to_json ...},
     "goal": {"kind": "empty-hand", "penalty_after": 0, "cards_played": 4, "shed": 24,
              "text": "Play all 4 cards of your hand."},
     "solution": [[...meld...], ...], "signature": "runs H:3-9+6-6 ...; sets 5:SDC",
     "difficulty": {"tier": "medium", "score": 13, "cards_moved": 4, ...},
     "themes": ["all-cards", "split-run", ...],
     "seed": 123456789, "profile": "medium",
     "version": {"format": 1, "rami": "0.1.0", "ortools": "9.15.6755"}}

``seed`` and ``profile`` regenerate the candidate position
(``rami.puzzles.draw.candidate(seed, tier=profile, jokers=...)``) before pruning. A puzzle
mined from a game (``profile`` ``"mined"``, the pack :data:`MINED_RESOURCE`) has a ``source``
instead: the game and the turn it was played at (:mod:`rami.puzzles.mine`).
``themes`` (:mod:`rami.puzzles.themes`) tag what the solution does.

What players and apps are shown is :func:`public_json` (the position and the goal, no solution);
:func:`solution_json` is the answer, given only when asked for (docs/puzzles.md, "The puzzle JSON
contract").

An answer to a puzzle is read and judged by :mod:`rami.puzzles.answers`; a record is checked
again, from its position, by :func:`rami.puzzles.recheck.verify`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from rami import __version__
from rami.cards import Card
from rami.errors import NotationError, shorten
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.notation import (
    MAX_JSON_DEPTH,
    format_position,
    json_depth,
    meld_from_json,
    meld_to_json,
    position_from_json,
    position_to_json,
)
from rami.position import Position
from rami.puzzles.difficulty import Metrics
from rami.puzzles.evaluate import KINDS, Evaluation
from rami.puzzles.themes import THEMES, themes
from rami.signature import signature
from rami.textfile import read_text_file

FORMAT = 1
PACK_RESOURCE = "puzzles.jsonl"
#: The pack mined from simulated games (rami.puzzles.mine), shipped beside the generated one.
MINED_RESOURCE = "mined.jsonl"
#: Day 0 of the daily puzzle; the pack order is a fixed permutation (by hash of the id).
DAILY_EPOCH = date(2025, 1, 1)
#: From this day the daily puzzle draws from both shipped packs (day 0 of their joint order);
#: the days before keep the puzzle they always had.
DAILY_MINED_SINCE = date(2026, 12, 2)


def versions() -> dict[str, Any]:
    try:
        ortools_version = metadata.version("ortools")
    except metadata.PackageNotFoundError:  # pragma: no cover - ortools is a dependency
        ortools_version = "unknown"
    return {"format": FORMAT, "rami": __version__, "ortools": ortools_version}


def puzzle_id(position: Position) -> str:
    digest = hashlib.sha256(format_position(position).encode("utf-8")).hexdigest()
    return f"rc-{digest[:10]}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def goal_text(kind: str, goal: dict[str, Any], language: Language = ENGLISH) -> str:
    """The goal as a sentence (stored in each record as ``goal.text``, and made again for a
    record without one, or in another language: :mod:`rami.puzzles.words`)."""
    from rami.puzzles.words import goal_text as said

    return said(kind, goal, language)


def make_record(evaluation: Evaluation, *, seed: int, profile: str) -> dict[str, Any]:
    position = evaluation.position
    goal = {"kind": evaluation.kind, **evaluation.goal}
    goal["text"] = goal_text(evaluation.kind, evaluation.goal)
    return {
        "id": puzzle_id(position),
        "kind": evaluation.kind,
        "rules": position.rules.option_string,
        "position": position_to_json(position),
        "goal": goal,
        "solution": [meld_to_json(meld) for meld in evaluation.solution],
        "signature": evaluation.signature.text(),
        "difficulty": evaluation.metrics.to_json(),
        "themes": list(themes(position, evaluation.solution)),
        "seed": seed,
        "profile": profile,
        "version": versions(),
    }


@dataclass(frozen=True)
class Puzzle:
    id: str
    kind: str
    position: Position
    goal: dict[str, Any]
    solution: tuple[Meld, ...]
    metrics: Metrics
    record: dict[str, Any]

    @property
    def tier(self) -> str:
        return str(self.record["difficulty"]["tier"])

    @property
    def jokers(self) -> int:
        return self.position.rules.jokers

    @property
    def mined(self) -> bool:
        """Taken from a simulated game (its ``source`` says which game and turn)."""
        return isinstance(self.record.get("source"), dict)

    @property
    def themes(self) -> tuple[str, ...]:
        """The record's themes; computed from the solution for a record without them."""
        stored = self.record.get("themes")
        if isinstance(stored, list):
            return tuple(str(theme) for theme in stored)
        return themes(self.position, self.solution)

    @classmethod
    def from_record(cls, record: Any, where: str = "puzzle") -> Puzzle:
        if not isinstance(record, dict):
            raise NotationError(f"{where}: a puzzle record is a JSON object")
        missing = [
            key
            for key in ("id", "kind", "position", "goal", "solution", "difficulty")
            if key not in record
        ]
        if missing:
            raise NotationError(f"{where}: missing field(s) {', '.join(missing)}")
        if record["kind"] not in KINDS:
            raise NotationError(f"{where}: unknown kind {record['kind']!r}")
        try:
            position = position_from_json(record["position"])
            solution = tuple(
                meld_from_json(meld, f"{where}.solution[{i}]")
                for i, meld in enumerate(record["solution"])
            )
            metrics = Metrics.from_json(record["difficulty"])
        except NotationError as error:
            raise NotationError(f"{where}: {error}") from None
        except (KeyError, TypeError) as error:
            raise NotationError(f"{where}: malformed difficulty ({error})") from None
        goal = record["goal"]
        if not isinstance(goal, dict) or "penalty_after" not in goal:
            raise NotationError(f"{where}: malformed goal")
        return cls(str(record["id"]), record["kind"], position, goal, solution, metrics, record)


def read_pack(path: Path | str) -> list[Puzzle]:
    """Every puzzle of a JSON-lines pack (NotationError names the line at fault;
    UnreadableFileError a file that cannot be read)."""
    return parse_pack(read_text_file(path), str(path))


def _decoded(text: str, what: str) -> Any:
    """JSON text decoded; NotationError ``what (reason)`` on malformed JSON, JSON nested past
    rami.notation.MAX_JSON_DEPTH (never a RecursionError) or a number too long to convert."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise NotationError(f"{what} (nested more than {MAX_JSON_DEPTH} levels deep)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise NotationError(f"{what} ({error.msg})") from None
    except (ValueError, RecursionError) as error:
        raise NotationError(f"{what} ({shorten(str(error))})") from None


def parse_pack(text: str, label: str = "pack") -> list[Puzzle]:
    puzzles = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        data = _decoded(line, f"{label}:{number}: malformed JSON")
        puzzles.append(Puzzle.from_record(data, f"{label}:{number}"))
    if not puzzles:
        raise NotationError(f"{label}: no puzzle in the pack")
    return puzzles


def shipped_pack_text(name: str = PACK_RESOURCE) -> str:
    try:
        resource = resources.files("rami").joinpath("data", name)
        return resource.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        raise NotationError(f"the shipped puzzle pack rami/data/{name} is missing") from None


_SHIPPED: dict[str, list[Puzzle]] = {}


def shipped_pack(name: str = PACK_RESOURCE) -> list[Puzzle]:
    """The generated pack (or, by ``name``, the mined one: :data:`MINED_RESOURCE`)."""
    if name not in _SHIPPED:
        _SHIPPED[name] = parse_pack(shipped_pack_text(name), f"rami/data/{name}")
    return _SHIPPED[name]


def mined_pack() -> list[Puzzle]:
    return shipped_pack(MINED_RESOURCE)


def shipped_packs() -> list[Puzzle]:
    """Both shipped packs, the generated one first (what ids and the daily puzzle look in)."""
    return [*shipped_pack(), *mined_pack()]


def find(puzzle_id: str, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of this id in ``puzzles`` (default: the shipped packs); NotationError if none."""
    for puzzle in shipped_packs() if puzzles is None else puzzles:
        if puzzle.id == puzzle_id:
            return puzzle
    where = "the shipped pack" if puzzles is None else "the pack"
    raise NotationError(f"no puzzle {puzzle_id!r} in {where}")


#: A puzzle id: ``rc-`` and 10 hex digits (:func:`puzzle_id`).
PUZZLE_ID = re.compile(r"rc-[0-9a-f]{10}")


def position_text(puzzle_id: str) -> str:
    """The one-line position of a shipped puzzle (what ``rami hint rc-...`` reads)."""
    return format_position(find(puzzle_id).position)


def load_puzzles(spec: str) -> list[Puzzle]:
    """A pack file, or the id of a puzzle of the shipped pack."""
    if Path(spec).exists():
        return read_pack(spec)
    for puzzle in shipped_packs():
        if puzzle.id == spec:
            return [puzzle]
    raise NotationError(f"{spec!r} is neither a puzzle file nor the id of a shipped puzzle")


def check_theme(theme: str) -> str:
    """The theme, or NotationError naming the known ones."""
    if theme not in THEMES:
        raise NotationError(f"unknown theme {theme!r}; the themes are: {', '.join(THEMES)}")
    return theme


def select(
    puzzles: Iterable[Puzzle], *, tier: str | None = None, theme: str | None = None
) -> list[Puzzle]:
    """The puzzles of a tier and/or with a theme, in pack order."""
    if theme is not None:
        check_theme(theme)
    return [
        puzzle
        for puzzle in puzzles
        if (tier is None or puzzle.tier == tier) and (theme is None or theme in puzzle.themes)
    ]


# ------------------------------------------------------------------------- the JSON contract

#: The goal, as players see it: its kind, the penalty the best play leaves, how many cards it
#: lays and the points it sheds, and the sentence that says so.
PUBLIC_GOAL = ("kind", "penalty_after", "cards_played", "shed", "text")


def public_json(puzzle: Puzzle, language: Language = ENGLISH) -> dict[str, Any]:
    """What a player is shown: the position and the goal, never the answer (no solution, no
    signature, no difficulty details, no generator seed). ``rating`` only where a record has
    one. The goal's ``text`` in ``language`` (in English the record's own)."""
    data: dict[str, Any] = {
        "id": puzzle.id,
        "kind": puzzle.kind,
        "rules": puzzle.position.rules.option_string,
        "position": position_to_json(puzzle.position),
        "goal": {key: puzzle.goal[key] for key in PUBLIC_GOAL if key in puzzle.goal},
        "tier": puzzle.tier,
        "themes": list(puzzle.themes),
    }
    if "text" not in data["goal"] or language is not ENGLISH:
        data["goal"]["text"] = goal_text(puzzle.kind, puzzle.goal, language)
    if "rating" in puzzle.record:
        data["rating"] = puzzle.record["rating"]
    return data


def solution_moves(puzzle: Puzzle, language: Language = ENGLISH) -> list[dict[str, Any]]:
    """The recorded solution as moves (as ``rami solve`` explains a turn), in order, their
    ``text`` in ``language``."""
    from rami.solver.explain import explain_moves

    before = puzzle.position.table
    after: Counter[Card] = Counter()
    for meld in puzzle.solution:
        after.update(meld.cards)
    played = tuple(sorted((after - puzzle.position.table_cards).elements()))
    moves = explain_moves(before, puzzle.solution, played)
    return [move.to_json(language) for move in moves]


def solution_json(puzzle: Puzzle, language: Language = ENGLISH) -> dict[str, Any]:
    """The answer, for when it is asked for: the final table in meld-number order with each
    meld's number (the table's melds keep theirs, new melds are numbered on), the moves that
    reach it (their ``text`` in ``language``), the signature and the difficulty details."""
    from rami.solver.explain import meld_numbers

    numbers = meld_numbers(puzzle.position.table, puzzle.solution)
    ordered = sorted(zip(numbers, puzzle.solution, strict=True), key=lambda item: item[0])
    return {
        "id": puzzle.id,
        "solution": [meld_to_json(meld) for _, meld in ordered],
        "numbers": [number for number, _ in ordered],
        "moves": solution_moves(puzzle, language),
        "signature": puzzle.record.get("signature")
        or signature(puzzle.solution, puzzle.position.rules).text(),
        "difficulty": dict(puzzle.record["difficulty"]),
    }


def daily_order(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The pack in its fixed daily order (sorted by a hash of the id: same on every machine)."""
    return sorted(
        puzzles, key=lambda p: (hashlib.sha256(f"rami-daily:{p.id}".encode()).hexdigest(), p.id)
    )


def daily(day: date, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of ``day`` from ``puzzles`` (default: both shipped packs). Before
    :data:`DAILY_MINED_SINCE`, or for a pack without mined puzzles, the generated puzzles only,
    counted from :data:`DAILY_EPOCH` (so no past day's puzzle ever changes); from then on every
    puzzle, generated and mined, in one fixed order counted from that day."""
    pool = list(shipped_packs() if puzzles is None else puzzles)
    if day >= DAILY_MINED_SINCE and any(puzzle.mined for puzzle in pool):
        order = daily_order(pool)
        return order[(day - DAILY_MINED_SINCE).days % len(order)]
    order = daily_order([puzzle for puzzle in pool if not puzzle.mined] or pool)
    return order[(day - DAILY_EPOCH).days % len(order)]


def records_text(records: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in records)
