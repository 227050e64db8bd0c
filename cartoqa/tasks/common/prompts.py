"""Prompt templates shipped in ``assets/prompts/`` (``$name`` placeholders)."""

from __future__ import annotations

from functools import cache
from string import Template

from groundtruth.assets import asset_path


@cache
def _template(name: str) -> Template:
    return Template(asset_path("prompts", f"{name}.txt").read_text("utf-8").strip())


def system_prompt(name: str = "system") -> str:
    """Return a system prompt: the one shared by the single-map tasks by default.

    Parameters
    ----------
    name : str, optional
        Template name: ``"system"`` (one screenshot), ``"system_frieda"`` (one or more
        maps with legends, scale bars and compasses).
    """
    return _template(name).substitute()


def prompt(name: str, **values: object) -> str:
    """Fill the prompt template ``assets/prompts/<name>.txt``.

    Parameters
    ----------
    name : str
        Template name, e.g. ``"mml_roads"``.
    **values
        Values of the template's ``$placeholders``; all must be given.

    Returns
    -------
    str
        The question text shown to the model.

    Examples
    --------
    >>> "red marker" in prompt("mml_roads", color="red")
    True
    """
    return _template(name).substitute({k: str(v) for k, v in values.items()})
