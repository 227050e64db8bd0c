"""What every task module shares: the build context, scenarios, seeded randomness, ids."""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from groundtruth.extracts import Extract

if TYPE_CHECKING:  # imported lazily at run time: starting them is expensive
    import networkx as nx

    from groundtruth.projection import View

    # imported here, not at start-up: loads folium, pandas, shapely (~5 s)
    from renderers.map_render import MapRenderer, RenderResult
    from renderers.markers import Marker
    from renderers.tiles import TileRenderer


def slot_rng(seed: int, *parts: object) -> random.Random:
    """A random generator determined by the seed and a scenario's identity.

    The same ``(seed, parts)`` give the same sequence in every process (no hash
    randomisation), so a scenario can be redone on its own when a build resumes.

    Examples
    --------
    >>> slot_rng(0, "mml", 3).random() == slot_rng(0, "mml", 3).random()
    True
    >>> slot_rng(0, "mml", 3).random() == slot_rng(0, "mml", 4).random()
    False
    """
    key = ":".join([str(seed), *map(str, parts)]).encode("utf-8")
    return random.Random(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def slot_stride(per_task: int, items_per_scenario: int) -> int:
    """How many slots a task may use at most: twice the scenarios it needs.

    The build replaces failed slots by further ones but never goes past this, so
    candidate ``slot + attempt * stride`` is never shared by two slots.

    Examples
    --------
    >>> slot_stride(40, 3)
    28
    """
    return 2 * -(-per_task // items_per_scenario)


def item_id(task: str, slot: int, suffix: str | None = None) -> str:
    """Item id ``<task>-<slot:04d>[-<suffix>]`` (sorts in slot order).

    Examples
    --------
    >>> item_id("rle", 7, "ft")
    'rle-0007-ft'
    """
    base = f"{task}-{slot:04d}"
    return f"{base}-{suffix}" if suffix else base


@dataclass
class Scenario:
    """One accepted scenario: its items and the images they point to.

    Attributes
    ----------
    items : list of dict
        Finished items (``image`` is ``"images/<name>"``).
    images : dict
        ``name -> PNG bytes`` of images to write (may be empty when an image is shared
        with another task and already written).
    """

    items: list[dict[str, Any]]
    images: dict[str, bytes] = field(default_factory=dict)


class BuildContext:
    """Everything a task needs while a build runs; expensive parts start on first use.

    Parameters
    ----------
    extract : groundtruth.extracts.Extract
        The extract.
    seed : int
        The build seed.
    per_task : int
        Items requested per task.
    cache_dir : pathlib.Path
        Cache root (tiles, database cluster).
    assets_dir : pathlib.Path
        Folder with the local Leaflet files.
    """

    def __init__(self, extract: Extract, *, seed: int, per_task: int, cache_dir: Path,
                 assets_dir: Path) -> None:
        self.extract = extract
        self.seed = seed
        self.per_task = per_task
        self.cache_dir = cache_dir
        self.assets_dir = assets_dir
        self._graph: nx.MultiDiGraph | None = None
        self._features: Any = None
        self._renderer: MapRenderer | None = None
        self._tiles: Any = None
        #: Results shared between tasks (e.g. STMF and MTMF use the same maps).
        self.shared: dict[Any, Any] = {}
        #: Task options from the command line (e.g. MFS's ``embedding``); set by the builder.
        self.options: dict[str, Any] = {}
        #: Set by the builder: whether an image name is already in the output folder.
        self.image_exists: Any = lambda name: False
        #: Zooms a task left out because the extract cannot fill a view there:
        #: task -> zoom -> why (see :func:`cartoqa.tasks.common.views.unfillable_zooms`).
        self.unfilled_zooms: dict[str, dict[int, str]] = {}
        #: Candidate scenarios rejected, by ``(task, reason)`` (see :meth:`reject`).
        self.rejections: Counter[tuple[str, str]] = Counter()
        self._naive_graph: nx.MultiDiGraph | None = None
        self._closers: list[Any] = []

    def on_close(self, close: Any) -> None:
        """Call ``close()`` when the build closes the context (a task's own renderer).

        Parameters
        ----------
        close : callable
            Called once, before the shared renderer and tiles are closed.
        """
        self._closers.append(close)

    def reject(self, task: str, reason: str) -> None:
        """Count one rejected candidate scenario of ``task`` (the build logs the counts).

        Examples
        --------
        >>> from pathlib import Path
        >>> from groundtruth.extracts import Extract
        >>> ctx = BuildContext(Extract("x", Path("x.osm"), "osm", "", None), seed=0, per_task=1,
        ...                    cache_dir=Path("."), assets_dir=Path("."))
        >>> ctx.reject("srn", "short leg"); ctx.reject("srn", "short leg")
        >>> ctx.rejections[("srn", "short leg")]
        2
        """
        self.rejections[(task, reason)] += 1

    # -- ground truth ----------------------------------------------------------------
    def graph(self) -> nx.MultiDiGraph:
        """The drivable road graph (loaded once, from the cache when it was built before:
        :mod:`cartoqa.road_graph_cache`)."""
        if self._graph is None:
            # imported here, not at start-up: loads osmnx, networkx, shapely (~2 s)
            from cartoqa.road_graph_cache import cached_road_graph

            self._graph = cached_road_graph(self.extract, self.cache_dir)
        return self._graph

    def naive_graph(self) -> nx.MultiDiGraph:
        """The road graph as a reader who ignores turn restrictions, access signs and
        barriers sees it (one-way streets kept; loaded once)."""
        if self._naive_graph is None:
            # imported here, not at start-up: loads osmnx, networkx, shapely (~2 s)
            from cartoqa.road_graph_cache import cached_road_graph

            self._naive_graph = cached_road_graph(self.extract, self.cache_dir, legal=False)
        return self._naive_graph

    def features(self) -> Any:
        """All catalogue features of the extract (loaded once)."""
        if self._features is None:
            # imported here, not at start-up: loads osmium, shapely (~0.5 s)
            from groundtruth.features import load_features

            self._features = load_features(self.extract)
        return self._features

    # -- rendering -------------------------------------------------------------------
    def renderer(self) -> MapRenderer:
        """The map renderer (tile pipeline and browser start on first use)."""
        if self._renderer is None:
            # imported here, not at start-up: loads folium, pandas, shapely (~5 s)
            from renderers.map_render import MapRenderer
            from renderers.tiles import TileRenderer

            self._tiles = TileRenderer(self.extract, cache_dir=self.cache_dir)
            self._renderer = MapRenderer(self._tiles, assets_dir=self.assets_dir)
        return self._renderer

    def tiles(self) -> TileRenderer:
        """The extract's tile pipeline (created with the renderer on first use)."""
        self.renderer()
        tiles: TileRenderer = self._tiles
        return tiles

    def render(self, view: View, *, markers: list[Marker] | None = None,
               path: list[tuple[float, float]] | None = None) -> RenderResult:
        """Render a view (see :meth:`renderers.map_render.MapRenderer.render`)."""
        return self.renderer().render(view, markers=markers or [], path=path)

    def close(self) -> None:
        """Stop the browser and the tile pipeline if they were started."""
        while self._closers:
            self._closers.pop()()
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None
        close = getattr(self._tiles, "close", None)
        if callable(close):
            close()
        self._tiles = None
