"""``build-many`` specs and options that were tracebacks or silent (issue 31, points 8-10).

No city is built here: the spec reader, the argument checks and the result handling
are exercised on their own, so each case takes well under a second.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cartoqa.build_many import _city_result, build_many, check_scheduler_address, load_spec
from cartoqa.cli import main
from cartoqa.errors import CartoqaError

CITY = "[[city]]\nname = 'a'\nextract = 'kotka'\n"


def _spec(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "spec.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize(("text", "message"), [
    ("[[city]]\nname = ['a']\nextract = 'kotka'\n", "needs a name and an extract"),
    ("city = ['a']\n", "is not a table"),
    ("city = 'a'\n", "lists no"),
    ("per_task = 'abc'\n" + CITY, "per_task of a must be a whole number"),
    ("per_task = 2.5\n" + CITY, "per_task of a must be a whole number"),
    ("per_task = true\n" + CITY, "per_task of a must be a whole number"),
    ("seed = [1]\n" + CITY, "seed of a must be a whole number"),
    (CITY + "bbox = '1,2,3,4'\n", "bbox of a must be four numbers"),
    (CITY + "bbox = [1, 2, 3]\n", "bbox of a must be four numbers"),
    (CITY + "bbox = ['1', 2, 3, 4]\n", "bbox of a must be four numbers"),
    (CITY + "bbox = [3, 2, 1, 4]\n", "not west < east"),
    (CITY + "bbox = [1, 2, 3, 400]\n", "not west < east"),
    ('[[city]]\nname = "a\\u0000b"\nextract = "kotka"\n', "not a folder name"),
    ('[[city]]\nname = "a"\nextract = "kot\\u0000ka"\n', "NUL"),
    ("[[city]]\nname = 'manifest.json'\nextract = 'kotka'\n", "not a folder name"),
    ("[[city]]\nname = '..'\nextract = 'kotka'\n", "not a folder name"),
    ("[[city]]\nname = 'a\\\\b'\nextract = 'kotka'\n", "not a folder name"),
    ('[[city]]\nname = "a\\nb"\nextract = "kotka"\n', "not a folder name"),
    ("[[city]]\nname = '" + "x" * 300 + "'\nextract = 'kotka'\n", "not a folder name"),
    ("[[city]]\nname = 'a'\nextract = ''\n", "needs a name and an extract"),
    ("per_tasks = 1\n" + CITY, "unknown key 'per_tasks' .*did you mean 'per_task'"),
    (CITY + "per_tasks = 1\n", "unknown key 'per_tasks'"),
    (CITY + "sede = 1\n", "unknown key 'sede'"),
    ("tasks = 'mml'\ntasks2 = 1\n" + CITY, "unknown key 'tasks2'"),
    ("tasks = [1, 2]\n" + CITY, "tasks of a must be a list of task names"),
    ("out = ''\n" + CITY, "out must be a non-empty string"),
    ("out = 3\n" + CITY, "out must be a non-empty string"),
    ("suite = 3\n" + CITY, "suite of a must be a non-empty string"),
])
def test_bad_spec_values_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CartoqaError, match=message):
        load_spec(_spec(tmp_path, text))


def test_a_spec_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(CartoqaError, match="not UTF-8"):
        load_spec(_spec(tmp_path, b"[[city]]\nname = 'K\xf6ln'\nextract = 'kotka'\n"))


def test_the_cli_prints_one_line_for_a_bad_spec(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build-many", str(_spec(tmp_path, "per_tasks = 1\n" + CITY))]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown key 'per_tasks'" in err


@pytest.mark.parametrize("address", ["http://[::1", "http://127.0.0.1:8786", "tls://host",
                                     "tcp://:8786", "tcp://h:99999", "tls://h:1/x",
                                     "127.0.0.1:8786", "inproc://x"])
def test_bad_scheduler_addresses_are_refused(address: str) -> None:
    with pytest.raises(CartoqaError, match="is not tls://HOST:PORT"):
        check_scheduler_address(address)


def test_a_scheduler_nobody_listens_on_fails_fast_and_leaves_no_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cartoqa.build_many as build_many_module

    # the connect timeout (5 s) shortened: the test asks that it is the one that counts
    # (Dask's own default is 30 s; this was 31 s and a traceback)
    monkeypatch.setattr(build_many_module, "SCHEDULER_CONNECT_TIMEOUT_S", 1.0)
    spec = load_spec(_spec(tmp_path, "out = 'cities'\n" + CITY))
    started = time.monotonic()
    with pytest.raises(CartoqaError, match=r"cannot reach the Dask scheduler .* within 1 s"):
        build_many(spec, scheduler="tcp://127.0.0.1:1", progress=False, database=False,
                   log=lambda msg: None)
    assert time.monotonic() - started < 6
    assert not (tmp_path / "cities").exists()


def test_a_finished_folder_of_other_options_is_refused_before_any_cluster(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    import cartoqa.build_many as build_many_module

    def no_cluster(workers: int) -> None:
        raise AssertionError("a cluster started")

    monkeypatch.setattr(build_many_module, "secure_local_cluster", no_cluster)
    spec = load_spec(_spec(tmp_path, "out = 'cities'\n" + CITY))
    folder = tmp_path / "cities" / "a"
    folder.mkdir(parents=True)
    (folder / "items.jsonl").write_text("{}\n", "utf-8")
    (folder / "manifest.json").write_text(json.dumps({"build": {"per_task": 99}}), "utf-8")
    with pytest.raises(CartoqaError, match="already holds a dataset built with other options"):
        build_many(spec, progress=False, log=lambda msg: None)
    assert not (tmp_path / "cities" / "manifest.json").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["items.jsonl", "manifest.json"]


def test_a_tls_scheduler_without_tls_settings_is_one_line(tmp_path: Path) -> None:
    spec = load_spec(_spec(tmp_path, "out = 'cities'\n" + CITY))
    with pytest.raises(CartoqaError, match="needs Dask's TLS settings"):
        build_many(spec, scheduler="tls://127.0.0.1:1", progress=False, database=False,
                   log=lambda msg: None)
    assert not (tmp_path / "cities").exists()


def test_a_city_whose_worker_died_repeatedly_is_one_line() -> None:
    from distributed.scheduler import KilledWorker

    class Dead:
        def result(self) -> Any:
            raise KilledWorker("city-a", "tls://127.0.0.1:1", 3)

    city = load_spec.__globals__["CitySpec"]("a", "kotka", ("mml",), 1, 0)
    with pytest.raises(CartoqaError, match="the worker building a died again and again"):
        _city_result(city, Dead())


def test_the_worker_log_of_a_failed_city_is_dropped() -> None:
    import logging

    from cartoqa.build_many import _NoComputeFailed

    keep = logging.LogRecord("distributed.worker", logging.ERROR, "x", 1, "Other", (), None)
    drop = logging.LogRecord("distributed.worker", logging.ERROR, "x", 1,
                             "Compute Failed\nKey: %s", ("k",), None)
    assert _NoComputeFailed().filter(keep) and not _NoComputeFailed().filter(drop)


@pytest.mark.slow
def test_sigterm_of_build_many_stops_postgresql(tmp_path: Path) -> None:
    """Point 16: a single build stops the server it started; build-many now does too."""
    import os
    import signal
    import subprocess
    import sys

    import psutil
    from helpers.postgis_cache import postgis_cache_dir

    from cartoqa.settings import web_assets_dir

    spec_path = _spec(tmp_path, "out = 'cities'\nper_task = 1\ntasks = ['mml']\n" + CITY)
    with postgis_cache_dir("cartoqa-test-many-term-") as cache:
        env = dict(os.environ, CARTOQA_CACHE=str(cache),
                   CARTOQA_WEB_ASSETS=str(web_assets_dir()))
        proc = subprocess.Popen([sys.executable, "-m", "cartoqa", "build-many",
                                 str(spec_path), "--no-progress", "--workers", "1"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)

        def servers() -> list[psutil.Process]:
            found = []
            for p in psutil.process_iter(["cmdline"]):
                cmd = " ".join(p.info["cmdline"] or [])
                if "postgres" in cmd and str(cache) in cmd:
                    found.append(p)
            return found

        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None and not servers():
            time.sleep(0.5)
        assert proc.poll() is None and servers(), "the build ended before PostgreSQL ran"
        time.sleep(2.0)
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 128 + signal.SIGTERM, err
        deadline = time.monotonic() + 30
        while servers() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not servers(), "PostgreSQL was left running with no users"
