"""Package discovery for setuptools (the rest of the metadata is in pyproject.toml).

The repository's ``assets/`` folder is installed as the package ``cartoqa_assets`` (its
sub-folders as its sub-packages) so that a plain ``pip install .`` ships it; every
sub-package of ``cartoqa``, ``groundtruth`` and ``renderers`` is found automatically.
"""

from setuptools import find_namespace_packages, find_packages, setup

ASSET_PACKAGES = [
    "cartoqa_assets",
    *(f"cartoqa_assets.{name}" for name in find_namespace_packages(where="assets")),
]

setup(
    packages=[*find_packages(include=["cartoqa*", "groundtruth*", "renderers*"]), *ASSET_PACKAGES],
    package_dir={"cartoqa_assets": "assets"},
)
