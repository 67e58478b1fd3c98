"""The snake's calibration: the fitted floor friction and step time, their confidence region,
and any snake prediction as an interval over that region.

Calibration, not validation: mu and T_step are fitted to the n = 4 rows of Table 2 (the only
measured Delta x); those rows are `calibration` in the report, every other snake number is a
prediction.

The fit is one use of the identification mechanism (envs/core/analysis/identify.py):
`snake_calibrate` is a `<robot>_identify` on the per-cycle table TABLE2_N4 (envs/snake/table2_n4.csv),
its global stage the grid sweep.mu x sweep.T_step, then least_squares from the grid's best point.

  data        Table 2, n = 4, column (d - Delta x)/d: 13, 11, 9 % (alpha = 30, 45, 58 deg),
              printed in whole per cent (the table's scale: 0.01)
  free        mu (floor, wood: not given) and T_step (not given); everything else is fixed
              (servo stiffness kp = 2000 N m/rad: fixed, not fitted; its sensitivity is in
              models/snake/README.md)
  objective   RMS over the three rows of (loss_twin - loss_paper), loss_twin = (d - Delta x)/d
              with the twin's own d = 10 l d_unit (so the d_unit misprint of row (4, 45) does not enter);
              the fit's `rms_loss` (its cost is this squared over the scale squared)
  region      the grid points whose objective is within DELTA of the minimum.  DELTA = 1 %-point:
              one unit of the last printed digit of each data point (shifting every residual by
              1 %-point moves the RMS by at most 1 %-point), so the data cannot tell these points apart
  extremes    the region's convex-hull vertices (in grid-normalised coordinates) and the best point:
              a prediction is reported as [min, max] over them (`interval`, `predict`)
  local fit   least_squares from the grid's best (summary `local_fit`): a point whose objective is
              below the grid's best by more than DELTA would be a measurably better calibration

The committed result of the refit (`snake_calibrate`, its calibration.json) is DATA below; the
report reads it with `load()` and simulates nothing to know the region.
"""
from __future__ import annotations

import dataclasses
import json
import math
import pathlib

import numpy as np

from ..config import TABLE2_N4  # noqa: F401 (its data; public here too)

FREE = ("mu", "T_step")                 # the calibrated parameters
DELTA = 0.01                            # objective threshold of the confidence region (see above)
DATA = pathlib.Path(__file__).with_name("calibration.json")   # the committed refit (snake_calibrate)


def fit_rows() -> dict:
    """alpha_deg -> the paper's loss (fraction) of the rows used in the fit (Table 2, n = 4)."""
    from .tables import TABLE2
    return {a: v[4] / 100.0 for (n, a), v in TABLE2.items() if n == 4 and v[4] is not None}


def objective(losses: dict) -> float:
    """RMS over the fit rows of (twin loss - paper loss); losses: alpha_deg -> twin loss (fraction).

    Every fit row must be present (a missing or failed row is no fit: NaN)."""
    paper = fit_rows()
    try:
        e = np.array([float(losses[a]) - paper[a] for a in paper])
    except KeyError:
        return math.nan
    return float(np.sqrt(np.mean(e ** 2)))


def grid_table(candidates, names, gait: list) -> list[dict]:
    """The grid of a snake_calibrate run: one entry per global-stage candidate (rows of candidates.csv
    with their x), its values, the twin's loss per alpha (`loss_row<i>` of row i of the table, whose
    gait is `gait`) and the objective `rms_loss_error` (the fit's rms_loss; NaN for a failed point)."""
    out = []
    for c in candidates:
        failed = bool(c.get("error")) or c.get("rms_loss") in (None, "")
        losses = {} if failed else {f"{g['alpha_deg']:g}": float(c[f"loss_row{i + 1}"]) for i, g in enumerate(gait)}
        out.append(dict({k: float(v) for k, v in zip(names, c["x"])},
                        rms_loss_error=math.nan if failed else float(c["rms_loss"]), losses=losses))
    return sorted(out, key=lambda d: tuple(d[k] for k in names))


@dataclasses.dataclass
class Region:
    """A confidence region on a grid: the best point, the members within delta, their extremes."""

    names: tuple
    delta: float
    best: dict                  # the grid point of least objective (with its objective)
    members: list               # every grid point with objective <= best + delta
    extremes: list              # convex-hull vertices of the members (and the best point)
    ranges: dict                # name -> (min, max) over the members
    slope: float | None         # trade-off: d(names[1]) / d(names[0]) along the region (least squares)

    def summary(self) -> dict:
        return dict(names=list(self.names), delta=self.delta, best=self.best, ranges=self.ranges,
                    slope=self.slope, extremes=self.extremes, members=len(self.members))


def region(table: list[dict], delta: float = DELTA, names=FREE, key: str = "rms_loss_error") -> Region:
    """The grid points of `table` whose objective `key` is within `delta` of its minimum.

    Points with a NaN objective (failed) never belong.  Raises ValueError on an empty table."""
    ok = [d for d in table if math.isfinite(d[key])]
    if not ok:
        raise ValueError("no grid point with a finite objective")
    best = min(ok, key=lambda d: d[key])
    members = [d for d in ok if d[key] <= best[key] + delta]
    ranges = {k: (min(d[k] for d in members), max(d[k] for d in members)) for k in names}
    return Region(tuple(names), delta, best, members, extreme_points(members, names, best), ranges,
                  _slope(members, names))


