"""The item JSON schema shipped in the package, and item checks against it."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

#: File name of the schema inside the ``cartoqa.dataset`` package.
SCHEMA_FILE = "item.schema.json"


@cache
def item_schema() -> dict[str, Any]:
    """Return the item JSON schema (draft 2020-12).

    Returns
    -------
    dict
        The parsed schema.
    """
    text = resources.files("cartoqa.dataset").joinpath(SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(item_schema())


def item_errors(item: Any) -> list[str]:
    """Return the schema violations of one item, as short messages.

    Parameters
    ----------
    item : object
        A decoded line of ``items.jsonl``.

    Returns
    -------
    list of str
        Empty when the item conforms; otherwise ``"<json path>: <message>"`` entries.

    Examples
    --------
    >>> item_errors({"id": "x"})[0].startswith("$:")
    True
    """
    out: list[str] = []
    for err in sorted(_validator().iter_errors(item), key=lambda e: list(e.absolute_path)):
        where = "$" + "".join(
            f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path
        )
        out.append(f"{where}: {err.message}")
    return out
