"""MinIAQ-II inputs: constant-speed cranks with the paper's phase error (Sec. II: about 20 deg).

`MiniAQ.inputs` returns a `PhasedCrank`; the twin's motor references and the paper engine's crank
angles and rates are both read from it.
"""
from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from ..core.model.inputs import Crank

WANDER_TERMS = 4     # sinusoids per leg in the slow phase wander


@dataclasses.dataclass(frozen=True)
class PhaseWander:
    """A slow, bounded, seeded random phase error per leg: a pure function of time.

    delta_j(t) = A sum_k a_jk sin(2 pi t / T_jk + phi_jk) / sum_k a_jk, so |delta_j| <= A (rad);
    a_jk ~ U(0.5, 1), T_jk ~ U(T, 5 T), phi_jk ~ U(0, 2 pi) from numpy's default_rng(seed).
    A sum of sinusoids rather than a stepped random walk: smooth (the crank speed stays finite)
    and evaluable at any t, in chunks, by both engines.
    """

    amplitude: float
    period: float
    seed: int
    n: int = 4

    @functools.cached_property
    def terms(self) -> tuple:
        rng = np.random.default_rng(self.seed)
        a = rng.uniform(0.5, 1.0, (self.n, WANDER_TERMS))
        T = rng.uniform(self.period, 5 * self.period, (self.n, WANDER_TERMS))
        phi = rng.uniform(0.0, 2 * math.pi, (self.n, WANDER_TERMS))
        return self.amplitude * a / a.sum(axis=1, keepdims=True), 2 * math.pi / T, phi

    def __call__(self, t):
        """(delta, d delta/dt), each (len(t), n) rad and rad/s."""
        a, w, phi = self.terms
        x = np.asarray(t, float)[:, None, None] * w[None] + phi[None]
        return np.sum(a[None] * np.sin(x), axis=2), np.sum(a[None] * w[None] * np.cos(x), axis=2)


@dataclasses.dataclass(frozen=True)
class PhasedCrank(Crank):
    """Crank with a time-varying phase error: theta_j = offset_j + s_j (omega t - delta_j(t))."""

    wander: PhaseWander | None = None

    def __call__(self, t):
        q, qd, qdd = super().__call__(t)
        if self.wander is None or self.wander.amplitude == 0.0:
            return q, qd, qdd
        sgn = np.ones(len(self.offsets)) if self.directions is None else np.asarray(self.directions, float)
        dl, dld = self.wander(t)
        return q - sgn[None] * dl, qd - sgn[None] * dld, qdd
