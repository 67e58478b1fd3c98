"""The snake paper's serpenoid inchworm gait (Sun, Ma & Wang): kinematics and the travelling hump.

Pure functions of the paper's equations (unit link length unless l is given) and the
`InchwormGait` input generator; envs/snake/robot.py is the MuJoCo twin that follows it.
"""
from __future__ import annotations

import math

import numpy as np

from ..core.model.errors import ConfigError
from .config import TIMINGS


# ---- kinematics of the paper (unit link length unless l is given) -------------------
def beta_of(n: int) -> float:
    """Eq. 13: beta = 180 deg / n (rad)."""
    return math.pi / n


def alpha_max(n: int) -> float:
    """Eq. 14: alpha < 180 deg / sum_{i=1}^{n-1} sin(i beta)  (rad); theta_1^0 = 90 deg at the bound."""
    b = beta_of(n)
    return math.pi / float(np.sin(np.arange(1, n) * b).sum())


def wave(n: int, alpha: float):
    """The hump at t=0: (beta, phi^0 [n-1], theta^0 [n]).

    phi_i^0 = -alpha sin(i beta) (eq. 6); theta_1^0 = -theta_n^0 = -1/2 sum phi_i^0 (eq. 7);
    theta_{i+1}^0 = theta_i^0 + phi_i^0 (eq. 1).
    """
    b = beta_of(n)
    phi0 = -alpha * np.sin(np.arange(1, n) * b)
    th1 = -0.5 * phi0.sum()
    theta0 = np.r_[th1, th1 + np.cumsum(phi0)]
    return b, phi0, theta0


def d_unit(n: int, alpha: float) -> float:
    """Eq. 12: d_unit = d_step / l = n - sum_i cos(theta_i^0)."""
    return float(n - np.cos(wave(n, alpha)[2]).sum())


def step_joints(n: int, alpha: float, s):
    """Eq. 8: the n+2 relative angles of one propulsion step and their d/ds, at s in [0, 1].

    s = omega_2 t / (pi/2) = omega_1 t / beta (both phases end together, omega_1 = 2 beta omega_2 / pi).
    Column m (m = 0..n+1) is the relative angle at the point P_m of the step's window
    (P_0 = the hump's rear foot, P_{n+1} = one link ahead of its front foot):
      q_0     = theta_1^0 + J_1           (link 0 lies on the floor: theta_1 = q_0)
      q_1     = phi_1^0 + J_2
      q_m     = -J_{m+1} = phi_m(t) = -alpha sin(-omega_1 t + m beta)      2 <= m <= n-1
      q_n     = -theta_n^0 + J_{n+1}
      q_{n+1} = 0 + J_{n+2}
    i.e. eq. 8's J_1, J_2, J_{n+1}, J_{n+2} are the turns (increments) of the end joints
    (they satisfy eq. 4) and J_3..J_n are minus the middle relative angles, as printed.
    """
    s = np.asarray(s, float)
    b, phi0, theta0 = wave(n, alpha)
    th1, thn = theta0[0], theta0[-1]
    S, dS = np.sin(0.5 * np.pi * s), 0.5 * np.pi * np.cos(0.5 * np.pi * s)
    q = np.zeros(s.shape + (n + 2,))
    dq = np.zeros_like(q)
    q[..., 0], dq[..., 0] = th1 - th1 * S, -th1 * dS
    q[..., 1], dq[..., 1] = phi0[0] + (th1 - phi0[0]) * S, (th1 - phi0[0]) * dS
    for m in range(2, n):
        arg = -b * s + m * b
        q[..., m], dq[..., m] = -alpha * np.sin(arg), alpha * b * np.cos(arg)
    q[..., n], dq[..., n] = -thn + (thn + phi0[-1]) * S, (thn + phi0[-1]) * dS
    q[..., n + 1], dq[..., n + 1] = -thn * S, -thn * dS
    return q, dq


