"""The ``rami`` command loads OR-Tools' CP-SAT without pandas (rami/cli/lean.py); a program
importing rami as a library gets OR-Tools as it ships."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("pandas")  # (OR-Tools requires it: always installed with rami)


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_command_solves_without_loading_pandas() -> None:
    out = run_python("""
        import sys
        from rami.cli.main import run
        sys.argv = ["rami", "solve", "--json",
                    "3H 4H 5H 6H 7H 8H 9H | QS QD QC / 6H QH 5C / rami-chinois opened"]
        try:
            run()
        except SystemExit as done:
            assert done.code in (0, None), done.code
        import ortools.sat.python.cp_model as cp_model
        print("pandas" in sys.modules, type(cp_model.pd).__name__, cp_model.pd.__name__)
    """)
    assert out.splitlines()[-1] == "False module pandas"
    assert '"status": "optimal"' in out


def test_pandas_imported_afterwards_is_the_real_one() -> None:
    out = run_python("""
        import sys
        from rami.cli import lean
        lean.install()
        from ortools.sat.python import cp_model
        assert "pandas" not in sys.modules
        import pandas
        print(hasattr(pandas, "DataFrame"), hasattr(cp_model.pd, "DataFrame"))
    """)
    assert out == "True False"


def test_the_stand_in_refuses_what_pandas_helpers_would() -> None:
    out = run_python("""
        from rami.cli import lean
        lean.install()
        from ortools.sat.python import cp_model
        model = cp_model.CpModel()
        try:
            model.new_int_var_series("x", [1, 2], 0, 1)
        except TypeError as error:
            print("refused:", error)
    """)
    assert out.startswith("refused:")


def test_a_library_import_loads_ortools_as_it_ships() -> None:
    out = run_python("""
        import sys
        from rami.notation import parse_position
        from rami.solver.api import solve
        solve(parse_position("3H 4H 5H 6H 7H 8H 9H | QS QD QC / 6H QH / rami-chinois opened"))
        import ortools.sat.python.cp_model as cp_model
        print("pandas" in sys.modules, hasattr(cp_model.pd, "DataFrame"))
    """)
    assert out == "True True"


def test_pandas_loaded_first_is_kept() -> None:
    out = run_python("""
        import pandas
        from rami.cli import lean
        lean.install()
        from ortools.sat.python import cp_model
        print(cp_model.pd is pandas)
    """)
    assert out == "True"
