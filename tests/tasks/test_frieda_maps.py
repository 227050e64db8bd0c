"""The pure parts of the FRIEDA build: the compass check, slot candidates, distractor
maps clear of a question, the contextual map counts."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image
from shapely.geometry import Point, box

from cartoqa.tasks.frieda import build as fb
from cartoqa.tasks.frieda.maps import (
    POOL_STYLES,
    POOL_ZOOMS,
    PoolMap,
    clear_of,
    compass_readable,
    plan_pool,
)
from groundtruth import relations as rel
from groundtruth.named_features import NamedFeature
from renderers.compass import compass_box, draw_compass


def _blank_png(width: int = 1366, height: int = 768) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (240, 238, 230)).save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize("angle", [0.0, 75.0, 200.0, 330.0])
def test_a_drawn_compass_is_readable_at_its_angle(angle: float) -> None:
    png = draw_compass(_blank_png(), angle)
    assert compass_readable(png, angle)
    assert not compass_readable(png, (angle + 180.0) % 360.0)  # needle the other way


def test_a_covered_compass_is_not_readable() -> None:
    png = draw_compass(_blank_png(), 30.0)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x0, y0, x1, y1 = compass_box(image.width, image.height)
    image.paste((255, 255, 255), (int(x0), int(y0), int(x1), int(y1)))  # a box over it
    out = io.BytesIO()
    image.save(out, format="PNG")
    assert not compass_readable(out.getvalue(), 30.0)


@pytest.mark.parametrize("relation", ["border", "equal", "distance", "orientation"])
def test_no_two_slots_try_the_same_plan(relation: str) -> None:
    per_task = 40
    state = fb.FriedaState(relation, single=[], multi=[])
    seen: dict[tuple[int, int], int] = {}
    for slot in range(2 * per_task):  # every slot a task may use (its stride)
        plans, indices = fb._candidates(state, slot, per_task)
        which = 0 if plans is state.single else 1
        for index in indices:
            key = (which, index)
            assert key not in seen, (slot, seen.get(key))
            seen[key] = slot
    multi = {slot for (which, _), slot in seen.items() if which == 1}
    pattern = fb.MULTI_PATTERN[relation]
    assert multi == {s for s in range(2 * per_task) if pattern[s % len(pattern)]}
    if relation == "border":  # two of three slots ask on two maps
        assert {s % 3 for s in multi} == {1, 2}


def _point(name: str, lon: float, lat: float) -> NamedFeature:
    return NamedFeature(name, "point", "cafe", (f"node/{name}",), Point(lon, lat))


def test_distractor_maps_clear_of_the_question() -> None:
    # 0.001 deg of longitude at 60 N is 55.8 m; of latitude 111.4 m
    question = [_point("A", 24.940, 60.170)]
    frame = rel.LocalFrame.around([q.geometry for q in question])
    near = PoolMap(0, (60.170, 24.9425), 0.0, (_point("B", 24.9425, 60.170),
                                               _point("C", 24.944, 60.170)), 17, "plain")
    far = PoolMap(1, (60.172, 24.940), 0.0, (_point("D", 24.940, 60.172),
                                             _point("E", 24.941, 60.172)), 17, "grey")
    same_name = PoolMap(2, (60.175, 24.940), 0.0, (_point("A", 24.950, 60.175),
                                                   _point("F", 24.951, 60.175)), 17, "plain")
    assert not clear_of(near, question, frame, 200.0)  # B is 139 m from A
    assert clear_of(near, question, frame, 100.0)
    assert clear_of(far, question, frame, 200.0)  # D is 223 m from A
    assert not clear_of(same_name, question, frame, 100.0)
    # in OSM-Carto (which writes names) A must be out of the view, not only 200 m away
    far_carto = PoolMap(3, far.center, 0.0, far.features, 17, "carto")
    assert not clear_of(far_carto, question, frame, 200.0)  # A in view (radius ~465 m)
    beyond = PoolMap(4, (60.176, 24.940), 0.0, (_point("G", 24.940, 60.176),
                                                _point("H", 24.941, 60.176)), 17, "carto")
    assert clear_of(beyond, question, frame, 200.0)  # 668 m away: out of view


def test_contextual_items_average_nine_and_a_half_maps() -> None:
    low, high = fb.CONTEXT_MAPS
    assert (low + high) / 2 == 9.5


def test_pool_maps_draw_two_named_points_near_their_centre() -> None:
    points = [_point(f"P{i}", 24.94 + 0.0004 * i, 60.17 + 0.0002 * (i % 3)) for i in range(12)]
    park = NamedFeature("Park", "polygon", "park", ("way/1",),
                        box(24.9405, 60.1705, 24.9415, 60.1709))
    pool = plan_pool([*points, park], rng=random.Random(3), size=5)
    assert 0 < len(pool) <= 5
    for p in pool:
        a, b = p.features[:2]
        assert a.kind == b.kind == "point" and a.name != b.name
        # the zoom and style families of the question maps
        assert p.zoom in POOL_ZOOMS and p.style in POOL_STYLES
        scale = 2.0 ** (17 - p.zoom)  # the near box is for zoom 17
        for f in p.features[:2]:
            assert abs(f.geometry.y - p.center[0]) < 0.0012 * scale
            assert abs(f.geometry.x - p.center[1]) < 0.0025 * scale
        assert p.image_name == f"frieda-context-{p.index:03d}.png"


def _square(name: str, lon0: float, lat0: float, side_deg: float = 0.0009) -> NamedFeature:
    return NamedFeature(name, "polygon", "city block", (f"way/{name}",),
                        box(lon0, lat0, lon0 + side_deg * 2, lat0 + side_deg))


@pytest.mark.parametrize(("gap_deg", "near"), [(0.0005, True), (0.0008, False)])
def test_border_distractors_across_a_street_are_refused(gap_deg: float, near: bool,
                                                        tmp_path: Path) -> None:
    # 0.0005 deg of longitude at 60 N is 27.9 m (a street away); 0.0008 is 44.6 m
    from cartoqa.tasks.common.base import BuildContext
    from cartoqa.tasks.frieda.questions import MapPlan, QuestionPlan
    from groundtruth.extracts import Extract

    subject = _square("S", 24.94, 60.17)
    true = _square("T", 24.9418, 60.17)  # shares S's east side
    apart = _square("D", 24.94 - 0.0018 - gap_deg, 60.17)  # west of S, gap_deg apart
    frame = rel.LocalFrame.around([subject.geometry])
    data = (60.16, 24.92, 60.18, 24.96)  # the extract's data, all around the squares
    ctx = BuildContext(Extract("x", Path("x.osm"), "osm", "", data), seed=0, per_task=1,
                       cache_dir=tmp_path, assets_dir=tmp_path)
    ctx.shared["frieda"] = fb.Shared([subject, true, apart], [], frame, [])
    ctx.shared["frieda_renderer"] = None  # a render would fail: the check comes first
    plan = QuestionPlan("border", "q", {"type": "textual", "names": ["T"]},
                        (MapPlan((subject, true, apart), ("S", "T", "D")),),
                        {"subject": subject.key,
                         "relations": {true.key: "border", apart.key: "disjoint"}})
    if near:
        assert fb.render_question(ctx, plan) == "near"
    else:
        with pytest.raises(AttributeError):  # past the check, on to the (absent) renderer
            fb.render_question(ctx, plan)


def test_image_data_cover_of_a_turned_image() -> None:
    from cartoqa.tasks.frieda.maps import image_data_cover
    from groundtruth.projection import View

    v = View(center=(60.17, 24.94), zoom=18, width=1366, height=768)
    s, w, n, e = v.bounds
    assert image_data_cover(v, (s, w, n, e)) == pytest.approx(1.0, abs=1e-3)
    # the data ends at the view's centre line: the western half of the image
    assert image_data_cover(v, (s, w, n, (w + e) / 2)) == pytest.approx(0.5, abs=2e-3)
    # turned 90 degrees the image's 768 px height lies along the data's width: a
    # 768-wide square in the middle of the 1366 x 768 image (768 / 1366 of it)
    assert image_data_cover(v, (s, w, n, e), 90.0) == pytest.approx(768 / 1366, abs=2e-3)


def test_a_map_at_the_data_edge_is_moved_in_or_rejected() -> None:
    from cartoqa.tasks.frieda.maps import choose_view, image_data_cover
    from cartoqa.tasks.frieda.questions import MapPlan
    from groundtruth.projection import View

    a, b = _point("A", 24.9400, 60.1700), _point("B", 24.9410, 60.1702)  # 58 m apart
    plan = MapPlan((a, b), ("A", "B"), angle_deg=30.0)
    # data reaching 400 m west, 250 m south and north of A, but only 40 m east of B
    roomy = (60.1677, 24.9328, 60.1723, 24.9417)
    placed = choose_view(plan, None, [], roomy)
    assert not isinstance(placed, str)
    center, zoom = placed
    view = View(center=center, zoom=zoom, width=1366, height=768)
    assert image_data_cover(view, roomy, 30.0) >= 0.99
    assert center[1] < 24.9405  # moved west of the points' midpoint, into the data
    # the same points, with data hardly wider than the two of them: no zoom is covered
    narrow = (60.1695, 24.9395, 60.1707, 24.9415)
    assert choose_view(plan, None, [], narrow) == "past_data"
    assert not isinstance(choose_view(plan, None, []), str)  # no bounds: not checked


def _layer_plan(**kw: object) -> object:
    from cartoqa.tasks.frieda.questions import MapPlan

    here = box(24.9395, 60.1695, 24.9405, 60.1705)  # around the view's centre
    far = box(24.9700, 60.1900, 24.9710, 60.1910)  # some 2.5 km away
    spot = _point("X", 24.940, 60.170)
    base = {"categories": (("commercial land", (far,)), ("grass", (here,)),
                           ("residential land", (far,))),
            "category_checks": ((0, 1, True), (0, 0, False), (0, 2, False))}
    base.update(kw)
    return MapPlan((spot,), ("X",), **base)  # type: ignore[arg-type]


def test_a_legend_lists_only_categories_in_view() -> None:
    """The legend is cut to the categories whose areas lie on the image; the checks follow
    the new order; a check that a spot lies *in* a dropped category, a category a count
    question needs, or a legend left too short refuses the map."""
    from cartoqa.tasks.frieda.maps import categories_in_view
    from groundtruth.projection import View

    view = View(center=(60.170, 24.940), zoom=17, width=1366, height=768)
    kept = categories_in_view(_layer_plan(), view)  # type: ignore[arg-type]
    assert kept is not None
    assert [c for c, _ in kept.categories] == ["grass"]
    assert kept.category_checks == ((0, 0, True),)  # "not in" a dropped category: dropped
    assert categories_in_view(_layer_plan(category_checks=((0, 0, True),)),  # type: ignore[arg-type]
                              view) is None
    assert categories_in_view(_layer_plan(keep_categories=(2,)), view) is None  # type: ignore[arg-type]
    assert categories_in_view(_layer_plan(min_legend=2), view) is None  # type: ignore[arg-type]
    far_view = View(center=(60.19, 24.97), zoom=17, width=1366, height=768)
    both = categories_in_view(_layer_plan(category_checks=()), far_view)  # type: ignore[arg-type]
    assert both is not None and [c for c, _ in both.categories] == [
        "commercial land", "residential land"]


def test_distractor_maps_come_in_the_question_maps_layers() -> None:
    """Distractor maps draw dots or areas, with or without a thematic layer (as the
    question maps do); a contextual item takes first those drawn like its question."""
    from groundtruth.legend_areas import CategoryArea

    points = [_point(f"P{i}", 24.94 + 0.0004 * i, 60.17 + 0.0002 * (i % 3)) for i in range(12)]
    squares = [_square(f"S{i}", 24.9400 + 0.0025 * i, 60.1702) for i in range(4)]
    areas = [CategoryArea("land use", "grass", "way/9", box(24.939, 60.169, 24.945, 60.171)),
             CategoryArea("building use", "public building", "way/8",
                          box(24.941, 60.1703, 24.942, 60.1706))]
    pool = plan_pool([*points, *squares], rng=random.Random(5), size=40, tries=3000,
                     areas=areas)
    kinds = {(p.kind, bool(p.categories)) for p in pool}
    assert kinds == {("dots", False), ("dots", True), ("areas", False), ("areas", True)}
    for p in pool:
        if p.kind == "areas":
            assert len(p.features) >= 2 and all(f.kind == "polygon" for f in p.features)
        if p.categories:
            assert p.family in ("land use", "building use") and p.style != "carto"
    from cartoqa.tasks.frieda.questions import MapPlan, QuestionPlan

    q = QuestionPlan("within", "?", {}, (MapPlan((points[0],), ("P0",),
                                                  categories=(("grass", ()),)),))
    assert fb.pool_signature(q) == (True, "dots")
    q2 = QuestionPlan("border", "?", {}, (MapPlan((squares[0], points[1]), ("S0", "P1")),))
    assert fb.pool_signature(q2) == (False, "areas")


def test_a_second_map_is_drawn_at_another_scale() -> None:
    """A plan's zoom caps its view, and a later map of a two-map question that would
    share the first map's zoom is capped one zoom below it (other extent and scale)."""
    from dataclasses import replace

    from cartoqa.tasks.frieda.maps import choose_view, other_scale
    from cartoqa.tasks.frieda.questions import MapPlan
    from groundtruth.projection import View

    a, b = _point("A", 24.9400, 60.1700), _point("B", 24.9410, 60.1702)
    plan = MapPlan((a, b), ("A", "B"))
    natural = choose_view(plan, None, [])
    assert not isinstance(natural, str)
    first_zoom = natural[1]
    capped = other_scale(plan, first_zoom, natural)
    assert capped is not None and capped.zoom == first_zoom - 1
    placed = choose_view(capped, None, [])
    assert not isinstance(placed, str) and placed[1] == first_zoom - 1
    one = View(center=natural[0], zoom=first_zoom, width=1366, height=768)
    two = View(center=placed[0], zoom=placed[1], width=1366, height=768)
    assert two.meters_per_pixel() == pytest.approx(2 * one.meters_per_pixel())
    # already at another zoom, or with a zoom of its own: left as it is
    assert other_scale(plan, first_zoom + 1, natural) is None
    assert other_scale(replace(plan, zoom=17), first_zoom, natural) is None
    assert other_scale(plan, first_zoom, "gap") is None


