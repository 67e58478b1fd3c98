"""The snake's calibration machinery (envs/snake/paper/calibration.py) on synthetic objectives, and the
committed refit it exposes to the report.

Tolerances: the synthetic objective is exact (no simulation), so membership is decided by the
threshold alone: a point 1e-9 inside it belongs, a point 1e-9 outside does not.
"""
import math

import numpy as np
import pytest

from gaittwin.snake.paper import calibration as cal
from gaittwin.snake.paper.tables import TABLE2


def _valley(mu, T):
    """A tilted quadratic valley (mu and T_step trade off along T = 0.55 + 0.5 (mu - 0.3)), minimum 0.004."""
    u, v = (mu - 0.3) / 0.1, (T - 0.55 - 0.5 * (mu - 0.3)) / 0.05
    return 0.004 + 0.002 * u ** 2 + 0.01 * v ** 2


def _table(f, mus=np.round(np.arange(0.1, 0.61, 0.05), 3), Ts=np.round(np.arange(0.4, 0.71, 0.025), 4)):
    return [dict(mu=float(m), T_step=float(t), rms_loss_error=f(m, t)) for m in mus for t in Ts]


def test_region_keeps_points_within_the_threshold_and_excludes_the_rest():
    table = _table(_valley)
    reg = cal.region(table, delta=0.01)
    assert reg.best["mu"] == pytest.approx(0.3) and reg.best["T_step"] == pytest.approx(0.55)
    inside = {(d["mu"], d["T_step"]) for d in reg.members}
    for d in table:                                    # membership is exactly the threshold test
        assert ((d["mu"], d["T_step"]) in inside) == (d["rms_loss_error"] <= 0.004 + 0.01)
    # falsifiable: a point just outside the threshold is excluded, one just inside is kept
    edge = [dict(mu=0.9, T_step=0.9, rms_loss_error=0.014 + 1e-9), dict(mu=0.95, T_step=0.95, rms_loss_error=0.014 - 1e-9)]
    reg2 = cal.region(table + edge, delta=0.01)
    assert (0.9, 0.9) not in {(d["mu"], d["T_step"]) for d in reg2.members}
    assert (0.95, 0.95) in {(d["mu"], d["T_step"]) for d in reg2.members}
    # the ranges and the trade-off direction of the valley (slope 0.5 s per unit mu)
    assert reg.ranges["mu"][0] < 0.3 < reg.ranges["mu"][1]
    assert reg.slope == pytest.approx(0.5, abs=0.15)
    # a smaller threshold gives a smaller region inside the larger one
    small = cal.region(table, delta=0.002)
    assert {(d["mu"], d["T_step"]) for d in small.members} < inside


def test_extremes_are_hull_vertices_and_interval_spans_a_linear_prediction():
    reg = cal.region(_table(_valley), delta=0.01)
    ext = reg.extremes
    assert {"mu": reg.best["mu"], "T_step": reg.best["T_step"]} in ext
    assert len(ext) < len(reg.members)                 # interior members are not extremes
    # a linear prediction reaches its min and max at hull vertices: the interval equals the
    # min/max over every member
    f = lambda p: 3 * p["mu"] - 2 * p["T_step"]  # noqa: E731
    lo, hi, vals = cal.interval(f, ext)
    every = [f(d) for d in reg.members]
    assert lo == pytest.approx(min(every)) and hi == pytest.approx(max(every))
    assert len(vals) == len(ext)


def test_failed_points_never_belong_and_an_empty_table_is_an_error():
    table = _table(_valley) + [dict(mu=0.3, T_step=0.8, rms_loss_error=math.nan)]
    assert all(math.isfinite(d["rms_loss_error"]) for d in cal.region(table).members)
    with pytest.raises(ValueError):
        cal.region([dict(mu=0.3, T_step=0.5, rms_loss_error=math.nan)])


def test_objective_is_the_rms_over_table2_n4_rows():
    paper = {a: v[4] / 100 for (n, a), v in TABLE2.items() if n == 4}
    assert cal.fit_rows() == paper
    assert cal.objective(paper) == 0.0
    assert cal.objective({a: v + 0.01 for a, v in paper.items()}) == pytest.approx(0.01)
    assert cal.objective({a: v + (0.03 if a == 30 else 0) for a, v in paper.items()}) == pytest.approx(0.03 / math.sqrt(3))
    assert math.isnan(cal.objective({30: 0.13}))      # a missing row is no fit


