"""The project's own PostgreSQL/PostGIS cluster, in a cache folder, on a unix socket only.

The cluster lives in ``<cache_dir>/postgis`` (``data/`` for the database files, ``run/``
for the socket, ``server.log``). It never listens on TCP (``listen_addresses=''``).
``initdb`` refuses to run as root, so when cartoqa runs as root the server runs as the
unprivileged Debian ``postgres`` user, which then owns the cluster folder; when that user
cannot reach the cache folder (``/root`` is private), one shared cluster folder in the
system's temporary folder (``/tmp/cartoqa-<uid>/postgis``, inside a folder that
only this user may write, created without following links) is used instead; databases are
named by extract checksum, so caches can share a cluster.

Processes that share a cluster share one server. Lock files beside the cluster folder
keep them apart: ``postgis.lock`` is held exclusively while a process initialises,
starts or stops the server (a second process waits for it), and every process using the
server holds ``postgis.users`` shared, so the last one to leave stops the server. A
``postmaster.pid`` left behind by a killed server is recognised and removed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO

from renderers.errors import RenderError
from renderers.scratch import ensure_private_folder
from renderers.waiting import exclusive_lock, processes_in, wait_for_exit

#: Where Debian's ``postgresql-15`` puts the server binaries.
PG_BIN_DIRS: tuple[Path, ...] = (
    Path("/usr/lib/postgresql/15/bin"),
    Path("/usr/lib/postgresql/16/bin"),
    Path("/usr/lib/postgresql/17/bin"),
)
#: The superuser created by ``initdb`` (clients connect as this role, trusted on the socket).
DB_SUPERUSER = "cartoqa"
#: Port number; with a unix socket only it just names the socket file ``.s.PGSQL.<port>``.
DEFAULT_PORT = 5432
#: The unprivileged system user that runs the server when cartoqa runs as root.
SERVICE_USER = "postgres"
#: Longest unix socket path the kernel accepts (``sun_path`` minus the terminating NUL).
MAX_SOCKET_PATH = 107
#: Seconds a process waits for another one holding the cluster lock.
LOCK_TIMEOUT_S = 600.0
#: A wait for the cluster lock says so on stderr once it has lasted this long (a build's
#: own worker, or a build beside it, starting or stopping the same server takes about a
#: second, and saying so each time is noise).
LOCK_NOTICE_AFTER_S = 3.0
#: Seconds to wait for a stopped or killed server's processes to exit.
STOP_TIMEOUT_S = 10.0
#: Server libraries loaded at the server's start when installed (see preloaded_libraries).
PRELOAD_LIBRARIES = ("postgis-3",)
#: Tries to start the server while a killed server's processes release its memory.
START_ATTEMPTS = 20
#: Settings every start of the server applies (old clusters included), so that the same
#: query returns its rows in the same order each time: Mapnik places labels in the
#: order it reads features, and OSM-Carto's queries leave ties unordered. PostgreSQL
#: plans some of OSM-Carto's layer queries in parallel even on the bundled extracts'
#: small tables (about 3.6 worker processes started per render on Helsinki), and a
#: parallel plan hands out rows in the order its workers finish: with it, the road-name
#: renders of 2 of 30 Helsinki views came out in one of two forms from run to run, and
#: a view drawn by the tiles' own code varied as well; without it, 12 runs (3 on a
#: second, freshly imported cluster) drew the same pixels, and no worker process is
#: started per query. Part of the tile cache key (:data:`SERVER_SETTINGS_VERSION`).
SERVER_SETTINGS: dict[str, str] = {"max_parallel_workers_per_gather": "0"}
#: Bumped when :data:`SERVER_SETTINGS` changes what the server returns, so that tiles
#: drawn under other settings are drawn again.
SERVER_SETTINGS_VERSION = "1"

_INSTALL_FIX = (
    "install the Debian packages postgresql-15 and postgresql-15-postgis-3 "
    "(bash scripts/install.sh does it)"
)


def find_pg_binary(name: str, *, search_dirs: tuple[Path, ...] | None = None) -> Path:
    """Return the path of a PostgreSQL server program such as ``initdb`` or ``pg_ctl``.

    Parameters
    ----------
    name : str
        Program name.
    search_dirs : tuple of pathlib.Path, optional
        Folders tried in order before ``$PATH`` (default :data:`PG_BIN_DIRS`).

    Returns
    -------
    pathlib.Path
        The executable.

    Raises
    ------
    RenderError
        If the program is not installed.
    """
    for folder in PG_BIN_DIRS if search_dirs is None else search_dirs:
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which(name)
    if found:
        return Path(found)
    raise RenderError(f"PostgreSQL program {name!r} not found", _INSTALL_FIX)


def preloaded_libraries(*, lib_dir: Path | None = None) -> tuple[str, ...]:
    """The server libraries loaded once by the server, not by each connection.

    Mapnik opens a new connection for each PostGIS layer of a style it loads (and
    closes it: a process may fork after loading), so loading OSM-Carto starts 78
    server processes; each loads PostGIS's library (with GEOS and PROJ) when it first
    meets a PostGIS type. Loaded by the server at its start, the library is inherited
    by every connection's process: about 4 ms of CPU less per connection (0.3 CPU s
    per load of OSM-Carto). Only libraries
    that exist are named, so a server without PostGIS still starts (and the import
    then says what is missing).

    Parameters
    ----------
    lib_dir : pathlib.Path, optional
        The server's library folder (default: ``lib`` beside ``pg_ctl``'s folder).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     none = preloaded_libraries(lib_dir=Path(d))
    ...     _ = (Path(d) / "postgis-3.so").write_bytes(b"")
    ...     (none, preloaded_libraries(lib_dir=Path(d)))
    ((), ('postgis-3',))
    """
    if lib_dir is None:
        lib_dir = find_pg_binary("pg_ctl").parent.parent / "lib"
    return tuple(name for name in PRELOAD_LIBRARIES if (lib_dir / f"{name}.so").is_file())


def socket_file(socket_dir: Path, port: int) -> Path:
    """Return the path of the server's unix socket.

    Examples
    --------
    >>> socket_file(Path("/c/run"), 5432)
    PosixPath('/c/run/.s.PGSQL.5432')
    """
    return socket_dir / f".s.PGSQL.{port}"


def read_pid_file(path: Path) -> int | None:
    """Return the process id on the first line of ``postmaster.pid`` or a socket lock file.

    Returns ``None`` when the file is missing, empty or does not start with a number.
    """
    try:
        first = path.read_text(errors="replace").splitlines()[0].strip()
    except (OSError, IndexError):
        return None
    try:
        pid = int(first)
    except ValueError:
        return None
    return abs(pid) if pid != 0 else None


def process_command(pid: int) -> list[str] | None:
    """Return a live process's command line, or ``None`` when no such process exists."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    if not raw:  # a zombie or a kernel thread
        return None
    return [part.decode(errors="replace") for part in raw.rstrip(b"\0").split(b"\0")]


