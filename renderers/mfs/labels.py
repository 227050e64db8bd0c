"""Everyday names for catalogue features.

The default name is the symbol's file stem (symbols) or the tag value (lines, areas) in
words; :data:`LABELS` overrides it where that is not what a map reader would say.
"""

from __future__ import annotations

#: Everyday names keyed by ``"<category>:<key>=<value>"`` of the class tag, or by
#: ``"symbol:<stem>"`` for a symbol file.
LABELS: dict[str, str] = {
    "symbol:atm": "ATM",
    "symbol:bbq": "barbecue",
    "symbol:entrance": "subway entrance",
    "symbol:excrement_bags": "dog waste bags",
    "symbol:ferry": "ferry terminal",
    "symbol:firestation": "fire station",
    "symbol:fuel": "fuel station",
    "symbol:doctors": "doctor",
    "symbol:parking_entrance_multistorey": "multi-storey car park entrance",
    "symbol:parking_entrance_underground": "underground car park entrance",
    "symbol:parking_subtle": "street-side parking",
    "symbol:parking_tickets": "parking ticket machine",
    "symbol:public_transport_tickets": "public transport ticket machine",
    "symbol:rental_bicycle": "bicycle rental",
    "symbol:rental_car": "car rental",
    "symbol:toilets": "public toilet",
    "symbol:level_crossing": "railway level crossing",
    "symbol:traffic_light": "traffic signals",
    "symbol:shrine": "wayside shrine",
    "symbol:stone": "memorial stone",
    "symbol:plaque": "blue plaque",
    "symbol:fitness": "fitness centre",
    "symbol:golf": "golf course",
    "symbol:golf_pin": "golf hole",
    "symbol:generator_wind": "wind turbine",
    "symbol:mast_communications": "communications mast",
    "symbol:mast_lighting": "lighting mast",
    "symbol:telescope_dish": "radio telescope",
    "symbol:telescope_dome": "optical telescope",
    "symbol:tower_cantilever_communication": "cantilever communication tower",
    "symbol:tower_cooling": "cooling tower",
    "symbol:tower_defensive": "defensive tower",
    "symbol:tower_dish": "dish communication tower",
    "symbol:tower_dome": "dome communication tower",
    "symbol:tower_generic": "tower",
    "symbol:tower_lattice": "lattice tower",
    "symbol:tower_lattice_communication": "lattice communication tower",
    "symbol:tower_lattice_lighting": "lattice lighting tower",
    "symbol:tower_lighting": "lighting tower",
    "symbol:tower_observation": "observation tower",
    "symbol:cross": "wayside cross",
    "symbol:cave": "cave entrance",
    "symbol:peak": "mountain peak",
    "symbol:saddle": "mountain saddle",
    "symbol:buddhist": "buddhist temple",
    "symbol:christian": "christian church",
    "symbol:hinduist": "hindu temple",
    "symbol:jewish": "synagogue",
    "symbol:muslim": "mosque",
    "symbol:shintoist": "shinto shrine",
    "symbol:sikhist": "sikh gurdwara",
    "symbol:taoist": "taoist temple",
    "symbol:alcohol": "liquor store",
    "symbol:art": "art shop",
    "symbol:bag": "bag shop",
    "symbol:beauty": "beauty shop",
    "symbol:bed": "bed shop",
    "symbol:beverages": "beverage store",
    "symbol:bicycle": "bicycle shop",
    "symbol:car": "car dealer",
    "symbol:car_parts": "car parts shop",
    "symbol:carpet": "carpet shop",
    "symbol:charity": "charity shop",
    "symbol:clothes": "clothes shop",
    "symbol:coffee": "coffee bean shop",
    "symbol:computer": "computer shop",
    "symbol:confectionery": "sweet shop",
    "symbol:convenience": "convenience store",
    "symbol:copyshop": "copy shop",
    "symbol:dairy": "dairy shop",
    "symbol:diy": "DIY store",
    "symbol:electronics": "electronics shop",
    "symbol:fabric": "fabric shop",
    "symbol:furniture": "furniture shop",
    "symbol:gift": "gift shop",
    "symbol:hifi": "hi-fi shop",
    "symbol:houseware": "houseware shop",
    "symbol:interior_decoration": "interior decoration shop",
    "symbol:jewelry": "jewellery shop",
    "symbol:massage": "massage parlour",
    "symbol:medical_supply": "medical supply shop",
    "symbol:mobile_phone": "mobile phone shop",
    "symbol:motorcycle": "motorcycle dealer",
    "symbol:music": "music shop",
    "symbol:musical_instrument": "musical instrument shop",
    "symbol:outdoor": "outdoor shop",
    "symbol:paint": "paint shop",
    "symbol:pet": "pet shop",
    "symbol:photo": "photo shop",
    "symbol:seafood": "fishmonger",
    "symbol:second_hand": "second-hand shop",
    "symbol:shoes": "shoe shop",
    "symbol:sports": "sports shop",
    "symbol:stationery": "stationery shop",
    "symbol:tea": "tea shop",
    "symbol:ticket": "ticket shop",
    "symbol:tobacco": "tobacconist",
    "symbol:toys": "toy shop",
    "symbol:trade": "wholesaler",
    "symbol:tyres": "tyre shop",
    "symbol:video": "video shop",
    "symbol:video_games": "video game shop",
    "symbol:alpinehut": "alpine hut",
    "symbol:board": "information board",
    "symbol:map": "information map",
    "symbol:office": "tourist information office",
    "symbol:terminal": "information terminal",
    "symbol:camping": "campsite",
    "symbol:picnic": "picnic table",
    "line:highway=primary": "primary road",
    "line:highway=secondary": "secondary road",
    "line:highway=tertiary": "tertiary road",
    "line:highway=residential": "residential road",
    "line:highway=service": "service road",
    "line:highway=unclassified": "unclassified road",
    "line:highway=trunk": "trunk road",
    "line:highway=pedestrian": "pedestrian street",
    "line:highway=road": "road of unknown type",
    "line:highway=construction": "road under construction",
    "line:highway=track": "track",
    "line:railway=rail": "railway",
    "line:railway=preserved": "heritage railway",
    "line:railway=tram": "tram line",
    "line:railway=narrow_gauge": "narrow-gauge railway",
    "line:railway=disused": "disused railway",
    "line:railway=subway": "subway line",
    "line:railway=miniature": "miniature railway",
    "line:railway=funicular": "funicular",
    "line:historic=citywalls": "city wall",
    "line:railway=construction": "railway under construction",
    "line:power=line": "power line",
    "line:power=minor_line": "minor power line",
    "line:boundary=administrative;admin_level=2": "country border",
    "line:boundary=administrative;admin_level=4": "state border",
    "line:boundary=administrative;admin_level=6": "county border",
    "line:boundary=administrative;admin_level=8": "municipal border",
    "area:landuse=commercial": "commercial area",
    "area:power=plant": "power plant",
    "area:power=generator": "power generator",
    "area:power=substation": "power substation",
    "area:landuse=railway": "railway land",
    "area:landuse=industrial": "industrial area",
    "area:landuse=retail": "retail area",
    "area:shop=mall": "shopping mall",
    "area:landuse=residential": "residential area",
    "area:leisure=pitch": "sports pitch",
    "area:leisure=track": "running track",
    "area:highway=services": "motorway services",
    "area:aeroway=apron": "airport apron",
    "area:aeroway=aerodrome": "airport",
    "area:railway=station": "railway station",
    "area:building=yes": "building",
    "area:golf=rough": "golf rough",
    "area:golf=bunker": "golf bunker",
    "area:golf=green": "golf green",
    "area:golf=tee": "golf tee",
    "area:golf=fairway": "golf fairway",
    "area:landuse=religious": "religious area",
    "area:landuse=construction": "construction site",
    "area:landuse=greenhouse_horticulture": "greenhouses",
    "area:man_made=works": "factory",
    "area:amenity=police": "police station",
    "area:amenity=taxi": "taxi rank",
    "area:amenity=grave_yard": "graveyard",
    "area:natural=water": "lake",
    "area:landuse=basin": "water basin",
    "area:natural=wood": "wood",
    "area:landuse=forest": "forest",
    "area:amenity=parking": "car park",
    "area:amenity=clinic": "clinic",
    "area:tourism=camp_site": "campsite",
}


