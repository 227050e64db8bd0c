"""Subcommands of the ``cartoqa`` CLI, one module each (see :mod:`cartoqa.cli`)."""
