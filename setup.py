"""Package discovery for setuptools (the rest of the metadata is in pyproject.toml).

The repository's ``assets/`` folder is installed as the package ``cartoqa_assets`` so
that a plain ``pip install .`` ships it; every sub-package of ``cartoqa``,
``groundtruth`` and ``renderers`` is found automatically.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["cartoqa*", "groundtruth*", "renderers*"]), "cartoqa_assets"],
    package_dir={"cartoqa_assets": "assets"},
)
