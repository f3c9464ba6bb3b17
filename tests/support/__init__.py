"""Test support code: a second, independent referee and turn mutations for differential tests."""
