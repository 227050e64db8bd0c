"""Child processes that die with the process that started them.

``SIGKILL`` cannot be caught, so a killed build cannot stop its browser. Linux can do
it instead: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` in the child, before it runs the
program, asks the kernel to kill the child as soon as its parent exits.
:func:`die_with_parent` is meant for ``subprocess.Popen(preexec_fn=...)``.

The signal fires when the *thread* that started the child exits, so start such
children from a thread that lives as long as they should (the main thread).
"""

from __future__ import annotations

import ctypes
import os
import signal

#: ``PR_SET_PDEATHSIG`` from ``<linux/prctl.h>``.
PR_SET_PDEATHSIG = 1

_libc = ctypes.CDLL(None, use_errno=True)


def die_with_parent(parent_pid: int) -> None:
    """In a freshly forked child: be killed with ``SIGKILL`` when the parent exits.

    Parameters
    ----------
    parent_pid : int
        The parent's id, read before forking; if the parent already died between the
        fork and this call the child exits at once.
    """
    if _libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) != 0:
        os._exit(127)
    if os.getppid() != parent_pid:  # the parent died before the prctl took effect
        os._exit(127)
