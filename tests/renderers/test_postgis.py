"""The project's PostgreSQL cluster: start, stop, a killed server, a waiting second process."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.postgis_cache import postgis_cache_dir

from groundtruth.extracts import Extract
from renderers import postgis
from renderers.errors import RenderError
from renderers.osm_import import ensure_imported, psql
from renderers.postgis import PostgisCluster, find_pg_binary, is_postgres_command, read_pid_file

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cache_dir() -> Iterator[Path]:
    """A cache folder the unprivileged ``postgres`` user can reach (pytest's is private)."""
    with postgis_cache_dir("cartoqa-test-pg-") as folder:
        yield folder


def _select_one(cluster: PostgisCluster) -> str:
    return psql(cluster, "postgres", "SELECT 1;").strip()


def _wait_dead(pid: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while postgis.process_command(pid) is not None:
        assert time.monotonic() < deadline, f"process {pid} did not exit"
        time.sleep(0.05)


def test_start_serves_a_unix_socket_only(cache_dir: Path) -> None:
    with PostgisCluster(cache_dir) as cluster:
        assert _select_one(cluster) == "1"
        env = cluster.env("postgres")
        assert env["PGHOST"] == str(cluster.socket_dir)
        assert (cluster.socket_dir / f".s.PGSQL.{env['PGPORT']}").is_socket()
        assert psql(cluster, "postgres", "SHOW listen_addresses;").strip() == ""
        # PostGIS is loaded once by the server, not by each of Mapnik's connections
        assert psql(cluster, "postgres", "SHOW shared_preload_libraries;").strip() == "postgis-3"
        if os.geteuid() == 0:  # initdb refuses root: the server runs as the postgres user
            data_dir = psql(cluster, "postgres", "SHOW data_directory;").strip()
            assert Path(data_dir).stat().st_uid != 0
    assert not cluster._server_alive()


def test_the_server_plans_no_parallel_query(cache_dir: Path) -> None:
    # A parallel plan returns equal rows in whatever order its workers finish, and
    # Mapnik places labels in the order it reads them (renderers.postgis.SERVER_SETTINGS).
    # Parallel plans are made as cheap as can be here, on a table of 200,000 rows: with
    # the server's default settings this query is planned with a Gather node.
    probe = (
        "SET min_parallel_table_scan_size = 0; SET parallel_setup_cost = 0; "
        "SET parallel_tuple_cost = 0; "
        "EXPLAIN (COSTS OFF) SELECT g FROM cartoqa_probe WHERE g % 7 = 0;"
    )
    with PostgisCluster(cache_dir) as cluster:
        psql(cluster, "postgres", "DROP TABLE IF EXISTS cartoqa_probe; "
             "CREATE TABLE cartoqa_probe AS SELECT g FROM generate_series(1, 200000) g; "
             "ANALYZE cartoqa_probe;")
        try:
            assert psql(cluster, "postgres",
                        "SHOW max_parallel_workers_per_gather;").strip() == "0"
            plan = psql(cluster, "postgres", probe)
            assert "Seq Scan on cartoqa_probe" in plan
            assert "Gather" not in plan and "Parallel" not in plan, plan
        finally:
            psql(cluster, "postgres", "DROP TABLE cartoqa_probe;")


def test_second_user_keeps_server_running(cache_dir: Path) -> None:
    first = PostgisCluster(cache_dir)
    second = PostgisCluster(cache_dir)
    first.start()
    second.start()
    first.stop()  # the second still uses it
    assert _select_one(second) == "1"
    second.stop()
    assert not second._server_alive()


def test_killed_server_is_recovered(cache_dir: Path) -> None:
    first = PostgisCluster(cache_dir)
    first.start()
    pid = read_pid_file(first.data_dir / "postmaster.pid")
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    _wait_dead(pid)
    assert (first.data_dir / "postmaster.pid").exists()  # the stale file is left behind
    second = PostgisCluster(cache_dir)
    second.start()
    assert _select_one(second) == "1"
    assert read_pid_file(second.data_dir / "postmaster.pid") != pid
    second.stop()
    first.stop()
    assert not first._server_alive()


def test_stale_pid_file_naming_a_reused_pid_is_recovered(cache_dir: Path) -> None:
    cluster = PostgisCluster(cache_dir)
    cluster.start()
    cluster.stop()
    other = subprocess.Popen(["sleep", "60"])  # a live process that is not PostgreSQL
    try:
        (cluster.data_dir / "postmaster.pid").write_text(f"{other.pid}\n{cluster.data_dir}\n")
        with PostgisCluster(cache_dir) as again:
            assert _select_one(again) == "1"
    finally:
        other.kill()
        other.wait()


def test_second_start_waits_for_the_lock(cache_dir: Path) -> None:
    cluster = PostgisCluster(cache_dir)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            cluster.start()
        except BaseException as exc:  # reported to the main thread
            errors.append(exc)

    with open(cluster.lock_path, "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        worker = threading.Thread(target=start)
        worker.start()
        time.sleep(1.0)
        assert worker.is_alive() and not cluster.started
        fcntl.flock(held, fcntl.LOCK_UN)
    worker.join(60)
    assert not errors and cluster.started
    assert _select_one(cluster) == "1"
    cluster.stop()


def test_lock_timeout_is_a_clear_error(cache_dir: Path) -> None:
    cluster = PostgisCluster(cache_dir, lock_timeout_s=0.3)
    with open(cluster.lock_path, "ab") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(RenderError, match="another cartoqa process"):
            cluster.start()
    assert not cluster.started


def test_socket_in_use_by_another_server_is_a_clear_error(cache_dir: Path) -> None:
    cluster = PostgisCluster(cache_dir)
    cluster.start()
    cluster.stop()
    # a live process calling itself postgres holds the socket lock file
    fake = subprocess.Popen(["postgres", "60"], executable="/bin/sleep")
    sock_lock = cluster.socket_dir / ".s.PGSQL.5432.lock"
    try:
        deadline = time.monotonic() + 10
        while not is_postgres_command(postgis.process_command(fake.pid)):  # wait for exec
            assert time.monotonic() < deadline
            time.sleep(0.01)
        sock_lock.write_text(f"{fake.pid}\n{cluster.data_dir}\n")
        with pytest.raises(RenderError, match="already in use") as info:
            cluster.start()
        assert info.value.fix and "CARTOQA_CACHE" in info.value.fix
    finally:
        fake.kill()
        fake.wait()
        sock_lock.unlink(missing_ok=True)
    with PostgisCluster(cache_dir) as again:
        assert _select_one(again) == "1"


def test_missing_postgresql_names_the_package(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(postgis, "PG_BIN_DIRS", (tmp_path,))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RenderError, match="'initdb' not found") as info:
        PostgisCluster(cache_dir).start()
    assert info.value.fix and "postgresql-15" in info.value.fix
    assert "scripts/install.sh" in info.value.fix
    with pytest.raises(RenderError, match="pg_ctl"):
        find_pg_binary("pg_ctl")


def test_missing_osm2pgsql_names_the_package(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    extract = Extract("fake", tmp_path / "fake.osm", "osm", "0" * 64, (0.0, 0.0, 1.0, 1.0))
    with PostgisCluster(cache_dir) as cluster:
        monkeypatch.setenv("PATH", str(tmp_path))
        with pytest.raises(RenderError, match="osm2pgsql") as info:
            ensure_imported(cluster, extract)
        assert info.value.fix and "osm2pgsql" in info.value.fix
        monkeypatch.undo()
        assert "osm_0000" not in psql(cluster, "postgres", "SELECT datname FROM pg_database;")


def _tiny_osm(path: Path) -> Extract:
    path.write_text(
        '<?xml version="1.0"?>\n<osm version="0.6">'
        '<node id="1" version="1" lat="60.0" lon="24.0"/>'
        '<node id="2" version="1" lat="60.001" lon="24.002"/>'
        '<way id="1" version="1"><nd ref="1"/><nd ref="2"/>'
        '<tag k="highway" v="residential"/><tag k="name" v="Testikatu"/></way></osm>\n',
        encoding="utf-8",
    )
    from groundtruth.extracts import resolve_extract

    return resolve_extract(path)


def test_import_is_idempotent_and_redone_when_unfinished(cache_dir: Path, tmp_path: Path) -> None:
    extract = _tiny_osm(tmp_path / "tiny.osm")
    with PostgisCluster(cache_dir) as cluster:
        database = ensure_imported(cluster, extract)
        assert database == f"osm_{extract.sha256[:16]}"
        roads = "SELECT name FROM planet_osm_line WHERE highway = 'residential';"
        assert psql(cluster, database, roads).strip() == "Testikatu"
        psql(cluster, database, "INSERT INTO cartoqa_import VALUES ('marker', 'kept');")
        assert ensure_imported(cluster, extract) == database  # done before: nothing redone
        marker = "SELECT value FROM cartoqa_import WHERE key = 'marker';"
        assert psql(cluster, database, marker).strip() == "kept"
        # a run killed before the import finished leaves no completion record
        psql(cluster, database, "DROP TABLE cartoqa_import;")
        assert ensure_imported(cluster, extract) == database
        assert psql(cluster, database, marker).strip() == ""  # imported afresh
        assert psql(cluster, database, roads).strip() == "Testikatu"


def test_long_socket_path_is_a_clear_error(tmp_path: Path) -> None:
    deep = Path("/tmp") / ("x" * 120)
    cluster = PostgisCluster(deep)
    cluster._root = deep / "postgis"  # skip the reachability probe
    try:
        with pytest.raises(RenderError, match="longer than"):
            cluster._ensure_layout()
    finally:
        shutil.rmtree(deep, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root hands the server to another user")
def test_cache_the_postgres_user_cannot_reach_uses_a_shared_temp_cluster(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    cluster = PostgisCluster(private / "cache")
    assert cluster.root == Path(tempfile.gettempdir()) / f"cartoqa-{os.geteuid()}" / "postgis"
    assert cluster.lock_path.parent == cluster.root.parent
    reachable = PostgisCluster(Path(tempfile.gettempdir()) / "cartoqa-test-reachable")
    try:
        assert reachable.root == reachable.cache_dir / "postgis"
        assert reachable.lock_path == reachable.cache_dir / "postgis.lock"
    finally:
        shutil.rmtree(reachable.cache_dir, ignore_errors=True)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["/usr/lib/postgresql/15/bin/postgres", "-D", "/x"], True),
        (["postgres: 15/main: checkpointer "], True),
        (["postmaster"], True),
        (["/bin/sleep", "5"], False),
        ([], False),
    ],
)
def test_is_postgres_command(argv: list[str], expected: bool) -> None:
    assert is_postgres_command(argv) is expected


def test_read_pid_file(tmp_path: Path) -> None:
    path = tmp_path / "postmaster.pid"
    assert read_pid_file(path) is None
    path.write_text("4242\n/data\n1700000000\n")
    assert read_pid_file(path) == 4242
    path.write_text("garbage\n")
    assert read_pid_file(path) is None


#: A helper of the owner: joins the server, says so, and dies without stop() a second later.
HELPER = """
import os, sys, time
from pathlib import Path
from renderers.postgis import PostgisCluster
PostgisCluster(Path(sys.argv[1])).start()
print("joined", flush=True)
time.sleep(1.0)
os._exit(0)
"""


def test_stop_waits_for_its_helpers_to_leave(cache_dir: Path) -> None:
    """build-many's SIGTERM race: a worker still holds the server when the owner stops.

    Without ``helpers`` the owner leaves the server running and the worker, dying
    without its own ``stop()``, leaves nobody to stop it; with it, the owner waits for
    the worker to exit and stops the server.
    """
    import sys

    owner = PostgisCluster(cache_dir)
    owner.start()
    helper = subprocess.Popen([sys.executable, "-c", HELPER, str(cache_dir)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert helper.stdout is not None and helper.stdout.readline() == "joined\n"
        owner.stop(helpers=[helper.pid], helpers_wait_s=15.0)
        assert helper.poll() == 0  # it had exited: the owner waited for it
        assert not owner._server_alive()
    finally:
        helper.kill()
        helper.wait()


def test_stop_leaves_at_once_a_server_another_program_holds(cache_dir: Path) -> None:
    """Only the owner's helpers are waited for: a build beside it keeps the server, and
    the owner does not wait for that build to end."""
    owner, other = PostgisCluster(cache_dir), PostgisCluster(cache_dir)
    owner.start()
    other.start()
    started = time.monotonic()
    owner.stop(helpers=[], helpers_wait_s=20.0)
    assert time.monotonic() - started < 5.0
    assert _select_one(other) == "1"
    owner.start()
    owner.stop()
    assert _select_one(other) == "1"
    other.stop()
    assert not other._server_alive()


def test_start_interrupted_after_the_server_came_up_stops_it(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGTERM while ``pg_ctl start`` waits raises inside ``start()`` before the hold is
    taken: the server it started must not run on with nobody to stop it (build-many's
    SIGTERM test caught this about one run in three)."""
    cluster = PostgisCluster(cache_dir)
    real = PostgisCluster._start_server

    def start_then_interrupt(self: PostgisCluster) -> None:
        real(self)
        raise KeyboardInterrupt  # what cartoqa's SIGTERM handler raises (StopRequested)

    monkeypatch.setattr(PostgisCluster, "_start_server", start_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        cluster.start()
    assert not cluster.started
    assert not cluster._server_alive()
