"""OSM-Carto tiles (256 px, zoom 15-19) rendered with Mapnik and cached on disk.

Tiles live in ``<cache_dir>/tiles/<extract sha256[:12]>/<style version>/<z>/<x>/<y>.png``
and are written atomically (a temporary file renamed into place), so a killed run
leaves only whole tiles. Only missing tiles are rendered. They are rendered a metatile
at a time (an aligned block of ``metatile`` x ``metatile`` tiles, always the whole
block, so a tile's pixels never depend on which other tiles were asked for) and cut.
Labels never cross a metatile's edge (they are left out there instead of being cut).
"""

from __future__ import annotations

import math
import sys
from collections import OrderedDict, defaultdict
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from groundtruth.extracts import Extract
from groundtruth.projection import (
    TILE_SIZE,
    View,
    tile_bounds,
    world_size_px,
)
from renderers.errors import RenderError
from renderers.files import write_atomic
from renderers.label_marks import (
    keep_layers,
    mark_label_rules,
    mark_variables,
    placement_layers,
)
from renderers.osm_import import IMPORT_VERSION, ensure_imported, imported_bounds
from renderers.postgis import DB_SUPERUSER, SERVER_SETTINGS_VERSION, PostgisCluster
from renderers.style import CARTO_DIR, carto_file, load_carto_map, style_version

#: Zoom levels tiles are rendered for.
MIN_ZOOM = 15
MAX_ZOOM = 19
#: Half the Web Mercator world width in metres.
_HALF_WORLD_M = math.pi * 6378137.0
#: Pixels of map data fetched around each rendered box (features just outside it).
BUFFER_PX = 128
#: Default metatile edge, in tiles.
METATILE = 8
#: Mapnik's encoding of the cached tiles: RGBA PNG at zlib level 1. The pixels are those
#: of the default level (6); encoding takes about half the time (7.6 -> 4.1 ms a tile,
#: a quarter of a cold city's tile rendering) for files about 15 % larger. Images that
#: leave the renderer (``render_image``) keep Mapnik's default.
TILE_PNG_FORMAT = "png32:z=1"
#: How many databases' maps this process keeps (:data:`_LOADED_MAPS`).
MAPS_KEPT = 2
#: Maps loaded in this process, by :meth:`TileRenderer._maps_key` (database, server
#: run, style assets), the most recently used last: ``[full map, road-name map or
#: None]``. A renderer of the same key, later in this process (the next city of a
#: ``build-many`` worker, the next build of a long-lived process) or in a process
#: forked from it (a ``--workers`` builder's workers, see
#: :meth:`TileRenderer.load_ahead`), takes them instead of loading its own: about 1.5
#: CPU s each, the server's included. A new server run is a new key, so no map reaches
#: a server through connections pooled for an earlier run.
_LOADED_MAPS: OrderedDict[tuple[str, ...], list[Any]] = OrderedDict()


def forget_loaded_maps() -> None:
    """Drop the maps this process keeps (renderers holding them keep them)."""
    _LOADED_MAPS.clear()


def _keep_maps(key: tuple[str, ...], full: Any, marked: Any) -> None:
    """Keep ``full`` and ``marked`` under ``key`` (the oldest key goes beyond
    :data:`MAPS_KEPT`)."""
    _LOADED_MAPS[key] = [full, marked]
    _LOADED_MAPS.move_to_end(key)
    while len(_LOADED_MAPS) > MAPS_KEPT:
        _LOADED_MAPS.popitem(last=False)


def global_px_to_mercator(x: float, y: float, zoom: int) -> tuple[float, float]:
    """Convert global pixel coordinates at a zoom to EPSG:3857 metres.

    Examples
    --------
    >>> global_px_to_mercator(128.0, 128.0, 0)
    (0.0, 0.0)
    >>> round(global_px_to_mercator(0.0, 0.0, 0)[1], 3)
    20037508.343
    """
    res = 2 * _HALF_WORLD_M / world_size_px(zoom)
    return x * res - _HALF_WORLD_M, _HALF_WORLD_M - y * res


