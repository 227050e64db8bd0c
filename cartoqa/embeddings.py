"""Image embeddings for choosing MFS distractors: open_clip, or a named non-CLIP fallback.

:class:`OpenClipEmbedder` runs an open_clip model (default ``ViT-B-32``/``openai``) on
CUDA when present, in batches. Its weights come from a local checkpoint file, from the
Hugging Face / open_clip cache, or from the hub when it is reachable; with none of these
it stops with a :class:`~cartoqa.errors.CartoqaError` that names the fix. The only other
method is :class:`PixelHistogramEmbedder` (``pixel-histogram``), which a user must ask
for by name. :class:`CachedEmbedder` keeps every vector on disk keyed by the method and
the image bytes. Every embedder has a ``method`` string that the dataset records.

All vectors are L2-normalised float32 rows, so the Euclidean distance between two is a
monotone function of their cosine similarity.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import os
import re
import socket
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from PIL import Image

from cartoqa.errors import CartoqaError
from cartoqa.settings import cache_path

#: Default open_clip architecture and pretrained tag.
DEFAULT_CLIP_MODEL = "ViT-B-32"
DEFAULT_CLIP_PRETRAINED = "openai"
#: Names accepted by :func:`make_embedder`.
EMBEDDING_METHODS = ("clip", "pixel-histogram")
#: Host probed before trying to download weights (avoids minutes of retries offline).
HUB_HOST = "huggingface.co"


class Embedder(Protocol):
    """Anything that turns images into rows of a matrix."""

    @property
    def method(self) -> str:
        """How the vectors are made, e.g. ``open_clip:ViT-B-32:openai`` (recorded in items)."""
        ...

    def embed(self, images: Sequence[bytes]) -> np.ndarray:
        """Return one L2-normalised row per image (encoded PNG/JPEG bytes)."""
        ...


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Return the rows of a matrix scaled to unit length (zero rows stay zero).

    Parameters
    ----------
    vectors : numpy.ndarray
        Shape ``(n, d)``.

    Returns
    -------
    numpy.ndarray
        Float32, same shape.

    Examples
    --------
    >>> l2_normalise(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[0.6000000238418579, 0.800000011920929], [0.0, 0.0]]
    """
    v = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return (v / np.where(norms == 0, 1.0, norms)).astype(np.float32)


# --------------------------------------------------------------------------- fallback


#: Length of a ``pixel-histogram`` vector: all-pixel histogram (8 levels per channel),
#: foreground histogram (4 levels per channel), 16 x 16 grey thumbnail.
PIXEL_HISTOGRAM_DIM = 8**3 + 4**3 + 16**2


def _joint_histogram(rgb: np.ndarray, levels: int) -> np.ndarray:
    idx = (rgb * levels // 256) @ np.array([levels * levels, levels, 1])
    return np.bincount(idx, minlength=levels**3).astype(np.float64)


def pixel_histogram_vector(png: bytes) -> np.ndarray:
    """Return the ``pixel-histogram`` vector of one image (colour plus coarse shape).

    Three parts, each scaled to unit length, then the whole to unit length: the joint
    RGB histogram of all pixels (8 levels per channel: tells area fills apart), the
    joint histogram of the pixels that differ from the most common colour (4 levels:
    the colour of an icon or line on its background), and a 16 x 16 grey thumbnail
    minus its mean (the shape).

    Parameters
    ----------
    png : bytes
        Encoded image.

    Returns
    -------
    numpy.ndarray
        Float32 vector of length :data:`PIXEL_HISTOGRAM_DIM`.
    """
    with Image.open(io.BytesIO(png)) as im:
        rgb = np.asarray(im.convert("RGB"), dtype=np.int64)
        grey = np.asarray(
            im.convert("L").resize((16, 16), Image.Resampling.BILINEAR), dtype=np.float64
        )
    flat = rgb.reshape(-1, 3)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    colours, counts = np.unique(packed, return_counts=True)
    mode = int(colours[int(np.argmax(counts))])
    background = np.array([mode >> 16, (mode >> 8) & 255, mode & 255])
    fg = flat[np.abs(flat - background).sum(axis=1) > 24]
    if len(fg) == 0:
        fg = flat
    parts = [_joint_histogram(flat, 8), _joint_histogram(fg, 4), (grey - grey.mean()).ravel()]
    unit = [p / n if (n := np.linalg.norm(p)) > 0 else p for p in parts]
    return l2_normalise(np.concatenate(unit)[None, :])[0]


class PixelHistogramEmbedder:
    """The named non-CLIP fallback: colour histogram plus grey thumbnail (no model)."""

    method = "pixel-histogram:v1"

    def embed(self, images: Sequence[bytes]) -> np.ndarray:
        """Return one ``pixel-histogram`` row per image.

        Parameters
        ----------
        images : sequence of bytes
            Encoded images.

        Returns
        -------
        numpy.ndarray
            Shape ``(len(images), PIXEL_HISTOGRAM_DIM)``.
        """
        if not images:
            return np.zeros((0, PIXEL_HISTOGRAM_DIM), dtype=np.float32)
        return np.stack([pixel_histogram_vector(b) for b in images])


# --------------------------------------------------------------------------- open_clip


def hub_reachable(host: str = HUB_HOST, *, timeout: float = 3.0) -> bool:
    """Return whether a TCP connection to ``host:443`` opens within ``timeout`` seconds."""
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def _hub_offline() -> Iterator[None]:
    """Make huggingface_hub use only its local cache, and keep open_clip's log quiet.

    A miss in the local cache is expected (the caller then tries the hub or explains
    what to do), so open_clip's own ``ERROR`` log line about it is suppressed.
    """
    logging.disable(logging.ERROR)
    old = os.environ.get("HF_HUB_OFFLINE")
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants: Any = None
    old_const = None
    try:
        import huggingface_hub.constants as constants

        old_const = constants.HF_HUB_OFFLINE
        constants.HF_HUB_OFFLINE = True
    except ImportError:  # pragma: no cover - open_clip depends on huggingface_hub
        pass
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = old
        if constants is not None:
            constants.HF_HUB_OFFLINE = old_const
        logging.disable(logging.NOTSET)


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:12]


