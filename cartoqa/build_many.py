"""``cartoqa build-many SPEC``: one dataset per city, built on Dask distributed.

The spec is a small TOML file::

    out = "cities"            # folder of the city folders (relative to the spec)
    tasks = ["mml", "rle"]    # default for every city
    per_task = 4
    seed = 0

    [[city]]
    name = "kotka"            # the city's folder: <out>/kotka
    extract = "kotka"         # bundled name, file (relative to the spec) or place name

    [[city]]
    name = "tartu"
    extract = "Tartu"
    bbox = [26.70, 58.36, 26.76, 58.39]
    per_task = 2              # a city may override tasks, per_task, seed

    [[city]]
    name = "kotka-frieda"
    extract = "kotka"
    suite = "frieda"          # FRIEDA's questions (cartoqa build --suite frieda);
    tasks = ["border"]        # its tasks by relation, default all of them;
    frieda_setting = "both"   # as --frieda-setting

Each city is one Dask task that runs :func:`cartoqa.build.build_dataset` in a worker
process, so a city's folder is byte-identical to ``cartoqa build`` of the same city
with the same options, and a killed run resumes every city from its journal. The
cluster is a :class:`distributed.LocalCluster` on 127.0.0.1 only, over TLS with a key
made for it (:func:`secure_local_cluster`: no other local user can reach its scheduler,
nannies or workers; no dashboard), or an existing one (``--scheduler``). A
:class:`CartoqaWorkerPlugin` prepares each worker (cache and web-asset settings, death
with its parent process) and closes, at teardown, any build context (browser, tile
pipeline) a cancelled city left open. When every city is done, ``<out>/manifest.json``
ties them together: each city's folder, extract, item counts and the SHA-256 of its
``manifest.json`` and ``items.jsonl``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cartoqa.build import DEFAULT_PER_TASK, DEFAULT_SEED, build_dataset, dataset_is_finished
from cartoqa.dataset.files import write_json_atomic
from cartoqa.dataset.manifest import ATTRIBUTION, DATA_LICENSE
from cartoqa.dataset.writer import ITEMS_FILE, JOURNAL_FILE, STAGING_DIR
from cartoqa.declarations.registry import load_spec as load_task_spec
from cartoqa.declarations.suites import DEFAULT_TASKS, parse_tasks
from cartoqa.download import resolve_source
from cartoqa.errors import CartoqaError
from cartoqa.parallel import _die_with_parent, start_worker_server
from cartoqa.settings import cache_root, web_assets_dir
from cartoqa.stop_signals import raise_pending_stop
from cartoqa.tasks.frieda.options import DEFAULT_SETTING, SETTING_OPTION, SETTINGS
from renderers.postgis import PostgisCluster

#: Suites a spec may name (``suite = "..."``): those built from an OSM extract.
BUILD_MANY_SUITES = ("cartomapqa", "frieda")
#: Name of the combined manifest in the spec's output folder.
COMBINED_MANIFEST = "manifest.json"
#: Format of the combined manifest.
COMBINED_FORMAT = 1


@dataclass(frozen=True)
class CitySpec:
    """One city of a spec."""

    name: str
    extract: str
    tasks: tuple[str, ...]
    per_task: int
    seed: int
    bbox: tuple[float, float, float, float] | None = None
    #: ``cartomapqa`` or ``frieda`` (the suites built from an extract).
    suite: str = "cartomapqa"
    #: Options the tasks read (FRIEDA: ``frieda_setting``), as ``cartoqa build`` sets them.
    task_options: dict[str, Any] | None = None


@dataclass
class ManySpec:
    """A parsed ``build-many`` spec."""

    out: Path
    cities: list[CitySpec] = field(default_factory=list)


#: Keys a spec may set at its top level.
SPEC_KEYS = frozenset({"out", "tasks", "per_task", "seed", "suite", "frieda_setting", "city"})
#: Keys a ``[[city]]`` table may set.
CITY_KEYS = frozenset({"name", "extract", "bbox", "tasks", "per_task", "seed", "suite",
                       "frieda_setting"})
#: The longest city name (a folder name), in UTF-8 bytes.
MAX_NAME_BYTES = 200


def _refuse_unknown(keys: Any, allowed: frozenset[str], where: str) -> None:
    import difflib

    unknown = sorted(set(keys) - allowed)
    if unknown:
        key = unknown[0]
        close = difflib.get_close_matches(key, sorted(allowed), n=1)
        raise CartoqaError(f"{where} has an unknown key {key!r}",
                           fix=f"did you mean {close[0]!r}?" if close
                           else f"known keys: {', '.join(sorted(allowed))}")


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise CartoqaError(f"{what} must be a non-empty string, not {value!r}"[:200])
    if "\0" in value:
        raise CartoqaError(f"{what} holds a NUL character")
    return value


def _whole(value: Any, what: str, *, least: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CartoqaError(f"{what} must be a whole number, not {value!r}"[:200],
                           fix=f"e.g. {what.split()[0]} = 4")
    if least is not None and value < least:
        raise CartoqaError(f"{what} must be at least {least}, not {value}")
    return value


def _tasks(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return ",".join(value)
    raise CartoqaError(f"{what} must be a list of task names, not {value!r}"[:200],
                       fix='e.g. tasks = ["mml", "rle"]')


def _bbox(value: Any, what: str) -> tuple[float, float, float, float]:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)):
        raise CartoqaError(f"{what} must be four numbers [west, south, east, north], "
                           f"not {value!r}"[:200])
    west, south, east, north = (float(v) for v in value)
    if not (-180 <= west < east <= 180 and -90 <= south < north <= 90):
        raise CartoqaError(f"{what} {value!r} is not west < east and south < north "
                           "in degrees")
    return west, south, east, north


def load_spec(path: Path) -> ManySpec:
    """Read and check a ``build-many`` TOML spec.

    Every key is checked for its type; an unknown key is refused (with the known key
    it resembles), so that a typo never builds with a default.

    Raises
    ------
    CartoqaError
        Unreadable or non-UTF-8 TOML, an unknown key, no cities, a city without
        ``name``/``extract``, a name that is no plain folder name (repeated, hidden, with
        ``/`` or NUL, or the combined ``manifest.json``), a value of the wrong type, an
        unknown task or a size below 1 (one line each).
    """
    try:
        data = tomllib.loads(Path(path).read_bytes().decode("utf-8"))
    except OSError as exc:
        raise CartoqaError(f"cannot read the spec {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise CartoqaError(f"the spec {path} is not UTF-8 text (byte at offset {exc.start})",
                           fix="save it as UTF-8 (TOML files are UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise CartoqaError(f"the spec {path} is not valid TOML: {exc}") from None
    _refuse_unknown(data, SPEC_KEYS, f"the spec {path}")
    base = Path(path).resolve().parent
    out = base / (_text(data["out"], "out") if "out" in data else Path(path).stem)
    cities_raw = data.get("city")
    if not isinstance(cities_raw, list) or not cities_raw:
        raise CartoqaError(f"the spec {path} lists no [[city]]",
                           fix='add [[city]] tables with name = "..." and extract = "..."')
    spec = ManySpec(out=out)
    seen: set[str] = set()
    for i, raw in enumerate(cities_raw):
        if not isinstance(raw, dict):
            raise CartoqaError(f"city {i + 1} of {path} is not a table",
                               fix='write it as [[city]] with name = "..." and extract = "..."')
        name, extract = raw.get("name"), raw.get("extract")
        if not isinstance(name, str) or not isinstance(extract, str) or not name or not extract:
            raise CartoqaError(f"city {i + 1} of {path} needs a name and an extract "
                               "(both strings)")
        if (name in seen or "/" in name or "\\" in name or name.startswith(".")
                or "\0" in name or name == COMBINED_MANIFEST or not name.isprintable()
                or len(name.encode("utf-8", "surrogatepass")) > MAX_NAME_BYTES):
            raise CartoqaError(f"city name {name!r} in {path} repeats or is not a folder name",
                               fix="use letters, digits, - and _ (not manifest.json, not "
                                   "starting with .)")
        seen.add(name)
        _refuse_unknown(raw, CITY_KEYS, f"city {name} of {path}")
        _text(extract, f"extract of {name}")
        suite = _text(raw.get("suite", data.get("suite", "cartomapqa")), f"suite of {name}")
        if suite not in BUILD_MANY_SUITES:
            raise CartoqaError(
                f"suite {suite!r} of {name} cannot be built by build-many",
                fix="use suite = \"cartomapqa\" or \"frieda\" (the suites built from an "
                    "extract); build MapIQ and MapWise with cartoqa build --suite")
        default_tasks = list(DEFAULT_TASKS) if suite == "cartomapqa" else "all"
        tasks = _tasks(raw.get("tasks", data.get("tasks", default_tasks)), f"tasks of {name}")
        tasks_list = parse_tasks(tasks, suite=suite)
        options: dict[str, Any] | None = None
        if suite == "frieda":
            setting = raw.get(SETTING_OPTION, data.get(SETTING_OPTION, DEFAULT_SETTING))
            if setting not in SETTINGS:
                raise CartoqaError(f"{SETTING_OPTION} of {name} must be one of "
                                   f"{', '.join(SETTINGS)}, not {setting!r}")
            options = {SETTING_OPTION: setting}
        per_task = _whole(raw.get("per_task", data.get("per_task", DEFAULT_PER_TASK)),
                          f"per_task of {name}", least=1)
        seed = _whole(raw.get("seed", data.get("seed", DEFAULT_SEED)), f"seed of {name}")
        bbox = raw.get("bbox")
        local = base / extract
        spec.cities.append(CitySpec(
            name=name, extract=str(local) if local.exists() else extract,
            tasks=tuple(tasks_list), per_task=per_task, seed=seed,
            bbox=_bbox(bbox, f"bbox of {name}") if bbox is not None else None,
            suite=suite, task_options=options))
    return spec


def build_city(city: CitySpec, out: Path) -> dict[str, Any]:
    """Build one city's dataset (a Dask task; also callable directly).

    Returns
    -------
    dict
        ``{"name", "folder", "items", "by_task", "shortfalls"}``.
    """
    extract, source = _city_extract(city)
    folder = out / city.name
    report = build_dataset(extract=extract, out=folder, tasks=list(city.tasks),
                           per_task=city.per_task, seed=city.seed, progress=False,
                           log=lambda msg: None, extract_source=source,
                           task_options=dict(city.task_options) if city.task_options else None)
    items = (folder / "items.jsonl").read_text("utf-8").count("\n")
    return {"name": city.name, "folder": str(folder), "items": items,
            "already_complete": report.already_complete}


def _city_extract(city: CitySpec) -> tuple[str | Path, dict[str, Any] | None]:
    """The city's extract (downloaded or clipped first where the spec says so)."""
    bbox = ",".join(str(v) for v in city.bbox) if city.bbox else None
    return resolve_source(city.extract, None, bbox)


