"""Who may drive where: car access of ways, barriers on nodes, which restrictions apply.

The rules are those of a private car, decided from OSM tags alone (pure functions):

* **Ways.** The most specific of ``motorcar``, ``motor_vehicle``, ``vehicle`` and
  ``access`` that a way carries decides (``vehicle=no`` + ``bus=yes`` is a bus-only way:
  closed to cars). Values in :data:`DENIED_VALUES` close the way, values in
  :data:`DESTINATION_VALUES` make it destination-only (no through traffic), anything
  else (``yes``, ``designated``, ``permissive``, unknown values) leaves it open. A
  ``<key>:conditional`` tag (``motor_vehicle:conditional=no @ (Mo-Fr 07:00-09:00)``)
  is treated as always in force when it is stricter: a map shows no clock.
* **Barriers.** A node tagged ``barrier`` in :data:`BLOCKING_BARRIERS` stops cars;
  :data:`OPENABLE_BARRIERS` (gates) let them through; either is overridden by the
  node's own access tags, read like a way's (``barrier=gate`` + ``access=private``
  stops cars, ``barrier=bollard`` + ``motor_vehicle=yes`` does not).
* **Turn restrictions.** ``restriction:motorcar``, then ``restriction:motor_vehicle``,
  then ``restriction`` (and their ``:conditional`` forms, always in force) give the
  restriction for a car; ``except`` naming ``motorcar`` or ``motor_vehicle`` exempts
  cars.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Access keys from the most to the least specific, for a private car.
ACCESS_KEYS: tuple[str, ...] = ("motorcar", "motor_vehicle", "vehicle", "access")
#: Access values that close a way (or a barrier) to a private car.
DENIED_VALUES: frozenset[str] = frozenset({
    "no", "private", "agricultural", "forestry", "delivery", "customers", "permit",
    "emergency", "military", "psv", "bus", "use_sidepath", "residents", "restricted",
    "unknown",
})
#: Access values that allow a car only to reach or leave a place on the way.
DESTINATION_VALUES: frozenset[str] = frozenset({"destination"})
#: Car access of a way or node: open, destination-only, or closed.
OPEN, DESTINATION, CLOSED = "yes", "destination", "no"

#: ``barrier=*`` values that stop a car unless the node's access tags open it.
BLOCKING_BARRIERS: frozenset[str] = frozenset({
    "bollard", "block", "jersey_barrier", "chain", "rope", "log", "fence", "wall",
    "kissing_gate", "stile", "turnstile", "full-height_turnstile", "cycle_barrier",
    "motorcycle_barrier", "bus_trap", "car_trap", "sump_buster", "planter", "debris",
    "barrier_board", "horse_stile", "hampshire_gate", "spikes", "ditch", "kerb",
    "yes", "swing_gate_pedestrian",
})
#: ``barrier=*`` values a car passes unless the node's access tags close it (gates
#: are opened, as OSRM and Routino assume).
OPENABLE_BARRIERS: frozenset[str] = frozenset({
    "gate", "lift_gate", "swing_gate", "sliding_gate", "toll_booth", "border_control",
    "cattle_grid", "entrance", "height_restrictor", "sally_port", "no", "checkpoint",
})
#: Restriction keys for a private car, from the most specific.
RESTRICTION_KEYS: tuple[str, ...] = (
    "restriction:motorcar", "restriction:motor_vehicle", "restriction",
)
#: Transport modes in ``except=*`` that exempt a private car.
CAR_MODES: frozenset[str] = frozenset({"motorcar", "motor_vehicle", "vehicle"})


def _condition_value(value: str) -> str:
    """The value of a ``*:conditional`` tag (the part before ``@``), lower case.

    Examples
    --------
    >>> _condition_value("no @ (Mo-Fr 07:00-09:00)")
    'no'
    >>> _condition_value("no_left_turn @ (22:00-06:00); only_straight_on @ wet")
    'no_left_turn'
    """
    return value.split("@", 1)[0].strip().lower()


def _classify(value: str) -> str:
    value = value.strip().lower()
    if value in DENIED_VALUES:
        return CLOSED
    if value in DESTINATION_VALUES:
        return DESTINATION
    return OPEN


_RANK = {OPEN: 0, DESTINATION: 1, CLOSED: 2}


def car_access(tags: Mapping[str, str]) -> str:
    """Car access from a way's (or a node's) access tags.

    Parameters
    ----------
    tags : mapping
        OSM tags.

    Returns
    -------
    str
        :data:`OPEN` (``"yes"``), :data:`DESTINATION` (``"destination"``) or
        :data:`CLOSED` (``"no"``): the most specific key present decides, and a
        stricter ``<key>:conditional`` value of that key or a more specific one
        applies as if always in force.

    Examples
    --------
    >>> car_access({"highway": "residential"})
    'yes'
    >>> car_access({"vehicle": "no", "bus": "yes"})
    'no'
    >>> car_access({"access": "no", "motor_vehicle": "yes"})
    'yes'
    >>> car_access({"motor_vehicle": "destination"})
    'destination'
    >>> car_access({"motor_vehicle:conditional": "no @ (Mo-Fr 07:00-09:00)"})
    'no'
    """
    result = OPEN
    for key in ACCESS_KEYS:
        if key in tags:
            result = _classify(tags[key])
            break
    for key in ACCESS_KEYS:
        cond = tags.get(f"{key}:conditional")
        if cond:
            stricter = _classify(_condition_value(cond))
            if _RANK[stricter] > _RANK[result]:
                result = stricter
    return result


def barrier_blocks(tags: Mapping[str, str]) -> bool:
    """Whether a barrier node stops a private car.

    Parameters
    ----------
    tags : mapping
        The node's tags (with ``barrier``).

    Returns
    -------
    bool
        True for a :data:`BLOCKING_BARRIERS` value unless the node's access tags open
        it to cars, and for any barrier whose access tags close it (a gate with
        ``access=private``); barrier values in neither list block unless opened.

    Examples
    --------
    >>> barrier_blocks({"barrier": "bollard"})
    True
    >>> barrier_blocks({"barrier": "bollard", "motor_vehicle": "yes"})
    False
    >>> barrier_blocks({"barrier": "gate"})
    False
    >>> barrier_blocks({"barrier": "gate", "access": "private"})
    True
    """
    kind = tags.get("barrier", "").strip().lower()
    explicit = any(k in tags or f"{k}:conditional" in tags for k in ACCESS_KEYS)
    if explicit:
        return car_access(tags) == CLOSED
    return kind not in OPENABLE_BARRIERS


def car_restriction(tags: Mapping[str, str]) -> str | None:
    """The restriction a relation puts on a private car, or None.

    Parameters
    ----------
    tags : mapping
        Tags of a ``type=restriction`` relation.

    Returns
    -------
    str or None
        ``"no_left_turn"``, ``"only_straight_on"``, ... (lower case); None when the
        relation does not apply to cars (another mode's key only, or ``except``
        names cars) or has no ``no_*``/``only_*`` value. A ``:conditional`` form is
        taken as always in force.

    Examples
    --------
    >>> car_restriction({"type": "restriction", "restriction": "no_left_turn"})
    'no_left_turn'
    >>> car_restriction({"restriction": "no_left_turn", "except": "bicycle;motorcar"}) is None
    True
    >>> car_restriction({"restriction:hgv": "no_right_turn"}) is None
    True
    >>> car_restriction({"restriction:conditional": "no_u_turn @ (Mo-Fr 07:00-09:00)"})
    'no_u_turn'
    """
    exempt = {m.strip().lower() for m in tags.get("except", "").split(";")}
    if exempt & CAR_MODES:
        return None
    for key in RESTRICTION_KEYS:
        for k, parse in ((key, str.lower), (f"{key}:conditional", _condition_value)):
            value = tags.get(k)
            if value:
                value = parse(value.strip())
                if value.startswith(("no_", "only_")):
                    return value
    return None


#: ``highway=*`` values a car may drive on.
DRIVABLE_HIGHWAYS: frozenset[str] = frozenset(
    {
        "motorway", "motorway_link", "trunk", "trunk_link", "primary", "primary_link",
        "secondary", "secondary_link", "tertiary", "tertiary_link", "unclassified",
        "residential", "living_street", "service", "road",
    }
)
#: ``service=*`` values that make a ``highway=service`` way not part of the road network.
EXCLUDED_SERVICE: frozenset[str] = frozenset(
    {"parking_aisle", "driveway", "drive-through", "emergency_access", "private"}
)


def is_drivable(tags: Mapping[str, str], *, access: bool = True) -> bool:
    """Whether a way with these tags belongs to the drivable road network.

    Parameters
    ----------
    tags : mapping
        The way's OSM tags.
    access : bool, optional
        Apply the access tags (:func:`groundtruth.access.car_access`); with False,
        only the road class decides (the network as a reader who ignores access
        signs sees it).

    Returns
    -------
    bool
        True for a :data:`DRIVABLE_HIGHWAYS` class that is not an area, not closed
        to private cars (unless ``access=False``), not reversible and not an excluded
        service road. Destination-only ways are drivable.

    Examples
    --------
    >>> is_drivable({"highway": "residential"})
    True
    >>> is_drivable({"highway": "footway"})
    False
    >>> is_drivable({"highway": "service", "service": "parking_aisle"})
    False
    >>> is_drivable({"highway": "primary", "motor_vehicle": "no"})
    False
    >>> is_drivable({"highway": "service", "vehicle": "no", "bus": "yes"})
    False
    >>> is_drivable({"highway": "service", "vehicle": "no", "bus": "yes"}, access=False)
    True
    """
    if tags.get("highway") not in DRIVABLE_HIGHWAYS:
        return False
    if tags.get("area") == "yes":
        return False
    if tags.get("highway") == "service" and tags.get("service") in EXCLUDED_SERVICE:
        return False
    if access and car_access(tags) == CLOSED:
        return False
    return tags.get("oneway") not in {"reversible", "alternating"}
