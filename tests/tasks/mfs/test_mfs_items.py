"""MFS items built from the real symbol catalogue with the named fallback embedding."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from cartoqa.dataset.schema import item_errors
from cartoqa.embeddings import PixelHistogramEmbedder
from cartoqa.tasks.cartomapqa.mfs import LETTERS, build_mfs_items
from renderers.mfs.spec import FeatureImage


@pytest.fixture(scope="module")
def items(
    symbol_catalogue: list[FeatureImage], tmp_path_factory: pytest.TempPathFactory
) -> tuple[list[dict], Path]:
    folder = tmp_path_factory.mktemp("mfs-images")
    built = build_mfs_items(
        catalogue=symbol_catalogue,
        embedder=PixelHistogramEmbedder(),
        n=120,
        seed=3,
        images_dir=folder,
    )
    return built, folder


def test_answer_letter_is_uniform(items: tuple[list[dict], Path]) -> None:
    letters = Counter(it["answer"]["letter"] for it in items[0])
    observed = [letters[k] for k in LETTERS]
    assert observed == [24] * 5  # balanced exactly, block by block
    assert chisquare(observed).pvalue > 0.99
    assert all(it["options"][it["answer"]["letter"]] == it["answer"]["label"] for it in items[0])


def test_items_follow_the_dataset_format(items: tuple[list[dict], Path]) -> None:
    built, folder = items
    assert [it["id"] for it in built[:3]] == ["mfs-0000", "mfs-0001", "mfs-0002"]
    for it in built:
        assert item_errors(it) == []
        assert (folder / Path(it["image"]).name).is_file()
        assert it["request"] == "choice" and list(it["options"]) == list(LETTERS)
        assert len(set(it["options"].values())) == 5
        first_key = next(iter(it["provenance"]["tags"]))
        assert it["strata"] == {"category": "symbol", "osm_class": first_key}
        prov = it["provenance"]
        assert prov["embedding"] == "pixel-histogram:v1"
        roles = [d["role"] for d in prov["distractors"]]
        assert roles[-1] == "random" and len(roles) == 4
        same = [d for d in prov["distractors"] if d["role"] == "same_class"]
        assert all(d["osm_class"] == it["strata"]["osm_class"] for d in same)
        other = [d for d in prov["distractors"] if d["role"] == "other_class"]
        assert all(d["osm_class"] != it["strata"]["osm_class"] for d in other)
        near = [d["distance"] for d in same]
        assert near == sorted(near)
        for letter in LETTERS:
            assert f"{letter}. {it['options'][letter]}" in it["question"]


def test_same_seed_same_items_other_seed_other_items(
    symbol_catalogue: list[FeatureImage], items: tuple[list[dict], Path]
) -> None:
    again = build_mfs_items(
        catalogue=symbol_catalogue, embedder=PixelHistogramEmbedder(), n=120, seed=3
    )
    assert again == items[0]
    other = build_mfs_items(
        catalogue=symbol_catalogue, embedder=PixelHistogramEmbedder(), n=120, seed=4
    )
    assert [it["answer"] for it in other] != [it["answer"] for it in items[0]]
