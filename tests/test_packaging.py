"""What the sdist ships: MANIFEST.in's rules, applied to the tree the way setuptools applies them.

No build runs here (that would need setuptools >= 77 and, isolated, the network); setuptools'
own ``FileList`` reads MANIFEST.in, so a rule that stops matching fails here. To look at a real
sdist: ``python -m build --sdist`` and ``tar tzf dist/rami-*.tar.gz``.
"""

from __future__ import annotations

import logging
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


@pytest.fixture(scope="module")
def shipped() -> set[str]:
    """The files MANIFEST.in's template selects, relative to the project's root."""
    egg_info = pytest.importorskip("setuptools.command.egg_info")
    files = egg_info.FileList()
    files.findall(str(ROOT))
    logging.disable(logging.WARNING)  # "no previously-included files": nothing to exclude
    try:
        for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                files.process_template_line(line)
    finally:
        logging.disable(logging.NOTSET)
    return {Path(name).resolve().relative_to(ROOT).as_posix() for name in files.files}


def _sources(folder: Path, pattern: str = "*") -> list[str]:
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in folder.rglob(pattern)
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


def test_the_license_file_is_mit_as_the_metadata_says() -> None:
    metadata = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert metadata["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "the rami authors" in text


def test_the_sdist_ships_the_whole_test_suite(shipped: set[str]) -> None:
    """Every test file, tests/conftest.py and tests/support/ (which the test files import)."""
    assert "tests/conftest.py" in shipped
    assert "tests/support/__init__.py" in shipped
    assert set(_sources(TESTS, "*.py")) <= shipped


def test_the_sdist_ships_what_the_tests_and_the_makefile_read(shipped: set[str]) -> None:
    assert {"LICENSE", "README.md", "CHANGELOG.md", "Makefile", "pyproject.toml"} <= shipped
    for folder in ("docs", "examples", "fuzz", "benchmarks/suites"):
        files = _sources(ROOT / folder)
        assert files, folder
        assert set(files) <= shipped, folder
    assert (
        set(_sources(ROOT / "benchmarks", "*.py")) - set(_sources(ROOT / "benchmarks" / "results"))
        <= shipped
    )


def test_every_path_a_test_names_from_the_root_is_shipped(shipped: set[str]) -> None:
    """``ROOT / "x"`` or ``parent.parent / "x"`` in a test: x (a file, or a folder with files)
    is in the sdist, so the unpacked sdist runs its own tests."""
    pattern = re.compile(r'(?:ROOT|parent\.parent)((?:\s*/\s*"[^"]+")+)')
    named: set[str] = set()
    for path in [*TESTS.glob("*.py"), *(TESTS / "support").glob("*.py")]:
        if path.name == Path(__file__).name:
            continue  # this file names what is left out too
        for match in pattern.finditer(path.read_text(encoding="utf-8")):
            named.add("/".join(re.findall(r'"([^"]+)"', match.group(1))))
    assert "examples/demo.txt" in named  # the pattern reads the tests
    for name in sorted(named):
        if name == "rami" or name.startswith("rami/"):
            continue  # the package: setuptools ships it with its data files (pyproject.toml)
        target = ROOT / name
        if target.is_dir():
            assert set(_sources(target)) & shipped, name
        elif target.exists():
            assert name in shipped, name


def test_the_sdist_leaves_out_exports_and_caches(shipped: set[str]) -> None:
    assert not {name for name in shipped if name.startswith("benchmarks/results/")}
    assert not {name for name in shipped if "__pycache__" in name or name.endswith(".pyc")}
