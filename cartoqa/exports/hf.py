"""Export a dataset as Hugging Face ``datasets`` Parquet with a dataset card.

Layout of the output folder::

    README.md                                  dataset card, YAML ``configs`` block
    data/<task>-00000-of-00001.parquet         one split per task (sharded when large)

Columns: ``id``, ``task``, ``request``, ``image`` (the ``Image`` feature holding the
original PNG bytes and path), ``more_images`` (a multi-map item's further images, in
order, as a list of ``Image``; empty for one-image items, so that no image is stored
twice), ``system_prompt``, ``question``, and ``options``,
``answer``, ``strata``, ``provenance`` as JSON text (their shape differs per task).
An export of a ``build-many`` folder (:mod:`cartoqa.dataset.many`) has a ``city``
column after ``id``. ``load_dataset("path/to/folder")`` gives a ``DatasetDict`` with
one split per task;
:func:`item_from_row` turns a row back into a dataset item.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from cartoqa.dataset.reader import image_files, item_images, tasks_in

#: Columns stored as JSON text.
JSON_COLUMNS: tuple[str, ...] = ("options", "answer", "strata", "provenance")

#: Text columns, in order, besides ``image`` and the JSON columns.
TEXT_COLUMNS: tuple[str, ...] = ("id", "task", "request", "system_prompt", "question")

#: Largest total image bytes in one Parquet shard.
MAX_SHARD_BYTES = 400 * 1024 * 1024

#: Rows per Parquet row group (small groups keep image columns readable in viewers).
ROWS_PER_GROUP = 100


def features(*, city: bool = False) -> Any:
    """Return the ``datasets.Features`` of an exported split.

    Parameters
    ----------
    city : bool, optional
        Add the ``city`` column (exports of a ``build-many`` folder).

    Returns
    -------
    datasets.Features
        Strings for the text and JSON columns, ``Image()`` for ``image``.
    """
    from datasets import Features, Image, Sequence, Value

    spec: dict[str, Any] = {name: Value("string") for name in TEXT_COLUMNS}
    spec["image"] = Image()
    spec["more_images"] = Sequence(Image())
    spec.update({name: Value("string") for name in JSON_COLUMNS})
    order = ["id", "task", "request", "image", "more_images", "system_prompt", "question",
             *JSON_COLUMNS]
    if city:
        spec["city"] = Value("string")
        order.insert(1, "city")
    return Features({name: spec[name] for name in order})


def _as_sequences(spec: Any) -> Any:
    """A features dict with every ``List`` written as ``Sequence`` (see below)."""
    if isinstance(spec, dict):
        out = {key: _as_sequences(value) for key, value in spec.items()}
        if out.get("_type") == "List" and set(out) <= {"_type", "feature"}:
            out["_type"] = "Sequence"
        return out
    if isinstance(spec, list):
        return [_as_sequences(value) for value in spec]
    return spec


def portable_schema(feats: Any) -> Any:
    """Return the Arrow schema of ``feats`` with features metadata every ``datasets`` reads.

    ``datasets`` 4 and later name a list feature ``List`` in the schema's
    ``huggingface`` metadata, which ``datasets`` 3 does not know (``ValueError: Feature
    type 'List' not found``); both read the older name ``Sequence`` (a list of any
    length), which is what is written here. The Arrow types are the same.

    Parameters
    ----------
    feats : datasets.Features
        The features (:func:`features`).

    Returns
    -------
    pyarrow.Schema
        The schema, with ``Sequence`` for ``List`` in its ``huggingface`` metadata.

    Examples
    --------
    >>> import json
    >>> meta = json.loads(portable_schema(features()).metadata[b"huggingface"])
    >>> meta["info"]["features"]["more_images"]
    {'feature': {'_type': 'Image'}, '_type': 'Sequence'}
    """
    schema = feats.arrow_schema
    meta = dict(schema.metadata or {})
    if b"huggingface" in meta:
        info = json.loads(meta[b"huggingface"])
        meta[b"huggingface"] = json.dumps(_as_sequences(info)).encode("utf-8")
    return schema.with_metadata(meta)


def row_from_item(item: dict[str, Any], image_bytes: bytes,
                  more_bytes: Sequence[bytes] = ()) -> dict[str, Any]:
    """Turn a dataset item and its image bytes into an exported row.

    Parameters
    ----------
    item : dict
        One item.
    image_bytes : bytes
        The item's image file.
    more_bytes : sequence of bytes, optional
        The files of a multi-map item's further images (``images[1:]``), in order.

    Returns
    -------
    dict
        The row; ``options`` is None when the item has no options.

    Examples
    --------
    >>> row = row_from_item({"id": "a", "task": "rle", "image": "images/a.png",
    ...                      "question": "q", "answer": {"value": 1.5, "unit": "m"}}, b"P")
    >>> row["answer"], row["image"]["path"], row["options"]
    ('{"value": 1.5, "unit": "m"}', 'images/a.png', None)
    """
    row: dict[str, Any] = {
        "id": str(item["id"]),
        "task": str(item["task"]),
        "request": str(item.get("request") or ""),
        "image": {"bytes": image_bytes, "path": str(item["image"])},
        "more_images": [{"bytes": data, "path": rel}
                        for data, rel in zip(more_bytes, item_images(item)[1:], strict=True)],
        "system_prompt": str(item.get("system_prompt") or ""),
        "question": str(item["question"]),
    }
    for name in JSON_COLUMNS:
        value = item.get(name)
        row[name] = None if value is None else json.dumps(value, ensure_ascii=False)
    if "city" in item:
        row["city"] = str(item["city"])
    return row


def item_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """Turn an exported row back into a dataset item (the image as its path).

    Parameters
    ----------
    row : dict
        A row of an exported split, loaded with ``Image(decode=False)`` or as raw
        Parquet (``image`` is then ``{"bytes": ..., "path": ...}``); a decoded PIL
        image keeps its ``filename`` when it has one.

    Returns
    -------
    dict
        The item as in ``items.jsonl``.
    """
    image = row["image"]
    if isinstance(image, dict):
        path = image.get("path") or ""
    else:
        path = getattr(image, "filename", "") or ""
    item: dict[str, Any] = {
        "id": row["id"],
        "task": row["task"],
        "request": row["request"],
        "image": path,
        "system_prompt": row["system_prompt"],
        "question": row["question"],
    }
    more = [m.get("path") if isinstance(m, dict) else getattr(m, "filename", "")
            for m in row.get("more_images") or []]
    if more:
        item["images"] = [path, *(str(p or "") for p in more)]
    for name in JSON_COLUMNS:
        text = row.get(name)
        item[name] = None if text is None else json.loads(text)
    if row.get("city") is not None:
        item["city"] = row["city"]
    return item


def shard_plan(sizes: Sequence[int], *, max_bytes: int = MAX_SHARD_BYTES) -> list[range]:
    """Split consecutive rows into shards of at most ``max_bytes`` image bytes.

    A single row larger than ``max_bytes`` gets a shard of its own.

    Parameters
    ----------
    sizes : sequence of int
        Image bytes of each row, in order.
    max_bytes : int
        Budget per shard.

    Returns
    -------
    list of range
        Row index ranges, covering every row once (one empty range for no rows).

    Examples
    --------
    >>> shard_plan([4, 4, 4, 9, 1], max_bytes=8)
    [range(0, 2), range(2, 3), range(3, 4), range(4, 5)]
    >>> shard_plan([])
    [range(0, 0)]
    """
    shards: list[range] = []
    start, total = 0, 0
    for index, size in enumerate(sizes):
        if index > start and total + size > max_bytes:
            shards.append(range(start, index))
            start, total = index, 0
        total += size
    shards.append(range(start, len(sizes)))
    return shards


def _rows(dataset: Path, items: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        first, *more = image_files(dataset, item)
        yield row_from_item(item, first.read_bytes(), [p.read_bytes() for p in more])


def write_split(dataset: Path, items: Sequence[dict[str, Any]], folder: Path,
                split: str) -> list[str]:
    """Write one split's Parquet shards, streaming rows (images are not all in memory).

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder (for the images).
    items : sequence of dict
        The split's items.
    folder : pathlib.Path
        Where the shards go.
    split : str
        The split name (a task name).

    Returns
    -------
    list of str
        The shard file names written.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    feats = features(city=any("city" in item for item in items))
    schema = portable_schema(feats)
    sizes = [sum(p.stat().st_size for p in image_files(dataset, item)) for item in items]
    plan = shard_plan(sizes)
    names: list[str] = []
    for number, rows in enumerate(plan):
        name = f"{split}-{number:05d}-of-{len(plan):05d}.parquet"
        with pq.ParquetWriter(folder / name, schema) as writer:
            chunk = [items[i] for i in rows]
            for start in range(0, len(chunk), ROWS_PER_GROUP):
                batch = [feats.encode_example(row)
                         for row in _rows(dataset, chunk[start:start + ROWS_PER_GROUP])]
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
        names.append(name)
    return names