class OpenClipEmbedder:
    """Embed images with an open_clip image tower.

    Parameters
    ----------
    model : str
        open_clip architecture name, e.g. ``"ViT-B-32"``.
    pretrained : str or None
        A pretrained tag known to open_clip (``"openai"``, ``"laion2b_s34b_b79k"``...),
        a path to a local checkpoint file, or ``None`` for random weights (seeded; for
        tests of the code path only, never for a real dataset).
    device : str, optional
        ``"cuda"`` or ``"cpu"``; CUDA when available if omitted.
    batch_size : int
        Images per forward pass.
    weights_dir : pathlib.Path, optional
        Cache folder open_clip downloads to and looks in (its default when omitted).
    seed : int
        Torch seed for ``pretrained=None``.

    Raises
    ------
    CartoqaError
        When open_clip or torch is not installed, or the weights cannot be found.
    """

    def __init__(
        self,
        *,
        model: str = DEFAULT_CLIP_MODEL,
        pretrained: str | None = DEFAULT_CLIP_PRETRAINED,
        device: str | None = None,
        batch_size: int = 64,
        weights_dir: Path | None = None,
        seed: int = 0,
    ) -> None:
        try:
            import open_clip
            import torch
        except ImportError as exc:
            raise CartoqaError(
                f"open_clip is not installed ({exc.name})",
                fix="pip install -e '.[clip]', or choose --embedding pixel-histogram",
            ) from exc
        if batch_size < 1:
            raise CartoqaError("batch size must be at least 1", fix="pass --embed-batch 32")
        self._torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.batch_size = batch_size
        if model not in open_clip.list_models():
            raise CartoqaError(
                f"open_clip has no model {model!r}",
                fix=f"use one of open_clip.list_models(), e.g. {DEFAULT_CLIP_MODEL}",
            )
        cache = str(weights_dir) if weights_dir is not None else None
        if pretrained is None:
            torch.manual_seed(seed)
            net, _, preprocess = open_clip.create_model_and_transforms(model, pretrained=None)
            weights = f"random-seed{seed}"
        elif Path(pretrained).is_file():
            net, _, preprocess = self._create(open_clip, model, str(pretrained), cache)
            weights = f"file-{_file_digest(Path(pretrained))}"
        else:
            tags = open_clip.list_pretrained_tags_by_model(model)
            if pretrained not in tags:
                raise CartoqaError(
                    f"{pretrained!r} is neither a file nor a pretrained tag of {model}",
                    fix=f"pass a checkpoint path or one of: {', '.join(tags) or '(none)'}",
                )
            net, _, preprocess = self._load_tag(open_clip, model, pretrained, cache)
            weights = pretrained
        self._net = net.to(self.device).eval()
        self._preprocess = preprocess
        self._method = f"open_clip:{model}:{weights}"

    @staticmethod
    def _create(open_clip: Any, model: str, pretrained: str, cache: str | None) -> Any:
        try:
            return open_clip.create_model_and_transforms(
                model, pretrained=pretrained, cache_dir=cache
            )
        except Exception as exc:  # open_clip raises RuntimeError, OSError, KeyError...
            raise CartoqaError(
                f"cannot load open_clip weights {pretrained!r} for {model}: {exc}",
                fix="check the checkpoint matches the model, or choose --embedding pixel-histogram",
            ) from exc

    def _load_tag(self, open_clip: Any, model: str, tag: str, cache: str | None) -> Any:
        try:
            with _hub_offline():
                return open_clip.create_model_and_transforms(model, pretrained=tag, cache_dir=cache)
        except Exception as offline_exc:
            if not hub_reachable():
                raise CartoqaError(
                    f"open_clip weights {model}/{tag} are not in the local cache and "
                    f"{HUB_HOST} cannot be reached",
                    fix=(
                        "pass --clip-pretrained PATH to a local checkpoint, fetch the weights "
                        "on a connected machine, or choose --embedding pixel-histogram"
                    ),
                ) from offline_exc
        return self._create(open_clip, model, tag, cache)

    @property
    def method(self) -> str:
        """Return ``open_clip:<model>:<weights>`` (tag, ``file-<sha>`` or ``random-seed<n>``)."""
        return self._method

    def embed(self, images: Sequence[bytes]) -> np.ndarray:
        """Return one L2-normalised image embedding per image.

        Parameters
        ----------
        images : sequence of bytes
            Encoded images.

        Returns
        -------
        numpy.ndarray
            Shape ``(len(images), embed_dim)``, float32.
        """
        torch = self._torch
        rows: list[np.ndarray] = []
        for start in range(0, len(images), self.batch_size):
            batch = []
            for data in images[start : start + self.batch_size]:
                with Image.open(io.BytesIO(data)) as im:
                    batch.append(self._preprocess(im.convert("RGB")))
            with torch.no_grad():
                out = self._net.encode_image(torch.stack(batch).to(self.device))
            rows.append(out.float().cpu().numpy())
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return l2_normalise(np.concatenate(rows))


