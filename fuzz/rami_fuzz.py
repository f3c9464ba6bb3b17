"""Fuzz targets of the parsers: what each one is fed, and what counts as a finding.

A target takes one input (text, or a decoded JSON value) and calls one parser of the library:

========  ==================================================================================
target    parser
========  ==================================================================================
text      ``rami.notation.parse_position`` (the one-line text notation)
any       ``rami.notation.parse_position_any`` (text notation or JSON text)
json      ``rami.notation.position_from_json`` (a decoded JSON value)
answer    ``rami.puzzles.record.parse_answer`` (a puzzle answer: melds, or a JSON list)
moves     ``rami.puzzles.record.read_answer`` (an answer as moves, replayed on a puzzle)
pack      ``rami.puzzles.record.parse_pack`` (puzzle records, one JSON object a line)
========  ==================================================================================

A finding is any exception that is not the library's own (:class:`rami.errors.RamiError`), or
an input that takes longer than :data:`SLOW_SECONDS`. Used by ``fuzz/fuzz_parsers.py`` (the long
runs, atheris or hypothesis) and by ``tests/test_fuzz_parsers.py`` (a short run in make test).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami.errors import RamiError
from rami.notation import parse_position, parse_position_any, position_from_json

ROOT = Path(__file__).resolve().parent.parent

#: An input that takes longer than this is a finding (a parser is linear in its input).
SLOW_SECONDS = 1.0

_PUZZLE: Any = None


def _puzzle() -> Any:
    global _PUZZLE
    if _PUZZLE is None:
        from rami.puzzles.record import shipped_pack

        _PUZZLE = shipped_pack()[0]
    return _PUZZLE


def _answer(text: str) -> Any:
    from rami.puzzles.answers import parse_answer

    return parse_answer(text)


def _moves(text: str) -> Any:
    from rami.puzzles.answers import read_answer

    return read_answer(_puzzle(), text)


def _pack(text: str) -> Any:
    from rami.puzzles.record import parse_pack

    return parse_pack(text, "fuzz")


TARGETS: dict[str, Callable[[Any], Any]] = {
    "text": parse_position,
    "any": parse_position_any,
    "json": position_from_json,
    "answer": _answer,
    "moves": _moves,
    "pack": _pack,
}

#: Words the inputs are made of (the atheris dictionary, the hypothesis grammar).
TOKENS = [
    "7H",
    "8H",
    "9H",
    "TH",
    "10H",
    "JH",
    "QH",
    "KH",
    "AH",
    "2S",
    "3S",
    "4S",
    "5S",
    "QS",
    "QD",
    "QC",
    "5C",
    "6C",
    "7C",
    "2D",
    "3D",
    "5D",
    "*",
    "🃏",
    "7♥",
    "Q♠",
    "1H",
    "11H",
    "ZZ",
    "-",
    "|",
    "/",
    " / ",
    " | ",
    " ",
    ",",
    "run:",
    "set:",
    "pair:",
    "opened",
    "not-opened",
    "new",
    "discard=",
    "discard=7H",
    "rami-chinois",
    "rami-fou",
    "rami-51",
    "bfmania-51",
    "bfmania-30",
    "cafe-rummy",
    "rummikub",
    "[jokers=0]",
    "[jokers=4]",
    "[jokers=2]",
    "[opening_pure_run=true]",
    "[open_and_rearrange_same_turn=true]",
    "rami-chinois[",
    "]",
    "[",
    "{",
    "}",
    ":",
    '"',
    "\\",
    '"rules"',
    '"table"',
    '"hand"',
    '"opened"',
    '"taken_discard"',
    '"kind"',
    '"cards"',
    "true",
    "false",
    "null",
    "1e999",
    "-0",
    "NaN",
    "Infinity",
    "\ufeff",
    "\n",
    "\t",
    "\x00",
    "\ud7ff",
    "add",
    "lay",
    "move",
    "split",
    "after",
    "from",
    "to",
    "meld",
    "put",
    "in place of the joker",
    "; ",
    "your hand",
    "1",
    "2",
    "3",
    "12",
]


def seeds() -> list[tuple[str, str]]:
    """(target, text) inputs that parse: the examples, README positions, puzzle records."""
    found: list[tuple[str, str]] = []
    examples = ROOT / "examples"
    demo = (examples / "demo.txt").read_text(encoding="utf-8").strip()
    found += [("text", demo), ("any", demo)]
    found.append(("any", (examples / "demo.json").read_text(encoding="utf-8")))
    for line in (examples / "batch.jsonl").read_text(encoding="utf-8").splitlines():
        found += [("any", line), ("json", line)]
    found += [
        ("text", "- / AS 2S 3S 9C 9D 9H KH"),
        ("text", "set: 7H * * | 3S 4S 5S / 6S 9D / rami-chinois opened"),
        ("text", "QS QD QC * / KS 5H / rami-fou opened discard=KS"),
        ("text", "7H 8H 9H | QS QD QC | 2D 3D * 5D / JS TH AD * / rami-chinois[jokers=4] opened"),
        ("answer", "3H 4H 5H | QS QD QC"),
        ("answer", '[["3H", "4H", "5H"], {"kind": "set", "cards": ["7H", "*", "*"]}]'),
        ("moves", "split 1 after 6H; add 6H to 4"),
        ("moves", "lay 9S 9D 9C; move 5C from 3 to 5; put 8H in place of the joker in 1"),
    ]
    pack = ROOT / "rami" / "data" / "puzzles.jsonl"
    lines = pack.read_text(encoding="utf-8").splitlines()[:3]
    found += [("pack", line) for line in lines]
    for line in lines:
        record = json.loads(line)
        found.append(("json", json.dumps(record["position"])))
    return found


@dataclass
class Finding:
    target: str
    payload: Any
    error: str
    seconds: float

    def describe(self) -> str:
        shown = repr(self.payload)
        if len(shown) > 300:
            shown = shown[:300] + f"... ({len(shown)} characters)"
        return f"[{self.target}] {self.error} after {self.seconds:.3f} s on {shown}"


def run_one(target: str, payload: Any) -> Finding | None:
    """Feed one input to one target: None when it parses or fails with the library's error."""
    started = time.perf_counter()
    error = None
    try:
        TARGETS[target](payload)
    except RamiError:
        pass
    except Exception as unexpected:
        error = f"{type(unexpected).__name__}: {str(unexpected)[:200]}"
    seconds = time.perf_counter() - started
    if error is None and seconds > SLOW_SECONDS:
        error = f"slow: {seconds:.3f} s"
    return Finding(target, payload, error, seconds) if error else None