def metatile_of(tile: tuple[int, int, int], size: int) -> tuple[int, int, int]:
    """Return the ``(z, mx, my)`` metatile holding a tile.

    Examples
    --------
    >>> metatile_of((17, 74534, 37923), 8)
    (17, 9316, 4740)
    """
    z, x, y = tile
    return z, x // size, y // size


def metatile_tiles(meta: tuple[int, int, int], size: int) -> list[tuple[int, int, int]]:
    """All tiles of a metatile, clipped to the world, in row-major order.

    Examples
    --------
    >>> metatile_tiles((1, 0, 0), 4)
    [(1, 0, 0), (1, 1, 0), (1, 0, 1), (1, 1, 1)]
    """
    z, mx, my = meta
    n = 2**z
    xs = range(mx * size, min(n, (mx + 1) * size))
    ys = range(my * size, min(n, (my + 1) * size))
    return [(z, x, y) for y in ys for x in xs]


def check_zoom(zoom: int) -> None:
    """Raise :class:`RenderError` unless ``zoom`` is an integer from 15 to 19."""
    if isinstance(zoom, bool) or not isinstance(zoom, int) or not MIN_ZOOM <= zoom <= MAX_ZOOM:
        raise RenderError(f"zoom {zoom!r} is outside {MIN_ZOOM}-{MAX_ZOOM}",
                          f"choose a zoom from {MIN_ZOOM} to {MAX_ZOOM}")


def box_overlaps(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float]
) -> bool:
    """Whether two ``(south, west, north, east)`` boxes overlap.

    Examples
    --------
    >>> box_overlaps((0, 0, 1, 1), (0.5, 0.5, 2, 2)), box_overlaps((0, 0, 1, 1), (2, 2, 3, 3))
    (True, False)
    """
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def mapnik_rgba(image: Any) -> NDArray[np.uint8]:
    """The pixels of a ``mapnik.Image`` as ``(h, w, 4)`` uint8 RGBA, straight alpha.

    Mapnik renders with premultiplied alpha and its PNG writer demultiplies a copy
    before encoding; this demultiplies the image itself (with the same function), so
    the array equals the decoded PNG pixel for pixel.
    """
    if image.premultiplied():
        image.demultiply()
    raw = image.to_string()
    return np.frombuffer(raw, dtype=np.uint8).reshape(image.height(), image.width(), 4)