# --------------------------------------------------------------------------- disk cache


def embedding_key(method: str, image: bytes) -> str:
    """Return the cache key of one image under one method.

    Parameters
    ----------
    method : str
        The embedder's ``method``.
    image : bytes
        The encoded image.

    Returns
    -------
    str
        A hex SHA-256 of the method and the bytes.

    Examples
    --------
    >>> embedding_key("a", b"x") != embedding_key("b", b"x")
    True
    """
    return hashlib.sha256(method.encode() + b"\0" + image).hexdigest()


class CachedEmbedder:
    """Wrap an embedder with an on-disk cache keyed by method and image bytes.

    Parameters
    ----------
    inner : Embedder
        The embedder whose vectors are cached.
    cache_dir : pathlib.Path, optional
        Folder of the cache; ``<cache root>/embeddings`` when omitted.
    """

    def __init__(self, inner: Embedder, *, cache_dir: Path | None = None) -> None:
        self.inner = inner
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", inner.method)
        root = cache_dir if cache_dir is not None else cache_path("embeddings", "x").parent
        self.folder = root / slug
        self.hits = 0
        self.misses = 0

    @property
    def method(self) -> str:
        """Return the wrapped embedder's method."""
        return self.inner.method

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.npy"

    def embed(self, images: Sequence[bytes]) -> np.ndarray:
        """Return the vectors, computing and storing only those not cached yet.

        Parameters
        ----------
        images : sequence of bytes
            Encoded images.

        Returns
        -------
        numpy.ndarray
            One row per image, as the wrapped embedder gives.
        """
        keys = [embedding_key(self.method, b) for b in images]
        found: dict[int, np.ndarray] = {}
        for i, key in enumerate(keys):
            path = self._path(key)
            if path.is_file():
                try:
                    found[i] = np.load(path)
                except (OSError, ValueError):
                    path.unlink(missing_ok=True)
        missing = [i for i in range(len(images)) if i not in found]
        self.hits += len(found)
        self.misses += len(missing)
        if missing:
            fresh = self.inner.embed([images[i] for i in missing])
            for i, row in zip(missing, fresh, strict=True):
                found[i] = row
                path = self._path(keys[i])
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".tmp{os.getpid()}.npy")
                np.save(tmp, row)
                os.replace(tmp, path)
        if not images:
            return self.inner.embed([])
        return np.stack([found[i] for i in range(len(images))]).astype(np.float32)


def make_embedder(
    name: str = "clip",
    *,
    clip_model: str = DEFAULT_CLIP_MODEL,
    clip_pretrained: str | None = DEFAULT_CLIP_PRETRAINED,
    device: str | None = None,
    batch_size: int = 64,
    cache_dir: Path | None = None,
    use_cache: bool = True,
) -> Embedder:
    """Return the embedder a user asked for, with the disk cache.

    Parameters
    ----------
    name : {"clip", "pixel-histogram"}
        ``clip`` runs open_clip (and fails clearly without weights); ``pixel-histogram``
        is the explicitly named non-CLIP fallback.
    clip_model, clip_pretrained : str
        open_clip architecture and pretrained tag or checkpoint path.
    device : str, optional
        Torch device; CUDA when available if omitted.
    batch_size : int
        Images per forward pass.
    cache_dir : pathlib.Path, optional
        Embedding cache folder (default ``<cache root>/embeddings``).
    use_cache : bool
        Whether to wrap the embedder in :class:`CachedEmbedder`.

    Returns
    -------
    Embedder
        Its ``method`` names what it does.

    Raises
    ------
    CartoqaError
        For an unknown name or unavailable CLIP weights.
    """
    inner: Embedder
    if name == "clip":
        inner = OpenClipEmbedder(
            model=clip_model, pretrained=clip_pretrained, device=device, batch_size=batch_size
        )
    elif name == "pixel-histogram":
        inner = PixelHistogramEmbedder()
    else:
        raise CartoqaError(
            f"unknown embedding {name!r}", fix=f"choose one of: {', '.join(EMBEDDING_METHODS)}"
        )
    return CachedEmbedder(inner, cache_dir=cache_dir) if use_cache else inner
