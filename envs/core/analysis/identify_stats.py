"""The statistics of a fit (envs/core/analysis/identify.py): covariance, identifiability, flat directions, residuals.

All in relative units: J = d r / d ln x (the Jacobian of the weighted, normalised residuals with
respect to each parameter's relative change), so an sd of 0.01 is 1 % of the parameter.
  fit:   cov = (sigma^2 + teeth) (J^T J)^-1, sigma^2 = SSR / (m - p)
  check: cov = (noise_rel^2 / samples + teeth) (J^T J)^-1 (the sd this record would give at that noise)
teeth: the cost's jaggedness at the point (envs/core/analysis/identify.py `teeth`: the largest departure of the cost from
its Gauss-Newton model at small steps, JAG_PROBE sd): a jagged cost lets a fit land anywhere its smooth rise stays
below the teeth, so they widen the sd as noise would (0 for a smooth cost).
A parameter is identifiable when its sd <= ident_rel_sd and (fit) it is not at a search bound and the
local stage converged and the residual is smooth there (fd_nonlinearity <= 2) and no
candidate evaluated on the way has a significantly lower cost (below the fit's by more than the
95 % chi-square level for p parameters times sigma^2: a jagged cost has minima finer than the step) and
(trajectories) no channel is a misfit: its residual RMS at most MAX_MISFIT times the noise the data itself
shows (`noise_estimate`: robust second differences), so a local minimum far above the noise claims nothing; an
eigenvector of J^T J whose sd exceeds ident_rel_sd is a flat direction, named by its components
(|component| >= 0.2).
"""
from __future__ import annotations

import math

import numpy as np

# |r(x+h) + r(x-h) - 2 r(x)| / |r(x+h) - r(x-h)| above this: the covariance is not trusted (the cost's curvature
# along the parameter is then about 1 + this^2 = 5 times the Gauss-Newton curvature the covariance assumes)
MAX_NONLINEARITY = 2.0
# residual RMS / the data's own noise (noise_estimate) above this: the fit is a misfit (a local minimum), nothing is
# claimed.  The noise estimate was within 7 % of the true noise on 12 channels of synthetic MinIAQ-II and BOLT data
# (1 % noise, 600 samples); at a correct fit the ratio also carries the twin's own sampling (linear interpolation of
# its record at t + offset): measured up to 1.38 (a small snake's com_x, 1 cycle, fitted T_step 0.03 % from the
# truth), which a first threshold of 1.25 wrongly called a misfit.  2 (a cost four times the noise's) was chosen
# after that (disclosed); the local minima it must catch were at 2.1-9.5 (MinIAQ-II's y and yaw).
MAX_MISFIT = 2.0


def noise_estimate(y) -> float:
    """The measurement noise sd of a sampled signal from its second differences (robust: 1.4826 x the median
    absolute deviation, / sqrt(6)); a smooth signal's own curvature at the sampling rate adds to it (lenient)."""
    d2 = np.diff(np.asarray(y, float), 2)
    return float(1.4826 * np.median(np.abs(d2 - np.median(d2))) / math.sqrt(6))


def channel_rms(p, r) -> dict:
    """Per fitted channel: the RMS of its unweighted error in SI (r: the fit's weighted, normalised residuals,
    p.n per channel; a zero-weight channel's is 0, its error not being in r)."""
    m = p.n
    return {c: float(np.linalg.norm(r[i * m:(i + 1) * m])) * p.scale[c] / max(w, 1e-300)
            for i, (c, w) in enumerate(zip(p.channels, p.weights))}


def misfit(p, r) -> dict:
    """Per fitted channel with a positive weight: residual RMS / noise_estimate of the data (trajectories;
    {} for a per-cycle table, too short to show its noise: its p.noise is {})."""
    rms = channel_rms(p, r)
    return {c: rms[c] / p.noise[c] for c, w in zip(p.channels, p.weights) if w > 0 and p.noise.get(c, 0) > 0}


def covariance(J: np.ndarray, sigma2: float) -> np.ndarray:
    H = J.T @ J
    return sigma2 * np.linalg.pinv(H, rcond=1e-12)


