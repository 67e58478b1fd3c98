"""Identify a twin's parameters from a measured trajectory: `experiment=<robot>_identify`.

A fit is CALIBRATION, not validation: it makes the twin reproduce this data; it says nothing about
how well the twin predicts anything else.

Inputs (declared in `Identify`): `data` (a trajectory.csv with its sidecar, envs/core/analysis/trajectory.py, or a
per-cycle table, envs/core/analysis/cycle_table.py and envs/core/analysis/identify_cycles.py; checked before anything is written), `params` (declared robot parameters; search bounds
`bounds.<name>: [lo, hi]`, default the declared range cut to [nominal / 2, 2 nominal]), `channels`
(default: every value channel of the file), `weights` (channel -> weight, default 1), `time_offset`
(estimate the twin's time at the data's t = 0 in [0, offset_max]).  The nominal point is robot.*.

Residual of a candidate, per channel c and sample k: w_c (sim_c(t_k + delta) - data_c(t_k)) / std(data_c)
/ sqrt(samples); `relative` channels (world positions, whose origin is unknown) have their mean removed
from both first; delta (the time offset) is profiled out: the best on a grid of half the twin's sample
interval, refined by a bounded scalar minimisation between its neighbours.  Cost: the sum of squares (a weighted mean of each channel's squared
error in units of its spread).

Candidates are batched rollouts through the batch path (gaittwin.core.runs.sweep.run_rows: the store
`results.sqlite`, rows in `candidates.csv`, keyed by the fitted parameters; identity includes the
data file's hash, channels, weights and offset settings, so a rerun resumes and a changed file
recomputes).  run.launcher=ray: a per-cycle table's candidates run as Ray tasks; a trajectory fit is
refused (ConfigError: each candidate's recorded trajectory is scored in this process).  Global stage
(`search`, envs/core/analysis/identify_search.py): CMA-ES (the `cmaes` package), a seeded Latin hypercube, or the
grid of `sweep.<fitted parameter>` lists, `n_global` candidates in batches of `batch`; local stage: scipy.optimize.least_squares (trf, bounds) from each of the `starts` lowest-cost
distinct global candidates (distinct: more than DISTINCT of the box apart in some parameter), the lowest final
cost kept; its Jacobian by central differences as one batch (relative step `fd_rel`, default FD_REL = 5 %: wider
than the teeth of a jagged cost, so the fit follows the broad valley; scripts/studies/identify_landscape.py).

Uncertainty: covariance (sigma^2 + teeth) (J^T J)^-1 at the fit (sigma^2 = SSR / (m - p)), in relative units;
teeth: the cost's jaggedness measured at the fit (`teeth`: how far the residuals depart from their linear model
2 noise-sd away; a jagged cost lets a fit stop anywhere its smooth rise stays below its teeth), 0 when smooth;
a parameter is identifiable when its 1-sigma relative sd <= `ident_rel_sd` (stated before the fit),
the fit is not at a search bound and the local stage converged (a tolerance met, not `max_nfev`: a
jagged cost, e.g. from contact, makes a finite-difference covariance too small, so an unconverged
fit claims nothing), and the residual is smooth at the fit on the finite-difference scale (second
difference at most MAX_NONLINEARITY = 2 times the first: a jagged residual, e.g. MinIAQ-II's yaw,
whose Jacobian is noise, gives a covariance that cannot be trusted), no fitted channel's residual RMS
exceeds MAX_MISFIT = 2 times the noise the data itself shows (a local minimum; trajectories only,
identify_stats.noise_estimate) and no candidate evaluated on the
way has a significantly lower cost than the fit (by more than chi2_p(0.95) sigma^2: a jagged cost has
minima finer than the finite-difference step); an eigen-direction of J^T J with sd > ident_rel_sd is a flat
direction, named by its components (e.g. "+0.71 mu -0.70 T_step").  `check_only=true`: no fit; at the
nominal point, each channel's sensitivity to each parameter, the correlations and the sd (teeth included) the data's
length would give at noise `noise_rel` (envs/core/analysis/identify_stats.py).
"""
from __future__ import annotations

import dataclasses
import math
import sys
import time
from typing import Any, Dict, Optional

