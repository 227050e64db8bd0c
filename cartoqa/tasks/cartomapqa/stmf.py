"""STMF: single-type map features on zoom-19 maps (presence, count, names).

Each scenario is one map (:mod:`cartoqa.tasks.cartomapqa.feature_maps`) and one feature type,
asked three ways. Even slots pick a type the map shows, odd slots a type it does not
show, so presence has both answers; the type rotates with the slot over the 22 types.
Answers count only what the rendering shows (:mod:`cartoqa.visibility`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cartoqa.declarations.prompts import prompt
from cartoqa.declarations.spec import RequestSpec, TaskSpec, text_parser
from cartoqa.parsing import (
    ParseResult,
    bulleted,
    format_number,
    parse_count,
    parse_names,
    parse_yes_no,
)
from cartoqa.parsing.map_names import item_map_names
from cartoqa.scoring.sections import (
    aggregate_count,
    aggregate_presence,
    aggregate_prf,
    measure_count,
    measure_names,
    measure_presence,
)
from cartoqa.settings import VIEW_HEIGHT, VIEW_WIDTH
from cartoqa.tasks.cartomapqa.feature_maps import counted_features, feature_map
from cartoqa.tasks.common.base import BuildContext, Scenario, item_id
from cartoqa.tasks.common.items import base_item, provenance
from groundtruth.catalogue import feature_type_names

NAME = "stmf"
ITEMS_PER_SCENARIO = 3
IMAGE_SIZE = (VIEW_WIDTH, VIEW_HEIGHT)
NEEDS_ROADS = False
REQUESTS = ("presence", "count", "names")

#: Step through the eligible types from one slot to the next (coprime to 22).
TYPE_STRIDE = 5

#: Plural of each type name as the questions use it.
PLURALS: dict[str, str] = {
    "convenience store": "convenience stores", "supermarket": "supermarkets",
    "pharmacy": "pharmacies", "clinic": "clinics", "hospital": "hospitals",
    "restaurant": "restaurants", "fast food": "fast food restaurants",
    "coffee shop": "coffee shops", "ATM": "ATMs", "bank": "banks",
    "playground": "playgrounds", "park": "parks", "fitness centre": "fitness centres",
    "clothes shop": "clothes shops", "beauty shop": "beauty shops", "stream": "streams",
    "river": "rivers", "bus stop": "bus stops", "fuel station": "fuel stations",
    "primary road": "primary roads", "parking": "parkings",
    "public toilet": "public toilets",
}


def plural(name: str) -> str:
    """Plural of a feature type name.

    Examples
    --------
    >>> plural("pharmacy"), plural("ATM")
    ('pharmacies', 'ATMs')
    """
    return PLURALS.get(name, name + "s")


def choose_type(types: list[str], slot: int, *, counts: dict[str, int],
                in_data: dict[str, int], ambiguous: set[str]) -> str | None:
    """The feature type a slot asks about (pure).

    Even slots want a type shown on the map, odd slots one that is not (and has no
    feature in the data near the view). Among the eligible types, in catalogue order,
    slot ``s`` takes number ``(s // 2) * 5`` (modulo their count), which spreads the
    questions over the types instead of always asking about the commonest.

    Examples
    --------
    >>> t = ["a", "b", "c"]
    >>> choose_type(t, 0, counts={"a": 0, "b": 2, "c": 1}, in_data={}, ambiguous=set())
    'b'
    >>> choose_type(t, 2, counts={"a": 0, "b": 2, "c": 1}, in_data={}, ambiguous=set())
    'c'
    >>> choose_type(t, 1, counts={"a": 0, "b": 2, "c": 1}, in_data={"a": 0}, ambiguous=set())
    'a'
    """
    want_present = slot % 2 == 0
    eligible = [
        t for t in types if t not in ambiguous and (
            counts.get(t, 0) > 0 if want_present
            else counts.get(t, 0) == 0 and in_data.get(t, 0) == 0)
    ]
    if not eligible:
        return None
    return eligible[(slot // 2) * TYPE_STRIDE % len(eligible)]


def prepare(ctx: BuildContext) -> Any:
    """Load the features (the maps are made per slot)."""
    ctx.features()
    return feature_type_names()


def make_scenario(ctx: BuildContext, state: Any, slot: int) -> Scenario | None:
    """Three STMF items (presence, count, names) about one type on map ``slot``."""
    fmap = feature_map(ctx, slot)
    if fmap is None:
        return None
    vf = fmap.features
    types: list[str] = list(state)
    counts = {t: vf.count(t) for t in types}
    in_data = {t: vf.in_data(t) for t in types}
    ambiguous = {t for t in types if vf.ambiguous(t, names=True)}
    ftype = choose_type(types, slot, counts=counts, in_data=in_data, ambiguous=ambiguous)
    if ftype is None:
        return None
    image = f"images/{fmap.image}"
    prov = provenance(ctx, fmap.view, slot=slot, attempt=fmap.attempt,
                      counted=counted_features(vf, [ftype]), map_names=vf.written_names())
    strata = {"feature_type": ftype, "zoom": fmap.view.zoom}
    names = vf.names(ftype)
    answers: dict[str, dict[str, Any]] = {
        "presence": {"present": counts[ftype] > 0},
        "count": {"count": counts[ftype]},
        "names": {"names": names, "unnamed": vf.unnamed(ftype)},
    }
    items = [
        base_item(item_id(NAME, slot, req), NAME, req, image,
                  prompt(f"stmf_{req}", feature=ftype, feature_plural=plural(ftype)),
                  answers[req], dict(strata), prov)
        for req in REQUESTS
    ]
    images = {} if ctx.image_exists(fmap.image) else {fmap.image: fmap.png}
    return Scenario(items=items, images=images)


def parse_count_of_type(item: Mapping[str, Any], text: str) -> ParseResult:
    """Read a count answer; among counts of several kinds (``3 banks and 5 cafes``) the
    one of the type the item asks about (``strata.feature_type``) is taken.

    Examples
    --------
    >>> item = {"strata": {"feature_type": "bank"}}
    >>> parse_count_of_type(item, "There are 3 banks and 5 cafes.").value
    {'count': 3}
    >>> parse_count_of_type({}, "There are 3 banks and 5 cafes.").valid
    False
    """
    feature = (item.get("strata") or {}).get("feature_type")
    return parse_count(text, feature=str(feature) if feature else None)


def parse_names_on_map(item: Mapping[str, Any], text: str) -> ParseResult:
    """Read a names answer, telling ``A & B`` from one name by the names the map writes.

    ``provenance.map_names`` (every legible name on the map, of any type; not the
    answer) decides whether ``Hiisi & Lost In Helsinki`` is two names
    (:func:`cartoqa.parsing.map_names.split_joined`); items built before it was
    recorded read as before.

    Examples
    --------
    >>> item = {"provenance": {"map_names": ["Hiisi", "Lost In Helsinki", "Nordea"]}}
    >>> parse_names_on_map(item, "Answer: Hiisi & Lost In Helsinki").value
    {'names': ['Hiisi', 'Lost In Helsinki']}
    >>> parse_names_on_map({}, "Answer: Hiisi & Lost In Helsinki").value
    {'names': ['Hiisi & Lost In Helsinki']}
    """
    return parse_names(text, map_names=item_map_names(item))


def names_text(answer: Mapping[str, Any]) -> str:
    """The reference response to a names question: a bulleted list, or ``None``."""
    names = list(answer.get("names") or [])
    return bulleted(names) if names else "None"


SPEC = TaskSpec(
    name=NAME,
    blurb="Single-type map features at zoom 19: presence, count and names of one type.",
    requests=(
        RequestSpec(
            "presence",
            prompt="stmf_presence",
            sample_prompt={"feature": "bank", "feature_plural": "banks"},
            answer_schema={
                "type": "object", "required": ["present"], "additionalProperties": False,
                "properties": {"present": {"type": "boolean"}},
            },
            parse=text_parser(parse_yes_no),
            answer_text=lambda answer: "Yes" if answer["present"] else "No",
            metrics=("accuracy", "macro_f1"),
            headline=("accuracy", "macro_f1"),
            measure=measure_presence,
            aggregate=aggregate_presence,
            sample_answer={"present": True},
        ),
        RequestSpec(
            "count",
            prompt="stmf_count",
            sample_prompt={"feature": "bank", "feature_plural": "banks"},
            answer_schema={
                "type": "object", "required": ["count"], "additionalProperties": False,
                "properties": {"count": {"type": "integer", "minimum": 0}},
            },
            parse=parse_count_of_type,
            answer_text=lambda answer: f"Answer: {format_number(answer['count'])}",
            metrics=("rmse", "mae", "r2", "accuracy"),
            headline=("accuracy",),
            measure=measure_count,
            aggregate=aggregate_count,
            sample_answer={"count": 3},
        ),
        RequestSpec(
            "names",
            prompt="stmf_names",
            sample_prompt={"feature": "bank", "feature_plural": "banks"},
            answer_schema={
                "type": "object", "required": ["names", "unnamed"],
                "additionalProperties": False,
                "properties": {
                    "names": {"type": "array", "items": {"type": "string", "minLength": 1}},
                    "unnamed": {"type": "integer", "minimum": 0},
                },
            },
            parse=parse_names_on_map,
            answer_text=names_text,
            metrics=("precision", "recall", "f1"),
            headline=("f1",),
            measure=measure_names,
            aggregate=aggregate_prf,
            sample_answer={"names": ["Café Ekberg", "Kaffa Roastery"], "unnamed": 1},
        ),
    ),
    prepare=prepare,
    make_scenario=make_scenario,
    image_size=IMAGE_SIZE,
    items_per_scenario=ITEMS_PER_SCENARIO,
    needs_roads=NEEDS_ROADS,
    strata=("feature_type", "zoom"),
    sample_strata={"feature_type": "coffee shop", "zoom": 19},
)
