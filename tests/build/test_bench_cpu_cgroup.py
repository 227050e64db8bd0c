"""``scripts/bench_build.py``'s CPU accounting: a control group counts the CPU of a
process nobody waits for, which ``wait4`` of the command misses."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

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


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_build",
                                                  ROOT / "scripts" / "bench_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_control_group_counts_an_orphans_cpu() -> None:
    bench = _bench()
    probe = bench.CpuCgroup.make("cartoqa-test-probe")
    if probe is None:
        pytest.skip("no control group can be made here (not root, or no CPU accounting)")
    probe.remove()
    wall, _, rc, tree, grouped = bench.run_measured([sys.executable, "-c", ORPHAN],
                                                    lambda: None, poll=0.05)
    assert rc == 0
    assert grouped is not None and grouped >= 0.45, grouped
    assert tree < 0.35, tree  # the interpreter's own start, not the orphan's 0.5 s
