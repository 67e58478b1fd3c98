"""The statistics of a robustness map (envs/core/analysis/robustness.py): per figure of merit over the
healthy randomised worlds, its distribution, worst case and sensitivity ranking.

Sensitivity method: Spearman's rank correlation rho of the figure of merit against each drawn variable
over the healthy randomised worlds (monotone, robust to non-linear response); the ranking is by |rho|.
Standardized regression coefficients (a least-squares fit of the z-scored merit on the z-scored
variables, with its R^2) are given beside it when there are more worlds than variables + 1 (drawn
variables only: a derived one is a function of them). `rho_noise`: the |rho| an unrelated variable stays
below with family-wise probability 95 % over the k variables (Bonferroni, large-sample null rho ~ N(0,
1/(worlds - 1)): z(1 - 0.025/k) / sqrt(worlds - 1); 0.51 for 32 worlds and 11 variables);
`most_sensitive_significant` says whether the top |rho| is above it. Rank correlation sees only monotone
effects; a merit that peaks inside the drawn range (the crawler's S over the feet's friction ratio)
shows in the correlation ratio eta^2 beside it: the share of the merit's variance explained by its mean
over round(sqrt(worlds)) quantile bins of the variable, with `eta2_noise`, its family-wise 95 % level
(the 1 - 0.05/k quantile of eta^2 over 2000 seeded permutations of the merit); `most_sensitive_eta2`
names the variable of largest eta^2 when it is above that noise. `derived` (optional) adds ratio
variables of two drawn ones, `{"mu2/mu1": [mu2, mu1]}`, to the analysis (they are not drawn). Failed or
unhealthy worlds are counted and listed, never used as values.
"""
from __future__ import annotations

import math

import numpy as np

from ..runs import sweep as sw
from ..model.errors import ConfigError

QUANTILES = (5.0, 50.0, 95.0)
METHOD = ("Spearman rank correlation of the merit against each drawn variable over the healthy randomised "
          "worlds, ranked by |rho|; standardized regression coefficients (least squares on z-scores) beside it")


def _ranks(x: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata
    return rankdata(x)


def sensitivity(X: np.ndarray, y: np.ndarray, names: list[str], drawn: int | None = None) -> tuple[list[dict], float]:
    """Per variable: Spearman rho and the standardized regression coefficient; ranked by |rho|.
    Returns (ranking, R^2 of the linear fit on z-scores; NaN when there are too few worlds)."""
    k = len(names)
    rho = np.full(k, np.nan)
    ry = _ranks(y)
    for j in range(k):
        rx = _ranks(X[:, j])
        if len(y) > 2 and np.std(rx) > 0 and np.std(ry) > 0:
            rho[j] = float(np.corrcoef(rx, ry)[0, 1])
    src, r2 = np.full(k, np.nan), math.nan
    d = k if drawn is None else drawn          # the regression uses the drawn variables only
    sx, sy = X[:, :d].std(axis=0), y.std()
    if len(y) > d + 1 and sy > 0 and (sx > 0).all():
        Z = (X[:, :d] - X[:, :d].mean(axis=0)) / sx
        zy = (y - y.mean()) / sy
        A = np.column_stack([Z, np.ones(len(y))])
        coef = np.linalg.lstsq(A, zy, rcond=None)[0]
        src[:d] = coef[:d]
        r2 = float(1.0 - np.sum((zy - A @ coef) ** 2) / np.sum(zy ** 2))
    order = sorted(range(k), key=lambda j: -abs(rho[j]) if np.isfinite(rho[j]) else math.inf)
    return [dict(parameter=names[j], spearman_rho=float(rho[j]), src=float(src[j])) for j in order], r2


def eta2(x: np.ndarray, y: np.ndarray, bins: int) -> float:
    """Correlation ratio: the share of var(y) explained by y's mean over `bins` quantile bins of x."""
    if len(y) < 2 * bins or np.var(y) == 0:
        return math.nan
    groups = np.array_split(np.argsort(x, kind="stable"), bins)
    m = y.mean()
    return float(sum(len(g) * (y[g].mean() - m) ** 2 for g in groups) / np.sum((y - m) ** 2))


def eta2_noise(y: np.ndarray, bins: int, k: int, n_perm: int = 2000) -> float:
    """The eta^2 that k unrelated variables stay below with family-wise probability 95 % (the
    1 - 0.05/k quantile over seeded permutations of y)."""
    rng = np.random.default_rng(0)
    x = np.arange(len(y))
    vals = [eta2(x, rng.permutation(y), bins) for _ in range(n_perm)]
    return float(np.percentile(vals, 100 * (1 - 0.05 / k))) if np.isfinite(vals).all() else math.nan


def rho_noise(n: int, k: int) -> float:
    """The |rho| that k unrelated variables stay below with family-wise probability 95 % (n worlds)."""
    from scipy.special import ndtri
    return float(ndtri(1 - 0.025 / k) / math.sqrt(n - 1)) if n > 1 else math.nan


def add_derived(X: np.ndarray, names: list[str], derived: dict) -> tuple[np.ndarray, list[str]]:
    """X and names with the declared ratio variables appended (ConfigError for a bad entry)."""
    cols, out = [X], list(names)
    for label, pair in (derived or {}).items():
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2 and all(v in names for v in pair)):
            raise ConfigError(f"experiment.derived.{label}", pair, f"[numerator, denominator], two of {names}")
        cols.append((X[:, names.index(pair[0])] / X[:, names.index(pair[1])])[:, None])
        out.append(str(label))
    return np.hstack(cols), out