def test_committed_refit_is_the_configured_default_and_inside_its_region():
    from gaittwin.snake.config import Params
    reg = cal.load()
    p = Params()
    assert reg.best["mu"] == pytest.approx(p.mu) and reg.best["T_step"] == pytest.approx(p.T_step)
    data = cal.load_data()
    assert data["timestep"] == pytest.approx(p.timestep)     # fitted at the default (converged) step
    for k in cal.FREE:                                 # the fitted value and its region are interior to the grid
        grid = sorted({d[k] for d in data["grid"]})
        assert grid[0] < reg.ranges[k][0] <= reg.best[k] <= reg.ranges[k][1] < grid[-1], k


def test_predict_gives_each_point_the_min_and_max_over_the_extremes():
    """Two extremes (slippery and grippy floor) at a coarse step: the interval is the two runs' span,
    the fitted value is the run at the best point (tolerance: identical simulations, 1e-12)."""
    from gaittwin.core.engines import batch
    from gaittwin.snake.robot import Snake
    table = [dict(mu=0.15, T_step=0.5, rms_loss_error=0.010), dict(mu=0.6, T_step=0.5, rms_loss_error=0.005)]
    reg = cal.region(table, delta=0.01)
    assert len(reg.members) == 2 and reg.best["mu"] == 0.6
    pt = dict(n=4, alpha_deg=45, timestep=2.5e-4)
    (res,) = cal.predict([pt], metrics=("dx", "loss"), region_=reg, cycles=1)
    singles = {}
    for mu in (0.15, 0.6):
        rb = Snake(**pt, mu=mu, T_step=0.5)
        singles[mu] = rb.summarize(batch.run_points([rb], cycles=1, nthread=1)[0])
    assert res["error"] == ""
    for k in ("dx", "loss"):
        lo, hi = sorted(singles[mu][k] for mu in singles)
        assert res[k][0] == pytest.approx(lo, abs=1e-12) and res[k][1] == pytest.approx(hi, abs=1e-12)
        assert res[f"{k}_fit"] == pytest.approx(singles[0.6][k], abs=1e-12)
    assert res["dx"][1] - res["dx"][0] > 1e-3          # the floor matters: the interval is not a point


