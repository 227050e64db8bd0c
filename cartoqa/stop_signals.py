"""SIGTERM and SIGHUP stop a command the way Ctrl-C does, even when Python swallows them.

:func:`stop_signals_as_interrupts` turns the signals into :class:`StopRequested` (a
:class:`KeyboardInterrupt`, so every cleanup that handles Ctrl-C runs). Python runs a
signal handler between two bytecodes of the main thread, which may be inside a
garbage-collector or weakref callback (Dask's ``GCDiagnosis`` runs one at every
collection of build-many's main process): an exception raised there is printed as
"Exception ignored" and dropped, and the command would run on as if no signal had come.
The handler therefore also remembers the signal; long loops call
:func:`raise_pending_stop` at each turn, and the ``with`` block raises it at its end,
so a swallowed stop still stops the command with status 128 + n.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

#: Signals that stop a command the way Ctrl-C does (cleanup runs, then exit 128 + n).
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)

#: The stop signal received and not yet raised where it can be caught (0: none).
_pending: list[int] = [0]


class StopRequested(KeyboardInterrupt):
    """Raised in the main thread when SIGTERM or SIGHUP arrives.

    A subclass of :class:`KeyboardInterrupt`, so every cleanup that handles Ctrl-C
    (closing the browser, stopping the database, keeping a resumable journal) runs.

    Parameters
    ----------
    signum : int
        The signal received.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    _pending[0] = signum
    raise StopRequested(signum)


def raise_pending_stop() -> None:
    """Raise :class:`StopRequested` if a stop signal came and its exception was dropped.

    Call it at each turn of a long loop of the main thread (never from a cleanup). Once
    raised here the stop is no longer pending.

    Examples
    --------
    >>> raise_pending_stop()  # nothing pending: returns
    """
    signum, _pending[0] = _pending[0], 0
    if signum:
        raise StopRequested(signum)


@contextlib.contextmanager
def stop_signals_as_interrupts() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into :class:`StopRequested` for a ``with`` block.

    A stop whose exception was dropped is raised when the block ends (after the
    command's own work: the exit status still says it was stopped). Outside the main
    thread (where Python cannot set handlers) this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _pending[0] = 0
    previous = {sig: signal.signal(sig, _raise_stop) for sig in STOP_SIGNALS}
    try:
        yield
        raise_pending_stop()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        _pending[0] = 0
