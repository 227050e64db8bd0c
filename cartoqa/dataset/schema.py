"""The item JSON schema: the base schema shipped in the package, completed from the tasks.

``item.schema.json`` holds what every item shares. :func:`item_schema` adds what the
task declarations (:class:`cartoqa.declarations.spec.TaskSpec`) say: the task names, the id
prefixes, and per task its requests, required strata and options, and per request the
shape of its answer. ``cartoqa validate`` and the dataset writer check items against it.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import jsonschema

from cartoqa.declarations.registry import load_spec, task_specs

if TYPE_CHECKING:
    from cartoqa.declarations.spec import TaskSpec

#: File name of the base schema inside the ``cartoqa.dataset`` package.
SCHEMA_FILE = "item.schema.json"


@cache
def base_schema() -> dict[str, Any]:
    """Return the base item schema (what every item shares), as shipped.

    Returns
    -------
    dict
        The parsed ``item.schema.json``.
    """
    text = resources.files("cartoqa.dataset").joinpath(SCHEMA_FILE).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def task_rule(spec: TaskSpec) -> dict[str, Any]:
    """Return the ``if task == name then ...`` rule of one task's items.

    Parameters
    ----------
    spec : TaskSpec
        The task's declaration.

    Returns
    -------
    dict
        A JSON-schema ``if``/``then`` pair: the task's requests, its required strata,
        options and provenance keys, and the answer of each request.
    """
    requests = [r.name for r in spec.requests]
    properties: dict[str, Any] = {
        "request": {"const": requests[0]} if len(requests) == 1 else {"enum": requests},
    }
    if spec.options_schema is not None:
        properties["options"] = spec.options_schema
    if spec.strata:
        properties["strata"] = {"required": list(spec.strata)}
    if spec.provenance_required:
        properties["provenance"] = {"required": list(spec.provenance_required)}
    then: dict[str, Any] = {"properties": properties}
    if len(spec.requests) == 1:
        properties["answer"] = spec.requests[0].answer_schema
    else:
        then["allOf"] = [
            {"if": {"properties": {"request": {"const": r.name}}},
             "then": {"properties": {"answer": r.answer_schema}}}
            for r in spec.requests
        ]
    return {"if": {"properties": {"task": {"const": spec.name}}}, "then": then}


def complete_schema(base: dict[str, Any], specs: Sequence[TaskSpec]) -> dict[str, Any]:
    """Complete the base schema with the declared tasks.

    Parameters
    ----------
    base : dict
        The base schema (:func:`base_schema`); not modified.
    specs : sequence of TaskSpec
        The task declarations.

    Returns
    -------
    dict
        The item schema: ``task`` one of the names, ``id`` starting with one of them,
        and one rule per task (:func:`task_rule`).
    """
    schema = copy.deepcopy(base)
    names = [s.name for s in specs]
    props = schema["properties"]
    props["task"] = {"enum": names}
    props["id"] = {"type": "string",
                   "pattern": "^(" + "|".join(map(re.escape, names)) + ")-[0-9A-Za-z_.-]+$"}
    schema["allOf"] = [task_rule(s) for s in specs]
    return schema


@cache
def _schema_for(specs: tuple[TaskSpec, ...]) -> dict[str, Any]:
    return complete_schema(base_schema(), specs)


def item_schema() -> dict[str, Any]:
    """Return the item JSON schema (draft 2020-12) of the declared tasks.

    Returns
    -------
    dict
        The base schema completed from :func:`cartoqa.declarations.registry.task_specs`
        (shared: do not modify it).
    """
    return _schema_for(task_specs())


@cache
def _validator_for(specs: tuple[TaskSpec, ...]) -> jsonschema.Draft202012Validator:
    schema = _schema_for(specs)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _validator(tasks: Sequence[str] | None = None) -> jsonschema.Draft202012Validator:
    if tasks is None:
        return _validator_for(task_specs())
    return _validator_for(tuple(load_spec(t) for t in tasks))


def item_errors(item: Any, *, tasks: Sequence[str] | None = None) -> list[str]:
    """Return the schema violations of one item, as short messages.

    Parameters
    ----------
    item : object
        A decoded line of ``items.jsonl``.
    tasks : sequence of str, optional
        Check against the schema of these tasks only (the tasks of a build; the
        dataset writer): an item of one of them gets the same verdict as from the
        schema of every declared task (the other tasks' rules are ``if task == ...``
        and do not apply), an item of another task fails ``task``. It spares a build
        importing every suite's task modules (the FRIEDA ones import the rendering
        stack) and checking every item against forty task rules.

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
    for err in sorted(_validator(tasks).iter_errors(item), key=lambda e: list(e.absolute_path)):
        where = "$" + "".join(
            f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path
        )
        out.append(f"{where}: {err.message}")
    return out