def dataset_card(
    *,
    name: str,
    splits: dict[str, int],
    source_card: str | None,
    feature_yaml: list[dict[str, Any]],
) -> str:
    """Return the dataset card (README.md) with its YAML header.

    Parameters
    ----------
    name : str
        The dataset's pretty name.
    splits : dict
        Split name to number of examples, in order.
    source_card : str, optional
        The source dataset's README, appended below.
    feature_yaml : list of dict
        The ``dataset_info.features`` entries.

    Returns
    -------
    str
        The card's text.
    """
    import yaml

    header = {
        "pretty_name": name,
        "license": "odbl",
        "task_categories": ["visual-question-answering"],
        "language": ["en"],
        "tags": ["maps", "openstreetmap", "cartoqa", "cartomapqa"],
        "configs": [
            {
                "config_name": "default",
                "data_files": [{"split": split, "path": f"data/{split}-*"} for split in splits],
            }
        ],
        "dataset_info": {"features": feature_yaml},
    }
    lines = [
        "---",
        yaml.safe_dump(header, sort_keys=False, allow_unicode=True).rstrip(),
        "---",
        "",
        f"# {name}",
        "",
        "A map visual-question-answering benchmark generated by cartoqa from "
        "OpenStreetMap data.",
        "",
        "Map data © OpenStreetMap contributors, available under the Open Database "
        "License (ODbL).",
        "",
        "## Splits",
        "",
        "| split | examples |",
        "|---|---|",
        *[f"| {split} | {n} |" for split, n in splits.items()],
        "",
        "## Columns",
        "",
        "`id`, `task`, `request`, `image` (the map image, PNG), `more_images` (the "
        "further maps of a multi-map item, in order; empty otherwise), `system_prompt`, "
        "`question` (the full user text shown to the model), and as JSON text: "
        "`options` (MFS letters to labels), `answer`, `strata`, `provenance`.",
        *(["", "`city`: the city of the item (one dataset of several cities; `id` is "
           "`<city>/<id in the city's dataset>`)."]
          if any(f.get("name") == "city" for f in feature_yaml) else []),
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("path/to/this/folder")   # splits: {", ".join(splits)}',
        "```",
        "",
        "Score answers with `cartoqa score`; see the cartoqa README.",
    ]
    body = strip_front_matter(source_card or "").strip()
    if body:
        lines += ["", "## Source dataset card", "", body]
    return "\n".join(lines) + "\n"


