"""A throw-away cache folder for tests that start the project's PostgreSQL cluster.

pytest's own temporary folders are private to the user running the tests, but the
cluster runs as the unprivileged ``postgres`` user when the tests run as root: the
folder must be world-readable. Afterwards the cluster, if one was created, is
stopped and deleted, then the folder.

Usage::

    from helpers.postgis_cache import postgis_cache_dir

    @pytest.fixture(scope="module")
    def cache_dir() -> Iterator[Path]:
        with postgis_cache_dir("cartoqa-test-pg-") as folder:
            yield folder
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from renderers.postgis import PostgisCluster


@contextmanager
def postgis_cache_dir(prefix: str) -> Iterator[Path]:
    """A fresh ``CARTOQA_CACHE``-style folder the ``postgres`` user can reach.

    Parameters
    ----------
    prefix : str
        Prefix of the temporary folder's name.

    Yields
    ------
    pathlib.Path
        The folder (mode 0755). On exit a cluster initialised in it is destroyed
        (one never initialised is not created just to be destroyed) and the folder
        is removed.
    """
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    folder.chmod(0o755)
    try:
        yield folder
    finally:  # also after an interrupted run (Ctrl-C, a failed fixture)
        if any(folder.iterdir()):  # untouched (a run without builds): no cluster to look for
            cluster = PostgisCluster(folder)
            if (cluster.data_dir / "PG_VERSION").exists():
                cluster.destroy()
        shutil.rmtree(folder, ignore_errors=True)
