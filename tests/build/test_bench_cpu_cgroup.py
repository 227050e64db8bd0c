"""``scripts/bench_build.py``'s CPU accounting: a control group counts the CPU of a
process nobody waits for, which ``wait4`` of the command misses."""

from __future__ import annotations

import sys
import time

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
    _, _, rc, tree, grouped = bench.run_measured([sys.executable, "-c", ORPHAN],
                                                 lambda: None, poll=0.05)
    assert rc == 0
    assert grouped is not None and grouped >= 0.45, grouped
    assert tree < 0.35, tree  # the interpreter's own start, not the orphan's 0.5 s


# The command starts a daemon (forked twice, as pg_ctl starts a PostgreSQL server: no
# longer in the command's tree) that burns about 0.5 CPU s and lives on a moment, so
# that sampling sees it; the command waits for it to end. The group counts the daemon,
# and so does the sampled server growth: the exact figure counts it once.
SERVER = """
import os, sys, time
from pathlib import Path
pid_file, done = Path(sys.argv[1]), Path(sys.argv[1] + ".done")
if os.fork() == 0:
    if os.fork() == 0:
        pid_file.write_text(str(os.getpid()))
        end = time.process_time() + 0.5
        while time.process_time() < end:
            pass
        time.sleep(0.6)
        done.write_text("")
    os._exit(0)
os.wait()
while not done.exists():
    time.sleep(0.02)
"""


def test_a_server_the_command_started_is_counted_once(tmp_path) -> None:
    bench = load_script("bench_build")
    probe = bench.CpuCgroup.make("cartoqa-test-probe")
    if probe is None:
        pytest.skip("no control group can be made here (not root, or no CPU accounting)")
    probe.remove()
    pid_file = tmp_path / "server.pid"

    def server() -> int | None:
        text = pid_file.read_text() if pid_file.exists() else ""
        return int(text) if text else None

    _, totals, rc, _, grouped = bench.run_measured(
        [sys.executable, "-c", SERVER, str(pid_file)], server, poll=0.05)
    assert rc == 0
    assert totals["postgres"] >= 0.4, totals  # sampling saw the server's CPU
    assert grouped is not None and 0.45 <= grouped < 0.85, grouped  # and the group, once


# A server running before the command (as the bench holds PostgreSQL for its whole run),
# which, asked by the command, serves 40 connections, each a child process of its own
# that burns 10 ms and is reaped by the server: too short-lived for sampling, counted in
# the server's figure for its reaped children.
BUSY_SERVER = """
import os, sys, time
from pathlib import Path
ask, done = Path(sys.argv[1]), Path(sys.argv[2])
while not ask.exists():
    time.sleep(0.01)
for _ in range(40):
    if os.fork() == 0:
        end = time.process_time() + 0.01
        while time.process_time() < end:
            pass
        os._exit(0)
    os.wait()
done.write_text("")
time.sleep(60)
"""
ASK = """
import sys, time
from pathlib import Path
Path(sys.argv[1]).write_text("")
while not Path(sys.argv[2]).exists():
    time.sleep(0.01)
"""


def test_a_running_servers_short_lived_children_are_counted(tmp_path) -> None:
    import subprocess

    bench = load_script("bench_build")
    ask, done = tmp_path / "ask", tmp_path / "done"
    server = subprocess.Popen([sys.executable, "-c", BUSY_SERVER, str(ask), str(done)])
    try:
        time.sleep(0.3)  # started well before the command
        _, totals, rc, tree, grouped = bench.run_measured(
            [sys.executable, "-c", ASK, str(ask), str(done)], lambda: server.pid, poll=0.05)
    finally:
        server.kill()
        server.wait()
    assert rc == 0
    assert totals["postgres"] >= 0.3, totals
    assert tree >= 0.3, tree
    if grouped is not None:  # the server is outside the command's group: added once
        assert grouped >= 0.3, grouped


# The command works alone 0.5 s, then beside a worker (a forked Python process) for
# 0.8 s, then alone again 0.6 s after the worker ended.
WITH_A_WORKER = """
import os, time
time.sleep(0.5)
if os.fork() == 0:
    time.sleep(0.8)
    os._exit(0)
os.wait()
time.sleep(0.6)
"""


def test_the_time_a_builder_works_without_its_workers_is_measured() -> None:
    bench = load_script("bench_build")
    phases: dict[str, float] = {}
    wall, _, rc, _, _ = bench.run_measured([sys.executable, "-c", WITH_A_WORKER],
                                           lambda: None, poll=0.05, phases=phases)
    assert rc == 0
    # from the kernel's start times: the 0.5 s and the interpreter's start
    assert 0.45 <= phases["before"] <= 1.5, phases
    # at most the 0.6 s (the worker's end is known to a sample's spacing)
    assert 0.3 <= phases["after"] <= 0.65, phases
    assert phases["before"] + phases["after"] < wall - 0.7, (wall, phases)
    assert 0.0 <= phases["before_cpu"] < 0.5 and 0.0 <= phases["after_cpu"] < 0.5, phases
    # a command that starts no worker: nothing to say
    alone: dict[str, float] = {}
    bench.run_measured([sys.executable, "-c", "pass"], lambda: None, poll=0.05,
                       phases=alone)
    assert alone == {}


def test_the_bound_the_time_alone_puts_on_the_speed_up() -> None:
    bench = load_script("bench_build")
    # 2 s alone with 2 CPU s, 8 CPU s more over 2 cores: at least 6 s
    assert bench.overlap_bound(10.0, 2.0, 2.0, 2) == 6.0
    # 1 s alone (2 CPU s), 9 CPU s more: 5.5 s; a 10 s --workers 1 run gives 1.82x at
    # best, and 1.6x holds until the time alone grows to 3 s (12 s / 7.5 s = 1.6)
    assert bench.serial_for(1.6, 10.0, 11.0, 1.0, 2.0, 2) == pytest.approx(3.0)
    # 8 s against at least 6 s is 1.33x: no time alone is short enough for 1.6x
    assert bench.serial_for(1.6, 8.0, 10.0, 2.0, 2.0, 2) < 0
