"""Jupyter shows melds, positions and solutions as pictures (``_repr_svg_``, as python-chess's
boards do).

The methods are attached here rather than written in the value types' modules, so that those
import nothing of the pictures (no import cycle); ``import rami`` attaches them.
"""

from __future__ import annotations

from rami.melds import Meld
from rami.position import Position
from rami.solver.solution import Solution


def _meld_svg(self: Meld) -> str:
    """A picture of the meld's cards (:func:`rami.svg.meld`)."""
    from rami.svg import meld as picture

    return picture(self)


def _position_svg(self: Position) -> str:
    """A picture of the table and the hand (:func:`rami.svg.position`)."""
    from rami.svg import position as picture

    return picture(self)


def _solution_svg(self: Solution) -> str:
    """A picture of the new table, hand cards and moved cards marked (:func:`rami.svg.solution`)."""
    from rami.svg import solution as picture

    return picture(self)


# Attributes the classes do not declare (see above), hence the ignores.
Meld._repr_svg_ = _meld_svg  # type: ignore[attr-defined]
Position._repr_svg_ = _position_svg  # type: ignore[attr-defined]
Solution._repr_svg_ = _solution_svg  # type: ignore[attr-defined]
