"""``cartoqa build --tasks mfs`` end to end: real tile pipeline, fallback embedding."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from helpers.shared_builds import SharedBuilds
from scipy.stats import chisquare

from cartoqa.build import build_dataset
from cartoqa.cli import main
from cartoqa.tasks.cartomapqa.mfs import LETTERS


@pytest.mark.slow
def test_built_mfs_set_is_valid_and_letters_are_uniform(tmp_path: Path,
                                                      shared_builds: SharedBuilds) -> None:
    out = tmp_path / "ds"  # the session's PostGIS cache: Helsinki is imported once
    report = build_dataset(
        extract="helsinki",
        out=out,
        tasks=["mfs"],
        per_task=60,
        seed=1,
        progress=False,
        cache_dir=shared_builds.cache,
        task_options={"embedding": "pixel-histogram"},
    )
    assert report.by_task == {"mfs": 60}
    assert main(["validate", str(out)]) == 0
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    letters = Counter(it["answer"]["letter"] for it in items)
    result = chisquare([letters[k] for k in LETTERS])
    assert result.pvalue > 0.05, letters
    assert Counter(it["strata"]["category"] for it in items) == {
        "symbol": 20,
        "line": 20,
        "area": 20,
    }
    assert {it["provenance"]["embedding"] for it in items} == {"pixel-histogram:v1"}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["build"]["task_options"] == {"embedding": "pixel-histogram"}