def worst_index(y: np.ndarray, sense: str) -> int:
    if sense == "max":
        return int(np.argmin(y))
    if sense == "min":
        return int(np.argmax(y))
    return int(np.argmax(np.abs(y)))


def analyse(rows: list[dict], X: np.ndarray, names: list[str], merit: dict, drawn: int | None = None) -> dict:
    """The distribution, worst case and sensitivity ranking of each merit over worlds 1..n."""
    ok = np.array([not r.get("error") for r in rows])
    out = {}
    for m, sense in merit.items():
        y = np.array([sw.num(r.get(m)) for r in rows], dtype=float)
        good = ok & np.isfinite(y)
        good[0] = False                       # world 0 is the nominal, not a draw
        idx = np.flatnonzero(good)
        res = dict(sense=sense, nominal=float(y[0]) if ok[0] else math.nan, healthy_worlds=int(len(idx)))
        if len(idx):
            q = np.percentile(y[idx], QUANTILES)
            w = int(idx[worst_index(y[idx], sense)])
            ranking, r2 = sensitivity(X[idx], y[idx], names, drawn)
            bins = max(2, round(math.sqrt(len(idx))))
            for s in ranking:
                s["eta2"] = eta2(X[idx, names.index(s["parameter"])], y[idx], bins)
            noise, rnoise = eta2_noise(y[idx], bins, len(names)), rho_noise(len(idx), len(names))
            top = max(ranking, key=lambda s: s["eta2"] if np.isfinite(s["eta2"]) else -1.0, default=None)
            res.update(median=float(q[1]), p5=float(q[0]), p95=float(q[2]), mean=float(y[idx].mean()),
                       std=float(y[idx].std(ddof=1)) if len(idx) > 1 else math.nan, min=float(y[idx].min()),
                       max=float(y[idx].max()), worst=float(y[w]), worst_world=w,
                       rho_noise=rnoise,
                       eta2_noise=noise, eta2_bins=bins,
                       most_sensitive_significant=bool(ranking and abs(ranking[0]["spearman_rho"]) > rnoise),
                       most_sensitive_eta2=top["parameter"] if top and top["eta2"] > noise else None,
                       worst_params={v: float(X[w, j]) for j, v in enumerate(names)},
                       most_sensitive=ranking[0]["parameter"] if ranking and np.isfinite(ranking[0]["spearman_rho"])
                       else None, sensitivity=ranking, src_r2=r2)
            if sense == "abs":                # nearer zero is better: the spread of |value| too
                a = np.abs(y[idx])
                res.update(abs_median=float(np.median(a)), abs_p95=float(np.percentile(a, 95)))
        out[m] = res
    return out