class TileRenderer:
    """Renders and caches OSM-Carto tiles of one extract.

    The database cluster is started, the extract imported and the style loaded on
    first need (or by :meth:`start`); cached tiles need none of them. As a context
    manager it calls :meth:`close` on exit, which stops the cluster when it was started
    and no other process uses it.

    Parameters
    ----------
    extract : groundtruth.extracts.Extract
        The extract to draw.
    cache_dir : pathlib.Path
        Cache root (cluster in ``postgis/``, tiles in ``tiles/``).
    metatile : int, optional
        Metatile edge in tiles (1 renders tile by tile).
    workers : int, optional
        Processes that render in parallel when many metatiles are missing (each loads
        the style once, about 1.5 s); 1 renders in this process only.

    Attributes
    ----------
    style_version : str
        OSM-Carto package version, ``style.xml`` checksum, cartoqa's style patch and
        import recipe versions, e.g. ``"5.7.0-1_785dd384_cq2_imp1"``.
    tile_dir : pathlib.Path
        ``<cache_dir>/tiles/<sha256[:12]>/<style_version>``.
    cluster : renderers.postgis.PostgisCluster
        The database cluster (started on first need).
    tiles_rendered : int
        Tiles written by this object so far (whole metatiles count).
    """

    def __init__(
        self, extract: Extract, *, cache_dir: Path, metatile: int = METATILE, workers: int = 1
    ) -> None:
        if metatile < 1:
            raise ValueError("metatile must be at least 1")
        if workers < 1:
            raise ValueError("workers must be at least 1")
        self.extract = extract
        self.cache_dir = Path(cache_dir).expanduser().resolve()
        self.metatile = metatile
        self.workers = workers
        #: Style, import recipe and server settings of the tiles (part of their cache
        #: path).
        self.style_version: str = (f"{style_version()}_imp{IMPORT_VERSION}"
                                   f"_srv{SERVER_SETTINGS_VERSION}")
        self.tile_dir = self.cache_dir / "tiles" / extract.short_id / self.style_version
        self.cluster = PostgisCluster(self.cache_dir)
        self._database: str | None = None
        self._map: Any = None
        self._marked_map: Any = None
        self._bounds: tuple[float, float, float, float] | None = extract.bounds
        self.tiles_rendered = 0

    # -- public API ----------------------------------------------------------------

    @property
    def assets_dir(self) -> Path:
        """The style's replacement SVGs (:func:`renderers.style.write_style_assets`)."""
        return self.cache_dir / "style-assets" / self.style_version

    @property
    def url_template(self) -> str:
        """A ``file:///…/{z}/{x}/{y}.png`` template Leaflet can load."""
        return self.tile_dir.as_uri() + "/{z}/{x}/{y}.png"

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(south, west, north, east)`` of the extract (imports it when its file has none)."""
        if self._bounds is None:
            self._bounds = imported_bounds(self.cluster, self._prepare_database())
        return self._bounds

    def tile_path(self, z: int, x: int, y: int) -> Path:
        """Return where tile ``z/x/y`` is (or will be) cached."""
        return self.tile_dir / str(z) / str(x) / f"{y}.png"

    def check_view(self, view: View) -> None:
        """Raise :class:`RenderError` for a zoom outside 15-19 or a centre outside the extract.

        Parameters
        ----------
        view : groundtruth.projection.View
            The view about to be drawn.
        """
        check_zoom(view.zoom)
        self._check_centre(view.center)

    def ensure_tiles(self, tiles: Iterable[tuple[int, int, int]], progress: bool = False) -> None:
        """Render the tiles that are not cached yet.

        Parameters
        ----------
        tiles : iterable of (z, x, y)
            Tiles wanted, zoom 15-19.
        progress : bool, optional
            Show a progress bar on standard error.

        Raises
        ------
        RenderError
            For a zoom outside 15-19, tiles that all lie outside the extract, or a
            failure of the cluster, the import or Mapnik.
        """
        wanted = sorted(set(tiles))
        if not wanted:
            return
        for z, _, _ in wanted:
            check_zoom(z)
        for z, x, y in wanted:
            n = 2**z
            if not (0 <= x < n and 0 <= y < n):
                raise RenderError(f"tile {z}/{x}/{y} does not exist",
                                  f"x and y run from 0 to {n - 1} at zoom {z}")
        missing = [t for t in wanted if not self.tile_path(*t).is_file()]
        if not missing:
            return
        if not any(box_overlaps(tile_bounds(*t), self.bounds) for t in wanted):
            s, w, n_, e = self.bounds
            raise RenderError(
                f"the requested map area lies outside the extract {self.extract.name} "
                f"(lat {s:.5f}..{n_:.5f}, lon {w:.5f}..{e:.5f})",
                "choose a centre inside the extract",
            )
        metas: dict[tuple[int, int, int], list[tuple[int, int, int]]] = defaultdict(list)
        for tile in missing:
            metas[metatile_of(tile, self.metatile)].append(tile)
        order = sorted(metas)
        bar: Any = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=sum(len(metatile_tiles(m, self.metatile)) for m in order),
                       unit="tile", desc="tiles", file=sys.stderr)
        try:
            if self.workers > 1 and len(order) >= 2 * self.workers:
                self._prepare_database()
                self._render_in_workers(order, bar)
            else:
                self.start()
                for meta in order:
                    done = self._render_metatile(meta)
                    if bar is not None:
                        bar.update(done)
        finally:
            if bar is not None:
                bar.close()

    def render_image(
        self,
        *,
        center: tuple[float, float],
        zoom: int,
        width: int,
        height: int,
        exclude_layers: Collection[str] = (),
    ) -> bytes:
        """Render any box of the extract to a 32-bit PNG (not cached).

        The arguments and errors are those of :meth:`render_pixels`, which returns the
        same pixels undecoded.
        """
        return bytes(self._image(center=center, zoom=zoom, width=width, height=height,
                                 exclude_layers=exclude_layers).to_string("png32"))

    def render_pixels(
        self,
        *,
        center: tuple[float, float],
        zoom: int,
        width: int,
        height: int,
        exclude_layers: Collection[str] = (),
    ) -> NDArray[np.uint8]:
        """Render any box of the extract to RGBA pixels (not cached).

        The pixels :meth:`render_image` writes to its PNG (straight alpha), without
        encoding them: a caller that analyses the pixels spares the PNG encoding
        (about 50 ms for a 1366 x 768 view) and its decoding.

        Parameters
        ----------
        center : tuple of float
            ``(lat, lon)`` of the image centre; must lie inside the extract.
        zoom : int
            Zoom level, 0-22.
        width, height : int
            Image size in pixels (1-8192).
        exclude_layers : collection of str, optional
            OSM-Carto layer names to leave out of this image.

        Returns
        -------
        numpy.ndarray
            ``(height, width, 4)`` uint8 RGBA.

        Raises
        ------
        RenderError
            For a bad zoom or size, or a centre outside the extract.
        """
        return mapnik_rgba(self._image(center=center, zoom=zoom, width=width, height=height,
                                       exclude_layers=exclude_layers))

    def _image(
        self,
        *,
        center: tuple[float, float],
        zoom: int,
        width: int,
        height: int,
        exclude_layers: Collection[str] = (),
    ) -> Any:
        """Render any box of the extract to a ``mapnik.Image`` (not cached).

        The box is placed as Leaflet places a map of that size at that centre
        (:class:`groundtruth.projection.View`), so its pixels line up with tiles.

        Parameters
        ----------
        center : tuple of float
            ``(lat, lon)`` of the image centre; must lie inside the extract.
        zoom : int
            Zoom level, 0-22.
        width, height : int
            Image size in pixels (1-8192).
        exclude_layers : collection of str, optional
            OSM-Carto layer names (``style.xml``'s ``<Layer name=…>``, e.g.
            ``"text-point"``, ``"amenity-points"``) to leave out of this image.

        Returns
        -------
        mapnik.Image
            The rendered image (premultiplied alpha).

        Raises
        ------
        RenderError
            For a bad zoom or size, or a centre outside the extract.
        """
        if isinstance(zoom, bool) or not isinstance(zoom, int) or not 0 <= zoom <= 22:
            raise RenderError(f"zoom {zoom!r} is outside 0-22", "choose a zoom from 0 to 22")
        if not (0 < width <= 8192 and 0 < height <= 8192):
            raise RenderError(f"image size {width}x{height} is not between 1 and 8192 pixels")
        self._check_centre(center)
        view = View(center=center, zoom=zoom, width=width, height=height)
        ox, oy = view.origin_px
        self.start()
        layers = [layer for layer in self._map.layers if layer.name in set(exclude_layers)]
        saved = [layer.active for layer in layers]
        for layer in layers:
            layer.active = False
        try:
            return self._draw(zoom, ox, oy, width, height)
        finally:
            for layer, active in zip(layers, saved, strict=True):
                layer.active = active

    def render_label_marks(
        self,
        *,
        center: tuple[float, float],
        zoom: int,
        width: int,
        height: int,
        names: Sequence[str],
        pad: int = 0,
    ) -> bytes:
        """:meth:`render_label_marks_pixels` as a 32-bit PNG (same arguments)."""
        return bytes(self._marks_image(center=center, zoom=zoom, width=width, height=height,
                                       names=names, pad=pad).to_string("png32"))

    def render_label_marks_pixels(
        self,
        *,
        center: tuple[float, float],
        zoom: int,
        width: int,
        height: int,
        names: Sequence[str],
        pad: int = 0,
    ) -> NDArray[np.uint8]:
        """Render where Mapnik writes ``names`` around a view, each name in its colour.

        The view and a band of ``pad`` pixels around it are drawn with the tiles' style
        and buffer, only the layers that take part in label placement
        (:func:`renderers.label_marks.placement_layers`) in the map, and the labels
        named in ``names`` filled with :data:`renderers.label_marks.MARK_COLOURS`
        (``names[k]`` in colour *k*). Placement does not depend on the colour, but the
        tiles were drawn a metatile at a time, so near a metatile's edge a label may
        sit elsewhere (or nowhere) on the tiles: whoever reads the marks checks them
        against the screenshot (:mod:`cartoqa.visibility.written`). Drawing the box
        costs about a fifth of drawing the metatiles under it.

        Parameters
        ----------
        center : tuple of float
            ``(lat, lon)`` of the view centre (as for :meth:`render_image`).
        zoom : int
            Zoom level, 15-19.
        width, height : int
            View size in pixels.
        names : sequence of str
            Names to mark, at most :data:`renderers.label_marks.MARK_SLOTS`.
        pad : int, optional
            Pixels added on every side of the view (labels running off it show there).

        Returns
        -------
        numpy.ndarray
            ``(height + 2 pad, width + 2 pad, 4)`` uint8 RGBA (straight alpha, the
            pixels :meth:`render_label_marks` encodes); pixel ``(pad, pad)`` is the
            view's top-left pixel; transparent where nothing that takes part in
            placement is drawn.
        """
        return mapnik_rgba(self._marks_image(center=center, zoom=zoom, width=width,
                                             height=height, names=names, pad=pad))

    def _marks_image(self, *, center: tuple[float, float], zoom: int, width: int,
                     height: int, names: Sequence[str], pad: int) -> Any:
        """The ``mapnik.Image`` of :meth:`render_label_marks_pixels`."""
        import mapnik

        check_zoom(zoom)
        self._check_centre(center)
        variables = mark_variables(list(names))
        self._load_marked_map()
        view = View(center=center, zoom=zoom, width=width, height=height)
        ox, oy = view.origin_px
        w, h = width + 2 * pad, height + 2 * pad
        m = self._marked_map
        m.resize(w, h)
        bx0, by1 = global_px_to_mercator(ox - pad, oy - pad, zoom)
        bx1, by0 = global_px_to_mercator(ox - pad + w, oy - pad + h, zoom)
        m.zoom_to_box(mapnik.Box2d(bx0, by0, bx1, by1))
        image = mapnik.Image(w, h)
        try:
            mapnik.render_with_vars(m, image, variables)
        except RuntimeError as exc:
            raise RenderError(f"Mapnik could not render the map at zoom {zoom}: {exc}",
                              f"see {self.cluster.log_path}") from exc
        return image

    def _load_marked_map(self) -> None:
        """Load the road-name map (OSM-Carto's placement layers, text rules marked; see
        :mod:`renderers.label_marks`) once, after the full map."""
        if self._marked_map is not None:
            return
        self.start()
        if self._marked_map is not None:  # loaded before, with the full map (see start)
            return
        xml = carto_file("style.xml", carto_dir=CARTO_DIR).read_text(encoding="utf-8")
        layers = placement_layers(xml)
        # Only the placement layers are drawn: the others are left out of the map
        # (same pixels as switching them off); those drawn read through the full
        # map's datasources (the same queries), so loading opens no connections.
        params = self._pg_params()
        marked: Any = load_carto_map(
            dbname=self._database or "",
            pg_params=params,
            assets_dir=self.assets_dir,
            transform=lambda patched: mark_label_rules(
                keep_layers(patched, layers)),
            datasources_from=self._map,
        )
        marked.buffer_size = BUFFER_PX
        if {str(layer.name) for layer in marked.layers} != layers:
            raise RenderError("the marked map lost or kept a layer it should not",
                              "report this as a bug in renderers.label_marks")
        self._marked_map = marked
        _keep_maps(self._maps_key(params), self._map, marked)

    @property
    def layer_names(self) -> list[str]:
        """Names of the style's layers, in drawing order (loads the style)."""
        self.start()
        return [str(layer.name) for layer in self._map.layers]

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> None:
        """Start the cluster, import the extract and load the style (each once).

        Raises
        ------
        RenderError
            If PostgreSQL, osm2pgsql, OSM-Carto, its fonts or Mapnik fail or are missing.
        """
        if self._map is not None:
            return
        database = self._prepare_database()
        params = self._pg_params()
        key = self._maps_key(params)
        loaded = _LOADED_MAPS.get(key)
        if loaded is not None:  # loaded before in this process, or in the one it forked from
            _LOADED_MAPS.move_to_end(key)
            self._map, self._marked_map = loaded
            return
        self._map = load_carto_map(dbname=database, pg_params=params, assets_dir=self.assets_dir)
        self._map.buffer_size = BUFFER_PX
        _keep_maps(key, self._map, None)

    def load_ahead(self, *, road_names: bool = True) -> None:
        """Load the maps now, for the renderers of the same database in this process and
        in the processes forked from it (a ``--workers`` builder's workers), which then
        load none (about 1.5 CPU s each, server included for both).

        Mapnik closes the connection it opens for each layer as it loads a style, so
        that a process may fork after loading; nothing is rendered here, so no
        connection is open when the caller forks (each process opens its own at its
        first render). The maps stay in :data:`_LOADED_MAPS` (see
        :func:`forget_loaded_maps`).

        Parameters
        ----------
        road_names : bool, optional
            Load the road-name map too (else only OSM-Carto; the road-name map is then
            loaded by each process at its first marked render).

        Raises
        ------
        RenderError
            As :meth:`start`.
        """
        self.start()
        if road_names:
            self._load_marked_map()

    def _pg_params(self) -> dict[str, str]:
        """The maps' connection parameters (the database is prepared)."""
        env = self.cluster.env(self._database or "")
        # Mapnik keeps a connection pool per connection string for the life of the
        # process; a server started again (after a stop, or a crash) must not be reached
        # through connections pooled for the previous run. The connection timeout is part
        # of that string, so it carries a number unique to the server run (it is otherwise
        # unused: a unix socket connects at once or fails at once).
        timeout = 60 + self.cluster.server_run_id() % 100_000
        return {"host": env["PGHOST"], "port": env["PGPORT"], "user": DB_SUPERUSER,
                "connect_timeout": str(timeout)}

    def _maps_key(self, params: dict[str, str]) -> tuple[str, ...]:
        """What the maps read (``params``: :meth:`_pg_params`) and draw with: database,
        server run, style assets."""
        return (self._database or "", *(f"{k}={params[k]}" for k in sorted(params)),
                str(self.assets_dir))

    def _prepare_database(self) -> str:
        """Start the cluster and import the extract (each once); return the database."""
        if self._database is None:
            self.cluster.start()
            self._database = ensure_imported(self.cluster, self.extract)
        return self._database

    def close(self) -> None:
        """Drop the loaded style and leave the cluster (stopping it if no one else uses it)."""
        self._map = None
        self._marked_map = None
        self._database = None
        self.cluster.stop()  # a no-op when this object never started it

    def __enter__(self) -> TileRenderer:
        # Nothing starts here: the cluster, import and style load wait for the first
        # tile or image that is not cached, so views of cached tiles need no database.
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # -- internals -----------------------------------------------------------------

    def _check_centre(self, center: tuple[float, float]) -> None:
        lat, lon = center
        s, w, n, e = self.bounds
        if not (s <= lat <= n and w <= lon <= e):
            raise RenderError(
                f"the view centre ({lat:.6f}, {lon:.6f}) lies outside the extract "
                f"{self.extract.name} (lat {s:.5f}..{n:.5f}, lon {w:.5f}..{e:.5f})",
                "choose a centre inside the extract",
            )

    def _draw(self, zoom: int, ox: float, oy: float, width: int, height: int) -> Any:
        """Render the box with top-left global pixel ``(ox, oy)`` to a ``mapnik.Image``."""
        import mapnik

        self.start()
        m = self._map
        m.resize(width, height)
        x0, y1 = global_px_to_mercator(ox, oy, zoom)
        x1, y0 = global_px_to_mercator(ox + width, oy + height, zoom)
        m.zoom_to_box(mapnik.Box2d(x0, y0, x1, y1))
        image = mapnik.Image(width, height)
        try:
            mapnik.render(m, image)
        except RuntimeError as exc:
            raise RenderError(f"Mapnik could not render the map at zoom {zoom}: {exc}",
                              f"see {self.cluster.log_path}") from exc
        return image

    def _render_in_workers(self, metas: list[tuple[int, int, int]], bar: Any) -> None:
        """Render metatiles in worker processes (spawned: Mapnik's connections don't fork)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        chunks = [metas[i::self.workers * 4] for i in range(self.workers * 4)]
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=self.workers, mp_context=context) as pool:
            futures = [
                pool.submit(_render_metatiles, self.extract, self.cache_dir, self.metatile, chunk)
                for chunk in chunks if chunk
            ]
            for future in as_completed(futures):
                done = future.result()
                self.tiles_rendered += done
                if bar is not None:
                    bar.update(done)

    def _render_metatile(self, meta: tuple[int, int, int]) -> int:
        """Render one whole metatile and write its tiles; return how many."""
        tiles = metatile_tiles(meta, self.metatile)
        z = meta[0]
        tx0 = min(t[1] for t in tiles)
        ty0 = min(t[2] for t in tiles)
        width = (max(t[1] for t in tiles) + 1 - tx0) * TILE_SIZE
        height = (max(t[2] for t in tiles) + 1 - ty0) * TILE_SIZE
        image = self._draw(z, tx0 * TILE_SIZE, ty0 * TILE_SIZE, width, height)
        for _, x, y in tiles:
            view = image.view((x - tx0) * TILE_SIZE, (y - ty0) * TILE_SIZE, TILE_SIZE, TILE_SIZE)
            write_atomic(self.tile_path(z, x, y), bytes(view.to_string(TILE_PNG_FORMAT)))
        self.tiles_rendered += len(tiles)
        return len(tiles)


_WORKER_RENDERERS: dict[tuple[str, Path, int], TileRenderer] = {}


def _render_metatiles(
    extract: Extract, cache_dir: Path, metatile: int, metas: list[tuple[int, int, int]]
) -> int:
    """Worker-process entry: render metatiles with a renderer kept for the process's life."""
    key = (extract.sha256, cache_dir, metatile)
    renderer = _WORKER_RENDERERS.get(key)
    if renderer is None:
        renderer = TileRenderer(extract, cache_dir=cache_dir, metatile=metatile)
        _WORKER_RENDERERS[key] = renderer
    return sum(renderer._render_metatile(meta) for meta in metas)


__all__ = ["MAX_ZOOM", "MIN_ZOOM", "TileRenderer"]
