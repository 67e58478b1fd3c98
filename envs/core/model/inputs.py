"""Periodic input generators shared by all robots (SI units, radians).

Each generator is a pure function of time returning joint references and their
time derivatives, vectorised over a time array, so the same code feeds the
dm_control environment (one step at a time) and the batch runner (whole chunks).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from .errors import ConfigError


def time_scaling(xi, alpha: float, upsilon: float):
    """Eq. 8 of the crawler paper: s(xi) = xi + alpha sin(xi + Upsilon), and ds/dxi, d2s/dxi2."""
    s = xi + alpha * np.sin(xi + upsilon)
    ds = 1.0 + alpha * np.cos(xi + upsilon)
    dds = -alpha * np.sin(xi + upsilon)
    return s, ds, dds


def check_time_scaling(alpha: float) -> None:
    """s must be monotone (ds/dxi >= 0 everywhere), i.e. |alpha| <= 1."""
    if not -1.0 <= alpha <= 1.0:
        raise ConfigError("alpha", alpha, "[-1, 1]",
                          "time scaling s(xi) = xi + alpha sin(xi + Upsilon) is non-monotone for |alpha| > 1")


@dataclasses.dataclass(frozen=True)
class PhasedSine:
    """phi_i(t) = phi0 + A sin(s(omega t + delta_i)) for joints with phase offsets delta_i.

    The crawler's eq. 5 is delta = (+psi/2, -psi/2); eq. 8's time scaling s is
    applied when alpha != 0.  Returns (q, qd, qdd), each of shape (len(t), n).
    """

    omega: float
    A: float
    phi0: float
    offsets: tuple
    alpha: float = 0.0
    upsilon: float = 0.0

    def __post_init__(self):
        check_time_scaling(self.alpha)

    @property
    def period(self) -> float:
        return 2 * np.pi / self.omega

    def __call__(self, t):
        xi = self.omega * np.asarray(t, float)[:, None] + np.asarray(self.offsets)[None, :]
        s, ds, dds = time_scaling(xi, self.alpha, self.upsilon)
        w = self.omega
        q = self.phi0 + self.A * np.sin(s)
        qd = self.A * np.cos(s) * ds * w
        qdd = self.A * (-np.sin(s) * ds**2 + np.cos(s) * dds) * w**2
        return q, qd, qdd


@dataclasses.dataclass(frozen=True)
class Crank:
    """Constant-speed crank: theta_i(t) = theta0_i + direction_i * omega t (unwrapped).

    omega in rad/s (> 0); offsets are the per-crank phase offsets (rad);
    directions are +1/-1 per crank (reversing one side turns a quadruped).
    """

    omega: float
    offsets: tuple
    directions: tuple | None = None

    @property
    def period(self) -> float:
        return 2 * np.pi / self.omega

    def __call__(self, t):
        t = np.asarray(t, float)[:, None]
        sgn = np.ones(len(self.offsets)) if self.directions is None else np.asarray(self.directions, float)
        q = np.asarray(self.offsets)[None, :] + sgn[None, :] * self.omega * t
        qd = np.broadcast_to(sgn[None, :] * self.omega, q.shape).copy()
        return q, qd, np.zeros_like(q)


@dataclasses.dataclass(frozen=True)
class DeviceLaw:
    """A prescribed input law in the form MuJoCo Warp evaluates on the device (envs/core/engines/warp_law.py):
    per actuator i, with xi_i = omega t + delta_i and eq. 8's s(xi) = xi + alpha sin(xi + upsilon),

        ctrl_i(t) = c0_i + c1_i t + a_sin_i sin(s(xi_i)) + a_cos_i cos(s(xi_i)) ds/dxi(xi_i)

    which holds the crawler's eq. 5 with time scaling (q and qd = dq/dt) and constant-speed cranks
    with phase offsets (MinIAQ-II).  `Robot.device_law()` returns one where the robot's `controls`
    is exactly this law (None otherwise: its controls are computed on the host)."""

    omega: float
    c0: tuple
    c1: tuple
    a_sin: tuple
    a_cos: tuple
    delta: tuple
    alpha: float = 0.0
    upsilon: float = 0.0

    def __call__(self, t):
        """The law on the host, (len(t), nu): what the device kernel computes."""
        t = np.asarray(t, float)[:, None]
        xi = self.omega * t + np.asarray(self.delta)[None]
        s, ds, _ = time_scaling(xi, self.alpha, self.upsilon)
        return (np.asarray(self.c0)[None] + np.asarray(self.c1)[None] * t + np.asarray(self.a_sin)[None] * np.sin(s)
                + np.asarray(self.a_cos)[None] * np.cos(s) * ds)