def city_is_finished(city: CitySpec, out: Path) -> bool:
    """Whether ``out/<city>`` already holds the city's finished dataset, made with the
    spec's options (then no worker needs to start for it).

    Raises
    ------
    CartoqaError
        The folder holds a finished dataset of other options (as ``cartoqa build``).
    """
    folder = out / city.name
    if not (folder / ITEMS_FILE).exists():
        return False
    extract, _ = _city_extract(city)
    return dataset_is_finished(extract, folder, tasks=list(city.tasks),
                               per_task=city.per_task, seed=city.seed,
                               task_options=dict(city.task_options) if city.task_options
                               else None)


def expected_slots(city: CitySpec) -> int:
    """Scenarios a city needs when nothing fails (for its progress bar)."""
    return sum(-(-city.per_task // load_task_spec(t).items_per_scenario) for t in city.tasks)


def journal_lines(folder: Path) -> int:
    """Slots journalled so far in a city's staging folder (0 before, all when done)."""
    if (folder / ITEMS_FILE).exists():
        return -1
    try:
        with open(folder / STAGING_DIR / JOURNAL_FILE, "rb") as fh:
            return sum(1 for _ in fh)
    except OSError:
        return 0


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def combined_manifest(spec: ManySpec) -> dict[str, Any]:
    """The manifest that ties the city datasets together (all must be finished)."""
    cities = []
    for city in spec.cities:
        folder = spec.out / city.name
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        cities.append({
            "name": city.name,
            "folder": city.name,
            "extract": manifest.get("extract"),
            "counts": manifest.get("counts"),
            "build": manifest.get("build"),
            "manifest_sha256": _sha256(folder / "manifest.json"),
            "items_sha256": _sha256(folder / "items.jsonl"),
        })
    return {"format": "cartoqa-build-many", "format_version": COMBINED_FORMAT,
            "attribution": ATTRIBUTION, "data_license": DATA_LICENSE, "cities": cities}


class _NoComputeFailed(logging.Filter):
    """Drops the worker's log record of a failed task (its error is reported once)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Compute Failed")


@contextlib.contextmanager
def _quiet_cluster_logs() -> Any:
    """Silence the nanny's and scheduler's logs of dying workers while a build runs.

    A worker killed again and again is reported in one line (:func:`_city_result`);
    Dask would print its restarts and a ``KilledWorker`` notice first.
    """
    loggers = [logging.getLogger(n) for n in ("distributed.nanny", "distributed.scheduler",
                                              "distributed.core", "distributed.worker")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


class CartoqaWorkerPlugin:
    """Dask worker plugin: each worker's settings and its database access.

    ``setup`` puts the cache and web-asset folders in the worker's environment, asks
    (on Linux) for SIGKILL when the worker's parent dies (a worker also exits at once
    when build-many does, whoever its parent: Dask's ``AsyncProcess`` has it watch
    build-many's end of a pipe from its start), and joins the project's
    PostgreSQL cluster (starting it when no one runs it), so that the cities a worker
    builds one after another do not start and stop the server each time; ``teardown``
    leaves the cluster (stopping it when no other process uses it). Each city's build
    starts and closes its own browser and tile pipeline.
    """

    name = "cartoqa"

    def __init__(self, env: dict[str, str], *, database: bool = True) -> None:
        self.env = dict(env)
        self.database = database
        self._cluster: Any = None

    def setup(self, worker: Any) -> None:
        """Called by Dask when the plugin is registered on a worker."""
        os.environ.update(self.env)
        _die_with_parent()
        # a city that fails reaches the user as one line through its future; the worker's
        # own "Compute Failed" traceback would come first on the same terminal
        logging.getLogger("distributed.worker").addFilter(_NoComputeFailed())
        if self.database:
            self._cluster = PostgisCluster(Path(self.env["CARTOQA_CACHE"]))
            self._cluster.start()

    def teardown(self, worker: Any) -> None:
        """Called by Dask when the worker closes."""
        if self._cluster is not None:
            self._cluster.stop()
            self._cluster = None


def _plugin(env: dict[str, str], *, database: bool) -> Any:
    from distributed.diagnostics.plugin import WorkerPlugin

    class _Plugin(CartoqaWorkerPlugin, WorkerPlugin):
        pass

    return _Plugin(env, database=database)


#: What build-many's Dask workers import in the fork server they are started from
#: (besides :data:`cartoqa.parallel.WORKER_MODULES`, the rendering stack): Dask and the
#: build. About 2 CPU s a worker less than spawning each (two Kotka cities of 40 items
#: on 2 workers, alternating runs: 39.3, 38.1 -> 34.8, 33.8 machine CPU s, wall 21.3,
#: 20.9 -> 19.8, 19.0 s, the same items).
CLUSTER_WORKER_MODULES = ("distributed", "cartoqa.build_many", "cartoqa.build")


def secure_local_cluster(workers: int) -> Any:
    """A LocalCluster that no other local user can drive.

    Scheduler, nannies and workers listen on 127.0.0.1 over TLS with mutual
    authentication: :meth:`distributed.security.Security.temporary` makes a fresh
    certificate authority and key pair for this cluster, held in memory and handed to the
    worker processes it starts, never written to disk. A peer without that key (another
    local user, or this user's other programs) fails the TLS handshake before any Dask
    message is read, so the RPCs ``run``, ``run_function`` and the like are out of reach.
    Dask's HTTP servers cannot be switched off, so the scheduler's and the workers' are
    bound to 127.0.0.1 on ports the kernel picks and serve no route at all (no dashboard,
    no ``/info`` pages, no metrics): every request gets 404. With no dashboard to show
    them, the workers keep no statistical profile either (Dask samples every worker
    thread's stack every 10 ms for it: a few CPU seconds per worker per minute).

    Where the platform has one (Linux), the worker processes are forked from a
    ``multiprocessing`` fork server that has imported Dask and the rendering stack
    (:data:`CLUSTER_WORKER_MODULES`; :func:`cartoqa.parallel.start_worker_server`), a
    private socket in a folder only this user can open. A worker exits at once when this
    process does (Dask's ``AsyncProcess`` has it watch this process's end of a pipe):
    after a ``kill -9`` of build-many, its fork server, workers and their browsers were
    all gone within 0.5 s.

    Parameters
    ----------
    workers : int
        Worker processes (one thread each).

    Returns
    -------
    distributed.LocalCluster
        Its ``security`` attribute is what a :class:`distributed.Client` needs to connect.
    """
    import dask
    from distributed import LocalCluster
    from distributed.security import Security

    security = Security.temporary()
    # the workers come from a fork server that imports Dask and the rendering stack
    # once, while the scheduler starts, instead of each spawned worker importing them
    method = "forkserver" if start_worker_server(CLUSTER_WORKER_MODULES) else "spawn"
    settings: dict[str, object] = {"distributed.scheduler.http.routes": [],
                                   "distributed.worker.http.routes": [],
                                   "distributed.worker.profile.enabled": False,
                                   "distributed.worker.multiprocessing-method": method}
    with dask.config.set(settings):  # the worker processes inherit this configuration
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            host="127.0.0.1", dashboard_address=None, protocol="tls://",
                            security=security, worker_dashboard_address=None,
                            scheduler_kwargs={"dashboard": False,
                                              "dashboard_address": "127.0.0.1:0"})


#: Seconds to wait for an existing scheduler (``--scheduler``) to answer.
SCHEDULER_CONNECT_TIMEOUT_S = 5.0
#: How long build-many waits, when it ends, for its own dying worker processes to exit
#: (and so leave the PostgreSQL server), before it leaves the server to whoever still
#: uses it.
BUILD_MANY_DB_LINGER_S = 20.0
#: Schemes a ``--scheduler`` address may use.
SCHEDULER_SCHEMES = ("tls", "tcp")


def worker_pids(cluster: Any) -> list[int]:
    """The process ids of a LocalCluster's worker processes (each nanny's worker).

    Only these hold the PostgreSQL server on build-many's behalf (the worker plugin
    joins it for the worker's life), so they are what build-many waits for when it
    ends: not every holder of the server, which may be another build.

    Parameters
    ----------
    cluster : distributed.LocalCluster
        The cluster (its nannies live in this process).

    Returns
    -------
    list of int
        Ids of the workers running now.
    """
    pids = []
    for nanny in dict(getattr(cluster, "workers", {}) or {}).values():
        pid = getattr(nanny, "pid", None)
        if isinstance(pid, int):
            pids.append(pid)
    return pids


def check_scheduler_address(address: str) -> str:
    """Check a ``--scheduler`` address: ``tls://HOST:PORT`` or ``tcp://HOST:PORT``.

    Raises
    ------
    CartoqaError
        Another scheme, no host, a port that is not a number from 1 to 65535.

    Examples
    --------
    >>> check_scheduler_address("tls://127.0.0.1:8786")
    'tls://127.0.0.1:8786'
    >>> check_scheduler_address("http://[::1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cartoqa.errors.CartoqaError: --scheduler 'http://[::1' is not ...
    """
    import urllib.parse

    bad = CartoqaError(f"--scheduler {address!r} is not tls://HOST:PORT or tcp://HOST:PORT",
                       fix="e.g. --scheduler tls://10.0.0.5:8786, or leave it out")
    try:
        parts = urllib.parse.urlsplit(address)
        port = parts.port
    except ValueError:
        raise bad from None
    if (parts.scheme not in SCHEDULER_SCHEMES or not parts.hostname or port is None
            or port < 1 or parts.path not in ("", "/") or parts.query or "\0" in address):
        raise bad
    return address


def _city_result(city: CitySpec, future: Any) -> Any:
    """A city's result; a worker that died (``KilledWorker``) becomes one line."""
    from distributed.scheduler import KilledWorker

    try:
        return future.result()
    except KilledWorker:
        raise CartoqaError(
            f"the worker building {city.name} died again and again (Dask gave up after "
            "its allowed retries; out of memory, or killed)",
            fix="rerun the same command: every city resumes from its journal") from None


def build_many(spec: ManySpec, *, scheduler: str | None = None, workers: int = 2,
               progress: bool = True, database: bool = True,
               log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Build every city of a spec on Dask and write the combined manifest.

    A city whose folder already holds its finished dataset is checked here and sent to
    no worker; when every city is finished, no cluster starts.

    Parameters
    ----------
    spec : ManySpec
        From :func:`load_spec`.
    scheduler : str, optional
        ``tcp://HOST:PORT`` of an existing scheduler; default a LocalCluster.
    workers : int, optional
        Worker processes of the LocalCluster (one thread each).
    progress : bool, optional
        A progress bar per city on stderr.
    database : bool, optional
        Let the worker plugin join the PostgreSQL cluster for the worker's life.
    log : callable, optional
        Receives one-line notices (a warning for a plain-TCP scheduler); default stderr.

    Returns
    -------
    dict
        The combined manifest.
    """
    say = log or (lambda msg: print(msg, file=sys.stderr))
    if scheduler is not None:
        scheduler = check_scheduler_address(scheduler)
    # a city finished before (a rerun, or a run killed after some cities) needs no worker;
    # when every city is, no cluster starts at all
    todo = [city for city in spec.cities if not city_is_finished(city, spec.out)]
    if todo:
        _build_on_dask(spec, todo, scheduler=scheduler, workers=workers, progress=progress,
                       database=database, say=say)
    manifest = combined_manifest(spec)
    write_json_atomic(spec.out / COMBINED_MANIFEST, manifest)
    return manifest


def _build_on_dask(spec: ManySpec, todo: list[CitySpec], *, scheduler: str | None,
                   workers: int, progress: bool, database: bool,
                   say: Callable[[str], None]) -> None:
    """Build the cities ``todo`` on a LocalCluster or the ``scheduler`` (see
    :func:`build_many`), one Dask task each."""
    import dask
    from distributed import Client, wait

    env = {"CARTOQA_CACHE": str(cache_root()), "CARTOQA_WEB_ASSETS": str(web_assets_dir())}
    cluster: Any = None
    database_user: Any = None
    client: Any = None
    made_out = not spec.out.exists()
    quiet = _quiet_cluster_logs()
    quiet.__enter__()
    try:
        with dask.config.set({"distributed.worker.daemon": False}):
            if scheduler is None:
                if database:
                    # this process holds the database too, so that the server stops when
                    # it ends however its workers end (SIGTERM, a killed worker)
                    database_user = PostgisCluster(cache_root())
                    database_user.start()
                cluster = secure_local_cluster(workers)
                client = Client(cluster, security=cluster.security)
            else:
                if scheduler.startswith("tcp://"):
                    say(f"warning: {scheduler} is a plain TCP scheduler: anyone who can reach "
                        "it can run code on its workers (use tls:// with Dask's TLS settings)")
                try:
                    client = Client(scheduler, timeout=SCHEDULER_CONNECT_TIMEOUT_S)
                except TypeError as exc:  # distributed: "TLS expects a `ssl_context`"
                    raise CartoqaError(
                        f"--scheduler {scheduler} needs Dask's TLS settings ({exc})"[:300],
                        fix="set distributed.comm.tls.ca-file, .client.cert and .client.key "
                            "(DASK_DISTRIBUTED__COMM__TLS__...)") from None
                except (OSError, TimeoutError) as exc:
                    raise CartoqaError(
                        f"cannot reach the Dask scheduler {scheduler} within "
                        f"{SCHEDULER_CONNECT_TIMEOUT_S:g} s ({type(exc).__name__})",
                        fix="start it first, or leave out --scheduler for a local "
                            "cluster") from None
        spec.out.mkdir(parents=True, exist_ok=True)
        client.register_plugin(_plugin(env, database=database), name="cartoqa")
        futures = {city.name: client.submit(build_city, city, spec.out, key=f"city-{city.name}",
                                            pure=False)
                   for city in todo}
        _follow(spec, futures, progress=progress)
        wait(list(futures.values()))
        for city in todo:
            _city_result(city, futures[city.name])
    finally:
        helpers = worker_pids(cluster) if cluster is not None else []
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
        if database_user is not None:
            # its workers may still be dying (a SIGTERM, a killed worker) and hold the server
            # a moment longer: wait for them, or nobody would be left to stop it; a server
            # another program holds (a build beside this one) is left to that program
            database_user.stop(helpers=helpers, helpers_wait_s=BUILD_MANY_DB_LINGER_S)
        quiet.__exit__(None, None, None)
        if made_out and spec.out.is_dir() and not any(spec.out.iterdir()):
            spec.out.rmdir()  # a build that failed before any city leaves no empty folder


def _follow(spec: ManySpec, futures: dict[str, Any], *, progress: bool) -> None:
    """A progress bar per city, fed from its journal until every future is done."""
    from distributed import wait
    from tqdm import tqdm

    bars = {}
    for i, city in enumerate(spec.cities):
        total = expected_slots(city)
        bars[city.name] = (tqdm(total=total, desc=f"{city.name:>10}", unit="scenario",
                                position=i, disable=not progress, file=sys.stderr), total)
    try:
        while True:
            raise_pending_stop()  # a SIGTERM whose exception Python dropped (Dask's GC hook)
            pending = [f for f in futures.values() if not f.done()]
            for city in spec.cities:
                bar, total = bars[city.name]
                n = journal_lines(spec.out / city.name)
                n = total if n < 0 else min(n, total)
                bar.update(n - bar.n)
            if not pending:
                break
            with contextlib.suppress(TimeoutError):  # wake up to refresh the bars
                wait(pending, timeout=1.0, return_when="FIRST_COMPLETED")
    finally:
        for bar, _ in bars.values():
            bar.close()
