"""The residuals of a fit to a trajectory (envs/core/analysis/identify.py's `Problem`: candidates as batched rollouts
through the store) and the channel selection every fit shares; envs/core/analysis/identify_cycles.py's CycleProblem
(per-cycle tables) derives from it.  Split from identify.py so that the runner imports both kinds of fit
and neither imports the runner."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..runs import config
from . import identify_stats as ist
from ..runs import sweep as sw
from . import trajectory as tj
from ..model.errors import ConfigError

FAILED_COST = 1e6             # a candidate whose simulation failed


def fit_engine(base: sw.Engine, simulate, identity: dict) -> sw.Engine:
    """The batch engine `base` (engines.batch_engine) computing a fit's candidates with `simulate`, a
    candidate's identity adding `identity`; engine=auto: its parts likewise, so that each candidate's
    row is filed under the engine that ran it (summary.json's engine_split names it)."""
    parts = tuple(dataclasses.replace(p, settings=dict(p.settings, **identity)) for p in base.parts)
    return sw.Engine(base.name, simulate, dict(base.settings, **identity), versions=base.versions, check=base.check,
                     parts=parts)


def ran_by(engine: sw.Engine, names) -> tuple:
    """add()'s `by` for a candidate whose runs ran on engines `names` (engine=auto: the one engine that
    ran them all; () otherwise)."""
    if not engine.parts:
        return ()
    by = set(names)
    if len(by) != 1:
        raise RuntimeError(f"engine=auto split one candidate's runs between {sorted(by)}: its row cannot be filed "
                           "under one engine; rerun with engine=mujoco or engine=warp")
    return tuple(by)


class Problem:
    """The fit's residuals, evaluated as batched rollouts through the store."""

    def __init__(self, cfg, out, opts, data: tj.Data, names, lo, hi):
        launcher = config.validate(cfg)["run"]["launcher"]
        if launcher != "local":       # its candidates' trajectories are recorded and scored in this process
            raise ConfigError("run.launcher", launcher, "local for a fit to a trajectory (each candidate's recorded "
                              "trajectory is scored in this process; a fit to a per-cycle table runs on Ray)")
        self.setup(cfg, out, opts, data, names, lo, hi)
        chans = tj.channels(self.nominal)
        drop = check_data(data, chans, opts, self.nominal.period)
        want, self.weights = select_channels(opts, data.names, [n for n in data.names
                                                                if chans[n].kind == "value" and n not in drop])
        self.channels = want
        self.chans = {c: chans[c] for c in want}
        self.n = len(data.t)
        self.meas = {c: data.values[c] - (data.values[c].mean() if chans[c].relative else 0.0) for c in want}
        self.scale = {c: max(float(np.std(data.values[c])), 1e-12) for c in want}
        self.noise = {c: ist.noise_estimate(data.values[c]) for c in want}   # the data's own noise (misfit check)
        self.offset_max = (self.nominal.period if opts["offset_max"] is None else float(opts["offset_max"])) \
            if opts["time_offset"] else 0.0
        corners = [self.robot(np.where(np.arange(len(names)) == j, x, (lo + hi) / 2))
                   for j in range(len(names)) for x in (lo, hi)]
        t_end = float(data.t[-1]) + self.offset_max
        self.cycles = max(1, max(math.ceil(t_end / r.period + 1e-9) for r in corners + [self.nominal]))
        self.engine = self.make_engine(cfg, dict(cycles=self.cycles, stop_when_steady=False), dict(
            cycles=self.cycles, data=data.sha256, channels=want, weights=self.weights.tolist(),
            offset_max=self.offset_max, fit="identify 1"))
        self.metrics = ["cost", "time_offset"] + [f"rms_{c}" for c in want]

    def setup(self, cfg, out, opts, data, names, lo, hi) -> None:
        """What every fit shares: the robot class, the nominal point, the search box, the bookkeeping.
        noise: the data's own noise per channel (the misfit check; {} where the data cannot show it)."""
        v = config.validate(cfg)
        self.cls, self.base, self.names, self.lo, self.hi, self.data = v["robot_cls"], v["robot"], names, lo, hi, data
        self.out, self.opts = out, opts
        self.nominal = self.cls(**self.base)
        self.noise: dict = {}
        self.offset_max = 0.0
        self.cache: dict = {}
        self.best_cost = math.inf         # the lowest cost of any candidate evaluated
        self.nonlinearity: list = []     # per parameter, at the last Jacobian (identify_stats)
        self.evaluations = 0
        self.reused = 0            # candidates taken from the store (a rerun into the same directory)

    def make_engine(self, cfg, run_over: dict, identity: dict) -> sw.Engine:
        """The store's engine of this fit: the batch path's (run.* with `run_over`, run.launcher) as `self.base_engine`,
        wrapped so that a candidate's identity adds `identity` (the data's hash, channels, ...) and its values are
        this fit's (self._simulate)."""
        from ..runs.experiment import launch_kw, run_kw, runner_kw
        kw = dict(run_kw(cfg), **run_over)
        self.run_kw = runner_kw(kw)
        base = self.base_engine = sw.batch_engine(kw, **launch_kw(cfg))
        return fit_engine(base, self._simulate, identity)

    def robot(self, x):
        return self.cls(**{**self.base, **{k: float(v) for k, v in zip(self.names, x)}})

    def describe(self) -> dict:
        return dict(input="trajectory", samples=self.n, span=float(self.data.t[-1] - self.data.t[0]),
                    cycles_simulated=self.cycles, offset_max=self.offset_max)

    def outputs(self, x_hat, title: str):
        """(time offset, table name, table, residual statistics, plot) of the fitted twin."""
        from functools import partial

        from ..view.identify_plot import plot_fit
        rec = ist.fitted_record(self, x_hat)
        delta, _ = self.profile(rec)
        traj = ist.fitted_trajectory(self, rec, delta)
        units = {c: self.chans[c].unit for c in self.channels}
        return delta, "fitted_trajectory.csv", traj, ist.residual_stats(self, traj), \
            partial(plot_fit, traj, self.channels, units, title=title)

    # ---- residuals of one run ---------------------------------------------------------------
    def sim(self, robot, run) -> dict:
        rec = tj.record(robot, run, self.channels)
        return rec

    def residuals(self, rec: dict, delta: float) -> np.ndarray:
        t = self.data.t + delta
        parts = []
        for c, w in zip(self.channels, self.weights):
            s = np.interp(t, rec["t"], rec[c])
            if self.chans[c].relative:
                s = s - s.mean()
            parts.append(w * (s - self.meas[c]) / self.scale[c] / math.sqrt(self.n))
        return np.concatenate(parts)

    def profile(self, rec: dict) -> tuple[float, np.ndarray]:
        """(delta, residuals) with the time offset delta profiled out (grid, then a bounded 1-D minimisation)."""
        if self.offset_max <= 0:
            return 0.0, self.residuals(rec, 0.0)
        h = float(rec["t"][1] - rec["t"][0]) / 2
        grid = np.linspace(0.0, self.offset_max, max(2, int(round(self.offset_max / h)) + 1))
        cost = np.array([float(np.sum(self.residuals(rec, d) ** 2)) for d in grid])
        k = int(np.argmin(cost))
        a, b = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
        from scipy.optimize import minimize_scalar
        res = minimize_scalar(lambda x: float(np.sum(self.residuals(rec, x) ** 2)), bounds=(a, b), method="bounded",
                              options=dict(xatol=1e-7 * self.nominal.period))
        d = float(res.x) if res.fun <= cost[k] else float(grid[k])
        return d, self.residuals(rec, d)

    def _values(self, robot, run):
        if run.error:
            return None, {"max_penetration": run.max_penetration}, run.error
        d, r = self.profile(self.sim(robot, run))
        vals = {"cost": float(np.sum(r ** 2)), "time_offset": d, "max_penetration": run.max_penetration,
                **{f"rms_{c}": x for c, x in ist.channel_rms(self, r).items()}}
        return r, vals, run.problem

    def _simulate(self, robots, add) -> int:
        from ..engines import batch

        def on_result(j, run):
            r, vals, err = self._values(robots[j], run)
            self.cache[self.key(robots[j])] = (r, vals.get("time_offset", math.nan))
            add(j, vals, err, *ran_by(self.engine, [run.engine]))
        batch.run_points(robots, self.cls, on_result=on_result, **self.run_kw)
        return sum(self.cycles * r.steps_per_cycle for r in robots)

    def key(self, robot) -> tuple:
        return tuple(float(robot.cfg[n]) for n in self.names)

    # ---- batched evaluation -------------------------------------------------------------------
    def evaluate(self, X, need_residuals=False) -> list[dict]:
        """Rows (cost, time_offset, rms_*, error) of candidates X (config units), through the store;
        with need_residuals, each row also gets `r` (points reused from the store are re-simulated)."""
        robots = [self.robot(x) for x in X]
        rows, stats = sw.run_rows(robots, self.out, key=self.names, engine=self.engine, metrics=self.metrics,
                              filename="candidates.csv", progress=False)
        self.evaluations += len(robots)
        self.reused += stats["reused"]
        if need_residuals:
            missing = [r for r in robots if self.key(r) not in self.cache]
            if missing:                       # reused rows: the store keeps costs, not residual vectors
                self._simulate(missing, lambda j, v, e: None)
            for row, rb in zip(rows, robots):
                row["r"] = self.cache[self.key(rb)][0]
        for row in rows:
            row["cost"] = FAILED_COST if row.get("error") and row.get("cost") in (None, "") else float(row["cost"])
            self.best_cost = min(self.best_cost, row["cost"])
        return rows


TURN = 2 * math.pi             # the most a declared angle moves within one gait period: a crank's revolution
TURN_MARGIN = 1.25            # for a crank's uneven rate; degrees read as rad are 57 times too large


def check_data(data: tj.Data, chans: dict, opts, period: float) -> list:
    """The channels the user drops (experiment.drop_channels), after refusing (ConfigError, one line) a
    trajectory that lacks a declared value channel not dropped (unless experiment.channels names the fitted
    ones) and a fitted angle channel (rad) whose range within any one gait period exceeds TURN_MARGIN x 2 pi
    (its values in degrees, most likely)."""
    values = [n for n, c in chans.items() if c.kind == "value"]
    drop = opts.get("drop_channels") or []
    if not isinstance(drop, list) or any(c not in values for c in drop):
        raise ConfigError("experiment.drop_channels", drop, f"a list of the fit's channels {values}")
    if not opts["channels"]:
        missing = [c for c in values if c not in data.names and c not in drop]
        if missing:
            raise ConfigError(tj.KEY, str(data.path), "a trajectory with every channel the fit uses",
                              f"no column {', '.join(map(repr, missing))} (the fit uses {values}); "
                              f"to fit without it: experiment.drop_channels=[{','.join(missing)}]")
    fitted = opts["channels"] or [c for c in data.names if c in values and c not in drop]
    w = max(2, int(np.searchsorted(data.t, data.t[0] + period, side="right")))
    for c in fitted:
        if c in chans and chans[c].unit == "rad":
            v = data.values[c]
            span = float(np.max(np.ptp(np.lib.stride_tricks.sliding_window_view(v, min(w, len(v))), axis=1)))
            if span > TURN_MARGIN * TURN:
                raise ConfigError(tj.KEY, str(data.path), "angles in rad (the trajectory format is SI)",
                                  f"channel {c!r} moves {span:.4g} rad within one gait period ({period:.4g} s), "
                                  f"more than a full turn: are its values in degrees? (rad = deg x pi / 180)")
    return drop


def select_channels(opts, available: list, default: list) -> tuple[list, np.ndarray]:
    """(fitted channels, their weights) from experiment.channels / experiment.weights (ConfigError)."""
    want = opts["channels"] or default
    if not isinstance(want, list) or not want or any(c not in available for c in want):
        raise ConfigError("experiment.channels", opts["channels"], f"a non-empty list of the file's columns {available}")
    w = opts["weights"] or {}
    for c, x in w.items():
        if c not in want or isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < 1e6:
            raise ConfigError(f"experiment.weights.{c}", x, f"a weight in [0, 1e6) of a fitted channel {want}")
    return list(want), np.array([float(w.get(c, 1.0)) for c in want])
