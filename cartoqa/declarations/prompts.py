"""Prompt templates shipped in ``assets/prompts/`` (``$name`` placeholders, optional lines).

A line that starts with ``?`` is optional: it is kept (without the ``?``) when every
placeholder on it has a value, and left out when one of them is missing, ``None`` or
empty, so that a three-option item prints no ``D.`` line. Every placeholder of the
other lines must be given.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from string import Template

from groundtruth.assets import asset_path

#: Marks an optional line of a template.
OPTIONAL = "?"


def prompt_path(name: str) -> Path:
    """Return the file of a prompt template.

    Parameters
    ----------
    name : str
        Template name, e.g. ``"mml_roads"``, or the path of a ``.txt`` template kept
        elsewhere (a task that is not shipped, such as the worked example of
        ``docs/build.md``, keeps its prompt beside its module).

    Returns
    -------
    pathlib.Path
        ``assets/prompts/<name>.txt``, or the path given (which need not exist).
    """
    if name.endswith(".txt"):
        return Path(name)
    return Path(asset_path("prompts", f"{name}.txt"))


@cache
def _text(name: str) -> str:
    return prompt_path(name).read_text("utf-8").strip()


def fill(text: str, values: Mapping[str, object]) -> str:
    """Fill a template's text: drop the optional lines that lack a value, substitute.

    Parameters
    ----------
    text : str
        The template, ``$placeholders`` and optional lines (starting with ``?``).
    values : mapping
        Placeholder -> value (``None`` or ``""`` counts as missing on an optional line).

    Returns
    -------
    str
        The filled text.

    Raises
    ------
    KeyError
        When a placeholder of a line that is not optional has no value.

    Examples
    --------
    >>> print(fill("Pick one:\\nA. $A\\n?B. $B\\n?C. $C", {"A": "park", "B": "bank"}))
    Pick one:
    A. park
    B. bank
    """
    kept = []
    for line in text.split("\n"):
        if line.startswith(OPTIONAL):
            line = line[len(OPTIONAL):]
            names = Template(line).get_identifiers()
            if any(values.get(n) is None or values.get(n) == "" for n in names):
                continue
        kept.append(line)
    given = {k: str(v) for k, v in values.items() if v is not None}
    return Template("\n".join(kept)).substitute(given)


def system_prompt(name: str = "system") -> str:
    """Return a system prompt: the one shared by the single-map tasks by default.

    Parameters
    ----------
    name : str, optional
        Template name: ``"system"`` (one screenshot), ``"system_frieda"`` (one or more
        maps with legends, scale bars and compasses).

    Returns
    -------
    str
        The system prompt.
    """
    return fill(_text(name), {})


def prompt(name: str, **values: object) -> str:
    """Fill the prompt template ``assets/prompts/<name>.txt``.

    Parameters
    ----------
    name : str
        Template name, e.g. ``"mml_roads"``.
    **values
        Values of the template's ``$placeholders``; all must be given, except those of
        its optional lines.

    Returns
    -------
    str
        The question text shown to the model.

    Examples
    --------
    >>> "red marker" in prompt("mml_roads", color="red")
    True
    """
    return fill(_text(name), values)
