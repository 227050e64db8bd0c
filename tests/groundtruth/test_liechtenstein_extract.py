"""The shipped Liechtenstein extract: found by name, the file recorded, and the larger
areas FRIEDA needs (municipalities, nature reserves, water) assembled."""

from __future__ import annotations

import itertools

import pytest

from groundtruth.extracts import BUNDLED_EXTRACTS, bundled_extract_path, resolve_extract

SHA256 = "edb2b075be057662691fc343abed4ed58f139dd7c501c243197640fcb3ea82d4"


def test_the_bundled_name_resolves_to_the_shipped_file() -> None:
    assert "liechtenstein" in BUNDLED_EXTRACTS
    path = bundled_extract_path("liechtenstein")
    assert path.parent.name == "osm" and path.stat().st_size == 592_570
    extract = resolve_extract("liechtenstein")
    assert extract.sha256 == SHA256  # the file assets/osm/README.md records
    assert extract.bounds is not None
    south, west, north, east = extract.bounds
    assert (south, west) == pytest.approx((47.04774, 9.47108), abs=1e-4)
    assert (north, east) == pytest.approx((47.27128, 9.63622), abs=1e-4)


@pytest.mark.slow
def test_municipalities_and_their_relations_are_there() -> None:
    """The 11 municipalities are whole areas (Helsinki's districts are cut off), some
    border each other, and named features lie within them."""
    from groundtruth import relations as rel
    from groundtruth.named_features import load_named_features

    feats = load_named_features("liechtenstein")
    admin = [f for f in feats if f.kind == "polygon" and f.category == "administrative area"]
    names = {f.name for f in admin}
    assert {"Vaduz", "Schaan", "Triesen", "Balzers", "Planken", "Eschen", "Mauren",
            "Gamprin", "Ruggell", "Schellenberg", "Triesenberg"} <= names
    municipalities = [f for f in admin if f.name in ("Vaduz", "Schaan", "Triesen",
                                                     "Planken", "Triesenberg")]
    frame = rel.LocalFrame.around([f.geometry for f in admin])

    def relation(a: object, b: object) -> str | None:
        return rel.area_relation(frame.to_metric(a.geometry),  # type: ignore[attr-defined]
                                 frame.to_metric(b.geometry))  # type: ignore[attr-defined]

    found = {frozenset((a.name, b.name)) for a, b in itertools.combinations(municipalities, 2)
             if relation(a, b) == "border"}
    assert frozenset(("Vaduz", "Schaan")) in found
    vaduz = next(f for f in admin if f.name == "Vaduz")
    inside = [f for f in feats if f.kind == "polygon" and f is not vaduz
              and f.category != "administrative area"
              and relation(f, vaduz) == "within"]
    assert len(inside) >= 5
    assert any(f.category == "water" for f in feats if f.kind == "polygon")
