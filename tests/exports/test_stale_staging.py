"""Staging folders that a killed ``report`` or ``export`` left are removed by the next run.

Issue 31, point 17: ``SIGKILL`` of either left hidden folders (up to 21 MB) beside the
output that no later run removed. A folder's name carries its writer's process id; a
folder whose writer is alive (another run at work) is left alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cartoqa.cli import main
from cartoqa.staging import sweep_stale


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_export_removes_the_staging_of_a_killed_export(dataset: Path, tmp_path: Path) -> None:
    dead = _dead_pid()
    stale = [tmp_path / f".ex.{dead}.abc123.partial",
             tmp_path / f".ex.old-.ex.{dead}.def456.partial"]
    live = tmp_path / f".ex.{os.getpid()}.zzz.partial"  # a run still at work
    other = tmp_path / ".unrelated.partial"
    for folder in (*stale, live, other):
        folder.mkdir()
        (folder / "data.bin").write_bytes(b"x" * 1000)
    assert main(["export", str(dataset), "--format", "hf", str(tmp_path / "ex")]) == 0
    assert not any(p.exists() for p in stale)
    assert live.exists() and other.exists()


def test_report_removes_the_staging_of_a_killed_report(dataset: Path, tmp_path: Path) -> None:
    dead = _dead_pid()
    stale = [tmp_path / f".rep.report-{dead}", tmp_path / f".rep.report-{dead}-old"]
    for folder in stale:
        folder.mkdir()
        (folder / "index.html").write_text("half", "utf-8")
    assert main(["report", str(dataset), "--out", str(tmp_path / "rep"),
                 "--no-connectivity"]) == 0
    assert not any(p.exists() for p in stale)
    assert (tmp_path / "rep" / "index.html").exists()


def test_the_sweep_never_follows_a_link_nor_takes_another_users_folder(tmp_path: Path) -> None:
    dead = _dead_pid()
    target = tmp_path / "keep"
    target.mkdir()
    (target / "file").write_text("mine", "utf-8")
    (tmp_path / f".o.report-{dead}").symlink_to(target)
    assert sweep_stale(tmp_path, r"\.o\.report-(?P<pid>\d+)") == []
    assert (target / "file").exists()
    if os.geteuid() == 0:
        theirs = tmp_path / f".o.report-{dead + 1}"
        theirs.mkdir()
        os.chown(theirs, 65534, 65534)
        sweep_stale(tmp_path, r"\.o\.report-(?P<pid>\d+)")
        assert theirs.exists()
