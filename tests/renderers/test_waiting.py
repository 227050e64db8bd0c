"""Waiting on locks and process exits (renderers.waiting), with real processes."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from renderers.waiting import exclusive_lock, processes_in, wait_for_exit


def test_wait_for_exit_returns_when_the_process_ends(tmp_path: Path) -> None:
    quick = subprocess.Popen(["sleep", "0.3"])
    started = time.monotonic()
    assert wait_for_exit([quick.pid], 10.0)
    assert time.monotonic() - started < 5.0
    quick.wait()


def test_wait_for_exit_times_out_on_a_living_process() -> None:
    slow = subprocess.Popen(["sleep", "30"])
    try:
        assert not wait_for_exit([slow.pid], 0.2)
    finally:
        slow.kill()
        slow.wait()


def test_processes_in_finds_a_process_by_its_working_folder(tmp_path: Path) -> None:
    proc = subprocess.Popen(["sleep", "30"], cwd=tmp_path)  # folder set before exec
    try:
        assert proc.pid in processes_in(tmp_path)
        assert proc.pid not in processes_in(tmp_path.parent)
    finally:
        proc.kill()
        proc.wait()
    assert proc.pid not in processes_in(tmp_path)


def test_a_waiting_holder_gets_the_lock_when_it_is_released(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    events: list[str] = []
    waiting = threading.Event()

    def tell() -> None:
        events.append("waiting")
        waiting.set()

    def second() -> None:
        with exclusive_lock(lock, timeout_s=10.0, on_wait=tell):
            events.append("second holds it")

    with exclusive_lock(lock):
        thread = threading.Thread(target=second)
        thread.start()
        assert waiting.wait(5)
        events.append("first releases it")
    thread.join(10)
    assert events == ["waiting", "first releases it", "second holds it"]


def test_a_lock_not_released_in_time_is_a_timeout_and_stays_free_after(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    with exclusive_lock(lock), pytest.raises(TimeoutError), exclusive_lock(lock, timeout_s=0.1):
        pass
    # the abandoned waiter took the lock when it was released and let it go at once
    with exclusive_lock(lock, timeout_s=5.0):
        pass