def rel_sd(J: np.ndarray, sigma2: float) -> np.ndarray:
    """Each parameter's 1-sigma sd (relative units) from covariance(J, sigma2)."""
    return np.sqrt(np.clip(np.diag(covariance(J, sigma2)), 0, None))


def flat_directions(J, sigma2, names, ident_rel_sd) -> list[dict]:
    """Eigen-directions of J^T J whose sd exceeds ident_rel_sd, worst first."""
    lam, V = np.linalg.eigh(J.T @ J)
    out = []
    for k in np.argsort(lam):
        sd = math.sqrt(sigma2 / lam[k]) if lam[k] > 0 else math.inf
        if sd > ident_rel_sd:
            v = V[:, k] * (1 if V[np.argmax(np.abs(V[:, k])), k] > 0 else -1)
            out.append(dict(direction=" ".join(f"{c:+.2f} {n}" for c, n in zip(v, names) if abs(c) >= 0.2),
                            components={n: float(c) for n, c in zip(names, v)}, rel_sd=sd))
    return out


def correlations(cov: np.ndarray, names) -> dict:
    d = np.sqrt(np.clip(np.diag(cov), 1e-300, None))
    C = cov / np.outer(d, d)
    return {a: {b: float(C[i, j]) for j, b in enumerate(names)} for i, a in enumerate(names)}


def sigma2_check(noise_rel: float, n: int) -> float:
    """The residual variance check_only predicts: relative noise noise_rel on n samples a channel."""
    return noise_rel ** 2 / n


def sigma2_fit(r, k: int) -> float:
    """The residual variance at a fit of k parameters: SSR / (m - k)."""
    return float(np.sum(np.asarray(r) ** 2)) / max(len(r) - k, 1)


def check(p, J, x, noise_rel: float, ident_rel_sd: float, teeth: float = 0.0) -> dict:
    """Identifiability at the nominal point: sensitivities per channel and parameter, correlations,
    predicted sd at noise `noise_rel`, flat directions."""
    m = p.n
    rows = []
    for i, c in enumerate(p.channels):
        Jc = J[i * m:(i + 1) * m]
        for j, n in enumerate(p.names):
            rows.append(dict(channel=c, parameter=n, sensitivity=float(np.linalg.norm(Jc[:, j])),
                             sensitivity_per_pct=float(np.linalg.norm(Jc[:, j])) / 100))
    sigma2 = sigma2_check(noise_rel, m)
    cov = covariance(J, sigma2 + teeth)
    sd, sd_noise = rel_sd(J, sigma2 + teeth), rel_sd(J, sigma2)
    summary = dict(
        sensitivity_unit="RMS change of the channel, in units of its std, per unit relative change of the parameter",
        noise_rel=noise_rel, predicted_rel_sd={n: float(s) for n, s in zip(p.names, sd)},
        predicted_rel_sd_noise={n: float(s) for n, s in zip(p.names, sd_noise)}, teeth=teeth,
        teeth_over_noise=teeth / sigma2,
        identifiable={n: bool(s <= ident_rel_sd and q <= MAX_NONLINEARITY) for n, s, q in zip(p.names, sd, p.nonlinearity)},
        fd_nonlinearity=dict(zip(p.names, p.nonlinearity)),
        correlations=correlations(cov, p.names), flat_directions=flat_directions(J, sigma2 + teeth, p.names, ident_rel_sd),
        most_sensitive_channel={n: max((r for r in rows if r["parameter"] == n), key=lambda r: r["sensitivity"])["channel"]
                                for n in p.names})
    return dict(summary=summary, rows=rows)