def test_calibrate_convergence_and_intervals_runners_write_their_contract(tmp_path):
    """The three runners at a coarse step (0.25 ms, 1 period): files, region, the interval brackets the fit."""
    import json

    from tests.util import run_script
    coarse = ("robot.timestep=0.00025", "run.cycles=1", "run.progress=false")
    out = tmp_path / "cal"
    res = run_script("scripts/run.py", "experiment=snake_calibrate", "sweep.mu=[0.3,0.5]", "sweep.T_step=[0.5]",
                     "experiment.max_nfev=1",
                     *coarse, f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads((out / "calibration.json").read_text())
    assert len(data["grid"]) == 2 and data["timestep"] == 0.00025 and data["region"]["delta"] == cal.DELTA
    assert data["best"]["rms_loss_error"] == min(d["rms_loss_error"] for d in data["grid"])
    assert (out / "calibration.png").stat().st_size > 10_000
    out = tmp_path / "conv"
    res = run_script("scripts/run.py", "experiment=snake_convergence", "sweep.timestep=[0.0005,0.00025]",
                     "sweep.n=[4]", "sweep.alpha_deg=[30]", *coarse[1:], f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    s = json.loads((out / "summary.json").read_text())
    (row,) = s["convergence"]
    assert len(row["changes"]) == 1 and row["changes"][0] >= 0 and "| 4 | 30 |" in (out / "convergence.md").read_text()
    out = tmp_path / "iv"
    res = run_script("scripts/run.py", "experiment=snake_intervals", "sweep.n=[5]", "sweep.alpha_deg=[45]",
                     *coarse, f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    (r,) = json.loads((out / "summary.json").read_text())["intervals"]
    assert r["kind"] == "prediction" and r["error"] == ""
    for k in ("dx", "loss", "V"):
        assert r[k][0] <= r[f"{k}_fit"] <= r[k][1]
    assert len(list(csv_rows(out / "results.csv"))) == len(cal.load().extremes)


def csv_rows(path):
    import csv
    return csv.DictReader(open(path))


# ---- the refit as one use of the identification (issue #27) -------------------------------------------
def test_table2_n4_file_is_table2s_n4_rows():
    """The refit's data file (a per-cycle table) holds exactly Table 2's n = 4 losses, with their printed
    resolution (1 %-point) as its scale."""
    from gaittwin.core.analysis import cycle_table
    from gaittwin.snake.robot import Snake
    t = cycle_table.read(cal.TABLE2_N4, Snake())
    assert t.gait_names == ["n", "alpha_deg"] and t.names == ["loss"] and t.scale == {"loss": 0.01}
    assert {int(g["alpha_deg"]): float(v) for g, v in zip(t.gait, t.values["loss"])} == cal.fit_rows()
    assert all(g["n"] == 4 for g in t.gait)


def test_identify_reproduces_the_committed_best_grid_point(tmp_path):
    """Same data, same result: the identification's objective (rms_loss of a snake_calibrate candidate) at the
    committed best (mu 0.4, T_step 0.5 s, default timestep, 1 period) equals the committed refit's value.
    Tolerance stated first: 1e-11 (the same simulation; measured identical to every digit)."""
    from gaittwin.core.runs import config
    from gaittwin.core.analysis import cycle_table
    from gaittwin.core.runs.experiment import options
    from gaittwin.core.analysis.identify import search_box
    from gaittwin.core.analysis.identify_cycles import CycleProblem
    from gaittwin.snake.robot import Snake
    cfg = config.compose(["experiment=snake_calibrate", "run.progress=false"])
    best, names = cal.load().best, ["mu", "T_step"]
    lo, hi = search_box(Snake, names, Snake().cfg, {})
    p = CycleProblem(cfg, tmp_path, options(cfg), cycle_table.read(cal.TABLE2_N4, Snake()), names, lo, hi)
    row = p.evaluate([[best["mu"], best["T_step"]]])[0]
    assert abs(row["rms_loss"] - best["rms_loss_error"]) <= 1e-11
    for i, a in enumerate(("30", "45", "58")):
        assert abs(row[f"loss_row{i + 1}"] - best["losses"][a]) <= 1e-11


@pytest.mark.slow
def test_snake_calibrate_through_identify_reproduces_the_committed_refit(tmp_path):
    """Before vs after (issue #27): snake_calibrate (now <robot>_identify on table2_n4.csv) on six committed grid points
    around the optimum, default timestep.  Tolerances stated first: each grid objective equal to the committed one
    within 1e-11 (the same simulation); the best grid point the committed best; the local fit inside the committed
    region's ranges and not measurably better (objective not below the best by more than DELTA), so the default stays.
    Measured: identical to every digit; local fit mu 0.410, T_step 0.507 s, RMS 0.31 %-points (445 s, load ~8)."""
    import json

    from tests.util import run_script
    out = tmp_path / "cal"
    res = run_script("scripts/run.py", "experiment=snake_calibrate", "sweep.mu=[0.35,0.4,0.45]",
                     "sweep.T_step=[0.5,0.525]", "run.progress=false", f"hydra.run.dir={out}")
    assert res.returncode == 0, res.stderr[-2000:]
    data = json.loads((out / "calibration.json").read_text())
    committed = {(g["mu"], g["T_step"]): g["rms_loss_error"] for g in cal.load_data()["grid"]}
    assert len(data["grid"]) == 6
    for g in data["grid"]:
        assert abs(g["rms_loss_error"] - committed[(g["mu"], g["T_step"])]) <= 1e-11, g
    assert (data["best"]["mu"], data["best"]["T_step"]) == (cal.load().best["mu"], cal.load().best["T_step"])
    fit, ranges = data["local_fit"], cal.load().ranges
    assert all(ranges[k][0] <= fit[k] <= ranges[k][1] for k in ("mu", "T_step")), fit
    assert not data["local_fit_measurably_better"] and data["kind"] == "calibration"
    assert fit["rms_loss_error"] >= data["best"]["rms_loss_error"] - cal.DELTA
