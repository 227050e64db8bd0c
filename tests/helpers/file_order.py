"""The order in which ``pytest -n 2 --dist loadfile`` hands test files to its workers.

xdist gives each worker one file, then another whenever a worker has two or fewer tests
left, in the order of the collection. So the wall time is bounded by how the two
workers' loads end: a long file handed out late keeps one worker busy while the other has
nothing left. The files are therefore ordered longest first (list scheduling, longest
processing time first), from :data:`FILE_SECONDS`; files not in the table keep their
collection order after them, those with a slow test first.

:data:`FILE_SECONDS` is measured, not guessed: ``CARTOQA_TEST_TIMES=DIR pytest ...``
writes each worker's test phases (tests/conftest.py), and
``python scripts/test_schedule.py DIR --table`` prints the table from such a run
(seconds, setup + call + teardown, summed per file). Only the order matters, so a
table a little out of date costs balance, never a result.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

FILE_SECONDS: Mapping[str, float] = {
    # tests/build: /work/cache/speed32b/prof (one process, load ~20), divided by 9.6,
    # its wall/CPU ratio (392 CPU s in 3,760 s); the rest: a -n 2 run at load ~15,
    # divided by 4 (the job got 25 % of the two cores)
    "tests/build/test_build_many.py": 156.0,
    "tests/build/test_build_e2e.py": 142.0,
    "tests/build/test_build_parallel.py": 54.0,
    "tests/renderers/test_render_e2e.py": 56.0,
    "tests/renderers/test_tiles.py": 55.0,
    "tests/renderers/test_browser.py": 29.0,
    "tests/renderers/test_map_styles.py": 24.0,
    "tests/renderers/test_browser_security.py": 23.0,
    "tests/build/test_build_boxless_e2e.py": 20.0,
    "tests/renderers/test_print_map.py": 15.0,
    "tests/renderers/test_postgis.py": 15.0,
    "tests/build/test_build_many_security.py": 13.0,
    "tests/report/test_report_browser.py": 10.0,
    "tests/renderers/test_overlays_compass.py": 6.0,
    "tests/build/test_build_many_hostile.py": 3.5,
    "tests/groundtruth/test_liechtenstein_extract.py": 3.5,
    "tests/tasks/test_example_task.py": 3.5,
    # not measured yet (a 60-item MFS build on the shared Helsinki import): a guess
    "tests/tasks/mfs/test_mfs_build.py": 40.0,
}
"""Seconds per test file on idle cores (estimated from loaded runs; see the module doc)."""

SLOW_FILE_SECONDS = 10.0
"""What a file with a slow test but no entry in the table is taken to cost."""


def file_order(files: list[Path], slow: set[Path], root: Path) -> dict[Path, int]:
    """Each file's place in the hand-out order: longest first, the rest as collected.

    Parameters
    ----------
    files : list of pathlib.Path
        The test files in collection order (each once).
    slow : set of pathlib.Path
        The files that hold a test marked slow.
    root : pathlib.Path
        The repository root (the table's paths are relative to it).

    Returns
    -------
    dict of pathlib.Path to int
        The rank of every file (0 first); the same in every xdist worker.
    """
    def seconds(path: Path) -> float:
        try:
            name = path.relative_to(root).as_posix()
        except ValueError:
            name = path.as_posix()
        if name in FILE_SECONDS:
            return FILE_SECONDS[name]
        return SLOW_FILE_SECONDS if path in slow else 0.0

    ranked = sorted(range(len(files)), key=lambda i: -seconds(files[i]))  # stable
    return {files[i]: rank for rank, i in enumerate(ranked)}
