"""The package map: the repository's folders become one installed package, `gaittwin`.

envs/ is the package itself, models/ and configs/ its data (gaittwin/models, gaittwin/configs);
nothing else is installed at the top level.  Everything else is declared in pyproject.toml.
"""
from setuptools import find_namespace_packages, find_packages, setup

CODE = ["gaittwin"] + [f"gaittwin.{p}" for p in find_packages("envs")]
DATA = {top: [top] + [f"{top}.{p}" for p in find_namespace_packages(folder)]
        for top, folder in (("gaittwin.models", "models"), ("gaittwin.configs", "configs"))}

setup(
    packages=CODE + DATA["gaittwin.models"] + DATA["gaittwin.configs"],
    package_dir={"gaittwin": "envs", "gaittwin.models": "models", "gaittwin.configs": "configs"},
    package_data={"gaittwin": ["**/*.json", "**/*.csv", "bolt/*.c"],
                  **{p: ["*.xml", "*.md", "*.csv", "*.png", "*.yaml"] for p in DATA["gaittwin.models"] + DATA["gaittwin.configs"]}},
)
