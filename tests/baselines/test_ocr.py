"""The OCR baseline: Tesseract's words matched to the answer space, nearest the marker."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.baseline_items import MML_Q, item, mfs
from PIL import Image, ImageDraw, ImageFont

from cartoqa.baselines.ocr import Word, found_in, ocr_baseline, tesseract_reader

FONT = Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf")


def _mml(item_id: str, roads: list[str], marker: tuple[float, float]) -> dict:
    return item(item_id, "mml", "roads", {"roads": roads}, MML_Q,
                provenance={"markers": [{"color": "blue", "px": list(marker)}]})


def test_nearest_names_to_the_marker_win():
    words = {Path("far.png"): [Word("Bulevardi", 900, 700), Word("Annankatu", 100, 100),
                               Word("Eerikin-", 160, 120), Word("katu", 210, 120)]}
    items = [_mml("mml-0", ["Annankatu", "Eerikinkatu"], (120, 110)),
             _mml("mml-1", ["Bulevardi", "Eerikinkatu"], (880, 690)),
             _mml("mml-2", ["Annankatu", "Bulevardi"], (880, 690)),
             _mml("mml-3", ["Kalevankatu", "Bulevardi"], (120, 110))]
    for it in items:
        it["image"] = "far.png"
    answers = ocr_baseline(items, Path("."), reader=lambda path: words[path])
    # "Eerikin- katu" is read as two words and does not match the one-word name
    assert answers["mml-0"] == "- Annankatu\n- Bulevardi"
    assert answers["mml-1"] == "- Bulevardi\n- Annankatu"
    # Kalevankatu is not on the image; Bulevardi is answered by other items too
    assert answers["mml-3"] == "- Annankatu\n- Bulevardi"


def test_a_name_only_the_item_itself_answers_is_not_looked_for():
    words = {Path("m.png"): [Word("Annankatu", 100, 100), Word("Bulevardi", 900, 700)]}
    items = [_mml("mml-0", ["Annankatu", "Bulevardi"], (120, 110)),
             _mml("mml-1", ["Bulevardi", "Kalevankatu"], (120, 110))]
    for it in items:
        it["image"] = "m.png"
    answers = ocr_baseline(items, Path("."), reader=lambda path: words[path])
    # mml-0's vocabulary is mml-1's answer: Annankatu is on the map but not looked for
    assert answers["mml-0"] == "- Bulevardi"
    # mml-1's vocabulary is mml-0's answer: both are read, Annankatu nearer the marker
    assert answers["mml-1"] == "- Annankatu\n- Bulevardi"


def test_requests_without_names_are_not_answered():
    assert ocr_baseline(mfs(["park"]), Path("."), reader=lambda path: []) == {}


def test_found_in_needs_whole_words_in_sequence():
    words = [Word("to", 0, 0), Word("Iowa", 1, 0), Word("City", 2, 0), Word("IA", 3, 0)]
    assert [c for c, _ in found_in(words, ["Iowa City", "City IA", "OH", "A"])] == [
        "Iowa City", "City IA"]


@pytest.mark.skipif(shutil.which("tesseract") is None or not FONT.exists(),
                    reason="needs Debian tesseract-ocr and fonts-noto-core")
def test_tesseract_reads_a_drawn_name(tmp_path):
    image = Image.new("RGB", (700, 260), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 36)
    draw.text((40, 40), "Annankatu", fill="black", font=font)
    draw.text((420, 190), "Bulevardi", fill="black", font=font)
    (tmp_path / "images").mkdir()
    image.save(tmp_path / "images" / "mml-0.png")
    image.save(tmp_path / "images" / "mml-1.png")
    items = [_mml("mml-0", ["Annankatu", "Lapinlahdenkatu"], (60, 60)),
             _mml("mml-1", ["Bulevardi", "Lapinlahdenkatu"], (600, 220)),
             _mml("mml-2", ["Annankatu", "Bulevardi"], (60, 60))]
    (tmp_path / "images" / "mml-2.png").write_bytes((tmp_path / "images" / "mml-0.png")
                                                    .read_bytes())
    words = tesseract_reader()(tmp_path / "images" / "mml-0.png")
    assert {"Annankatu", "Bulevardi"} <= {w.text for w in words}
    answers = ocr_baseline(items, tmp_path)
    assert answers == {"mml-0": "- Annankatu\n- Bulevardi",
                       "mml-1": "- Bulevardi\n- Annankatu",
                       "mml-2": "- Annankatu\n- Bulevardi"}