import numpy as np

from ..runs import config
from ..model import schema
from ..model.errors import ConfigError
from . import identify_stats as ist
from .identify_stats import MAX_NONLINEARITY
from ..model.schema import param
from ..runs.experiment import runner
from .identify_cycles import CycleProblem
from .identify_problem import FAILED_COST, Problem

NOTE = "calibration, not validation: the fitted twin reproduces this data; its predictions elsewhere are untested"
# The local stage's finite-difference step, relative: wider than the teeth of a jagged cost (contact events), so that
# least_squares follows the broad valley.  Measured (docs/identify.md; scripts/studies/identify_landscape.py): BOLT's cost
# varies by 3-13 % of its value between points 0.2 % apart; with 0.01 the fit stayed 4 % / 9 % off, with 0.05 it
# reached 0.8 % / 0.5 % (cost 1.01 x the cost at the hidden values).
FD_REL = 0.05
JAG_PROBE = 2.0               # the teeth probe's step, in the parameter's noise sd (identify_stats; `teeth`)
STARTS = 3                    # local fits from the best distinct global candidates (measured: docs/identify.md)
DISTINCT = 0.05               # two starts differ by more than this fraction of the search box in some parameter
LS_TOL = 1e-4                 # least_squares ftol, xtol: a relative change 100x below the 1 % identifiability level


@dataclasses.dataclass
class Identify(config.Experiment):
    """What every <robot>_identify declares (a robot's subclass sets its name and default params)."""

    data: str = param("", note="path of a trajectory.csv; its sidecar trajectory.json beside it")
    params: Any = dataclasses.field(default_factory=list)       # declared robot parameters to fit
    bounds: Dict[str, Any] = dataclasses.field(default_factory=dict)   # name: [lo, hi] (config units)
    channels: Any = dataclasses.field(default_factory=list)     # []: the file's value channels
    drop_channels: Any = dataclasses.field(default_factory=list)  # declared channels the data lacks (else refused)
    weights: Dict[str, Any] = dataclasses.field(default_factory=dict)  # channel: weight >= 0 (default 1)
    time_offset: bool = param(True, note="estimate the twin's time at the data's t = 0")
    offset_max: Optional[float] = param(None, "s", ge=0, le=1e5, note="null: one gait period")
    search: str = param("auto", choices=("auto", "lhs", "cmaes", "grid"),
                        note="global stage (envs/core/analysis/identify_search.py); auto: cmaes if installed, else lhs")
    n_global: int = param(16, "candidates", ge=0, le=100000, note="global-stage candidates; 0: local fit from the nominal")
    batch: int = param(8, "candidates", ge=1, le=100000, note="candidates per batched rollout")
    seed: int = param(0, ge=0, le=2**31 - 1)
    starts: int = param(STARTS, ge=1, le=1000, note="local fits, each from one of the best distinct global candidates")
    max_nfev: int = param(20, ge=1, le=10000, note="least_squares residual evaluations (per start)")
    fd_rel: float = param(FD_REL, gt=0, le=0.2, note="finite-difference step, relative (wider than a jagged cost's teeth)")
    ident_rel_sd: float = param(0.01, gt=0, le=1, note="identifiable: 1-sigma relative sd at most this")
    noise_rel: float = param(0.01, gt=0, le=1, note="check_only: assumed noise sd, x each channel's std")
    check_only: bool = param(False, note="identifiability at the nominal point only, no fit")


def register(robot: str, params: list[str]) -> None:
    """Declare `<robot>_trajectory` and `<robot>_identify` (fitting `params` by default) for a robot whose
    channels are declared (envs/<robot>/channels.py); called from the robot's config.py."""
    from .trajectory import TrajectoryOptions
    title = robot.title()
    config.experiment(dataclasses.make_dataclass(f"{title}Trajectory", [
        ("name", str, dataclasses.field(default=f"{robot}_trajectory"))], bases=(TrajectoryOptions,)))
    config.experiment(dataclasses.make_dataclass(f"{title}Identify", [
        ("name", str, dataclasses.field(default=f"{robot}_identify")),
        ("params", Any, dataclasses.field(default_factory=lambda: list(params)))], bases=(Identify,)))


