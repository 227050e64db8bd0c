"""SIGTERM stops a command even where Python drops the exception its handler raises."""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest

from cartoqa.stop_signals import StopRequested, raise_pending_stop, stop_signals_as_interrupts


def _sigterm_inside_a_gc_callback() -> list[type[BaseException]]:
    """What build-many met: the handler runs inside Dask's garbage-collector callback,
    where Python drops the exception ("Exception ignored"); returns what it dropped."""
    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc.callbacks.remove(callback)
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs between these bytecodes
                pass

    dropped: list[type[BaseException]] = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: dropped.append(unraisable.exc_type)
    gc.callbacks.append(callback)
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
        if callback in gc.callbacks:
            gc.callbacks.remove(callback)
    return dropped


def test_a_dropped_stop_is_raised_at_the_next_check() -> None:
    turns: list[int] = []
    with pytest.raises(StopRequested) as stopped, stop_signals_as_interrupts():
        assert _sigterm_inside_a_gc_callback() == [StopRequested]  # Python dropped it
        for turn in range(1, 4):  # a long loop of the main thread
            turns.append(turn)
            raise_pending_stop()
    assert stopped.value.signum == signal.SIGTERM
    assert turns == [1]  # stopped at the first turn after the signal


def test_a_dropped_stop_is_raised_when_the_block_ends() -> None:
    with pytest.raises(StopRequested), stop_signals_as_interrupts():
        assert _sigterm_inside_a_gc_callback() == [StopRequested]
    raise_pending_stop()  # raised once: nothing pending after the block


def test_a_stop_raised_normally_is_not_raised_twice() -> None:
    with pytest.raises(StopRequested), stop_signals_as_interrupts():
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            pass
    with stop_signals_as_interrupts():  # the next block starts with nothing pending
        raise_pending_stop()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL or callable(
        signal.getsignal(signal.SIGTERM))
