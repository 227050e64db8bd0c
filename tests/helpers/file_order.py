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
    # a -n 2 run on idle cores (docs/rounds/2026-12-02/speed32g.md, "after"): each
    # file's setup + call + teardown seconds, files of 5 s or more
    "tests/build/test_build_many.py": 113.8,
    "tests/build/test_build_e2e.py": 111.6,
    "tests/renderers/test_tiles.py": 48.4,
    "tests/renderers/test_render_e2e.py": 48.3,
    "tests/build/test_build_parallel.py": 39.5,
    "tests/tasks/mfs/test_mfs_build.py": 34.1,
    "tests/renderers/test_browser.py": 32.4,
    "tests/renderers/test_browser_security.py": 25.9,
    "tests/renderers/test_postgis.py": 18.6,
    "tests/tasks/test_example_task.py": 18.4,
    "tests/build/test_build_boxless_e2e.py": 16.6,
    "tests/tasks/test_frieda_leaks.py": 16.2,
    "tests/renderers/test_mapwise_render.py": 12.7,
    "tests/report/test_report_browser.py": 12.6,
    "tests/groundtruth/test_mapwise_countries.py": 11.6,
    "tests/tasks/mfs/test_mfs_embeddings.py": 11.6,
    "tests/tasks/mfs/test_mfs_catalogue.py": 11.0,
    "tests/build/test_build_many_hostile.py": 10.7,
    "tests/groundtruth/test_groundtruth_helsinki.py": 10.0,
    "tests/parsing/test_properties.py": 9.7,
    "tests/tasks/test_frieda_build.py": 9.6,
    "tests/build/test_build_many_security.py": 9.1,
    "tests/groundtruth/test_mapiq_catalogue.py": 8.9,
    "tests/tasks/mfs/test_mfs_items.py": 8.9,
    "tests/tasks/test_mapwise_unlabelled.py": 7.7,
    "tests/tasks/test_frieda_balance.py": 7.6,
    "tests/runner/test_run_hostile.py": 7.0,
    "tests/visibility/test_build_written_names.py": 6.9,
    "tests/renderers/test_thematic_render.py": 6.2,
    "tests/groundtruth/test_coast.py": 6.0,
    "tests/parsing/test_thematic_corpus.py": 5.9,
    "tests/tasks/test_mapwise_forms.py": 5.6,
    "tests/tasks/test_mapiq_balance.py": 5.3,
    "tests/parsing/test_corpus.py": 5.3,
}
"""Seconds per test file on idle cores (measured; see the module doc)."""

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
