"""Map ground truth computed from OpenStreetMap data.

Pure functions over OSM data: no database, no browser, no network. This package
imports neither :mod:`renderers` nor :mod:`cartoqa`.

Modules (import the one you need; ``import groundtruth`` alone loads nothing heavy):

* :mod:`groundtruth.extracts` -- bundled names and extract files, with checksums
* :mod:`groundtruth.graph` -- the directed drivable road graph of an extract
* :mod:`groundtruth.osmnx_graph` -- graphs built by osmnx, completed for every function
* :mod:`groundtruth.routing` -- shortest drivable routes and their lengths
* :mod:`groundtruth.turns` -- turn-by-turn SRN steps and the connectivity check
* :mod:`groundtruth.junctions` -- road names at junctions, two-road junctions
* :mod:`groundtruth.features` -- the 22 map-feature types and what a view shows
* :mod:`groundtruth.catalogue` -- the feature catalogue (``assets/feature_types.json``)
* :mod:`groundtruth.projection` -- Web Mercator pixels, views and tiles
* :mod:`groundtruth.distance` -- geodesic and haversine distances, feet
* :mod:`groundtruth.bearings` -- bearings of road geometry
* :mod:`groundtruth.named_features` -- named polygons, lines and points (FRIEDA)
* :mod:`groundtruth.relations` -- border, equal, intersect, within, distance,
  orientation, measured on the ground with margins
* :mod:`groundtruth.relation_pairs` -- every pair of features with a clear relation

Examples
--------
>>> from groundtruth import graph, routing, turns
>>> from groundtruth.assets import asset_path
>>> g = graph.load_road_graph(asset_path("osm", "grid.osm"))
>>> turns.route_steps(g, routing.shortest_route(g, 23, 21))  # doctest: +NORMALIZE_WHITESPACE
['blue', 'make a U-turn and continue straight', 'East Avenue', 'turn right',
 'South Street', 'turn right', 'West Avenue', 'red']
"""

__version__ = "0.1.0"
