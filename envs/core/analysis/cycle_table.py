"""Per-cycle tables: measured per-cycle scalars (a stride S, a Delta x, a loss) at several gait points,
the other input of `experiment=<robot>_identify` besides a trajectory.

    table.csv    one row per measured gait point: gait columns (robot parameters in config units,
                 e.g. n, alpha_deg) that set the twin's point for that row, then measured columns
                 (the robot's declared per-cycle scalars, envs/<robot>/channels.py `CYCLE`, SI)
    table.json   the sidecar: {"format": "gaittwin per-cycle table 1", "robot", "units": {column:
                 unit}, optionally "scale": {measured column: its measurement scale in SI, e.g. the
                 printed resolution (default: the column's spread over the rows)}, "source"}

A column is a gait column when it names a robot parameter, a measured one when it names a declared
per-cycle scalar; anything else is refused.  `load(path, robot)` reads either kind of input (by the
sidecar's `format`), and `read` refuses a bad table with one ConfigError naming `experiment.data`
(exit code 2, nothing written): a missing file or sidecar, an unknown or duplicated column, no
measured column, a unit that differs from the declaration, an empty, non-numeric or non-finite cell,
a gait value outside its parameter's allowed range, no rows, a scale that is not a positive number.
"""
from __future__ import annotations

import csv
import dataclasses
import json
import math
import pathlib

from ..model import schema
from . import trajectory as tj
from ..model.errors import ConfigError

FORMAT = "gaittwin per-cycle table 1"
DIMENSIONLESS = ("", "1")


@dataclasses.dataclass
class Table:
    """A per-cycle table read and checked: per row the gait overrides, per measured column its values."""

    path: pathlib.Path
    gait: list                # per row: {gait column: value (config units, int for integer parameters)}
    gait_names: list
    values: dict              # measured column -> (rows,) array, SI
    scale: dict               # measured column -> the sidecar's scale (absent: not given)
    meta: dict
    sha256: str

    @property
    def names(self) -> list[str]:
        return list(self.values)

    @property
    def rows(self) -> int:
        return len(self.gait)


def is_table(path) -> bool:
    """Whether `path`'s sidecar declares a per-cycle table (a missing or bad sidecar: no; the reader refuses it)."""
    try:
        return json.loads(tj.sidecar_path(path).read_text()).get("format") == FORMAT
    except (OSError, ValueError, AttributeError):
        return False


def load(path, robot):
    """A trajectory (envs/core/analysis/trajectory.py) or a per-cycle table, by the sidecar's format."""
    return read(path, robot) if is_table(path) else tj.read(path, robot)


def _refuse(path, why: str):
    raise ConfigError(tj.KEY, str(path), "a per-cycle table.csv with its table.json sidecar (envs/core/analysis/cycle_table.py)", why)


def _same_unit(a: str, b: str) -> bool:
    return a == b or (a in DIMENSIONLESS and b in DIMENSIONLESS)


def read(path, robot) -> Table:
    """Read and check a per-cycle table against `robot`'s parameters and per-cycle scalars (module docstring)."""
    path = pathlib.Path(path)
    fields, cyc = schema.fields(type(robot).Params), tj.cycle_channels(robot)
    measured: list = []

    def expect(header) -> dict:
        unknown = [h for h in header if h not in fields and h not in cyc]
        if unknown:
            _refuse(path, f"unknown column {unknown[0]!r}: neither a {robot.name} parameter nor one of its per-cycle "
                          f"scalars {list(cyc)}")
        measured.extend(h for h in header if h in cyc)
        if not measured:
            _refuse(path, f"no measured column: {robot.name}'s per-cycle scalars are {list(cyc)}")
        return {h: cyc[h].unit if h in cyc else fields[h].spec.unit for h in header}

    header, a, meta, sha = tj.read_csv(path, _refuse, expect, _same_unit)
    scale = meta.get("scale") or {}
    if not isinstance(scale, dict):
        _refuse(path, f"sidecar scale = {scale!r}: an object {{measured column: a positive number}}")
    for h, s in scale.items():
        if h not in measured or isinstance(s, bool) or not isinstance(s, (int, float)) or not 0 < s < math.inf:
            _refuse(path, f"sidecar scale.{h} = {s!r}: a positive number for a measured column {measured}")
    if not len(a):
        _refuse(path, "no rows")
    gait_names = [h for h in header if h not in cyc]
    gait = []
    for i in range(len(a)):
        g = {h: a[i, j] for j, h in enumerate(header) if h in gait_names}
        g = {h: (int(v) if fields[h].kind is int and v == int(v) else v) for h, v in g.items()}
        try:
            type(robot)(**{**robot.cfg, **g})
        except ConfigError as e:
            _refuse(path, f"row {i + 2}: {e}")
        gait.append(g)
    values = {h: a[:, j] for j, h in enumerate(header) if h in cyc}
    return Table(path, gait, gait_names, values, {h: float(s) for h, s in scale.items()}, meta, sha)


def write(path, robot_name: str, columns: dict, units: dict, scale: dict | None = None, source: str = "") -> None:
    """Write a per-cycle table (columns: name -> values, in row order) and its sidecar."""
    path = pathlib.Path(path)
    names = list(columns)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for row in zip(*(columns[n] for n in names)):
            w.writerow([repr(v) if isinstance(v, float) else v for v in row])
    meta = dict(format=FORMAT, robot=robot_name, units={n: units[n] for n in names}, source=source)
    if scale:
        meta["scale"] = dict(scale)
    tj.sidecar_path(path).write_text(json.dumps(meta, indent=2) + "\n")
