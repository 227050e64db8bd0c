"""The ``cartoqa`` command line: one subcommand per module in :mod:`cartoqa.commands`.

Each command module defines ``NAME`` (the subcommand), ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int``. Errors a user can cause are
reported in one line on stderr with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from cartoqa import __version__
from groundtruth.errors import UserFacingError

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "cartoqa.commands.render",
    "cartoqa.commands.build",
    "cartoqa.commands.build_many",
    "cartoqa.commands.validate",
    "cartoqa.commands.run",
    "cartoqa.commands.score",
    "cartoqa.commands.export",
)

#: The base of every error a user can cause (CartoqaError, GroundTruthError, RenderError).
USER_ERRORS = (UserFacingError,)


def _load_commands() -> list[ModuleType]:
    return [importlib.import_module(name) for name in COMMAND_MODULES]


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand.

    Returns
    -------
    argparse.ArgumentParser
        The top-level parser.
    """
    parser = argparse.ArgumentParser(
        prog="cartoqa",
        description=(
            "Build map visual-question-answering benchmarks from OpenStreetMap extracts "
            "and score model answers. Map data © OpenStreetMap contributors (ODbL)."
        ),
    )
    parser.add_argument("--version", action="version", version=f"cartoqa {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in _load_commands():
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit status: 0 on success, 2 for a user error, 130 when interrupted.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except USER_ERRORS as exc:
        print(f"cartoqa {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cartoqa {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
