"""``cartoqa build --workers 2``: the same bytes as one process; resume after a kill -9.

Real PostGIS, Mapnik and Chromium on the bundled Kotka extract, two small tasks.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers.processes import alive, descendants_but, kill_all
from helpers.shared_builds import SharedBuilds

from cartoqa.cli import main

pytestmark = pytest.mark.slow

# the very configuration of test_build_many.py's Kotka single build (its tasks in their
# canonical order), so a session makes the reference build once for both files
CONFIG = ("--extract", "kotka", "--tasks", "rle,mml", "--per-task", "2", "--seed", "3")
ARGS = ["build", *CONFIG, "--no-progress"]


@pytest.fixture(scope="module")
def env(shared_env: dict[str, str]) -> dict[str, str]:
    """The session's shared cache."""
    return shared_env


@pytest.fixture(scope="module")
def single(env: dict[str, str], shared_builds: SharedBuilds) -> Path:
    return shared_builds.build(*CONFIG)


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_two_workers_write_the_same_bytes(single: Path, env: dict[str, str],
                                          tmp_path: Path) -> None:
    # a fresh process, as a user runs it: the builder forks its worker from itself
    # (pytest's own process has loaded Mapnik maps, so an in-process build takes the
    # fork server's way, as the resumed build of the kill test below does)
    out = tmp_path / "ds"
    subprocess.run([sys.executable, "-m", "cartoqa", *ARGS, "--out", str(out), "--workers", "2"],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    ours, theirs = _files(single), _files(out)
    assert "items.jsonl" in ours and "manifest.json" in ours
    assert any(name.startswith("images/") for name in ours)
    assert sorted(theirs) == sorted(ours)
    for name, data in ours.items():
        assert theirs[name] == data, name


def test_kill_9_of_a_parallel_build_then_resume(single: Path, env: dict[str, str],
                                                tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    journal = cut / ".cartoqa-build" / "journal.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "cartoqa", *ARGS, "--out", str(cut),
                             "--workers", "2"], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists() and journal.read_text("utf-8").count("\n") >= 1:
            break  # a slot journalled (3 in all): killed mid-build, with work to resume
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be killed"
    children = descendants_but(proc.pid, "postgres")
    assert len(children) >= 2  # its worker (and the browsers)
    os.kill(proc.pid, signal.SIGKILL)  # the builder only: its workers must follow it
    proc.wait()
    deadline = time.monotonic() + 60
    while alive(children) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = alive(children)
    kill_all(left)  # do not leave them behind even when the test fails
    assert not left, [p.pid for p in left]
    assert not (cut / "items.jsonl").exists()
    assert main([*ARGS, "--out", str(cut), "--workers", "2"]) == 0
    ours, theirs = _files(single), _files(cut)
    assert sorted(theirs) == sorted(ours)
    for name, data in ours.items():
        assert theirs[name] == data, name
