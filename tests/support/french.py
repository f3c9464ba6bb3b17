"""French in tests (test_french_cards.py, _hints, _cli and _service): what only an English card
holds, and a French position whose solution splits a run."""

from __future__ import annotations

import re

#: A letter that only English cards hold (H, S, D as suits; T J Q K as ranks): none of it may
#: be left in a French card.
_ENGLISH_CARD = re.compile(r"(?<![\w*])(?:10|[A2-9TJQK])[SHDC](?![\w])")


FRENCH_SPLIT = "3C 4C 5C 6C 7C 8C 9C | DP DK DT / 6C RP / rami-chinois opened"
