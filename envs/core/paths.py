"""Where the package's data lives: models/ (MJCF) and configs/ (Hydra), installed beside the code.

A wheel installs them inside the package (gaittwin/models, gaittwin/configs); in a checkout
(editable install) they are the repository's top-level folders beside envs/.
"""
from __future__ import annotations

import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1]     # the gaittwin package (envs/ in a checkout)
CHECKOUT = PACKAGE.parent


def _data(name: str) -> pathlib.Path:
    inside = PACKAGE / name
    return inside if inside.is_dir() else CHECKOUT / name


MODELS = _data("models")      # models/<robot>/: MJCF, scene, provenance README
CONFIGS = _data("configs")    # Hydra's config tree (also importable as gaittwin.configs: pkg://)
CONFIG_MODULE = "gaittwin.configs"
