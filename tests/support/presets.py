"""The presets in tests (test_rules_presets.py and test_rules_options.py): every preset of
docs/rules.md, by name."""

from __future__ import annotations

ALL = ["rami-chinois", "rami-fou", "rami-51", "bfmania-51", "bfmania-30", "cafe-rummy", "rummikub"]
