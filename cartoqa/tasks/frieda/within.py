"""FRIEDA within: the task's declaration (see :mod:`cartoqa.tasks.frieda`)."""

from cartoqa.tasks.frieda.spec import frieda_spec

SPEC = frieda_spec("within")
