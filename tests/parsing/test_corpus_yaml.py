"""The corpora's parsed YAML kept beside the bytecode (tests/helpers/corpus_yaml.py)."""

from __future__ import annotations

import datetime
import marshal
import sys
from pathlib import Path

import pytest
from helpers.corpus_yaml import read_yaml


def _kept(folder: Path) -> list[Path]:
    return sorted((folder / "__pycache__").glob("*.marshal"))


def test_a_kept_copy_is_read_and_an_edit_is_parsed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "c.yaml"
    path.write_text("- {response: 'Answer: B', expect: B}\n", "utf-8")
    assert read_yaml(path) == [{"response": "Answer: B", "expect": "B"}]
    (kept,) = _kept(tmp_path)
    # the kept copy is what is read: a forged one shows through (same file bytes)
    kept.write_bytes(marshal.dumps(["from the kept copy"]))
    assert read_yaml(path) == ["from the kept copy"]
    path.write_text("- {response: 'Answer: C', expect: C}\n", "utf-8")
    assert read_yaml(path) == [{"response": "Answer: C", "expect": "C"}]
    assert _kept(tmp_path) != [kept] and len(_kept(tmp_path)) == 1  # the old copy went


def test_nothing_is_kept_without_bytecode_or_for_a_date(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("- 1\n", "utf-8")
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert read_yaml(path) == [1] and _kept(tmp_path) == []
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path.write_text("- 2026-12-03\n", "utf-8")
    assert read_yaml(path) == [datetime.date(2026, 12, 3)] and _kept(tmp_path) == []
