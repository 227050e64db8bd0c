"""Writing and checking dataset folders (``docs/dataset-format.md``).

- :mod:`cartoqa.dataset.schema` — the item JSON schema shipped in the package.
- :mod:`cartoqa.dataset.writer` — the staged, resumable, atomically finalised writer.
- :mod:`cartoqa.dataset.manifest` — counts, versions and attribution in ``manifest.json``.
- :mod:`cartoqa.dataset.card` — the dataset card ``README.md``.
- :mod:`cartoqa.dataset.validate` — the checks behind ``cartoqa validate``.
- :mod:`cartoqa.dataset.reader` — reading items and their images (run, export, score).
"""

from __future__ import annotations

#: Attribution every dataset carries (ODbL 1.0, section 4.3).
ATTRIBUTION = "© OpenStreetMap contributors"
#: Licence of the map data the images and answers derive from.
DATA_LICENSE = "ODbL-1.0 (Open Database License), https://opendatacommons.org/licenses/odbl/"
