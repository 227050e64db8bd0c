"""One rule for repeated names: the truth keeps every drawn label, scoring matches multisets."""

from __future__ import annotations

from shapely.geometry import Point

from cartoqa.metrics import list_prf
from cartoqa.parsing import parse_names
from cartoqa.visibility.sightings import Sighting, ViewFeatures
from groundtruth.features import Feature


def _stop(i: int, name: str | None, *, legible: bool = True) -> Sighting:
    feature = Feature("bus stop", "symbol", name, (f"n{i}",), 60.0, 25.0, Point(25.0, 60.0))
    return Sighting(feature, (10.0 * i, 10.0), drawn=True, name_legible=legible and bool(name),
                    edge=False, label_cut=False, score=1.0)


def test_five_stops_labelled_alike_are_five_names() -> None:
    view = ViewFeatures(by_type={"bus stop": [*(_stop(i, "Hakaniemi") for i in range(5)),
                                              _stop(5, "Kallio"), _stop(6, None)]})
    truth = view.names("bus stop")
    assert truth == ["Hakaniemi"] * 5 + ["Kallio"]
    assert len(truth) + view.unnamed("bus stop") == view.count("bus stop")
    every = parse_names("\n".join(f"- {n}" for n in truth)).value["names"]  # type: ignore[union-attr]
    assert list_prf(truth, every).f1 == 1.0  # was 0.33 with a de-duplicated truth
    once = list_prf(truth, ["Hakaniemi", "Kallio"])
    assert (once.precision, once.recall) == (1.0, 2 / 6)
