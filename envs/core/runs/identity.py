"""The identity of a stored point: when a row of the sweep store (envs/core/runs/store.py) may be reused.

A stored row is reused only when its *identity* matches the point asked for: the sha256 of
the canonical JSON of the identity document

    {"store": 1,                          # identity version (bumped when the definition changes)
     "robot": "<Robot class name>",
     "params": {...},                     # ALL resolved robot parameters, not only the swept ones
     "meta": {...},                       # per-point extra key columns (e.g. mass ratios)
     "engine": {"name": "mujoco", "cycles": 20, "min_cycles": 3, "stop_when_steady": true,
                "steady_kw": {...}, ...},  # the run settings that change results or metrics
     "versions": {"mujoco": "3.17.0",     # the simulator ...
                  "models": "<sha256>",   # ... the robot's model files (models/<robot>/*)
                  "code": "<sha256>"},    # ... and the code: the package's whole source (code_hash)
     "schema": [...]}                     # the declared metric and health columns

Canonical encoding: numbers of any type (bool, int, float, numpy scalars) are the float they
equal, written with repr (exact: 1.0 and 1.0 + 1e-12 differ, True == 1 == 1.0, so BOLT's
`body_fixed: false` and 0.0 agree); NaN and infinities are the strings "nan", "inf", "-inf";
strings, null and lists as themselves; objects with sorted keys.  Run settings that cannot
change a result (threads, chunk size, progress bars, the step budget) are not part of it.
Anything else is recomputed, and `Plan.reasons` counts why: "new point", "robot parameters changed",
"run settings changed", "model files changed", "MuJoCo version changed", "code changed", "results
schema changed", "damaged row" (checksum mismatch), "previous error" (only with retry_failed).
"""
from __future__ import annotations

import hashlib
import json
import math
import pathlib
import sys

import numpy as np

from ..model.paths import PACKAGE, files_hash   # PACKAGE: the package gaittwin, every module a run may import

IDENTITY_VERSION = 1


def code_files(robot_cls=None) -> list:
    """The package's whole source (every .py under it): whatever a run imports, an edit recomputes its points.
    A robot defined outside the package (a user's own module) adds that module's file."""
    files = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    mod = getattr(sys.modules.get(getattr(robot_cls, "__module__", None)), "__file__", None)
    if mod and PACKAGE not in pathlib.Path(mod).resolve().parents:
        files.append(pathlib.Path(mod).resolve())
    return files


def code_hash(robot_cls=None) -> str:
    """sha256 of code_files(robot_cls) (names and contents), hashed again when a file changes."""
    return files_hash(tuple((f, f.stat().st_mtime_ns, f.stat().st_size) for f in code_files(robot_cls)), PACKAGE)


# ---- canonical encoding -----------------------------------------------------------------
def canon(v):
    """The canonical, type-stable form of a value (see the module docstring)."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating)):
        x = float(v)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(v, dict):
        return {str(k): canon(v[k]) for k in sorted(v, key=str)}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [canon(x) for x in v]
    if hasattr(v, "item"):
        return canon(v.item())
    return str(v)


def dumps(obj) -> str:
    """Canonical JSON (sorted keys, exact floats via repr, no whitespace)."""
    return json.dumps(canon(obj), sort_keys=True, separators=(",", ":"), allow_nan=False)


def key_of(values: dict, columns) -> str:
    return dumps([values.get(c) for c in columns])


def identity_of(doc: dict) -> tuple[str, str]:
    """(sha256 hex, canonical JSON) of an identity document."""
    text = dumps(doc)
    return hashlib.sha256(text.encode()).hexdigest(), text


# ---- why a stored row is not reused -----------------------------------------------------
REASONS = (("robot", "robot parameters changed"), ("params", "robot parameters changed"),
           ("meta", "robot parameters changed"), ("engine", "run settings changed"),
           ("schema", "results schema changed"), ("store", "identity definition changed"))


def stale_reason(old_ident: str, new_doc: dict) -> str:
    """Why a stored identity document differs from a new one (the first difference that matters)."""
    try:
        old = json.loads(old_ident)
    except ValueError:
        return "damaged row"
    new = json.loads(dumps(new_doc))
    for part, why in REASONS:
        if old.get(part) != new.get(part):
            return why
    ov, nv = old.get("versions", {}), new.get("versions", {})
    if ov.get("models") != nv.get("models"):
        return "model files changed"
    if ov.get("mujoco") != nv.get("mujoco"):
        return "MuJoCo version changed"
    if ov.get("code") != nv.get("code"):
        return "code changed"       # a module of the package (code_hash)
    if ov != nv:
        return "software version changed"
    return "identity changed"
