"""Write the fixed, seeded benchmark suites: ``benchmarks/suites/*.jsonl``.

    python benchmarks/make_suites.py            # (re)write every suite
    python benchmarks/make_suites.py --check    # exit 1 if a suite file differs from its recipe

Each line is one position in the rami JSON form (:func:`rami.notation.position_to_json`).
Running the script again writes byte-identical files: every position comes from
``random.Random(f"{suite}:{index}:{attempt}")`` (string seeds are hashed with SHA-512, so they
do not depend on ``PYTHONHASHSEED`` or the platform), through
:func:`rami.generate.random_position`. A table of nearly the whole deck (the 100-card suites)
is sometimes impossible to draw; the generator then raises ``ValueError`` and the next
``attempt`` is used, deterministically.

Suites (see docs/benchmarks.md):

* ``{rules}-{table:03d}``: ``rules`` in rami-chinois and rummikub, ``table`` in 20, 40, 60, 80,
  100 table cards; the player has opened; the hand holds 6 to 30 cards (drawn uniformly, capped
  by the cards the double deck still holds: a 100-card table leaves only 4 to 8); the jokers in
  play cycle through 0, 2, 4 (rami-chinois) or 0, 2 (rummikub, which has 2), equally many of each.
* ``opening``: first (opening) turns, ``opened=False``, hands of 13 or 14 cards, tables of 20,
  40, 60 or 80 cards, both rulesets (alternating), jokers cycling as above.
* ``rami-fou-{table:03d}``: rami fou (table jokers pinned, a discard), ``table`` in 20, 60,
  100, opened, hands and jokers (0, 2, 4) as for rami-chinois. Reported without a target.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from rami.generate import random_position
from rami.notation import position_to_json
from rami.position import COPIES_PER_CARD
from rami.rules import get_ruleset

SUITES_DIR = Path(__file__).resolve().parent / "suites"

RULESETS = ("rami-chinois", "rummikub")
TABLE_SIZES = (20, 40, 60, 80, 100)
JOKERS = {"rami-chinois": (0, 2, 4), "rummikub": (0, 2), "rami-fou": (0, 2, 4)}
FOU_TABLE_SIZES = (20, 60, 100)
HAND_MIN, HAND_MAX = 6, 30
OPENING_TABLES = (20, 40, 60, 80)
OPENING_HANDS = (13, 14)

#: Positions per suite (a multiple of 6, so that the joker counts are equally represented).
PER_SUITE = 24
#: Positions of the opening suite (half of each ruleset).
OPENING_COUNT = 24
#: Attempts per position before giving up (a 100-card table succeeds about 1 time in 2 or 3).
MAX_ATTEMPTS = 200

DECK = 52 * COPIES_PER_CARD


@dataclass(frozen=True)
class Spec:
    """What one position of a suite is drawn with (the hand size may come from the rng)."""

    rules: str
    table_cards: int
    jokers: int
    opened: bool
    hands: tuple[int, ...] | None = None  # choices; None: uniform HAND_MIN..cap


def _hand_cap(spec: Spec) -> int:
    """Most hand cards the double deck and the jokers leave once the table is laid."""
    return DECK + spec.jokers - spec.table_cards


def _draw(suite: str, index: int, spec: Spec) -> dict:
    rules = get_ruleset(spec.rules)
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(f"{suite}:{index}:{attempt}")
        cap = min(HAND_MAX, _hand_cap(spec))
        if spec.hands is None:
            hand_cards = rng.randint(min(HAND_MIN, cap), cap)
        else:
            hand_cards = min(rng.choice(spec.hands), cap)
        try:
            position = random_position(
                rng,
                rules=rules,
                table_cards=spec.table_cards,
                hand_cards=hand_cards,
                jokers=spec.jokers,
                opened=spec.opened,
            )
        except ValueError:
            continue
        return position_to_json(position)
    raise RuntimeError(f"{suite}[{index}]: no position drawn in {MAX_ATTEMPTS} attempts")


def suite_specs() -> dict[str, list[Spec]]:
    """Every suite name and the spec of each of its positions, in order."""
    suites: dict[str, list[Spec]] = {}
    for rules in RULESETS:
        jokers = JOKERS[rules]
        for table in TABLE_SIZES:
            suites[f"{rules}-{table:03d}"] = [
                Spec(rules, table, jokers[index % len(jokers)], opened=True)
                for index in range(PER_SUITE)
            ]
    opening = []
    for index in range(OPENING_COUNT):
        rules = RULESETS[index % len(RULESETS)]
        turn = index // len(RULESETS)
        jokers = JOKERS[rules]
        opening.append(
            Spec(
                rules,
                OPENING_TABLES[turn % len(OPENING_TABLES)],
                jokers[turn % len(jokers)],
                opened=False,
                hands=OPENING_HANDS,
            )
        )
    suites["opening"] = opening
    for table in FOU_TABLE_SIZES:
        jokers = JOKERS["rami-fou"]
        suites[f"rami-fou-{table:03d}"] = [
            Spec("rami-fou", table, jokers[index % len(jokers)], opened=True)
            for index in range(PER_SUITE)
        ]
    return suites


def suite_lines(suite: str, specs: list[Spec]) -> list[str]:
    return [
        json.dumps(_draw(suite, index, spec), separators=(",", ":"))
        for index, spec in enumerate(specs)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare with the files on disk instead of writing them",
    )
    parser.add_argument("--out", type=Path, default=SUITES_DIR, help="output directory")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    differ = []
    for suite, specs in suite_specs().items():
        text = "\n".join(suite_lines(suite, specs)) + "\n"
        path = args.out / f"{suite}.jsonl"
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                differ.append(path.name)
            continue
        path.write_text(text, encoding="utf-8")
        print(
            f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}: "
            f"{len(specs)} positions"
        )
    if args.check:
        if differ:
            print("differ from their recipe: " + ", ".join(differ))
            return 1
        print("every suite matches its recipe")
    return 0


if __name__ == "__main__":
    sys.exit(main())