def decode_json(text: str) -> Any:
    """The JSON value of a text for the ``json`` target (the library's bounded decoder), or the
    text itself when it is not JSON (position_from_json then refuses a string)."""
    from rami.notation import loads_json

    try:
        return loads_json(text)
    except RamiError:
        return text


# ------------------------------------------------------------------------------ hypothesis

TEXT_TARGETS = ("text", "any", "answer", "moves", "pack")
JSON_KEYS = [
    "rules",
    "table",
    "hand",
    "opened",
    "taken_discard",
    "kind",
    "cards",
    "id",
    "position",
    "goal",
    "solution",
    "difficulty",
    "penalty_after",
    "tier",
]


def strategy() -> Any:
    """Hypothesis strategy of (target, input) pairs: token soup, mutated seeds, JSON values,
    deep nests and huge numbers."""
    from hypothesis import strategies as st

    token = st.sampled_from(TOKENS)
    soup = st.lists(token | st.text(max_size=4), max_size=40).map("".join)
    seed_pairs = seeds()

    @st.composite
    def mutated(draw: Any) -> tuple[str, str]:
        target, text = draw(st.sampled_from(seed_pairs))
        if target == "json":
            target = "any"
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 6))
            text = text[:at] + draw(token | st.text(max_size=3)) + text[at + cut :]
        return draw(st.sampled_from([target, *TEXT_TARGETS[:3]])), text

    leaf = st.none() | st.booleans() | st.integers() | st.floats() | token | st.text(max_size=6)
    values = st.recursive(
        leaf,
        lambda inner: (
            st.lists(inner, max_size=5)
            | st.dictionaries(st.sampled_from(JSON_KEYS) | st.text(max_size=4), inner, max_size=5)
        ),
        max_leaves=25,
    )
    positions = st.fixed_dictionaries(
        {},
        optional={
            "rules": values | st.sampled_from(TOKENS[40:60]),
            "table": st.lists(values | st.lists(token, max_size=6), max_size=5),
            "hand": values | st.lists(token, max_size=8),
            "opened": values,
            "taken_discard": values | token,
        },
    )

    @st.composite
    def deep(draw: Any) -> tuple[str, str]:
        depth = draw(st.integers(1, 3000))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}"), ('[{"a":', "}]")]))
        body = opener * depth + closer * depth
        head = draw(st.sampled_from(["", '{"hand": ', '{"table": ']))
        tail = "}" if head else ""
        return draw(st.sampled_from(["any", "answer", "pack"])), head + body + tail

    huge = st.integers(4000, 6000).map(lambda n: '{"hand": [' + "7" * n + "]}")
    return st.one_of(
        st.tuples(st.sampled_from(TEXT_TARGETS), soup),
        mutated(),
        st.tuples(st.just("json"), values),
        st.tuples(st.just("json"), positions),
        st.tuples(st.sampled_from(["any", "json"]), positions.map(json.dumps)).map(
            lambda pair: (pair[0], decode_json(pair[1]) if pair[0] == "json" else pair[1])
        ),
        deep(),
        st.tuples(st.sampled_from(["any", "answer", "pack"]), huge),
    )


