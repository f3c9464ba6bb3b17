"""Melds in tests (tests/test_melds_*.py): the presets' rulesets, and the reasons a meld written in
notation is illegal."""

from __future__ import annotations

from rami.melds import Meld, meld_problems
from rami.rules import get_ruleset

CHINOIS = get_ruleset("rami-chinois")
R51 = get_ruleset("rami-51")
CAFE = get_ruleset("cafe-rummy")
BF51 = get_ruleset("bfmania-51")
KUB = get_ruleset("rummikub")


def problems(text: str, rules=CHINOIS) -> list[str]:
    return meld_problems(Meld.parse(text), rules)
