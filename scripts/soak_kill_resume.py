#!/usr/bin/env python3
"""Soak test (not in CI): builds killed at random moments by random signals, then resumed.

One uninterrupted reference build first; then, ``--runs`` times, the same build into a
new folder is sent ``SIGINT``, ``SIGTERM``, ``SIGHUP`` or ``SIGKILL`` (chosen at random)
at a random moment of its expected duration, and the same command is run again to
resume it. After each run it counts

- leftover processes: Chromium, osm2pgsql and helpers started by the killed or the
  resumed build (found by their private folders' names on their command lines), and
  PostgreSQL processes of the soak's own cluster after the resume ended;
- leftover temporary files: everything left in the soak's private ``TMPDIR`` (the
  builds run with ``TMPDIR`` pointing there), and anything in the dataset folder that the
  reference does not have;
- whether the resumed dataset is byte-identical to the reference (every file).

Usage::

    .venv/bin/python scripts/soak_kill_resume.py [--runs 20] [--extract helsinki]
        [--tasks mml,rle] [--per-task 4] [--seed 0] [--work DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from renderers.waiting import processes_in

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL)
#: Private-folder kinds whose names carry the owning process id.
KINDS = ("browser", "page", "import")


def tree_digest(root: Path) -> dict[str, str]:
    """``relative path -> sha256`` of every file below ``root``."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def owned_processes(pids: list[int]) -> list[str]:
    """Processes whose command line names a private folder of one of ``pids``."""
    marks = [f"cartoqa-{kind}-{pid}.".encode() for pid in pids for kind in KINDS]
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if any(mark in cmdline for mark in marks):
            shown = cmdline[:80].replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{entry.name}: {shown}")
    return found


def wait_gone(pids: list[int], timeout_s: float) -> list[str]:
    """Wait until no process of ``pids`` is left (helpers need a moment); return leftovers."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = owned_processes(pids)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def build_command(args: argparse.Namespace, out: Path) -> list[str]:
    """The ``cartoqa build`` command line for ``out``."""
    return [sys.executable, "-m", "cartoqa", "build", "--extract", args.extract,
            "--tasks", args.tasks, "--per-task", str(args.per_task), "--seed",
            str(args.seed), "--out", str(out), "--no-progress"]


def main(argv: list[str] | None = None) -> int:
    """Run the soak test and print its figures; exit 1 when a figure is off."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--extract", default="helsinki")
    parser.add_argument("--tasks", default="mml,rle")
    parser.add_argument("--per-task", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0, help="seed of the builds")
    parser.add_argument("--rng", type=int, default=12, help="seed of kill moments and signals")
    parser.add_argument("--work", type=Path, default=None,
                        help="working folder (default: a new temporary folder, removed)")
    args = parser.parse_args(argv)

    rng = random.Random(args.rng)
    work = args.work or Path(tempfile.mkdtemp(prefix="cartoqa-soak-"))
    work.mkdir(parents=True, exist_ok=True)
    work.chmod(0o755)  # the postgres user must reach the soak's cache when run as root
    tmp = work / "tmp"
    tmp.mkdir(exist_ok=True)
    cache = work / "cache"
    env = {**os.environ, "TMPDIR": str(tmp), "CARTOQA_CACHE": str(cache),
           "PYTHONUNBUFFERED": "1"}
    cluster_data = cache / "postgis" / "data"

    started = time.monotonic()
    reference = work / "reference"
    t0 = time.monotonic()
    subprocess.run(build_command(args, reference), env=env, check=True,
                   stdout=subprocess.DEVNULL)
    ref_s = time.monotonic() - t0
    # The timed build: the cache is warm now, as it is for the killed runs.
    timed = work / "timed"
    t0 = time.monotonic()
    subprocess.run(build_command(args, timed), env=env, check=True, stdout=subprocess.DEVNULL)
    warm_s = time.monotonic() - t0
    want = tree_digest(reference)
    assert tree_digest(timed) == want, "two uninterrupted builds differ"
    shutil.rmtree(timed)
    print(f"reference build  {ref_s:.1f} s cold, {warm_s:.1f} s warm; "
          f"{len(want)} files", flush=True)

    identical = 0
    leftover_processes = 0
    leftover_temp = 0
    for run in range(args.runs):
        out = work / f"run-{run:02d}"
        sig = rng.choice(SIGNALS)
        delay = rng.uniform(0.05, 1.0) * warm_s
        proc = subprocess.Popen(build_command(args, out), env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            proc.wait(delay)
            killed_rc = proc.returncode  # finished before the signal
            note = "finished first"
        except subprocess.TimeoutExpired:
            proc.send_signal(sig)
            try:
                proc.wait(120)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                print(f"  run {run}: did not stop within 120 s of {sig.name}", flush=True)
            killed_rc = proc.returncode
            note = f"{sig.name} at {delay:.1f} s"
        assert proc.stderr is not None
        err_lines = proc.stderr.read().decode(errors="replace").strip().splitlines()
        proc.stderr.close()
        after_kill = wait_gone([proc.pid], 10.0)

        resumer = subprocess.Popen(build_command(args, out), env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        resume_pid = resumer.pid
        _, resume_err = resumer.communicate()
        resumed_ok = resumer.returncode == 0
        # The resume itself must leave nothing either (its pid is gone by now).
        left = wait_gone([proc.pid, resume_pid], 10.0)
        server_left = processes_in(cluster_data) if cluster_data.exists() else []
        temp_left = sorted(p.name for p in tmp.iterdir())
        temp_left += sorted(p.name for pid in (proc.pid, resume_pid) for kind in KINDS
                            for p in Path("/tmp").glob(f"cartoqa-{kind}-{pid}.*"))
        got = tree_digest(out) if out.exists() else {}
        extra = sorted(set(got) - set(want))
        same = resumed_ok and got == want
        identical += same
        leftover_processes += len(left) + len(server_left)
        leftover_temp += len(temp_left) + len(extra)
        last = err_lines[-1] if err_lines else ""
        print(f"run {run:2d}: {note:<24} rc {killed_rc:>4}  resume rc {resumer.returncode}  "
              f"identical {'yes' if same else 'NO '}  processes after kill "
              f"{len(after_kill)}, after resume {len(left) + len(server_left)}  "
              f"temp {len(temp_left) + len(extra)}  | {last[:60]}", flush=True)
        if not resumed_ok:
            print("   resume stderr: " + " / ".join(resume_err.strip().splitlines()[-3:]))
        if temp_left or extra:
            print(f"   left: {(temp_left + extra)[:5]}")
        shutil.rmtree(out, ignore_errors=True)
        for name in temp_left:  # start the next run clean, having counted them
            for folder in (tmp, Path("/tmp")):
                if (folder / name).is_dir():
                    shutil.rmtree(folder / name, ignore_errors=True)

    print(f"\n{args.runs} runs in {time.monotonic() - started:.0f} s: "
          f"byte-identical {identical}/{args.runs}, leftover processes {leftover_processes}, "
          f"leftover temporary files {leftover_temp}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    ok = identical == args.runs and leftover_processes == 0 and leftover_temp == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
