"""Run the blind baselines over a dataset and write one predictions file per baseline."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cartoqa.baselines import BASELINES
from cartoqa.baselines.blind import (
    majority_baseline,
    prompt_example_baseline,
    random_baseline,
    text_prior_baseline,
)
from cartoqa.baselines.ocr import Reader, ocr_baseline
from cartoqa.errors import CartoqaError

#: The prefix of the baselines' predictions files (``baseline-random.jsonl``): the file
#: name is the model's name in ``cartoqa report``.
FILE_PREFIX = "baseline-"


def parse_names(text: str | None) -> list[str]:
    """The baselines named in ``--baselines`` (all when ``None``), in report order.

    Examples
    --------
    >>> parse_names("ocr,random")
    ['random', 'ocr']
    """
    if text is None:
        return list(BASELINES)
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BASELINES]
    if unknown or not names:
        raise CartoqaError(f"unknown baseline {unknown[0] if unknown else '(none)'!r}",
                           fix=f"choose out of {','.join(BASELINES)}")
    return [n for n in BASELINES if n in names]


def baseline_predictions(dataset: Path, items: Sequence[Mapping[str, Any]], *,
                         names: Sequence[str] = tuple(BASELINES),
                         train: Sequence[Mapping[str, Any]] | None = None, seed: int = 0,
                         reader: Reader | None = None) -> dict[str, dict[str, str]]:
    """Every named baseline's responses.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset folder (the OCR baseline reads its images).
    items : sequence of mapping
        Its items.
    names : sequence of str
        Baselines to run, keys of :data:`cartoqa.baselines.BASELINES`.
    train : sequence of mapping, optional
        Items of another build that the majority learns from (and that widen the answer
        spaces); without it the majority is leave-one-out.
    seed : int
        The random baseline's seed.
    reader : callable, optional
        The OCR reader (default Tesseract).

    Returns
    -------
    dict
        Baseline name -> (item id -> response).
    """
    extra = list(train or ())
    makers = {
        "random": lambda: random_baseline(items, seed=seed, extra=extra),
        "majority": lambda: majority_baseline(items, train),
        "prompt_example": lambda: prompt_example_baseline(items),
        "text_prior": lambda: text_prior_baseline(items, extra),
        "ocr": lambda: ocr_baseline(items, dataset, reader=reader, extra=extra),
    }
    return {name: makers[name]() for name in names}


def write_predictions(path: Path, name: str, responses: Mapping[str, str]) -> None:
    """Write one baseline's predictions file atomically (``cartoqa run``'s format).

    Parameters
    ----------
    path : pathlib.Path
        The file to write.
    name : str
        The baseline (recorded as ``model``: ``baseline:<name>``).
    responses : mapping
        Response per item id, written in id order.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for item_id in sorted(responses):
                fh.write(json.dumps({"id": item_id, "response": responses[item_id],
                                     "model": f"baseline:{name}"}, ensure_ascii=False)
                         + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