def step_angles(n: int, alpha: float, s) -> np.ndarray:
    """Absolute angles theta_1..theta_{n+1} during a step: the cumulative sum of step_joints (eq. 1).

    (Eq. 9 as printed subtracts phi_1^0 and adds J_i = -phi_i, which does not close the
    hump at t=0; see eq9_as_printed and models/snake/README.md.)
    """
    q, _ = step_joints(n, alpha, s)
    return np.cumsum(q, axis=-1)[..., : n + 1]


def eq9_as_printed(n: int, alpha: float, s) -> np.ndarray:
    """Eq. 9 exactly as printed (theta_1..theta_{n+1}); kept to document the slip."""
    s = np.asarray(s, float)
    b, phi0, theta0 = wave(n, alpha)
    S = np.sin(0.5 * np.pi * s)
    J = {1: -theta0[0] * S, 2: (theta0[0] - phi0[0]) * S, n + 1: (theta0[-1] + phi0[-1]) * S}
    for i in range(3, n + 1):
        J[i] = alpha * np.sin(-b * s + (i - 1) * b)
    th = np.zeros(s.shape + (n + 1,))
    th[..., 0] = theta0[0] + J[1]
    th[..., 1] = th[..., 0] - phi0[0] + J[2]
    for i in range(3, n + 1):
        th[..., i - 1] = th[..., i - 2] + J[i]
    th[..., n] = th[..., n - 2] - theta0[-1] + J[n]
    return th


def end_point_errors(n: int, alpha: float, s):
    """Eq. 10 (in units of l): X_error, Y_error of P_{n+1} relative to P_0 during a step."""
    th = step_angles(n, alpha, s)
    th0 = np.r_[wave(n, alpha)[2], 0.0]
    X = np.cos(th).sum(-1) - np.cos(th0).sum()
    Y = np.sin(th).sum(-1)
    return X, Y


def energy_loss(n: int, alpha: float, samples: int = 4001) -> float:
    """Eq. 11: f = max over the step of sqrt(X_error^2 + Y_error^2) (l = 1)."""
    X, Y = end_point_errors(n, alpha, np.linspace(0.0, 1.0, samples))
    return float(np.sqrt(X**2 + Y**2).max())


def step_timing(tau, kind: str = "cycloidal"):
    """sigma(tau) and dsigma/dtau for one step (tau in [0, 1])."""
    tau = np.asarray(tau, float)
    if kind == "linear":
        return tau, np.ones_like(tau)
    if kind == "cycloidal":
        return tau - np.sin(2 * np.pi * tau) / (2 * np.pi), 1.0 - np.cos(2 * np.pi * tau)
    raise ConfigError("timing", kind, f"one of {list(TIMINGS)}")