def truth(data, names) -> dict:
    """The hidden values of synthetic data (the sidecar's params when it says `synthetic`), else {}."""
    meta = getattr(data, "meta", None) or {}
    params = meta.get("params") or {}
    return {n: float(params[n]) for n in names if meta.get("synthetic") and isinstance(params.get(n), (int, float))}


def verdicts(rows, summary, converged: bool, ident_rel_sd: float) -> dict:
    """Per fitted parameter: "claimed" (identifiable) or "flagged: <every reason>" (fit_report's rules)."""
    out = {}
    for r in rows:
        why = []
        if r["rel_sd"] > ident_rel_sd:
            why.append(f"sd {r['rel_sd']:.2%} > {ident_rel_sd:.2%}")
        if r["at_bound"]:
            why.append("at a search bound")
        if r["fd_nonlinearity"] > MAX_NONLINEARITY:
            why.append(f"jagged residual ({r['fd_nonlinearity']:.2g} > {MAX_NONLINEARITY:g})")
        if not converged:
            why.append("local fit not converged")
        if summary["lower_cost_candidate"]:
            why.append("a candidate had a lower cost")
        if summary["misfit_channels"]:
            why.append(f"misfit in {', '.join(summary['misfit_channels'])}")
        out[r["parameter"]] = "claimed" if r["identifiable"] else "flagged: " + "; ".join(why or ["not identifiable"])
    return out


def _grid(header, lines) -> str:
    w = [max(len(str(x)) for x in col) for col in zip(header, *lines)]
    return "\n".join("  ".join(str(x).ljust(n) for x, n in zip(row, w)).rstrip() for row in [header, *lines])


def console_table(cls, rows, summary, hidden: dict) -> str:
    """The fit on the console: parameter, truth (synthetic data), nominal, fit, sd, verdict; the channels in misfit."""
    fields = schema.fields(cls.Params)
    lines = [[r["parameter"] + (f" [{fields[r['parameter']].spec.unit}]" if fields[r["parameter"]].spec.unit else ""),
              f"{hidden[r['parameter']]:.6g}" if r["parameter"] in hidden else "-", f"{r['nominal']:.6g}",
              f"{r['value']:.6g}", f"{r['sd']:.2g} ({r['rel_sd']:.2%})", summary["verdict"][r["parameter"]]]
             for r in rows]
    ratio = summary["misfit_ratio"]
    mis = ", ".join(f"{c} ({ratio[c]:.3g} x its noise)" for c in summary["misfit_channels"]) or "none"
    return "\n".join([f"{cls.name}: fit (calibration, not validation)",
                      _grid(["parameter", "truth", "nominal", "fit", "sd (rel)", "verdict"], lines),
                      f"channels in misfit (RMS > {ist.MAX_MISFIT:g} x the data's noise): {mis}",
                      f"claimed: {summary['claimed']}"])


def check_table(cls, names, x_nom, rep: dict, ident_rel_sd: float) -> str:
    """check_only on the console: per parameter the sd this record would give and whether it is identifiable."""
    lines = [[n, f"{x:.6g}", f"{rep['predicted_rel_sd'][n]:.2%}", "identifiable" if rep["identifiable"][n]
              else f"not identifiable (sd > {ident_rel_sd:.2%} or jagged)", rep["most_sensitive_channel"][n]]
             for n, x in zip(names, x_nom)]
    return "\n".join([f"{cls.name}: identifiability at the nominal point (noise {rep['noise_rel']:.2%}; no fit)",
                      _grid(["parameter", "nominal", "predicted sd (rel)", "verdict", "most sensitive channel"], lines)])


def _names(cls, opts) -> list[str]:
    fields = schema.fields(cls.Params)
    ps = opts["params"]
    ok = isinstance(ps, list) and ps and len(set(ps)) == len(ps) and all(
        isinstance(p, str) and p in fields and fields[p].kind is float for p in ps)
    if not ok:
        floats = [k for k, f in fields.items() if f.kind is float]
        raise ConfigError("experiment.params", ps, f"a non-empty list of distinct float parameters of {cls.name}: {floats}")
    return list(ps)


