"""A short fuzz run of the parsers in make test (the long runs: fuzz/README.md).

The notation, JSON, answer and pack parsers get a few thousand generated inputs: none may raise
anything but the library's own errors, and none may take more than rami_fuzz.SLOW_SECONDS.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fuzz"))

import rami_fuzz

#: Another seed for a different run: RAMI_FUZZ_SEED=7 make test.
SEED = int(os.environ.get("RAMI_FUZZ_SEED", "0"))


def _no_finding(target: str, payload: object) -> None:
    finding = rami_fuzz.run_one(target, payload)
    assert finding is None, finding.describe()


def test_seeds_parse() -> None:
    """The seeds are real inputs: each parses (else the mutations start from nothing)."""
    for target, text in rami_fuzz.seeds():
        payload = rami_fuzz.decode_json(text) if target == "json" else text
        if target == "moves":
            continue  # moves are judged against one puzzle: they need not replay
        rami_fuzz.TARGETS[target](payload)


def test_random_inputs() -> None:
    rng = random.Random(SEED)
    pairs = rami_fuzz.seeds()
    rami_fuzz.run_one("moves", "lay 9S")  # loads the shipped pack once, outside the timing
    started = time.perf_counter()
    count = 0
    while count < 4000:
        _no_finding(*rami_fuzz.random_input(rng, pairs))
        count += 1
    assert time.perf_counter() - started < 20


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    phases=[Phase.generate, Phase.shrink],
    suppress_health_check=list(HealthCheck),
)
@given(rami_fuzz.strategy())
def test_hypothesis_inputs(case: tuple[str, object]) -> None:
    _no_finding(*case)


@pytest.mark.parametrize("target", ["text", "any", "answer", "moves", "pack"])
@pytest.mark.parametrize(
    "text",
    [
        "[" * 1500 + "]" * 1500,
        '{"hand": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"hand": [' + "7" * 5000 + "]}",
        "[" + "7" * 5000 + "]",
        '{"id": ' + "9" * 5000 + "}",
        '{"hand": ["\\ud800"]}',
        "- / \ud800",
        "\ufeff- / 7H",
        "\x00",
        "- / 7H / discard=7H discard=8H",
        "- / 7H / rami-chinois[jokers=" + "9" * 5000 + "]",
        "7H 8H 9H | " * 2000 + "/ -",
        "[{}]",
        "[[1e999]]",
        '[{"kind": ["run"], "cards": []}]',
        '{"id": "x", "kind": [], "position": {}, "goal": {}, "solution": [], "difficulty": {}}',
    ],
    ids=lambda text: repr(text[:24]),
)
def test_known_hard_inputs(target: str, text: str) -> None:
    _no_finding(target, text)
