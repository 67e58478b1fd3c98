"""A fit to a per-cycle table (envs/core/analysis/cycle_table.py): the residuals of envs/core/analysis/identify.py's Problem
when the data are per-cycle scalars at several gait points instead of a trajectory.

A candidate (the fitted parameters) is simulated at every row's gait point (the row's gait columns
override robot.*; run.* as configured, e.g. run.cycles), all rows of a batch of candidates in one
batched rollout.  Residual of measured column c at row i: w_c (sim_c,i - data_c,i) / scale_c / sqrt(rows),
scale_c the sidecar's `scale` (a measurement scale, e.g. the printed resolution) or else the column's
spread over the rows; so cost = sum over c of w_c^2 mean_i((sim - data) / scale)^2.  There is no time
offset.  A fit needs more measurements (rows x columns) than parameters (ConfigError otherwise).
Candidates are stored like a trajectory fit's (candidates.csv), with each row's simulated value
(`<column>_row<i>`, i from 1) beside the cost.
"""
from __future__ import annotations

import math

import numpy as np

from ..runs import sweep as sw
from . import trajectory as tj
from ..model.errors import ConfigError
from .identify_problem import Problem, ran_by, select_channels


class CycleProblem(Problem):
    """Problem's interface (evaluate, key, robot, outputs, describe) over a per-cycle table."""

    def __init__(self, cfg, out, opts, table, names, lo, hi):       # noqa: D401 (Problem.__init__ is for trajectories)
        self.setup(cfg, out, opts, table, names, lo, hi)
        clash = [n for n in names if n in table.gait_names]
        if clash:
            raise ConfigError("experiment.params", names, f"parameters the table does not set per row "
                                                          f"(its gait columns are {table.gait_names})")
        self.channels, self.weights = select_channels(opts, table.names, table.names)
        cyc = tj.cycle_channels(self.nominal)
        self.units = {c: cyc[c].unit for c in self.channels}
        self.n = table.rows
        if self.n * len(self.channels) <= len(names):
            raise ConfigError(tj.KEY, str(table.path), "a table with more measurements than fitted parameters",
                              f"{self.n} rows x {len(self.channels)} columns for {len(names)} parameters")
        self.meas = {c: table.values[c] for c in self.channels}
        self.scale = {c: table.scale.get(c) or float(np.std(self.meas[c])) or float(abs(np.mean(self.meas[c]))) or 1.0
                      for c in self.channels}
        self.engine = self.make_engine(cfg, {}, dict(
            data=table.sha256, channels=self.channels, weights=self.weights.tolist(),
            scale=[self.scale[c] for c in self.channels], fit="identify cycles 1"))
        self.cycles = int(self.run_kw["cycles"])
        self.metrics = ["cost"] + [f"rms_{c}" for c in self.channels] + self.row_columns()

    def row_columns(self) -> list[str]:
        return [f"{c}_row{i + 1}" for c in self.channels for i in range(self.n)]

    def describe(self) -> dict:
        return dict(input="per-cycle table", rows=self.n, gait_columns=self.data.gait_names,
                    scale=dict(self.scale), cycles_simulated=self.cycles)

    def row_robots(self, robot) -> list:
        return [self.cls(**{**robot.cfg, **g}) for g in self.data.gait]

    def _simulate(self, robots, add) -> int:
        """Every row of every candidate through the batch path's engine (run.launcher: local or Ray), one
        rollout; each candidate is scored as soon as all its rows are in (only their values are kept)."""
        flat = [rb for robot in robots for rb in self.row_robots(robot)]
        n = self.n
        got: dict = {}           # candidate j -> {row i: (values, error, engine that ran it)}

        def collect(k, vals, err, by=None):
            j, i = divmod(k, n)
            got.setdefault(j, {})[i] = (vals, err, by)
            if len(got[j]) == n:
                row = got.pop(j)
                done = [row[i] for i in range(n)]
                by = ran_by(self.engine, [d[2] for d in done])     # engine=auto: the one engine of its rows
                self._score(j, robots[j], [d[:2] for d in done], add, by)
        return self.base_engine.simulate(flat, collect)

    def _score(self, j, robot, rows, add, by=()) -> None:
        """Candidate j's cost from its rows' (values, error), to `add` (by: the engine that ran them,
        engine=auto) and the residual cache."""
        n = self.n
        sims, errs, pen = {c: [] for c in self.channels}, [], 0.0
        for vals, err in rows:
            pen = max(pen, float(vals.get("max_penetration") or 0.0))
            errs += [err] if err else []
            for c in self.channels:
                sims[c].append(sw.num(vals.get(c)))
        bad = [c for c in self.channels if not np.all(np.isfinite(sims[c]))]
        if errs or bad:
            self.cache[self.key(robot)] = (None, 0.0)
            add(j, {"max_penetration": pen}, "; ".join(errs) or f"no value of {bad[0]} at some row", *by)
            return
        r = np.concatenate([w * (np.array(sims[c]) - self.meas[c]) / self.scale[c] / math.sqrt(n)
                            for c, w in zip(self.channels, self.weights)])
        self.cache[self.key(robot)] = (r, 0.0)
        add(j, {"cost": float(np.sum(r ** 2)), "max_penetration": pen,
                **{f"rms_{c}": float(np.sqrt(np.mean((np.array(sims[c]) - self.meas[c]) ** 2))) for c in self.channels},
                **{f"{c}_row{i + 1}": sims[c][i] for c in self.channels for i in range(n)}}, None, *by)

    def outputs(self, x_hat, title: str):
        """(0, 'fitted_table.csv', per row the gait, measured, fitted and residual of each column,
        residual statistics, plot)."""
        from functools import partial

        from ..view.identify_plot import plot_cycles
        row = self.evaluate([x_hat])[0]            # stored: its per-row values
        cols = {g: [r[g] for r in self.data.gait] for g in self.data.gait_names}
        resid = {}
        for c in self.channels:
            fit = np.array([sw.num(row.get(f"{c}_row{i + 1}")) for i in range(self.n)])
            e = fit - self.meas[c]
            cols.update({f"{c}_measured": self.meas[c].tolist(), f"{c}_fitted": fit.tolist(), f"{c}_residual": e.tolist()})
            resid[c] = dict(unit=self.units[c], rms=float(np.sqrt(np.mean(e ** 2))), mean=float(e.mean()),
                            max_abs=float(np.abs(e).max()), rms_rel_scale=float(np.sqrt(np.mean(e ** 2)) / self.scale[c]))
        labels = [", ".join(f"{g}={r[g]:g}" for g in self.data.gait_names) or str(i + 1)
                  for i, r in enumerate(self.data.gait)]
        return 0.0, "fitted_table.csv", cols, resid, partial(plot_cycles, cols, self.channels, self.units, labels,
                                                             title=title)
