"""A dataset written slot by slot with :class:`~cartoqa.dataset.writer.DatasetWriter`:
grey PNGs and MML items, for the writer, reader, safety and near-duplicate tests."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image

from cartoqa.dataset.card import render_card
from cartoqa.dataset.manifest import build_manifest
from cartoqa.dataset.writer import DatasetWriter

KEY = {"extract": "x", "seed": 0, "tasks": ["mml"], "per_task": 2}


@cache  # the same bytes every time: encoded once per process
def png(size: tuple[int, int] = (1366, 768), colour: int = 200) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", size, (colour, colour, colour)).save(buf, "PNG")
    return buf.getvalue()


def mml_item(slot: int) -> dict[str, Any]:
    return {
        "id": f"mml-{slot:04d}", "task": "mml", "request": "roads",
        "image": f"images/mml-{slot:04d}.png", "system_prompt": "S", "question": "Q",
        "options": None, "answer": {"roads": ["A", "B"]},
        "strata": {"color": "blue", "zoom": 17},
        "provenance": {"extract": "x", "seed": 0, "zoom": 17,
                       "markers": [{"color": "blue", "lat": 60.1, "lon": 24.9}]},
    }


def finalise(writer: DatasetWriter) -> list[dict[str, Any]]:
    def manifest_for(items: list[dict[str, Any]]) -> dict[str, Any]:
        return build_manifest(items, extract={"name": "x", "sha256": "0" * 64},
                              versions={"cartoqa": "0"}, image_sizes={"mml": (1366, 768)},
                              shortfalls={})
    return writer.finalise(manifest_for=manifest_for, card_for=render_card)


def write_slot(writer: DatasetWriter, slot: int) -> None:
    writer.write_image(f"mml-{slot:04d}.png", png(colour=100 + slot))
    writer.record("mml", slot, [mml_item(slot)])


def finished_dataset(out: Path) -> Path:
    """A finished dataset of two MML slots in ``out``."""
    w = DatasetWriter(out, build_key=KEY)
    w.open()
    write_slot(w, 0)
    write_slot(w, 1)
    finalise(w)
    return out