class InchwormGait:
    """Joint references phi_1..phi_{N-1} of the continuous crawl (see the module docstring)."""

    def __init__(self, n: int, N: int, alpha: float, T_step: float, kind: str = "cycloidal"):
        self.n, self.N, self.alpha, self.T_step, self.kind = int(n), int(N), float(alpha), float(T_step), kind
        b, phi0, theta0 = wave(self.n, self.alpha)
        # the hump's relative angles at the points P_j .. P_{j+n} when it occupies links j+1..j+n:
        # theta_1^0 (from the flat link behind), phi_1^0..phi_{n-1}^0, -theta_n^0 (to the flat link ahead)
        self.hump = np.r_[theta0[0], phi0, -theta0[-1]]
        self.steps = self.N - self.n + 2

    @property
    def period(self) -> float:
        return self.steps * self.T_step

    def step_of(self, t):
        """(step index k in 0..K-1, normalised time tau in [0, 1)) of times t."""
        u = np.asarray(t, float) / self.T_step
        k = np.floor(u + 1e-12)
        return (k.astype(np.int64) % self.steps), np.clip(u - k, 0.0, 1.0)

    def __call__(self, t):
        """(q, qd): references and their time derivatives, each (len(t), N-1)."""
        t = np.atleast_1d(np.asarray(t, float))
        k, tau = self.step_of(t)
        sig, dsig = step_timing(tau, self.kind)
        rate = dsig / self.T_step                       # dsigma/dt
        n, N = self.n, self.N
        q = np.zeros((len(t), N + 1))                   # columns: points P_0..P_N (P_0, P_N are free ends)
        qd = np.zeros_like(q)
        first = k == 0                                  # formation: hump at links 1..n, points P_0..P_n
        if first.any():
            q[first, 0:n + 1] = sig[first, None] * self.hump
            qd[first, 0:n + 1] = rate[first, None] * self.hump
        last = k == self.steps - 1                      # release: hump at links N-n+1..N, points P_{N-n}..P_N
        if last.any():
            q[last, N - n:N + 1] = (1.0 - sig[last, None]) * self.hump
            qd[last, N - n:N + 1] = -rate[last, None] * self.hump
        mid = ~(first | last)
        if mid.any():
            jm, dj = step_joints(n, self.alpha, sig[mid])     # window P_j..P_{j+n+1}, j = k-1
            rows = np.flatnonzero(mid)
            cols = (k[mid] - 1)[:, None] + np.arange(n + 2)[None, :]
            keep = cols <= N
            r = np.broadcast_to(rows[:, None], cols.shape)
            q[r[keep], cols[keep]] = jm[keep]
            qd[r[keep], cols[keep]] = (dj * rate[mid, None])[keep]
        return q[:, 1:N], qd[:, 1:N]

    def link_angles(self, t) -> np.ndarray:
        """Absolute angles theta_1..theta_N of the ideal crawl with link 1 resting as in the plan.

        Anchored on whichever end lies on the floor: the links behind the hump are flat.
        """
        q, _ = self(t)
        k, tau = self.step_of(t)
        sig, _ = step_timing(tau, self.kind)
        th1 = np.zeros(len(q))
        first = k == 0
        th1[first] = sig[first] * self.hump[0]
        j1 = k == 1
        if j1.any():
            th1[j1] = step_joints(self.n, self.alpha, sig[j1])[0][:, 0]
        return th1[:, None] + np.c_[np.zeros(len(q)), np.cumsum(q, axis=1)]


def ideal_positions(gait: InchwormGait, t, l: float = 1.0) -> np.ndarray:
    """Points P_0..P_N (x, y) of the ideal (kinematic) crawl at times t, shape (len(t), N+1, 2).

    The plan keeps the part of the robot that lies on the floor where it is: the flat front
    during formation (P_0 advances by l d_unit), the part behind the hump afterwards (P_N
    advances by l d_unit in release).  Exact at step boundaries, where the hump is closed;
    inside a propulsion step the part ahead of the window is drawn rigidly attached, i.e.
    it follows eq. 10's end-point error (which the real floor does not allow).  Used to
    check the plan (body advance per cycle, closure, continuity), not by the physics.
    """
    t = np.atleast_1d(np.asarray(t, float))
    th = gait.link_angles(t)
    seg = l * np.stack([np.cos(th), np.sin(th)], axis=-1)
    rel = np.concatenate([np.zeros((len(t), 1, 2)), np.cumsum(seg, axis=1)], axis=1)
    k, _ = gait.step_of(t)
    cyc = np.floor(t / gait.period + 1e-12)
    du = l * d_unit(gait.n, gait.alpha)
    N = gait.N
    # anchor: formation keeps P_N where it was (the flat front part is at rest); every later
    # step keeps P_0 (the part behind the hump is at rest)
    start = cyc * du
    x0 = np.where(k == 0, start + N * l - rel[:, N, 0], start + du)
    if k.size and np.any(k == 0):
        rel[k == 0, :, 1] -= rel[k == 0, N:N + 1, 1]
    out = rel.copy()
    out[:, :, 0] += x0[:, None]
    return out
