"""Record or replay the answer corpus (tests/corpus/cases.py says what a case is).

    .venv/bin/python tests/corpus/make_corpus.py record            # draw the cases, run, write
    .venv/bin/python tests/corpus/make_corpus.py replay            # every case, compare
    .venv/bin/python tests/corpus/make_corpus.py replay --sample 200
    .venv/bin/python tests/corpus/make_corpus.py counts            # cases per kind/preset/lang
    .venv/bin/python tests/corpus/make_corpus.py rerecord ID... --why "..."  # some cases anew

``replay`` exits 1 listing the cases whose output changed (the first difference of each), 0 when
every case gives what was recorded. Record only at a commit whose answers are known good: the
header keeps the commit. ``rerecord`` runs the named cases again and keeps their new output, for
a change of answer found intended (a solver answer with the same objective values): the header
lists each case rerecorded, at which commit and why.
"""

from __future__ import annotations

import argparse
import difflib
import gzip
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus.cases import CORPUS, ROOT, build_cases, load_corpus, outcome, run_case, sample


def _commit() -> str:
    """HEAD of the checkout the cases run from (RAMI_CORPUS_COMMIT names it for a tree exported
    without its .git, as ``git archive`` makes one to record at a commit)."""
    if os.environ.get("RAMI_CORPUS_COMMIT"):
        return os.environ["RAMI_CORPUS_COMMIT"]
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or "unknown"


def counts(cases: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    return {
        field: dict(sorted(Counter(case[field] for case in cases).items()))
        for field in ("kind", "preset", "lang")
    }


def record(path: Path) -> None:
    started = time.perf_counter()
    commit = _commit()
    cases = build_cases()
    drawn = time.perf_counter()
    for number, case in enumerate(cases, start=1):
        case.update(run_case(case))
        if number % 250 == 0:
            print(f"{number}/{len(cases)} recorded", file=sys.stderr)
    header = {
        "corpus": "rami answers",
        "commit": commit,
        "cases": len(cases),
        "counts": counts(cases),
    }
    _write(path, header, cases)
    print(
        f"{len(cases)} cases recorded at {header['commit'][:10]} into {path} "
        f"(drawn in {drawn - started:.1f} s, run in {time.perf_counter() - drawn:.1f} s, "
        f"{path.stat().st_size // 1024} KiB)"
    )


def difference(case: dict[str, Any], got: dict[str, Any]) -> str:
    """The first lines that differ between what was recorded and what the case gives now."""
    lines = [f"{case['id']}: rami {' '.join(case['args'])[:160]}"]
    if got["exit"] != case["exit"]:
        lines.append(f"  exit {case['exit']} -> {got['exit']}")
    for stream in ("stdout", "stderr"):
        if got[stream] != case[stream]:
            diff = difflib.unified_diff(
                case[stream].splitlines(),
                got[stream].splitlines(),
                "recorded",
                "now",
                lineterm="",
                n=1,
            )
            lines += [f"  {stream}: {line}" for line in list(diff)[2:14]]
    return "\n".join(lines)


def replay(path: Path, count: int | None) -> int:
    header, cases = load_corpus(path)
    chosen = cases if count is None else sample(cases, count)
    started = time.perf_counter()
    changed = [difference(case, got) for case in chosen if (got := run_case(case)) != outcome(case)]
    took = time.perf_counter() - started
    for text in changed:
        print(text)
    print(
        f"{len(chosen)} cases replayed in {took:.1f} s (recorded at "
        f"{header['commit'][:10]}): {len(changed)} changed"
    )
    return 1 if changed else 0


def rerecord(path: Path, ids: list[str], why: str) -> None:
    header, cases = load_corpus(path)
    known = {case["id"] for case in cases}
    if not why or not ids or any(name not in known for name in ids):
        raise SystemExit("rerecord: give the ids of recorded cases and --why")
    for case in cases:
        if case["id"] in ids:
            print(difference(case, got := run_case(case)))
            case.update(got)
    header.setdefault("rerecorded", []).extend(
        {"id": name, "commit": _commit(), "why": why} for name in ids
    )
    _write(path, header, cases)


def _write(path: Path, header: dict[str, Any], cases: list[dict[str, Any]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as handle:
        for item in (header, *cases):
            handle.write(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("record", "replay", "counts", "rerecord"))
    parser.add_argument("ids", nargs="*", help="rerecord: the cases' ids")
    parser.add_argument("--why", default="", help="rerecord: why the new output is right")
    parser.add_argument("--sample", type=int, default=None, help="replay this many cases only")
    parser.add_argument("--path", type=Path, default=CORPUS)
    options = parser.parse_args()
    if options.command == "record":
        record(options.path)
        return 0
    if options.command == "rerecord":
        rerecord(options.path, options.ids, options.why)
        return 0
    if options.command == "counts":
        header, cases = load_corpus(options.path)
        print(
            json.dumps({"commit": header["commit"], "cases": len(cases), **counts(cases)}, indent=2)
        )
        return 0
    return replay(options.path, options.sample)


if __name__ == "__main__":
    sys.exit(main())
