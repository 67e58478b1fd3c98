"""Friction uncertainty sets of Section VI (eqs. 6-7): the one sampler of (mu1, mu2) pairs.

The paper gives two readings of its uncertainty range:

* ``eq7``: eq. 7 taken literally, each coefficient varied on its own,
  mu_i in [1 - eps, 1 + eps] mu: the grid mu_i = (1 + eps k_i) mu over k_1, k_2 in `levels`
  (len(levels)^2 pairs).  Its ratios mu1/mu2 span [(1 - eps)/(1 + eps), (1 + eps)/(1 - eps)]
  (0.82-1.22 for eps = 0.1), wider than the captions' range.
* ``ratio``: the captions of Figs. 4, 8, 9 and the text after eq. 7 ("the distance S decreases
  as mu1/mu2 -> 1 +/- eps"; "the shaded area shows the range of S for friction perturbation
  mu1/mu2 -> 1 +/- eps"; "mu1/mu2 in [0.9, 1.1]").  The ratio r = mu1/mu2 = 1 + eps k over k in
  `levels` (len(levels) pairs), with the geometric mean held at the nominal value,
  mu1 mu2 = mu^2, i.e. mu1 = mu sqrt(r), mu2 = mu / sqrt(r).  Why the geometric mean: the paper
  states that a symmetric perturbation mu1 = mu2 = (1 +/- eps) mu "insignificantly" affects S,
  so only the ratio is the uncertain quantity, and some common level must be fixed; the geometric
  mean is the one that treats the two feet alike (swapping mu1 and mu2 maps r to 1/r with the
  same level) and keeps both coefficients inside eq. 7's box [1 - eps, 1 + eps] mu
  (1/sqrt(1 - eps) <= 1 + eps for eps <= 0.6).

Both include the nominal pair (mu, mu) exactly when 0 is among the levels.
"""
from __future__ import annotations

import math
from typing import List, Sequence, Tuple

from ..core.model.errors import ConfigError

SAMPLINGS = ("ratio", "eq7")
DEFAULT_SAMPLING = "ratio"     # reproduces the paper's Figs. 8/9 optima (models/crawler/README.md)


def friction_set(mu: float, eps: float, levels: Sequence[float] = (-1.0, 0.0, 1.0),
                 sampling: str = DEFAULT_SAMPLING) -> List[Tuple[float, float]]:
    """(mu1, mu2) pairs of the friction uncertainty set (module docstring), nominal (mu, mu) exact."""
    if sampling not in SAMPLINGS:
        raise ConfigError("experiment.sampling", sampling, f"one of {list(SAMPLINGS)}")
    if not 0 <= eps < 1:
        raise ConfigError("experiment.eps", eps, "[0, 1)")
    if not levels or any(not -1 <= float(k) <= 1 for k in levels):
        raise ConfigError("experiment.levels", list(levels), "a non-empty list of numbers in [-1, 1]")
    if sampling == "eq7":
        return [(_round(mu * (1 + eps * i)), _round(mu * (1 + eps * j))) for i in levels for j in levels]
    out = []
    for k in levels:
        s = math.sqrt(1 + eps * k)
        out.append((_round(mu * s), _round(mu / s)))
    return out


def _round(x: float) -> float:
    return round(x, 12)        # the same float for the same pair however it was built (store keys)


def is_nominal(mu1: float, mu2: float, mu: float) -> bool:
    return abs(float(mu1) - mu) < 1e-9 and abs(float(mu2) - mu) < 1e-9
