"""Embeddings: the real open_clip code path with a tiny random-weight model (no
download), the named fallback, and the on-disk cache."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cartoqa import embeddings as emb_mod
from cartoqa.embeddings import (
    CachedEmbedder,
    OpenClipEmbedder,
    PixelHistogramEmbedder,
    embedding_key,
    make_embedder,
)
from cartoqa.errors import CartoqaError
from renderers.mfs.spec import FeatureImage


def _pngs(catalogue: list[FeatureImage], n: int) -> list[bytes]:
    return [f.png for f in catalogue[:n]]


def test_open_clip_random_weights_embed_on_cpu(
    tiny_clip_model: str, symbol_catalogue: list[FeatureImage]
) -> None:
    images = _pngs(symbol_catalogue, 7)
    a = OpenClipEmbedder(model=tiny_clip_model, pretrained=None, device="cpu", batch_size=3)
    assert a.method == f"open_clip:{tiny_clip_model}:random-seed0"
    va = a.embed(images)
    assert va.shape == (7, 32) and va.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(va, axis=1), 1.0, rtol=1e-5)
    # batching does not change the result, and the seeded weights are reproducible
    b = OpenClipEmbedder(model=tiny_clip_model, pretrained=None, device="cpu", batch_size=64)
    np.testing.assert_allclose(b.embed(images), va, atol=1e-5)
    # different images give different vectors
    assert np.linalg.norm(va[0] - va[1]) > 1e-3


def test_open_clip_loads_a_local_checkpoint(
    tiny_clip_model: str, symbol_catalogue: list[FeatureImage], tmp_path: Path
) -> None:
    import torch

    ref = OpenClipEmbedder(model=tiny_clip_model, pretrained=None, seed=5)
    ckpt = tmp_path / "tiny.pt"
    torch.save(ref._net.state_dict(), ckpt)
    loaded = OpenClipEmbedder(model=tiny_clip_model, pretrained=str(ckpt))
    assert loaded.method.startswith(f"open_clip:{tiny_clip_model}:file-")
    images = _pngs(symbol_catalogue, 4)
    np.testing.assert_allclose(loaded.embed(images), ref.embed(images), atol=1e-5)


def test_missing_weights_stop_with_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tiny_clip_model: str, tmp_path: Path
) -> None:
    with pytest.raises(CartoqaError, match="neither a file nor a pretrained tag"):
        OpenClipEmbedder(model=tiny_clip_model, pretrained="openai")
    with pytest.raises(CartoqaError, match="no model"):
        OpenClipEmbedder(model="no-such-model", pretrained=None)
    # a real tag, with the hub unreachable and an empty weights cache: no download
    monkeypatch.setattr(emb_mod, "hub_reachable", lambda *a, **k: False)
    with pytest.raises(CartoqaError, match="pixel-histogram") as info:
        OpenClipEmbedder(model="ViT-B-32", pretrained="openai", weights_dir=tmp_path)
    assert "cannot be reached" in str(info.value)
    with pytest.raises(CartoqaError, match="unknown embedding"):
        make_embedder("histogram")


def test_pixel_histogram_fallback(symbol_catalogue: list[FeatureImage]) -> None:
    by_id = {f.spec.feature_id: f.png for f in symbol_catalogue}
    e = PixelHistogramEmbedder()
    v = e.embed(
        [
            by_id["symbol:amenity=pharmacy"],
            by_id["symbol:amenity=pharmacy"],
            by_id["symbol:amenity=hospital"],
            by_id["symbol:shop=supermarket"],
        ]
    )
    assert v.shape == (4, 832)
    assert np.linalg.norm(v[0] - v[1]) == 0.0
    # two red health icons are nearer to each other than to a purple shop icon
    assert np.linalg.norm(v[0] - v[2]) < np.linalg.norm(v[0] - v[3])


class _Counting:
    """A real (if trivial) embedder that counts the images it is asked for."""

    method = "counting-v1"

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, images: list[bytes]) -> np.ndarray:
        self.calls.append(len(images))
        return np.array([[len(b), 1.0] for b in images], dtype=np.float32)


def test_disk_cache_is_keyed_by_method_and_bytes(tmp_path: Path) -> None:
    inner = _Counting()
    cached = CachedEmbedder(inner, cache_dir=tmp_path)
    first = cached.embed([b"aa", b"bbb"])
    again = CachedEmbedder(inner, cache_dir=tmp_path).embed([b"bbb", b"aa", b"c"])
    assert inner.calls == [2, 1]  # only the new image was computed
    np.testing.assert_array_equal(again[:2], first[::-1])
    assert embedding_key("counting-v1", b"aa") != embedding_key("counting-v2", b"aa")
    assert cached.method == "counting-v1"