def extreme_points(members: list[dict], names, best: dict | None = None) -> list[dict]:
    """The members that are vertices of their convex hull in coordinates scaled to [0, 1] per
    parameter (all members when they are too few or collinear), and `best` (always included,
    last unless it is a vertex); each as {name: value}."""
    pts = np.array([[d[k] for k in names] for d in members], dtype=float)
    span = np.ptp(pts, axis=0) if len(pts) else np.zeros(len(names))
    idx = list(range(len(members)))
    if len(members) > len(names) and np.all(span > 0):
        from scipy.spatial import ConvexHull, QhullError
        try:
            idx = sorted(ConvexHull((pts - pts.min(0)) / span).vertices.tolist())
        except QhullError:          # degenerate (collinear): keep every member
            pass
    out = [{k: members[i][k] for k in names} for i in idx]
    if best is not None and {k: best[k] for k in names} not in out:
        out.append({k: best[k] for k in names})
    return out


def _slope(members, names) -> float | None:
    if len(names) != 2 or len(members) < 2:
        return None
    x = np.array([d[names[0]] for d in members])
    y = np.array([d[names[1]] for d in members])
    return float(np.polyfit(x, y, 1)[0]) if np.ptp(x) > 0 else None


# ---- the committed refit ---------------------------------------------------------------------
def load_data(path=DATA) -> dict:
    """The committed refit as written by `snake_calibrate` (calibration.json): grid, timestep, cycles."""
    return json.loads(pathlib.Path(path).read_text())


def load(path=DATA, delta: float = DELTA) -> Region:
    """The confidence region of the committed refit (calibration.json of `snake_calibrate`)."""
    data = load_data(path)
    return region(data["grid"], delta, tuple(data.get("names", FREE)))


def merge(*datas: dict) -> dict:
    """One refit from several `snake_calibrate` results (e.g. a coarse grid and a refinement):
    the union of their grids and their region.  All must share names, timestep and cycles
    (ValueError otherwise); a point in several is taken from the last."""
    same = {(tuple(d["names"]), d["timestep"], d["cycles"]) for d in datas}
    if len(same) != 1:
        raise ValueError(f"calibration results differ in (names, timestep, cycles): {sorted(same)}")
    names = list(datas[0]["names"])
    grid = {tuple(g[k] for k in names): g for d in datas for g in d["grid"]}
    table = [grid[k] for k in sorted(grid)]
    reg = region(table, DELTA, names)
    return dict(names=names, timestep=datas[0]["timestep"], cycles=datas[0]["cycles"], data=datas[0]["data"],
                best=reg.best, region=reg.summary(), grid=table)


def fitted(path=DATA) -> dict:
    """The fitted values (the best grid point): {mu, T_step, rms_loss_error, losses}."""
    return load(path).best


def interval(f, points=None) -> tuple[float, float, list]:
    """[min, max] of f(point) over `points` (default: the committed region's extremes).

    f: {mu, T_step} -> a number.  Returns (min, max, the values in point order)."""
    points = load().extremes if points is None else points
    vals = [float(f(p)) for p in points]
    return min(vals), max(vals), vals


def predict(points: list[dict], metrics=("dx", "loss"), region_: Region | None = None, cycles: int = 1,
            nthread: int | None = 1) -> list[dict]:
    """Each snake point (config parameters, e.g. {n: 5, alpha_deg: 45}) simulated at every
    extreme point of the region (default: the committed one): per point, for each metric,
    (min, max) and the value at the fitted point (`<metric>_fit`); a failed run makes its
    point's intervals NaN and names it in `error`.  The region's parameters override the point's."""
    from ...core.engines import batch
    from ...core.runs import sweep
    reg = region_ or load()
    robots = extreme_robots(points, reg)
    runs = sweep.run_points(robots, None, None, (), kw=dict(cycles=cycles, nthread=nthread))   # no run directory
    vals = [batch.batch_values(rb, run) for rb, run in zip(robots, runs)]
    return intervals(points, [dict(v, error=e) for v, e in vals], reg, metrics)


def extreme_robots(points: list[dict], reg: Region) -> list:
    """The Snake of every (point, extreme of reg) pair, point-major."""
    from ..robot import Snake
    return [Snake(**{**p, **e}) for p in points for e in reg.extremes]


def intervals(points: list[dict], rows: list[dict], reg: Region, metrics) -> list[dict]:
    """Aggregate the rows of `extreme_robots(points, reg)` (same order) into one row per point:
    metric -> (min, max) over the extremes, `<metric>_fit` at the fitted point, `error`."""
    m = len(reg.extremes)
    ib = reg.extremes.index({k: reg.best[k] for k in reg.names})
    out = []
    for i, p in enumerate(points):
        rs = rows[i * m:(i + 1) * m]
        err = "; ".join(sorted({str(r["error"]) for r in rs if r.get("error")}))
        row = dict(p, error=err)
        for k in metrics:
            xs = [math.nan if r.get("error") else float(r.get(k, math.nan)) for r in rs]
            row[k] = (math.nan, math.nan) if err else (min(xs), max(xs))
            row[f"{k}_fit"] = xs[ib]
        out.append(row)
    return out


if __name__ == "__main__":      # python -m gaittwin.snake.paper.calibration A/calibration.json B/calibration.json > envs/snake/calibration.json
    import sys
    print(json.dumps(merge(*(load_data(a) for a in sys.argv[1:])), indent=2))
