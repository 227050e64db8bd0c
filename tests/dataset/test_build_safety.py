"""A build never takes foreign files as its own, shares its folder, or overclaims;
``validate`` sees edits; the CLI stops cleanly on SIGTERM/SIGHUP and parses in one line."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from helpers.written_slots import KEY, finalise, mml_item, png, write_slot

from cartoqa import build as build_module
from cartoqa.build import build_dataset
from cartoqa.cli import main
from cartoqa.dataset.validate import validate_dataset
from cartoqa.dataset.writer import DatasetWriter
from cartoqa.declarations.spec import TaskSpec
from cartoqa.errors import CartoqaError
from cartoqa.tasks.cartomapqa.mml import SPEC as MML_SPEC
from cartoqa.tasks.common.base import Scenario

ROOT = Path(__file__).resolve().parents[2]


def _dataset(tmp_path: Path, slots: int = 3) -> Path:
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    for slot in range(slots):
        write_slot(w, slot)
    finalise(w)
    return out


def test_a_folder_holding_only_someone_elses_images_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "helsinki"
    (out / "images").mkdir(parents=True)
    (out / "images" / "map19-0001.png").write_bytes(png(colour=7))  # e.g. Oakland's
    with pytest.raises(CartoqaError, match="not empty"):
        DatasetWriter(out, build_key=KEY).open()
    assert (out / "images" / "map19-0001.png").read_bytes() == png(colour=7)


def test_a_failed_first_slot_leaves_no_images_behind(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    w.write_image("mml-0000.png", png())  # then the slot fails before it is recorded
    w.abandon()
    assert not out.exists()  # so a rerun is not refused for a leftover images/ folder
    DatasetWriter(out, build_key=KEY).open()


def test_a_second_build_into_the_same_folder_says_it_is_in_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ds"
    first = DatasetWriter(out, build_key=KEY)
    first.lock()
    try:
        rc = main(["build", "--extract", "helsinki", "--tasks", "mml", "--per-task", "1",
                   "--out", str(out), "--no-progress"])
    finally:
        first.unlock()
    err = capsys.readouterr().err.strip()
    assert rc == 2 and len(err.splitlines()) == 1
    assert "in use by another cartoqa build" in err
    assert list(out.iterdir()) == []  # the second build touched nothing


def test_validate_sees_an_edited_answer_a_swapped_image_and_orphans(tmp_path: Path) -> None:
    out = _dataset(tmp_path)
    assert validate_dataset(out).ok
    items = (out / "items.jsonl").read_text("utf-8")
    (out / "items.jsonl").write_text(items.replace('"A","B"', '"A","C"', 1), "utf-8")
    images = out / "images"
    a, b = (images / "mml-0000.png").read_bytes(), (images / "mml-0001.png").read_bytes()
    (images / "mml-0000.png").write_bytes(b)
    (images / "mml-0001.png").write_bytes(a)
    (images / "stray.png").write_bytes(png())
    errors = validate_dataset(out).errors
    assert any("items.jsonl was edited" in e for e in errors), errors
    assert any("images/mml-0000.png was changed or replaced" in e for e in errors), errors
    assert any("images/mml-0001.png was changed or replaced" in e for e in errors), errors
    assert any("belong to no item: images/stray.png" in e for e in errors), errors


def test_a_count_mismatch_names_the_difference(tmp_path: Path) -> None:
    out = _dataset(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    manifest["counts"]["total"] = 4
    (out / "manifest.json").write_text(json.dumps(manifest), "utf-8")
    errors = [e for e in validate_dataset(out).errors if "counts" in e]
    assert errors == ["manifest.json: counts do not match the items: total is 4 in the "
                      "manifest, 3 in items.jsonl"]


def _flaky_task(fail_from: int) -> TaskSpec:
    """A task whose slots from ``fail_from`` on find no scenario (like a sparse extract)."""

    def make_scenario(ctx: Any, state: Any, slot: int) -> Scenario | None:
        if slot >= fail_from:
            return None
        return Scenario(items=[mml_item(slot)], images={f"mml-{slot:04d}.png": png()})

    return dataclasses.replace(MML_SPEC, prepare=lambda ctx: None, make_scenario=make_scenario,
                               items_per_scenario=1, needs_roads=False)


def test_the_shortfall_notice_says_what_was_tried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build_module, "load_spec", lambda name: _flaky_task(2))
    notices: list[str] = []
    report = build_dataset(extract="helsinki", out=tmp_path / "ds", tasks=["mml"],
                           per_task=10, progress=False, log=notices.append,
                           cache_dir=tmp_path / "cache", assets_dir=tmp_path)
    reason = report.shortfalls["mml"]["reason"]
    assert "cannot" not in reason and "no more" not in reason  # no overclaim
    # 2 of 10 from at most 20 slots: after 13 slots even 7 more successes give 9 < 10
    assert "11 of 13 scenario slots" in reason and "7 slots left (of 20)" in reason
    assert any("wrote 2 of 10" in n for n in notices)


def test_usage_errors_are_one_line_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["build", "--per-task", "zero", "--out", "x"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1
    assert err.startswith("cartoqa build: error: argument --per-task")
    assert "cartoqa build --help" in err
    with pytest.raises(SystemExit):
        main(["no-such-command"])
    assert capsys.readouterr().err.count("\n") == 1


_STOPPED = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    import cartoqa.commands.validate as command
    from cartoqa.cli import main

    def run(args):
        try:
            os.kill(os.getpid(), getattr(signal, sys.argv[2]))
            signal.pause()  # the signal arrives here
        finally:
            Path(sys.argv[1]).write_text("cleaned up")
        return 0

    command.run = run
    sys.exit(main(["validate", "anything"]))
""")


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_like_ctrl_c(tmp_path: Path, name: str) -> None:
    marker = tmp_path / "marker"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", _STOPPED, str(marker), name],
                            capture_output=True, text=True, env=env, timeout=60, check=False)
    assert result.returncode == 128 + getattr(signal, name)
    assert marker.read_text() == "cleaned up"  # finally blocks (cleanup) ran
    assert result.stderr.strip() == f"cartoqa validate: stopped by {name}"