def strip_front_matter(text: str) -> str:
    """Remove a leading YAML block (``---`` ... ``---``) from a Markdown text.

    Parameters
    ----------
    text : str
        Markdown, perhaps starting with a YAML header.

    Returns
    -------
    str
        The text without the header.

    Examples
    --------
    >>> strip_front_matter("---\\na: 1\\n---\\n# Title\\n")
    '# Title\\n'
    """
    if not text.startswith("---"):
        return text
    end = text.find("\n---", 3)
    if end < 0:
        return text
    rest = text[end + 4:]
    return rest[1:] if rest.startswith("\n") else rest


def _feature_yaml(*, city: bool = False) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name, feature in features(city=city).items():
        if type(feature).__name__ in ("Sequence", "List"):  # a list of images
            out.append({"name": name, "sequence": "image"})
            continue
        dtype = "image" if type(feature).__name__ == "Image" else "string"
        out.append({"name": name, "dtype": dtype})
    return out


def write_hf(dataset: Path, items: Sequence[dict[str, Any]], folder: Path, *,
             name: str) -> dict[str, int]:
    """Write the Parquet splits and the dataset card into ``folder``.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder.
    items : sequence of dict
        Its items.
    folder : pathlib.Path
        An existing, empty output folder.
    name : str
        Pretty name for the card.

    Returns
    -------
    dict
        Split name to number of examples.
    """
    data = folder / "data"
    data.mkdir()
    splits: dict[str, int] = {}
    for task in tasks_in(list(items)):
        chosen = [item for item in items if str(item["task"]) == task]
        write_split(dataset, chosen, data, task)
        splits[task] = len(chosen)
    source = dataset / "README.md"
    card = dataset_card(name=name, splits=splits,
                        source_card=source.read_text(encoding="utf-8")
                        if source.is_file() else None,
                        feature_yaml=_feature_yaml(city=any("city" in it for it in items)))
    (folder / "README.md").write_text(card, encoding="utf-8")
    return splits