def is_postgres_command(argv: list[str] | None) -> bool:
    """Whether a command line is a PostgreSQL server process.

    Examples
    --------
    >>> is_postgres_command(["/usr/lib/postgresql/15/bin/postgres", "-D", "/d"])
    True
    >>> is_postgres_command(["postgres: checkpointer "])
    True
    >>> is_postgres_command(["sleep", "30"])
    False
    >>> is_postgres_command(None)
    False
    """
    if not argv:
        return False
    head = Path(argv[0].split(":", 1)[0].strip()).name
    return head in ("postgres", "postmaster")


class PostgisCluster:
    """A PostgreSQL/PostGIS server owned by cartoqa, in ``<cache_dir>/postgis``.

    Use as a context manager, or call :meth:`start` and :meth:`stop`. Starting creates
    the cluster on first use (``initdb``), recovers a cluster left behind by a killed
    run, and reuses a server another process already started on the same cache folder.

    Parameters
    ----------
    cache_dir : pathlib.Path
        The cache folder (``cartoqa.settings.cache_root()`` in the product).
    port : int, optional
        Port number; it only names the unix socket file.
    lock_timeout_s : float, optional
        How long :meth:`start` waits for another process holding the cluster lock.
    """

    def __init__(
        self,
        cache_dir: Path,
        *,
        port: int = DEFAULT_PORT,
        lock_timeout_s: float = LOCK_TIMEOUT_S,
    ) -> None:
        self.cache_dir = Path(cache_dir).expanduser().resolve()
        self.port = port
        self.lock_timeout_s = lock_timeout_s
        self._root: Path | None = None
        self._users_fh: IO[bytes] | None = None

    # -- locations -----------------------------------------------------------------

    @property
    def root(self) -> Path:
        """The cluster folder (``data/``, ``run/``, ``server.log``)."""
        if self._root is None:
            self._root = self._choose_root()
        return self._root

    @property
    def lock_path(self) -> Path:
        """Lock file held exclusively while the server is set up, started or stopped."""
        return self.root.with_name(self.root.name + ".lock")

    @property
    def users_path(self) -> Path:
        """Lock file every process using the server holds shared."""
        return self.root.with_name(self.root.name + ".users")

    def lock_file(self, name: str) -> Path:
        """Return the path of another lock file beside the cluster (e.g. per import)."""
        return self.root.with_name(f"{self.root.name}-{name}.lock")

    @property
    def data_dir(self) -> Path:
        """The PostgreSQL data directory."""
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        """The folder holding the unix socket (``PGHOST``)."""
        return self.root / "run"

    @property
    def log_path(self) -> Path:
        """The server's log file."""
        return self.root / "server.log"

    @property
    def running_as_root(self) -> bool:
        """Whether this process is root, so the server runs as :data:`SERVICE_USER`."""
        return os.geteuid() == 0

    def _choose_root(self) -> Path:
        preferred = self.cache_dir / "postgis"
        if not self.running_as_root or self._service_user_can_reach(self.cache_dir):
            return preferred
        # /tmp is writable by everyone: the fallback lives in a folder only this user may
        # write (mode 0711 so that the service user can pass through to its cluster).
        base = Path(tempfile.gettempdir()) / f"cartoqa-{os.geteuid()}"
        try:
            ensure_private_folder(base, mode=0o711)
        except PermissionError as exc:
            raise RenderError(
                f"refusing the shared cluster folder: {exc}",
                f"remove {base} (someone else may have planted it), or set CARTOQA_CACHE "
                f"to a folder the {SERVICE_USER} user can reach",
            ) from None
        return base / "postgis"

    def _service_user_can_reach(self, folder: Path) -> bool:
        folder.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            ["test", "-x", str(folder)], user=SERVICE_USER, group=self._service_gid(),
            extra_groups=[], capture_output=True, check=False,
        )
        return result.returncode == 0

    def _service_gid(self) -> int:
        try:
            return pwd.getpwnam(SERVICE_USER).pw_gid
        except KeyError as exc:
            raise RenderError(
                f"cartoqa runs as root, and the unprivileged user {SERVICE_USER!r} that "
                "should run PostgreSQL does not exist",
                _INSTALL_FIX + ", or run cartoqa as an ordinary user",
            ) from exc

    # -- environment for clients ---------------------------------------------------

    def env(self, database: str = "postgres") -> dict[str, str]:
        """Return libpq environment variables that reach this server.

        Mapnik's postgis plugin, ``psql`` and ``osm2pgsql`` all honour them.

        Parameters
        ----------
        database : str, optional
            Value of ``PGDATABASE``.

        Returns
        -------
        dict of str to str
            ``PGHOST`` (the socket folder), ``PGPORT``, ``PGUSER``, ``PGDATABASE``.
        """
        return {
            "PGHOST": str(self.socket_dir),
            "PGPORT": str(self.port),
            "PGUSER": DB_SUPERUSER,
            "PGDATABASE": database,
        }

    def server_run_id(self) -> int:
        """Return a number that differs from one run of the server to the next.

        Made of the postmaster's process id and start time (from ``postmaster.pid``).
        Clients that pool connections (Mapnik does, per connection string, for the
        life of the process) use it to tell one server run from the next.

        Raises
        ------
        RenderError
            If the server is not running.
        """
        try:
            lines = (self.data_dir / "postmaster.pid").read_text().splitlines()
            return int(lines[0]) * 1_000_003 + int(lines[2])
        except (OSError, IndexError, ValueError) as exc:
            raise RenderError("the database server is not running",
                              "start it first (PostgisCluster.start)") from exc

    # -- lifecycle -----------------------------------------------------------------

    def __enter__(self) -> PostgisCluster:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def started(self) -> bool:
        """Whether this object has started (or joined) the server and not stopped it."""
        return self._users_fh is not None

    def start(self) -> None:
        """Create the cluster if needed and make sure its server runs.

        Waits while another process holds the cluster lock. Idempotent.

        Raises
        ------
        RenderError
            If PostgreSQL is not installed, the socket is taken by another server, or
            the server does not start (the message points at its log).
        """
        if self.started:
            return
        find_pg_binary("initdb")  # fail early and clearly when PostgreSQL is missing
        find_pg_binary("pg_ctl")
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        with self._cluster_lock():
            self._ensure_layout()
            self._ensure_initialised()
            if not self._server_alive():
                self._recover_stale_files()
                try:
                    self._start_server()
                except BaseException:
                    # failed, or interrupted while pg_ctl waits (a SIGTERM raises here): a
                    # server this call started must not run on with nobody holding it
                    self._stop_if_unused()
                    raise
            users = open(self.users_path, "ab")  # noqa: SIM115 (held until stop())
            fcntl.flock(users, fcntl.LOCK_SH)
            self._users_fh = users

    def stop(self, *, helpers: Iterable[int] = (), helpers_wait_s: float = 0.0) -> None:
        """Leave the server; stop it when no other process uses it. Idempotent.

        Parameters
        ----------
        helpers : iterable of int, optional
            Processes that hold the server on this one's behalf (build-many's worker
            processes): the server is left once they have exited, after at most
            ``helpers_wait_s`` seconds. A helper killed mid-teardown never calls its own
            ``stop()``; left before it exits, the server would stay running with nobody
            to stop it. Other holders (another build on the same cache) are not waited
            for: the last one out stops the server.
        helpers_wait_s : float, optional
            Longest wait for ``helpers`` (blocking on their exits, no polling).
        """
        users = self._users_fh
        if users is None:
            return
        wait_for_exit(helpers, helpers_wait_s)
        with self._cluster_lock():
            self._users_fh = None
            try:
                fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                users.close()  # someone else still uses the server: leave it running
                return
            try:
                self._stop_server()
            finally:
                users.close()

    def _stop_if_unused(self) -> None:
        """Stop the server when no process holds it (the caller holds the cluster lock)."""
        with open(self.users_path, "ab") as users:
            try:
                fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # another process uses (or joined) the server
            self._stop_server()

    def _stop_server(self) -> None:
        """``pg_ctl stop`` when the server runs (the caller holds the exclusive hold)."""
        if self._server_alive():
            self._pg_ctl(["stop", "-m", "fast", "-w", "-t", "60"], check=False)

    def destroy(self) -> None:
        """Stop the server and delete the cluster folder (for tests and ``cache clean``).

        Raises
        ------
        RenderError
            If another process still uses the server.
        """
        if not self.started:
            self.start()
        with self._cluster_lock():
            users = self._users_fh
            assert users is not None
            try:
                fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RenderError("another process still uses the database cluster",
                                  "stop it first") from None
            self._users_fh = None
            try:
                self._stop_server()
                shutil.rmtree(self.root, ignore_errors=True)
            finally:
                users.close()

    # -- internals -----------------------------------------------------------------

    @contextlib.contextmanager
    def _cluster_lock(self) -> Iterator[None]:
        """Hold ``postgis.lock`` exclusively, waiting up to :attr:`lock_timeout_s`."""

        def tell() -> None:
            print(f"[cartoqa] waiting for another process to release {self.lock_path}",
                  file=sys.stderr)

        with contextlib.ExitStack() as held:
            try:
                held.enter_context(exclusive_lock(self.lock_path, timeout_s=self.lock_timeout_s,
                                                  on_wait=tell,
                                                  on_wait_after_s=LOCK_NOTICE_AFTER_S))
            except TimeoutError:
                raise RenderError(
                    f"another cartoqa process has held {self.lock_path} for over "
                    f"{self.lock_timeout_s:.0f} s",
                    "wait for it to finish, or stop it",
                ) from None
            yield

    def _ensure_layout(self) -> None:
        root = self.root
        socket_path = socket_file(self.socket_dir, self.port)
        if len(str(socket_path)) > MAX_SOCKET_PATH:
            raise RenderError(
                f"the PostgreSQL socket path {socket_path} is longer than the "
                f"{MAX_SOCKET_PATH} characters unix sockets allow",
                "use a shorter cache folder (set CARTOQA_CACHE)",
            )
        root.parent.mkdir(parents=True, exist_ok=True)
        for folder in (root, self.socket_dir):
            with contextlib.suppress(FileExistsError):
                folder.mkdir()
            self._give_to_service_user(folder)

    def _give_to_service_user(self, path: Path) -> None:
        """Make ``path`` a mode-0700 folder of the server's owner, never through a link."""
        try:
            fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError as exc:
            raise RenderError(f"{path} is a symbolic link or not a folder ({exc.strerror})",
                              f"remove {path}; cartoqa recreates it") from None
        try:
            if self.running_as_root:
                entry = pwd.getpwnam(SERVICE_USER)
                os.fchown(fd, entry.pw_uid, entry.pw_gid)
            os.fchmod(fd, 0o700)
        finally:
            os.close(fd)

    def _run_as_owner(
        self, argv: list[str], *, check: bool = True, timeout: float = 300.0
    ) -> subprocess.CompletedProcess[str]:
        """Run a server program as the cluster's owner; raise RenderError on failure."""
        kwargs: dict[str, object] = {}
        if self.running_as_root:
            kwargs = {"user": SERVICE_USER, "group": self._service_gid(), "extra_groups": []}
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env["LC_ALL"] = "C.UTF-8"
        try:
            result = subprocess.run(
                argv, cwd=self.root, env=env, capture_output=True, text=True,
                timeout=timeout, check=False, **kwargs,  # type: ignore[call-overload]
            )
        except subprocess.TimeoutExpired as exc:
            raise RenderError(
                f"{Path(argv[0]).name} did not finish within {timeout:.0f} s",
                f"see {self.log_path}",
            ) from exc
        if check and result.returncode != 0:
            raise RenderError(
                f"{Path(argv[0]).name} failed: {_last_lines(result.stderr or result.stdout)}",
                f"see {self.log_path}",
            )
        return result

    def _ensure_initialised(self) -> None:
        if (self.data_dir / "PG_VERSION").is_file():
            return
        # initdb into a fresh folder and rename it, so a killed initdb leaves no half cluster
        for leftover in self.root.glob("data.tmp*"):
            shutil.rmtree(leftover, ignore_errors=True)
        if self.data_dir.exists():
            shutil.rmtree(self.data_dir)
        tmp = self.root / f"data.tmp{os.getpid()}"
        self._run_as_owner([
            str(find_pg_binary("initdb")), "-D", str(tmp), "-U", DB_SUPERUSER,
            "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-instructions",
        ])
        conf = tmp / "postgresql.conf"
        with open(conf, "a", encoding="utf-8") as fh:
            fh.write(
                "\n# cartoqa: unix socket only, small footprint, throwaway data\n"
                "listen_addresses = ''\n"
                f"unix_socket_directories = '{self.socket_dir}'\n"
                "unix_socket_permissions = 0700\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                "shared_buffers = 128MB\nmaintenance_work_mem = 256MB\nwork_mem = 32MB\n"
                "max_connections = 100\nmax_wal_size = 1GB\n"
                "jit = off\nlogging_collector = off\n"
            )
        tmp.rename(self.data_dir)

    def _postmaster_pid(self) -> int | None:
        return read_pid_file(self.data_dir / "postmaster.pid")

    def _server_alive(self) -> bool:
        """Whether our server runs and answers on its socket."""
        pid = self._postmaster_pid()
        if pid is None or not is_postgres_command(process_command(pid)):
            return False
        isready = find_pg_binary("pg_isready")
        result = subprocess.run(
            [str(isready), "-q", "-h", str(self.socket_dir), "-p", str(self.port),
             "-U", DB_SUPERUSER, "-d", "postgres", "-t", "5"],
            capture_output=True, check=False,
        )
        return result.returncode == 0

    def _recover_stale_files(self) -> None:
        """Remove ``postmaster.pid`` and the socket lock a killed server left behind."""
        pid_file = self.data_dir / "postmaster.pid"
        pid = read_pid_file(pid_file)
        if pid is not None:
            if is_postgres_command(process_command(pid)):
                # our postmaster is alive but does not answer: stop it properly
                self._pg_ctl(["stop", "-m", "immediate", "-w", "-t", "30"], check=False)
                if is_postgres_command(process_command(pid)):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                    wait_for_exit([pid], STOP_TIMEOUT_S)
            # the server's other processes may outlive it for a moment; they hold its
            # shared memory, which a new server must not find still in use
            wait_for_exit(processes_in(self.data_dir), STOP_TIMEOUT_S)
            pid_file.unlink(missing_ok=True)
        sock_lock = Path(str(socket_file(self.socket_dir, self.port)) + ".lock")
        holder = read_pid_file(sock_lock)
        if holder is not None:
            if holder != pid and is_postgres_command(process_command(holder)):
                raise RenderError(
                    f"the PostgreSQL socket {socket_file(self.socket_dir, self.port)} is "
                    f"already in use by another server (PID {holder})",
                    "stop that server, or use another cache folder (set CARTOQA_CACHE)",
                )
            sock_lock.unlink(missing_ok=True)

    def _pg_ctl(self, args: list[str], *, check: bool) -> subprocess.CompletedProcess[str]:
        return self._run_as_owner(
            [str(find_pg_binary("pg_ctl")), "-D", str(self.data_dir), *args], check=check
        )

    def _start_server(self) -> None:
        options = (
            f"-c listen_addresses='' -c unix_socket_directories='{self.socket_dir}' "
            f"-p {self.port}"
        )
        preload = preloaded_libraries()
        if preload:
            options += f" -c shared_preload_libraries={','.join(preload)}"
        options += "".join(f" -c {key}={value}" for key, value in SERVER_SETTINGS.items())
        # A killed server's children can hold its shared memory for a moment: retry.
        for attempt in range(START_ATTEMPTS):
            if self.log_path.exists():
                self.log_path.unlink()
            result = self._pg_ctl(
                ["start", "-w", "-t", "180", "-l", str(self.log_path), "-o", options], check=False
            )
            if result.returncode == 0 and self._server_alive():
                return
            log = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
            text = log + "\n" + result.stdout + "\n" + result.stderr
            if "Is another postmaster" in text and "socket" in text:
                raise RenderError(
                    f"the PostgreSQL socket {socket_file(self.socket_dir, self.port)} is "
                    "already in use by another server",
                    "stop that server, or use another cache folder (set CARTOQA_CACHE)",
                )
            holders = processes_in(self.data_dir) if "still in use" in text else []
            if holders and attempt < START_ATTEMPTS - 1:
                # a killed server's processes still hold its shared memory: wait for them
                wait_for_exit(holders, STOP_TIMEOUT_S)
                continue
            raise RenderError(
                f"PostgreSQL did not start: {_last_lines(text)}",
                f"see {self.log_path}; if the cluster is damaged, delete {self.root} "
                "(it is created and imported again on the next run)",
            )


def _last_lines(text: str, n: int = 3) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return " / ".join(lines[-n:]) if lines else "no output"
