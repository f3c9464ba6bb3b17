"""Fuzz the notation, JSON and answer parsers (fuzz/README.md); outside make test.

    .venv/bin/python fuzz/fuzz_parsers.py --inputs 1000000            # atheris if installed
    .venv/bin/python fuzz/fuzz_parsers.py --engine random --inputs 1000000
    .venv/bin/python fuzz/fuzz_parsers.py --engine hypothesis --inputs 100000

Engines: ``atheris`` (coverage-guided, libFuzzer; ``pip install atheris``), ``random`` (seeded
mutations and generated inputs, no dependency), ``hypothesis`` (the strategies of make test, at
scale; slower per input). Every input is timed; a finding is an exception other than the
library's own errors, or an input slower than ``rami_fuzz.SLOW_SECONDS`` (atheris also stops on
a hang past ``--hang`` seconds). Findings go to ``--findings`` (one JSON line each, first of a
kind per target and exception type) and are summed up at the end; the exit code is 1 if any.
"""

from __future__ import annotations

import argparse
import atexit
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


class Log:
    """Counts inputs and findings; writes the first finding of each kind."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.inputs = 0
        self.kinds: Counter[tuple[str, str]] = Counter()
        self.started = time.perf_counter()
        self.slowest = 0.0
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")

    def feed(self, target: str, payload: Any) -> None:
        import rami_fuzz

        self.inputs += 1
        if self.inputs % 100_000 == 0:
            elapsed = time.perf_counter() - self.started
            print(
                f"progress: {self.inputs} inputs in {elapsed:.0f} s, slowest "
                f"{self.slowest * 1000:.1f} ms, findings {dict(self.kinds)}",
                flush=True,
            )
        started = time.perf_counter()
        finding = rami_fuzz.run_one(target, payload)
        self.slowest = max(self.slowest, time.perf_counter() - started)
        if finding is None:
            return
        kind = (finding.target, finding.error.split(":")[0])
        self.kinds[kind] += 1
        if self.kinds[kind] == 1:
            print("finding:", finding.describe(), flush=True)
            with self.path.open("a", encoding="utf-8") as out:
                shown = (
                    finding.payload if isinstance(finding.payload, str) else repr(finding.payload)
                )
                out.write(
                    json.dumps(
                        {"target": finding.target, "error": finding.error, "input": shown[:100_000]}
                    )
                    + "\n"
                )

    def summary(self) -> None:
        elapsed = time.perf_counter() - self.started
        rate = self.inputs / elapsed if elapsed else 0.0
        print(
            f"{self.inputs} inputs in {elapsed:.0f} s ({rate:.0f}/s), slowest input "
            f"{self.slowest * 1000:.1f} ms, {sum(self.kinds.values())} findings in "
            f"{len(self.kinds)} kinds",
            flush=True,
        )
        for (target, error), count in sorted(self.kinds.items()):
            print(f"  {target}: {error} x{count}", flush=True)


def run_random(log: Log, inputs: int, seconds: float, seed: int) -> None:
    import rami_fuzz

    rng = random.Random(seed)
    pairs = rami_fuzz.seeds()
    deadline = time.perf_counter() + seconds
    while log.inputs < inputs and time.perf_counter() < deadline:
        log.feed(*rami_fuzz.random_input(rng, pairs))


def run_hypothesis(log: Log, inputs: int, seconds: float) -> None:
    import rami_fuzz
    from hypothesis import HealthCheck, Phase, given, settings

    deadline = time.perf_counter() + seconds

    @settings(
        max_examples=inputs,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(rami_fuzz.strategy())
    def one(case: tuple[str, Any]) -> None:
        if time.perf_counter() < deadline:
            log.feed(*case)

    one()


def run_atheris(log: Log, inputs: int, seconds: float, hang: int, corpus: Path) -> None:
    import atheris

    with atheris.instrument_imports(include=["rami"]):
        import rami.cards
        import rami.melds
        import rami.notation
        import rami.puzzles.answers
        import rami.puzzles.moves
        import rami.puzzles.record
        import rami.rules  # noqa: F401
    import rami_fuzz

    targets = list(rami_fuzz.TARGETS)
    corpus.mkdir(parents=True, exist_ok=True)
    for number, (target, text) in enumerate(rami_fuzz.seeds()):
        data = bytes([targets.index(target)]) + text.encode("utf-8")
        (corpus / f"seed-{number:03d}").write_bytes(data)
    dictionary = corpus.parent / "rami.dict"
    dictionary.write_text(
        "".join(f'"{_dict_entry(token)}"\n' for token in rami_fuzz.TOKENS if token),
        encoding="ascii",
    )

    def one(data: bytes) -> None:
        if not data:
            return
        target = targets[data[0] % len(targets)]
        text = data[1:].decode("utf-8", "surrogateescape")
        payload = rami_fuzz.decode_json(text) if target == "json" else text
        log.feed(target, payload)

    args = [
        sys.argv[0],
        f"-runs={inputs}",
        f"-max_total_time={int(seconds)}",
        f"-timeout={hang}",
        f"-dict={dictionary}",
        "-max_len=8192",
        "-print_final_stats=1",
        str(corpus),
    ]
    atheris.Setup(args, one)
    atheris.Fuzz()  # ends the process (libFuzzer prints the final stats; no summary after it)


def _dict_entry(token: str) -> str:
    """A libFuzzer dictionary entry: printable ASCII as is, other bytes as \\xNN."""
    return "".join(
        chr(byte) if 32 <= byte < 127 and byte not in b'"\\' else f"\\x{byte:02x}"
        for byte in token.encode("utf-8", "surrogatepass")
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", choices=["atheris", "random", "hypothesis"], default=None)
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=float, default=3600.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--hang", type=int, default=10, help="atheris: seconds that are a hang")
    parser.add_argument("--findings", type=Path, default=HERE / "out" / "findings.jsonl")
    parser.add_argument("--corpus", type=Path, default=HERE / "out" / "corpus")
    options = parser.parse_args()
    engine = options.engine
    if engine is None:
        try:
            import atheris  # noqa: F401

            engine = "atheris"
        except ImportError:
            engine = "random"
    log = Log(options.findings)
    print(f"engine {engine}, up to {options.inputs} inputs, {options.seconds:.0f} s", flush=True)
    atexit.register(log.summary)  # atheris ends the process itself
    if engine == "atheris":
        run_atheris(log, options.inputs, options.seconds, options.hang, options.corpus)
    elif engine == "hypothesis":
        run_hypothesis(log, options.inputs, options.seconds)
    else:
        run_random(log, options.inputs, options.seconds, options.seed)
    return 1 if log.kinds else 0


if __name__ == "__main__":
    sys.exit(main())
