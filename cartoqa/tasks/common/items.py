"""Item assembly: an item's record in the dataset format and its provenance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cartoqa.declarations.prompts import system_prompt
from cartoqa.tasks.common.base import BuildContext
from cartoqa.tasks.common.drawing import LatLon, MarkerSpec
from groundtruth.projection import View


def provenance(ctx: BuildContext, view: View, *, slot: int, attempt: int,
               markers: Sequence[MarkerSpec] = (), path: Sequence[LatLon] | None = None,
               route_nodes: Sequence[int] | None = None, **extra: Any) -> dict[str, Any]:
    """The ``provenance`` record of an item."""
    rec: dict[str, Any] = {
        "extract": ctx.extract.name,
        "extract_sha256": ctx.extract.sha256,
        "seed": ctx.seed,
        "slot": slot,
        "attempt": attempt,
        "zoom": view.zoom,
        "center": [round(view.center[0], 7), round(view.center[1], 7)],
        "bounds": [round(v, 7) for v in view.bounds],
        "markers": [
            {"color": m.color, "lat": round(m.lat, 7), "lon": round(m.lon, 7),
             "px": [round(c, 2) for c in view.to_view_px(m.lat, m.lon)], "node": m.node}
            for m in markers
        ],
    }
    if path is not None:
        rec["path"] = [[round(lat, 7), round(lon, 7)] for lat, lon in path]
    if route_nodes is not None:
        rec["route_nodes"] = [int(n) for n in route_nodes]
    rec.update(extra)
    return rec


def base_item(item_id: str, task: str, request: str, image: str, question: str,
              answer: dict[str, Any], strata: dict[str, Any],
              prov: dict[str, Any]) -> dict[str, Any]:
    """Assemble one item in the dataset format."""
    return {
        "id": item_id,
        "task": task,
        "request": request,
        "image": image,
        "system_prompt": system_prompt(),
        "question": question,
        "options": None,
        "answer": answer,
        "strata": strata,
        "provenance": prov,
    }