def search_box(cls, names, nominal: dict, bounds: dict) -> tuple[np.ndarray, np.ndarray]:
    """[lo, hi] per fitted parameter: experiment.bounds.<name>, else the declared range cut to
    [nominal / 2, 2 nominal]; inside the declaration and around the nominal (ConfigError)."""
    fields = schema.fields(cls.Params)
    unknown = [k for k in bounds if k not in names]
    if unknown:
        raise ConfigError(f"experiment.bounds.{unknown[0]}", bounds[unknown[0]], f"one of the fitted params {names}")
    lo, hi = [], []
    for n in names:
        spec, x0 = fields[n].spec, float(nominal[n])
        b = bounds.get(n)
        if b is None:
            a, z = sorted((x0 / 2, x0 * 2))
            a = a if spec.lo is None else max(a, spec.lo * (1 + 1e-9) if spec.lo_open else spec.lo)
            z = z if spec.hi is None else min(z, spec.hi * (1 - 1e-9) if spec.hi_open else spec.hi)
        else:
            if not (isinstance(b, list) and len(b) == 2 and all(isinstance(v, (int, float)) for v in b)):
                raise ConfigError(f"experiment.bounds.{n}", b, "[lo, hi] in the parameter's config units")
            a, z = float(b[0]), float(b[1])
            if not (a < z and spec.contains(a) and spec.contains(z)):
                raise ConfigError(f"experiment.bounds.{n}", b, f"lo < hi, both in {fields[n].allowed}")
        if not a <= x0 <= z:
            raise ConfigError(f"robot.{n}", x0, f"the search box [{a:g}, {z:g}] (the nominal is the starting point)")
        lo.append(a)
        hi.append(z)
    return np.array(lo), np.array(hi)


def _residual_vector(p: Problem, row) -> np.ndarray:
    r = row.get("r")
    return np.full(len(p.channels) * p.n, math.sqrt(FAILED_COST / (len(p.channels) * p.n))) if r is None else r


def jacobian(p: Problem, x, fd_rel: float) -> tuple[np.ndarray, np.ndarray]:
    """(r(x), dr/d(x / x_ref)) with x_ref = x: central differences (one-sided at a bound), one batch."""
    X, steps = [np.array(x, float)], []
    for j in range(len(x)):
        h = fd_rel * abs(x[j]) or fd_rel
        up, dn = min(x[j] + h, p.hi[j]), max(x[j] - h, p.lo[j])
        for v in (up, dn):
            X.append(np.where(np.arange(len(x)) == j, v, x))
        steps.append((up - dn) / abs(x[j]) if x[j] else up - dn)
    rows = p.evaluate(X, need_residuals=True)
    R = [_residual_vector(p, r) for r in rows]
    J = np.stack([(R[1 + 2 * j] - R[2 + 2 * j]) / steps[j] for j in range(len(x))], axis=1)
    # second difference against first: ~h for a smooth residual, O(1) for a jagged one (contact, chaos)
    p.nonlinearity = [float(np.linalg.norm(R[1 + 2 * j] + R[2 + 2 * j] - 2 * R[0])
                            / max(np.linalg.norm(R[1 + 2 * j] - R[2 + 2 * j]), 1e-300)) for j in range(len(x))]
    return R[0], J


