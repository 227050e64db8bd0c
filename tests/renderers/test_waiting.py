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


def _second_waiter(lock: Path, events: list[str], after_s: float) -> threading.Thread:
    def second() -> None:
        with exclusive_lock(lock, timeout_s=10.0, on_wait=lambda: events.append("waiting"),
                            on_wait_after_s=after_s):
            events.append("second holds it")

    return threading.Thread(target=second)


def test_a_short_wait_goes_unsaid_with_on_wait_after_s(tmp_path: Path) -> None:
    """The notice comes only once the wait has lasted ``on_wait_after_s``."""
    lock = tmp_path / "x.lock"
    events: list[str] = []
    with exclusive_lock(lock):
        thread = _second_waiter(lock, events, after_s=5.0)
        thread.start()
        time.sleep(0.3)
        events.append("first releases it")
    thread.join(10)
    assert events == ["first releases it", "second holds it"]


def test_a_long_wait_is_said_once_after_on_wait_after_s(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    events: list[str] = []
    with exclusive_lock(lock):
        thread = _second_waiter(lock, events, after_s=0.2)
        started = time.monotonic()
        thread.start()
        while "waiting" not in events and time.monotonic() - started < 5:
            time.sleep(0.02)
        assert time.monotonic() - started >= 0.15  # not before the quiet time
        events.append("first releases it")
    thread.join(10)
    assert events == ["waiting", "first releases it", "second holds it"]


def test_the_quiet_time_counts_against_the_timeout(tmp_path: Path) -> None:
    lock = tmp_path / "x.lock"
    said: list[str] = []
    started = time.monotonic()
    with exclusive_lock(lock), pytest.raises(TimeoutError), exclusive_lock(
            lock, timeout_s=0.3, on_wait=lambda: said.append("waiting"), on_wait_after_s=5.0):
        pass
    assert time.monotonic() - started < 3.0
    with exclusive_lock(lock, timeout_s=5.0):  # free again afterwards
        pass