# ------------------------------------------------------------------------------ plain random

_CHARS = '0123456789AJQKTSHDCshdc*-/|:,[]{}"\\ \t\n=.;♥♠♦♣🃏\ufeff\x00é'


def random_input(rng: Any, seed_pairs: list[tuple[str, str]]) -> tuple[str, Any]:
    """One (target, input) pair from ``rng`` (a ``random.Random``): cheap, for long runs
    without atheris and for the short run of make test."""
    kind = rng.random()
    if kind < 0.35:  # a seed, mutated by splicing tokens and characters in
        target, text = rng.choice(seed_pairs)
        for _ in range(rng.randint(1, 5)):
            at = rng.randint(0, len(text))
            piece = (
                rng.choice(TOKENS)
                if rng.random() < 0.6
                else "".join(rng.choice(_CHARS) for _ in range(rng.randint(0, 4)))
            )
            text = text[:at] + piece + text[at + rng.randint(0, 5) :]
        if target == "json":
            return "json", decode_json(text)
        return rng.choice([target, target, "text", "any"]), text
    if kind < 0.7:  # token soup
        text = "".join(
            rng.choice(TOKENS) if rng.random() < 0.7 else rng.choice(_CHARS)
            for _ in range(rng.randint(0, 40))
        )
        return rng.choice(TEXT_TARGETS), text
    if kind < 0.9:  # a JSON value of random shape
        return "json", _random_value(rng, 3)
    if kind < 0.96:  # deep nesting
        depth = rng.randint(1, 3000)
        body = "[" * depth + "]" * depth
        head = rng.choice(["", '{"hand": '])
        return rng.choice(["any", "answer", "pack"]), head + body + ("}" if head else "")
    digits = "7" * rng.randint(4000, 6000)  # past Python's int digit limit
    return rng.choice(["any", "answer", "pack"]), rng.choice(
        ['{"hand": [' + digits + "]}", "[" + digits + "]", '{"id": ' + digits + "}"]
    )


#: The leaves of the random JSON values: every JSON type, edge numbers, then (with a token of
#: the notation drawn between them) texts the notation reads.
LEAVES: tuple[Any, ...] = (None, True, False, 0, -1, 7, 10**30, 1.5, float("nan"), "")
LEAF_TEXTS = ("7H 8H 9H", "set: 7H * *", "rami-chinois")


def _random_value(rng: Any, depth: int) -> Any:
    pick = rng.random()
    if depth <= 0 or pick < 0.4:
        return rng.choice([*LEAVES, rng.choice(TOKENS), *LEAF_TEXTS])
    if pick < 0.7:
        return [_random_value(rng, depth - 1) for _ in range(rng.randint(0, 5))]
    keys = [
        rng.choice(JSON_KEYS) if rng.random() < 0.8 else rng.choice(TOKENS)
        for _ in range(rng.randint(0, 5))
    ]
    return {key: _random_value(rng, depth - 1) for key in keys}
