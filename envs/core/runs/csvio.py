"""The results files' one CSV format: exact floats (repr), True/False, '' for missing; and strict JSON
(summary.json: NaN and infinities as null); both written atomically (tmp, fsync, rename)."""
from __future__ import annotations

import csv
import json
import math
import os
import pathlib

import numpy as np


def _json_default(o):
    if isinstance(o, (np.bool_,)):
        return bool(o)
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def fmt(v):
    """A value as written to a CSV cell: '' for missing, repr for floats (exact), True/False."""
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, np.integer):
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return json.dumps(v, default=_json_default)
    return v


def parse(v):
    """A CSV cell back: True/False, floats where numeric, '' stays '' (missing)."""
    if v in ("True", "False"):
        return v == "True"
    try:
        return float(v)
    except (TypeError, ValueError):
        return v


def replace_atomically(path, write) -> None:
    """Replace `path` by what write(f) writes to a text file f: a temporary file beside it, fsync, rename
    (a reader sees the old file or the whole new one; a failed write leaves the old file, no temporary)."""
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", newline="") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_csv(path, columns, rows) -> None:
    """Replace `path` by a CSV of `rows` (dicts) with `columns`, atomically (tmp, fsync, rename)."""
    def write(f):
        w = csv.writer(f)
        w.writerow(columns)
        for row in rows:
            w.writerow([fmt(row.get(c)) for c in columns])
    replace_atomically(path, write)


def read_csv(path) -> list[dict]:
    """Rows of a CSV with numeric cells as floats and True/False as bools."""
    with open(path, newline="") as f:
        return [{k: parse(v) for k, v in row.items()} for row in csv.DictReader(f)]


# ---- JSON --------------------------------------------------------------------------------
def write_json(path, obj) -> None:
    """Write strict JSON atomically (tmp, fsync, rename, as write_csv); NaN and infinities become null."""
    text = json.dumps(finite(obj), indent=2, allow_nan=False) + "\n"      # a value JSON cannot hold: nothing written
    replace_atomically(path, lambda f: f.write(text))


def finite(obj):
    """obj with every non-finite float replaced by None (numpy values as Python values)."""
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return finite(obj.tolist())
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, (np.floating, np.integer)):
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