def fit_report(p, r, J, x_hat, x_nom, ident_rel_sd: float, converged: bool = True,
               max_nonlinearity: float = MAX_NONLINEARITY, best_elsewhere: float | None = None,
               teeth: float = 0.0) -> dict:
    """fit.csv rows and the summary's uncertainty entries at the fit x_hat.  best_elsewhere: the lowest cost
    of any other candidate evaluated (a fit above it claims nothing); teeth: the cost's jaggedness at x_hat
    (identify.teeth), added to the noise variance of the covariance (0 for a smooth cost)."""
    m, k = len(r), len(x_hat)
    cost = float(np.sum(r ** 2))
    from scipy.stats import chi2
    # significantly better: outside the fit's 95 % confidence region's cost level, cost + chi2_p(0.95) sigma^2
    beaten = best_elsewhere is not None and best_elsewhere < cost - chi2.ppf(0.95, k) * cost / max(m - k, 1)
    ratio = misfit(p, r)
    misfits = [c for c, q in ratio.items() if q > MAX_MISFIT]
    converged = converged and not beaten and not misfits
    sigma2 = sigma2_fit(r, k)
    cov = covariance(J, sigma2 + teeth)
    sd, sd_noise = rel_sd(J, sigma2 + teeth), rel_sd(J, sigma2)
    rows = []
    for j, n in enumerate(p.names):
        span = p.hi[j] - p.lo[j]
        at = bool(min(x_hat[j] - p.lo[j], p.hi[j] - x_hat[j]) <= 1e-3 * span)
        rows.append(dict(parameter=n, value=float(x_hat[j]), sd=float(sd[j] * abs(x_hat[j])), rel_sd=float(sd[j]),
                         nominal=float(x_nom[j]), lo=float(p.lo[j]), hi=float(p.hi[j]), at_bound=at,
                         fd_nonlinearity=float(p.nonlinearity[j]),
                         identifiable=bool(sd[j] <= ident_rel_sd and not at and converged
                                           and p.nonlinearity[j] <= max_nonlinearity)))
    flat = flat_directions(J, sigma2 + teeth, p.names, ident_rel_sd)
    summary = dict(fitted={r_["parameter"]: r_["value"] for r_ in rows},
                   rel_sd={r_["parameter"]: r_["rel_sd"] for r_ in rows},
                   rel_sd_noise={n: float(x) for n, x in zip(p.names, sd_noise)}, teeth=teeth,
                   teeth_over_noise=teeth / sigma2 if sigma2 > 0 else math.inf,
                   identifiable={r_["parameter"]: r_["identifiable"] for r_ in rows},
                   not_identifiable=[r_["parameter"] for r_ in rows if not r_["identifiable"]],
                   at_bound=[r_["parameter"] for r_ in rows if r_["at_bound"]],
                   fd_nonlinearity={r_["parameter"]: r_["fd_nonlinearity"] for r_ in rows},
                   correlations=correlations(cov, p.names), flat_directions=flat, cost=cost,
                   lower_cost_candidate=bool(beaten), misfit_ratio=ratio, misfit_channels=misfits,
                   sigma_rel=math.sqrt(sigma2 * p.n))
    return dict(summary=summary, rows=rows)


def fitted_record(p, x) -> dict:
    """The fitted twin's channels (one plain batch run, not stored: the store keeps the candidates;
    its engine named in engine_split as fitted_trajectory.csv's)."""
    from ..runs import sweep
    robot = p.robot(x)
    run = sweep.run_point(robot, p.out, "fitted_trajectory.csv", p.names, kw=p.run_kw)
    return p.sim(robot, run)


def fitted_trajectory(p, rec: dict, delta: float) -> dict:
    """Columns t, <channel>_measured, <channel>_fitted (relative channels: mean removed from both)."""
    cols = {"t": p.data.t}
    for c in p.channels:
        s = np.interp(p.data.t + delta, rec["t"], rec[c])
        cols[f"{c}_measured"] = p.meas[c] + (p.data.values[c].mean() if p.chans[c].relative else 0.0)
        cols[f"{c}_fitted"] = (s - s.mean() + p.data.values[c].mean()) if p.chans[c].relative else s
    return cols


def residual_stats(p, traj: dict) -> dict:
    """Per channel: RMS, mean (bias) and max |residual| in SI, and the RMS in units of the channel's std."""
    out = {}
    for c in p.channels:
        e = traj[f"{c}_fitted"] - traj[f"{c}_measured"]
        out[c] = dict(unit=p.chans[c].unit, rms=float(np.sqrt(np.mean(e ** 2))), mean=float(e.mean()),
                      max_abs=float(np.abs(e).max()), rms_rel_std=float(np.sqrt(np.mean(e ** 2)) / p.scale[c]))
    return out
