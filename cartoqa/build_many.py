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
import os
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cartoqa.errors import CartoqaError

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


def load_spec(path: Path) -> ManySpec:
    """Read and check a ``build-many`` TOML spec.

    Raises
    ------
    CartoqaError
        Unreadable TOML, no cities, a city without ``name``/``extract``, repeated names,
        an unknown task or a size below 1 (one line each).
    """
    from cartoqa.build import DEFAULT_PER_TASK, DEFAULT_SEED
    from cartoqa.tasks import DEFAULT_TASKS, parse_tasks
    from cartoqa.tasks.frieda.options import DEFAULT_SETTING, SETTING_OPTION, SETTINGS

    try:
        data = tomllib.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise CartoqaError(f"cannot read the spec {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CartoqaError(f"the spec {path} is not valid TOML: {exc}") from None
    base = Path(path).resolve().parent
    out = base / str(data.get("out", Path(path).stem))
    cities_raw = data.get("city")
    if not isinstance(cities_raw, list) or not cities_raw:
        raise CartoqaError(f"the spec {path} lists no [[city]]",
                           fix='add [[city]] tables with name = "..." and extract = "..."')
    spec = ManySpec(out=out)
    seen: set[str] = set()
    for i, raw in enumerate(cities_raw):
        name, extract = raw.get("name"), raw.get("extract")
        if not isinstance(name, str) or not isinstance(extract, str) or not name:
            raise CartoqaError(f"city {i + 1} of {path} needs a name and an extract")
        if name in seen or "/" in name or name.startswith("."):
            raise CartoqaError(f"city name {name!r} in {path} repeats or is not a folder name")
        seen.add(name)
        suite = str(raw.get("suite", data.get("suite", "cartomapqa")))
        if suite not in BUILD_MANY_SUITES:
            raise CartoqaError(
                f"suite {suite!r} of {name} cannot be built by build-many",
                fix="use suite = \"cartomapqa\" or \"frieda\" (the suites built from an "
                    "extract); build MapIQ and MapWise with cartoqa build --suite")
        default_tasks = list(DEFAULT_TASKS) if suite == "cartomapqa" else "all"
        tasks = raw.get("tasks", data.get("tasks", default_tasks))
        tasks_list = parse_tasks(",".join(tasks) if isinstance(tasks, list) else str(tasks),
                                 suite=suite)
        options: dict[str, Any] | None = None
        if suite == "frieda":
            setting = str(raw.get(SETTING_OPTION, data.get(SETTING_OPTION, DEFAULT_SETTING)))
            if setting not in SETTINGS:
                raise CartoqaError(f"{SETTING_OPTION} of {name} must be one of "
                                   f"{', '.join(SETTINGS)}, not {setting!r}")
            options = {SETTING_OPTION: setting}
        per_task = int(raw.get("per_task", data.get("per_task", DEFAULT_PER_TASK)))
        if per_task < 1:
            raise CartoqaError(f"per_task of {name} must be at least 1, not {per_task}")
        seed = int(raw.get("seed", data.get("seed", DEFAULT_SEED)))
        bbox = raw.get("bbox")
        if bbox is not None and (not isinstance(bbox, list) or len(bbox) != 4):
            raise CartoqaError(f"bbox of {name} must be [west, south, east, north]")
        local = base / extract
        spec.cities.append(CitySpec(
            name=name, extract=str(local) if local.exists() else extract,
            tasks=tuple(tasks_list), per_task=per_task, seed=seed,
            bbox=tuple(float(v) for v in bbox) if bbox else None,  # type: ignore[arg-type]
            suite=suite, task_options=options))
    return spec


def build_city(city: CitySpec, out: Path) -> dict[str, Any]:
    """Build one city's dataset (a Dask task; also callable directly).

    Returns
    -------
    dict
        ``{"name", "folder", "items", "by_task", "shortfalls"}``.
    """
    from cartoqa.build import build_dataset
    from cartoqa.commands.build import resolve_source

    bbox = ",".join(str(v) for v in city.bbox) if city.bbox else None
    extract, source = resolve_source(city.extract, None, bbox)
    folder = out / city.name
    report = build_dataset(extract=extract, out=folder, tasks=list(city.tasks),
                           per_task=city.per_task, seed=city.seed, progress=False,
                           log=lambda msg: None, extract_source=source,
                           task_options=dict(city.task_options) if city.task_options else None)
    items = (folder / "items.jsonl").read_text("utf-8").count("\n")
    return {"name": city.name, "folder": str(folder), "items": items,
            "already_complete": report.already_complete}


def expected_slots(city: CitySpec) -> int:
    """Scenarios a city needs when nothing fails (for its progress bar)."""
    from cartoqa.tasks.registry import load_spec

    return sum(-(-city.per_task // load_spec(t).items_per_scenario) for t in city.tasks)


def journal_lines(folder: Path) -> int:
    """Slots journalled so far in a city's staging folder (0 before, all when done)."""
    from cartoqa.dataset.writer import ITEMS_FILE, JOURNAL_FILE, STAGING_DIR

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
    from cartoqa.dataset.manifest import ATTRIBUTION, DATA_LICENSE

    return {"format": "cartoqa-build-many", "format_version": COMBINED_FORMAT,
            "attribution": ATTRIBUTION, "data_license": DATA_LICENSE, "cities": cities}


class CartoqaWorkerPlugin:
    """Dask worker plugin: each worker's settings and its database access.

    ``setup`` puts the cache and web-asset folders in the worker's environment, asks
    (on Linux) for SIGKILL when the worker's parent dies, and joins the project's
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
        from cartoqa.parallel import _die_with_parent

        os.environ.update(self.env)
        _die_with_parent()
        if self.database:
            from renderers.postgis import PostgisCluster

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


def secure_local_cluster(workers: int) -> Any:
    """A LocalCluster that no other local user can drive.

    Scheduler, nannies and workers listen on 127.0.0.1 over TLS with mutual
    authentication: :meth:`distributed.security.Security.temporary` makes a fresh
    certificate authority and key pair for this cluster, held in memory and handed to the
    worker processes it spawns, never written to disk. A peer without that key (another
    local user, or this user's other programs) fails the TLS handshake before any Dask
    message is read, so the RPCs ``run``, ``run_function`` and the like are out of reach.
    Dask's HTTP servers cannot be switched off, so the scheduler's and the workers' are
    bound to 127.0.0.1 on ports the kernel picks and serve no route at all (no dashboard,
    no ``/info`` pages, no metrics): every request gets 404.

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
    no_routes: dict[str, list[str]] = {"distributed.scheduler.http.routes": [],
                                       "distributed.worker.http.routes": []}
    with dask.config.set(no_routes):  # the worker processes inherit this configuration
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                            host="127.0.0.1", dashboard_address=None, protocol="tls://",
                            security=security, worker_dashboard_address=None,
                            scheduler_kwargs={"dashboard": False,
                                              "dashboard_address": "127.0.0.1:0"})


def build_many(spec: ManySpec, *, scheduler: str | None = None, workers: int = 2,
               progress: bool = True, database: bool = True,
               log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Build every city of a spec on Dask and write the combined manifest.

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
    import dask
    from distributed import Client, wait

    from cartoqa.settings import cache_root, web_assets_dir

    say = log or (lambda msg: print(msg, file=sys.stderr))
    spec.out.mkdir(parents=True, exist_ok=True)
    env = {"CARTOQA_CACHE": str(cache_root()), "CARTOQA_WEB_ASSETS": str(web_assets_dir())}
    cluster: Any = None
    with dask.config.set({"distributed.worker.daemon": False}):
        if scheduler is None:
            cluster = secure_local_cluster(workers)
            client = Client(cluster, security=cluster.security)
        else:
            if scheduler.startswith("tcp://"):
                say(f"warning: {scheduler} is a plain TCP scheduler: anyone who can reach it "
                    "can run code on its workers (use tls:// with Dask's TLS settings)")
            client = Client(scheduler)
    try:
        client.register_plugin(_plugin(env, database=database), name="cartoqa")
        futures = {city.name: client.submit(build_city, city, spec.out, key=f"city-{city.name}",
                                            pure=False)
                   for city in spec.cities}
        _follow(spec, futures, progress=progress)
        wait(list(futures.values()))
        for city in spec.cities:
            futures[city.name].result()  # raise the first failure
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    manifest = combined_manifest(spec)
    from cartoqa.dataset.files import write_json_atomic

    write_json_atomic(spec.out / COMBINED_MANIFEST, manifest)
    return manifest


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
