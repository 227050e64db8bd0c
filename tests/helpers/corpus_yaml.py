"""The answer corpora's YAML files, parsed once per version of a file and kept.

Both pytest-xdist workers collect every test, and the corpus tests are parametrized by
the corpora's entries, so each worker parses some 226,000 YAML objects at collection:
libyaml scans them, but PyYAML's constructor, which builds them, is Python (about 1.5 s
of each worker's collection, before any test runs). :func:`read_yaml` keeps the parsed
value with :mod:`marshal` in the file's folder's ``__pycache__`` (ignored by git), under
a name that holds a hash of the file's bytes, the loader and the interpreter: an edited
file is parsed again. It writes there only where Python may write bytecode (not under
``PYTHONDONTWRITEBYTECODE``); a value marshal cannot hold (a YAML date) is parsed each time.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import sys
from pathlib import Path
from typing import Any

import yaml

from renderers.files import write_atomic

#: libyaml's loader when PyYAML has it: the same values, a seventh of the time.
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """The value of a UTF-8 YAML file (safe loader), from the kept copy when there is one.

    Parameters
    ----------
    path : pathlib.Path
        The file.

    Returns
    -------
    object
        What ``yaml.load(text, Loader=LOADER)`` returns.
    """
    data = path.read_bytes()
    key = hashlib.sha256(data)
    key.update(f"{LOADER.__module__}.{LOADER.__name__} {yaml.__version__}".encode())
    prefix = f"{path.stem}.{sys.implementation.cache_tag}."
    kept = path.parent / "__pycache__" / f"{prefix}{key.hexdigest()[:20]}.marshal"
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        return marshal.loads(kept.read_bytes())
    value = yaml.load(data.decode("utf-8"), Loader=LOADER)
    if not sys.dont_write_bytecode:
        with contextlib.suppress(OSError, ValueError):
            _keep(kept, prefix, marshal.dumps(value))
    return value


def _keep(kept: Path, prefix: str, blob: bytes) -> None:
    """Write ``blob`` to ``kept`` whole (another worker may read it meanwhile) and remove
    the copies of the file's earlier versions (``<prefix><hash>.marshal``)."""
    write_atomic(kept, blob)
    for old in kept.parent.glob(f"{prefix}*.marshal"):
        if old != kept:
            with contextlib.suppress(OSError):
                old.unlink()
