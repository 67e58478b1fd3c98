"""Where the package's data lives: models/ (MJCF) and configs/ (Hydra), installed beside the code.

A wheel installs them inside the package (gaittwin/models, gaittwin/configs); in a checkout
(editable install) they are the repository's top-level folders beside envs/.
"""
from __future__ import annotations

import functools
import hashlib
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[2]     # the gaittwin package (envs/ in a checkout)
CHECKOUT = PACKAGE.parent


def _data(name: str) -> pathlib.Path:
    inside = PACKAGE / name
    return inside if inside.is_dir() else CHECKOUT / name


MODELS = _data("models")      # models/<robot>/: MJCF, scene, provenance README
CONFIGS = _data("configs")    # Hydra's config tree (also importable as gaittwin.configs: pkg://)
CONFIG_MODULE = "gaittwin.configs"


def experiment_files() -> dict:
    """name -> YAML of every experiment: configs/experiment/<robot>/<name>.yaml, or one that belongs to
    no robot (fidelity_report) directly in configs/experiment/."""
    return dict(sorted((f.stem, f) for f in (CONFIGS / "experiment").rglob("*.yaml")))


def experiment_option(name: str) -> str:
    """Hydra's option for experiment `name` (its path in the group: `crawler/crawler_frequency_sweep`);
    an unknown name is returned as it is, for Hydra to refuse."""
    f = experiment_files().get(name)
    return f.relative_to(CONFIGS / "experiment").with_suffix("").as_posix() if f else name


@functools.lru_cache(maxsize=None)
def files_hash(files: tuple, root: pathlib.Path) -> str:
    """sha256 of files' names (relative to root; a file outside it: its name) and contents.  files:
    (path, mtime_ns, size) triples, so an edited file is hashed again."""
    h = hashlib.sha256()
    for f, _, _ in files:
        h.update(str(f.relative_to(root) if f.is_relative_to(root) else f.name).encode() + b"\0")
        data = f.read_bytes()
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()