def humanise(word: str) -> str:
    """Return an identifier in words.

    Parameters
    ----------
    word : str
        For example ``"fast_food"``.

    Returns
    -------
    str
        For example ``"fast food"``.

    Examples
    --------
    >>> humanise("full-height_turnstile")
    'full height turnstile'
    """
    return " ".join(word.replace("_", " ").replace("-", " ").split())


def label_for(category: str, tags: tuple[tuple[str, str], ...], *, stem: str | None = None) -> str:
    """Return the everyday name of a feature.

    Parameters
    ----------
    category : str
        ``symbol``, ``line`` or ``area``.
    tags : tuple of (str, str)
        The feature's tags, class tag first.
    stem : str, optional
        For symbols, the SVG file stem.

    Returns
    -------
    str
        The label.

    Examples
    --------
    >>> label_for("line", (("waterway", "river"),))
    'river'
    """
    if stem is not None:
        key = f"{category}:{stem}"
        return LABELS.get(key, humanise(stem))
    k, v = tags[0]
    default = humanise(v)
    if len(tags) > 1 and tags[1][0] == v:
        default = humanise(tags[1][1])  # natural=wetland + wetland=bog -> "bog"
    extra = "".join(f";{a}={b}" for a, b in tags[1:])
    return LABELS.get(f"{category}:{k}={v}{extra}", LABELS.get(f"{category}:{k}={v}", default))
