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
from typing import NoReturn

from cartoqa import __version__
from cartoqa.stop_signals import StopRequested, stop_signals_as_interrupts
from groundtruth.errors import UserFacingError

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "cartoqa.commands.render",
    "cartoqa.commands.build",
    "cartoqa.commands.build_many",
    "cartoqa.commands.validate",
    "cartoqa.commands.run",
    "cartoqa.commands.score",
    "cartoqa.commands.baselines",
    "cartoqa.commands.report",
    "cartoqa.commands.export",
)

#: The base of every error a user can cause (CartoqaError, GroundTruthError, RenderError).
USER_ERRORS = (UserFacingError,)


class CommandLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line plus a hint, like the rest of the CLI.

    argparse prints the whole usage before an error; cartoqa prints
    ``cartoqa build: error: <what>`` and where to look, and exits with status 2.
    """

    def error(self, message: str) -> NoReturn:
        """Print one line (the error and a ``--help`` hint) on stderr and exit 2."""
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _load_commands() -> list[ModuleType]:
    return [importlib.import_module(name) for name in COMMAND_MODULES]


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every subcommand.

    Returns
    -------
    argparse.ArgumentParser
        The top-level parser.
    """
    parser = CommandLineParser(
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


def _printable(text: str) -> str:
    """One line that any terminal can print (lone surrogates shown as ``\\udXXX``)."""
    line = " ".join(text.splitlines())
    return line.encode("utf-8", "backslashreplace").decode("utf-8")


def _unicode_message(exc: UnicodeError) -> str:
    if isinstance(exc, UnicodeEncodeError):
        return ("a text holds a character that cannot be written as UTF-8 (a lone "
                f"surrogate, {exc.object[exc.start:exc.end]!a})")
    if isinstance(exc, UnicodeDecodeError):
        return (f"a file is not UTF-8 text (byte {exc.object[exc.start:exc.start + 1]!r} "
                f"at offset {exc.start})")
    return f"a text cannot be encoded ({exc})"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name; ``sys.argv[1:]`` when omitted.

    Returns
    -------
    int
        The exit status: 0 on success, 2 for a user error, 130 when interrupted
        (Ctrl-C), 128 + n when stopped by signal n (SIGTERM, SIGHUP).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with stop_signals_as_interrupts():
            return int(args._run(args) or 0)
    except USER_ERRORS as exc:
        print(f"cartoqa {args.command}: error: {_printable(str(exc))}", file=sys.stderr)
        return 2
    except RecursionError:
        # a last guard: the readers refuse nesting beyond cartoqa.limits.MAX_JSON_DEPTH
        print(f"cartoqa {args.command}: error: an input is nested too deeply to read "
              "(see docs/security.md, limits)", file=sys.stderr)
        return 2
    except UnicodeError as exc:
        # a last guard: text that is not UTF-8, or a lone surrogate that cannot be written
        print(f"cartoqa {args.command}: error: {_printable(_unicode_message(exc))}",
              file=sys.stderr)
        return 2
    except OSError as exc:
        # a last guard: a file that cannot be read or written (no space, no permission)
        where = f": {exc.filename}" if exc.filename else ""
        print(f"cartoqa {args.command}: error: {_printable(exc.strerror or str(exc))}"
              f"{_printable(where)}", file=sys.stderr)
        return 2
    except StopRequested as exc:
        print(f"cartoqa {args.command}: stopped by {exc}", file=sys.stderr)
        return 128 + exc.signum
    except KeyboardInterrupt:
        print(f"cartoqa {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
