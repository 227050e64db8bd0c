"""``scripts/bench_build.py``'s CPU accounting: a control group counts the CPU of a
process nobody waits for, which ``wait4`` of the command misses."""

from __future__ import annotations

import sys

import pytest
from helpers.modules import load_script

# The command exits at once; the grandchild it leaves (in a session of its own, reaped
# by nobody the command waits for) burns about 0.5 CPU s.
ORPHAN = """
import os, time
if os.fork() == 0:
    os.setsid()
    end = time.process_time() + 0.5
    while time.process_time() < end:
        pass
    os._exit(0)
"""


def test_the_control_group_counts_an_orphans_cpu() -> None:
    bench = load_script("bench_build")
    probe = bench.CpuCgroup.make("cartoqa-test-probe")
    if probe is None:
        pytest.skip("no control group can be made here (not root, or no CPU accounting)")
    probe.remove()
    wall, _, rc, tree, grouped = bench.run_measured([sys.executable, "-c", ORPHAN],
                                                    lambda: None, poll=0.05)
    assert rc == 0
    assert grouped is not None and grouped >= 0.45, grouped
    assert tree < 0.35, tree  # the interpreter's own start, not the orphan's 0.5 s