def teeth(p: Problem, x, r, J, sigma2: float, fd_rel: float) -> float:
    """The cost's jaggedness at x (identify_stats): the largest |r(x (1 +- s_j e_j)) - (r +- s_j J_j)|^2, the
    departure of the residuals from their linear model, over the parameters j, s_j = JAG_PROBE sd_j (sd from
    sigma2, clipped to [1e-4, fd_rel / 4]); one batch of 2 p candidates.  A smooth residual departs by its
    curvature (O(s^4) in the cost, small against sigma2); a jagged one by its teeth."""
    s = np.clip(JAG_PROBE * ist.rel_sd(J, sigma2), 1e-4, fd_rel / 4)
    ref = [abs(v) or 1.0 for v in x]          # relative units, as jacobian's (absolute at a zero value)
    X = [np.clip(np.where(np.arange(len(x)) == j, x[j] + sign * s[j] * ref[j], x), p.lo, p.hi)
         for j in range(len(x)) for sign in (1, -1)]
    rows = p.evaluate(X, need_residuals=True)
    dev = [float(np.sum((_residual_vector(p, row) - r - J[:, i // 2] * ((X[i][i // 2] - x[i // 2]) / ref[i // 2]))
                        ** 2)) for i, row in enumerate(rows)]
    return max(dev)


def local_stage(p: Problem, x0, opts):
    """scipy least_squares (trf, within the box) from x0; the Jacobian one batched rollout."""
    from scipy.optimize import least_squares
    ref = np.array(x0, float)
    memo = {}

    def fun(z):
        x = z * ref
        k = tuple(x)
        if k not in memo:
            memo[k] = jacobian(p, x, opts["fd_rel"])
        return memo[k][0]

    def jac(z):
        x = z * ref
        fun(z)
        return memo[tuple(x)][1] * (ref / x)        # d r / d z = d r / d(x / x) * (x_ref / x)

    res = least_squares(fun, np.ones_like(ref), jac=jac, bounds=(p.lo / ref, p.hi / ref), method="trf",
                        max_nfev=int(opts["max_nfev"]), x_scale=1.0, ftol=LS_TOL, xtol=LS_TOL)
    return res.x * ref, res


def starting_points(p: Problem, rows, k: int) -> list:
    """The k lowest-cost global candidates that are distinct: each differs from every one taken before by more
    than DISTINCT of the search box in some parameter (fewer when there are not k such)."""
    out = []
    for r in sorted(rows, key=lambda r: r["cost"]):
        u = (r["x"] - p.lo) / (p.hi - p.lo)
        if all(np.max(np.abs(u - v)) > DISTINCT for _, v in out):
            out.append((r, u))
        if len(out) == k:
            break
    return [r for r, _ in out]


def multi_start(p: Problem, rows, opts) -> tuple:
    """least_squares from each starting point; (x, result, per-start records) of the lowest final cost.  (Measured:
    a further fit from the lowest candidate seen on the way made a wrong claim on BOLT, +3.1 % at sd 0.3 %.)"""
    fits = []
    for r in starting_points(p, rows, int(opts["starts"])):
        x, res = local_stage(p, r["x"], opts)
        fits.append((float(np.sum(res.fun ** 2)), x, res, r))
    cost, x, res, _ = min(fits, key=lambda f: f[0])
    log = [dict(start={k: float(v) for k, v in zip(p.names, r["x"])}, start_cost=float(r["cost"]),
                end={k: float(v) for k, v in zip(p.names, xe)}, end_cost=c, status=int(re.status), nfev=int(re.nfev))
           for c, xe, re, r in fits]
    return x, res, log


def problem_of(cfg, out):
    """The fit `cfg` configures, its candidates stored under `out`: (Problem, or CycleProblem for a per-cycle
    table; the global stage's method; the sweep lists).  Every input is checked here, before anything is
    simulated (ConfigError): the fitted params, the data file, the search box.  The runner and
    scripts/studies/identify_landscape.py build their fits with it."""
    from . import cycle_table
    from . import identify_search as search
    from ..runs.experiment import options, sweep_lists

    opts = options(cfg)
    v = config.validate(cfg)
    cls = v["robot_cls"]
    names = _names(cls, opts)
    nominal = cls(**v["robot"])
    if not opts["data"]:
        raise ConfigError("experiment.data", "", "the path of a trajectory.csv (write one: experiment=<robot>_trajectory)"
                                                 " or of a per-cycle table.csv")
    unset = [k for k in names if nominal.cfg[k] is None]
    if unset:
        raise ConfigError(f"robot.{unset[0]}", None, "a number: the nominal (starting) value of a fitted parameter")
    sweep = sweep_lists(cfg)
    method = search.choose(opts, sweep, names)
    data = cycle_table.load(opts["data"], nominal)
    lo, hi = search_box(cls, names, nominal.cfg, opts["bounds"] or {})
    if method == "grid":
        lo, hi = search.grid_box(names, lo, hi, sweep, opts["bounds"] or {})
    kind = CycleProblem if isinstance(data, cycle_table.Table) else Problem
    return kind(cfg, out, opts, data, names, lo, hi), method, sweep


@runner(Identify)
def identify(cfg, out):
    """The runner of every <robot>_identify (module docstring)."""
    from . import identify_search as search
    from ..runs.experiment import Result

    t0 = time.perf_counter()
    p, method, sweep = problem_of(cfg, out)
    cls, names, opts, data, lo, hi = p.cls, p.names, p.opts, p.data, p.lo, p.hi
    x_nom = np.array([p.nominal.cfg[k] for k in names], float)
    head = dict(robot=cls.name, note=NOTE, data=str(data.path), data_sha256=data.sha256, params=names,
                channels=p.channels, weights=p.weights.tolist(), **p.describe(), ident_rel_sd=opts["ident_rel_sd"],
                search_box={k: [float(a), float(z)] for k, a, z in zip(names, lo, hi)})
    if opts["check_only"]:
        r0, J = jacobian(p, x_nom, opts["fd_rel"])
        sigma2 = ist.sigma2_check(float(opts["noise_rel"]), p.n)
        rep = ist.check(p, J, x_nom, float(opts["noise_rel"]), float(opts["ident_rel_sd"]),
                        teeth(p, x_nom, r0, J, sigma2, opts["fd_rel"]))
        summary = dict(head, mode="check_only", nominal={k: float(x) for k, x in zip(names, x_nom)},
                       nominal_cost=float(np.sum(r0 ** 2)), **rep["summary"], evaluations=p.evaluations, reused=p.reused,
                       wall_s=time.perf_counter() - t0)
        print(check_table(cls, names, x_nom, rep["summary"], float(opts["ident_rel_sd"])), flush=True)
        return Result(summary, tables={"identifiability.csv": (list(rep["rows"][0]), rep["rows"])})
    glob = search.global_stage(p, opts, method, sweep)
    best = min(glob, key=lambda r: r["cost"])
    x_hat, res, starts = multi_start(p, glob, opts)
    r_hat, J = jacobian(p, x_hat, opts["fd_rel"])
    converged = bool(res.status > 0)           # least_squares met a tolerance (not max_nfev)
    best_elsewhere = p.best_cost           # before the teeth probe: its points are not a search
    sigma2 = ist.sigma2_fit(r_hat, len(names))
    rep = ist.fit_report(p, r_hat, J, x_hat, x_nom, float(opts["ident_rel_sd"]), converged,
                         MAX_NONLINEARITY, best_elsewhere=best_elsewhere,
                         teeth=teeth(p, x_hat, r_hat, J, sigma2, opts["fd_rel"]))
    delta, table_name, table, resid, plot = p.outputs(
        x_hat, title=f"{cls.name}: fit of {', '.join(names)} (calibration, not validation)")
    summary = dict(head, mode="fit", search=method, global_candidates=len(glob),
                   global_best={k: float(x) for k, x in zip(names, best["x"])}, global_best_cost=float(best["cost"]),
                   local_status=res.message, converged=converged, local_nfev=int(res.nfev), local_starts=starts,
                   time_offset=delta,
                   residuals=resid, evaluations=p.evaluations, reused=p.reused, **rep["summary"],
                   wall_s=time.perf_counter() - t0)
    verdict = verdicts(rep["rows"], rep["summary"], converged, float(opts["ident_rel_sd"]))
    summary.update(verdict=verdict, claimed=", ".join(n for n, v in verdict.items() if v == "claimed") or "none")
    weighted = [c for c, w in zip(p.channels, p.weights) if w > 0]
    if weighted and set(rep["summary"]["misfit_channels"]) >= set(weighted):
        summary["warning"] = (f"every fitted channel is in misfit ({', '.join(weighted)}): the twin does not "
                              "reproduce this data at any fitted value; nothing is claimed (units? channels? params?)")
    print(console_table(cls, rep["rows"], summary, truth(data, names)), flush=True)
    if "warning" in summary:
        print(f"WARNING: {summary['warning']}", file=sys.stderr, flush=True)
    return Result(summary, tables={"fit.csv": (list(rep["rows"][0]), rep["rows"]), table_name: table},
                  plots={"identify.png": plot}, rows={"candidates.csv": glob})   # rows: the global stage's (with x)