def test_print_maps_may_zoom_out_to_14() -> None:
    """Two dots 6 km apart fit no tile-style map (zooms 15-19) but a print map at 14."""
    from cartoqa.tasks.frieda.maps import choose_view
    from cartoqa.tasks.frieda.questions import MapPlan

    a, b = _point("A", 9.5000, 47.1400), _point("B", 9.5800, 47.1420)  # about 6.1 km
    assert choose_view(MapPlan((a, b), ("A", "B"), style="grey"), None, []) == "not_visible"
    placed = choose_view(MapPlan((a, b), ("A", "B"), style="print"), None, [])
    assert not isinstance(placed, str) and placed[1] == 14


def test_a_legend_category_answer_map_zooms_out_for_its_legend() -> None:
    """The second map of an ``area_category`` question (the place not drawn, only its
    layer) is chosen at the highest zoom that shows the place; when a legend category's
    nearest area lies outside that view (Helsinki's residential buildings, 150-300 m from
    most public buildings), the map zooms out instead of being refused (frieda29g: every
    building ``area_category`` plan was refused, "commercial land" answered 14 of 34)."""
    from dataclasses import replace

    from cartoqa.tasks.frieda.maps import categories_in_view, choose_view, legend_view
    from cartoqa.tasks.frieda.questions import MapPlan
    from groundtruth.projection import View

    place = _square("Vanha talo", 24.9450, 60.1700, side_deg=0.0002)
    # a public building, a commercial one beside it, a residential one ~330 m east
    layer = (("commercial building", (box(24.9458, 60.1698, 24.9464, 60.1702),)),
             ("public building", (place.geometry,)),
             ("residential building", (box(24.9510, 60.1698, 24.9520, 60.1704),)))
    plan = MapPlan((), (), angle_deg=0.0, context=(place,), categories=layer, min_legend=3,
                   keep_categories=(1,), area_checks=((1, place.geometry),),
                   wider_for_legend=True)
    placed = choose_view(plan, None, [])
    assert not isinstance(placed, str)
    center, zoom = placed
    view = View(center=center, zoom=zoom, width=1366, height=768)
    # what render_map refused before: the legend short of its third category
    assert categories_in_view(plan, view) is None
    got = legend_view(plan, center, zoom, None, [])
    assert got is not None
    kept, _, wider = got
    assert wider < zoom
    assert [c for c, _ in kept.categories] == [c for c, _ in layer]
    assert kept.area_checks[0][0] == 1
    # the maps of other legend questions keep their view (and their refusal)
    other = replace(plan, wider_for_legend=False)
    assert legend_view(other, center, zoom, None, []) is None
