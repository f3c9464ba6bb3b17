"""Challenge puzzles: one turn, one solution (docs/puzzles.md).

The public API of the room, what the ``rami puzzle`` commands (:mod:`rami.cli.puzzle`) and other
callers use: each name is loaded from its module on first use (PEP 562), so that importing the
package stays fast and OR-Tools loads only with what solves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rami.lazy import lazy_names

if TYPE_CHECKING:
    from rami.puzzles.answers import check_answer, read_answer
    from rami.puzzles.attempts import AttemptStore
    from rami.puzzles.daily import daily_with
    from rami.puzzles.generator import SOLVER_BUG
    from rami.puzzles.generator import generate as generate_puzzles
    from rami.puzzles.human_model import MODEL_VERSION, document_text, start_ratings
    from rami.puzzles.mine import checked_simulation, mine_summary
    from rami.puzzles.mine import mine as mine_puzzles
    from rami.puzzles.profiles import PROFILES
    from rami.puzzles.ratings import Ratings
    from rami.puzzles.recheck import verify
    from rami.puzzles.record import (
        Puzzle,
        load_puzzles,
        position_text,
        public_json,
        read_pack,
        records_text,
        select,
        shipped_pack,
        shipped_packs,
        solution_json,
        versions,
    )
    from rami.puzzles.record import daily as daily_puzzle

#: Each public name: its module and its name there (a name differs where the module's own would
#: be taken by a submodule of this package: ``mine``, ``daily``).
_WHERE: dict[str, tuple[str, str]] = {
    "check_answer": ("answers", "check_answer"),
    "read_answer": ("answers", "read_answer"),
    "AttemptStore": ("attempts", "AttemptStore"),
    "daily_with": ("daily", "daily_with"),
    "SOLVER_BUG": ("generator", "SOLVER_BUG"),
    "generate_puzzles": ("generator", "generate"),
    "MODEL_VERSION": ("human_model", "MODEL_VERSION"),
    "document_text": ("human_model", "document_text"),
    "start_ratings": ("human_model", "start_ratings"),
    "checked_simulation": ("mine", "checked_simulation"),
    "mine_summary": ("mine", "mine_summary"),
    "mine_puzzles": ("mine", "mine"),
    "PROFILES": ("profiles", "PROFILES"),
    "Ratings": ("ratings", "Ratings"),
    "verify": ("recheck", "verify"),
    "Puzzle": ("record", "Puzzle"),
    "daily_puzzle": ("record", "daily"),
    "load_puzzles": ("record", "load_puzzles"),
    "position_text": ("record", "position_text"),
    "public_json": ("record", "public_json"),
    "read_pack": ("record", "read_pack"),
    "records_text": ("record", "records_text"),
    "select": ("record", "select"),
    "shipped_pack": ("record", "shipped_pack"),
    "shipped_packs": ("record", "shipped_packs"),
    "solution_json": ("record", "solution_json"),
    "versions": ("record", "versions"),
}

__all__ = [
    "MODEL_VERSION",
    "PROFILES",
    "SOLVER_BUG",
    "AttemptStore",
    "Puzzle",
    "Ratings",
    "check_answer",
    "checked_simulation",
    "daily_puzzle",
    "daily_with",
    "document_text",
    "generate_puzzles",
    "load_puzzles",
    "mine_puzzles",
    "mine_summary",
    "position_text",
    "public_json",
    "read_answer",
    "read_pack",
    "records_text",
    "select",
    "shipped_pack",
    "shipped_packs",
    "solution_json",
    "start_ratings",
    "verify",
    "versions",
]


__getattr__, __dir__ = lazy_names(__name__, _WHERE, globals())
