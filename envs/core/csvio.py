"""The results files' one CSV format: exact floats (repr), True/False, '' for missing; written
atomically (tmp, fsync, rename)."""
from __future__ import annotations

import csv
import json
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


def write_csv(path, columns, rows) -> None:
    """Replace `path` by a CSV of `rows` (dicts) with `columns`, atomically (tmp, fsync, rename)."""
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for row in rows:
            w.writerow([fmt(row.get(c)) for c in columns])
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_csv(path) -> list[dict]:
    """Rows of a CSV with numeric cells as floats and True/False as bools."""
    with open(path, newline="") as f:
        return [{k: parse(v) for k, v in row.items()} for row in csv.DictReader(f)]
