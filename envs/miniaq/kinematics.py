"""MinIAQ-II leg kinematics (Sec. III-A): the four-bar's position analysis, the foot path, Euler angles.

Shared by the twin (envs/miniaq/robot.py) and the paper engine (envs/miniaq/paper/model.py).  Each leg
is a planar four-bar in its (x, z) plane, B (the crank axis) at the origin: crank BD (l2),
coupler DC (l3), rocker AC (l4), ground link AB (l1 at theta1); foot tip E and fold node F on the
coupler.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

BRANCH = +1          # assembly of the four-bar: C on the left of the line D -> A (see fourbar)


def grashof_problem(l1: float, l2: float, l3: float, l4: float) -> str:
    """Why (l1, l2, l3, l4) is not a Grashof crank-rocker with crank l2, or ''."""
    links = sorted((l1, l2, l3, l4))
    if min(l1, l3, l4) <= l2:
        return "the crank l2 must be the shortest link"
    if links[0] + links[3] > links[1] + links[2]:
        return "non-Grashof link set: s + l > p + q, the crank cannot turn fully"
    return ""


def grashof_l1_range(l2: float, l3: float, l4: float) -> tuple[float, float]:
    """The ground-link lengths l1 that make a Grashof crank-rocker with crank l2."""
    lo = max(l2, l2 + max(l3, l4) - min(l3, l4))
    hi = l3 + l4 - l2
    return lo, hi


def fourbar(theta2, l1, theta1, l2, l3, l4, branch: int = BRANCH):
    """Position analysis: joints D, C (leg frame, B at the origin) and link angles theta3, theta4.

    theta2: crank angle(s); A = l1 e(theta1).  Returns D, C of shape (..., 2) and theta3 (DC),
    theta4 (AC).  Raises ValueError where the loop cannot close.
    """
    th2 = np.asarray(theta2, float)
    A = np.array([l1 * math.cos(theta1), l1 * math.sin(theta1)])
    D = np.stack([l2 * np.cos(th2), l2 * np.sin(th2)], axis=-1)
    AD = D - A
    dist = np.linalg.norm(AD, axis=-1)
    a = (l3**2 - l4**2 + dist**2) / (2 * dist)
    h2 = l3**2 - a**2
    if np.any(h2 < 0):
        raise ValueError("the four-bar loop cannot close")
    u = -AD / dist[..., None]
    n = np.stack([-u[..., 1], u[..., 0]], axis=-1)
    C = D + a[..., None] * u + branch * np.sqrt(h2)[..., None] * n
    th3 = np.arctan2(C[..., 1] - D[..., 1], C[..., 0] - D[..., 0])
    th4 = np.arctan2(C[..., 1] - A[1], C[..., 0] - A[0])
    return D, C, th3, th4


@dataclasses.dataclass(frozen=True)
class Leg:
    """One leg's four-bar geometry (m, rad): all that `foot_point` reads (the paper model's leg tables)."""

    l1: float
    l2: float
    l3: float
    l4: float
    l5: float
    l6: float
    theta1: float
    theta35: float
    theta36: float

    @classmethod
    def of(cls, p) -> "Leg":
        """The leg of a point's SI parameters (`MiniAQ.SI`)."""
        return cls(p.l1, p.l2, p.l3, p.l4, p.l5, p.l6, p.theta1, p.theta35, p.theta36)


def foot_point(theta2, p):
    """Foot tip E (and fold node F) in the leg frame (B at the origin), shape (..., 2); p: `MiniAQ.SI` or a `Leg`."""
    D, _, th3, _ = fourbar(theta2, p.l1, p.theta1, p.l2, p.l3, p.l4)
    E = D + p.l5 * np.stack([np.cos(th3 + p.theta35), np.sin(th3 + p.theta35)], axis=-1)
    F = D + p.l6 * np.stack([np.cos(th3 + p.theta36), np.sin(th3 + p.theta36)], axis=-1)
    return E, F


def mid_stance_angle(p, n: int = 3600) -> float:
    """The crank angle theta2 at which the foot is lowest (mid-stance of the designed path)."""
    th = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    E, _ = foot_point(th, p)
    return float(th[np.argmin(E[:, 1])])


def foot_path(p, n: int = 720) -> dict:
    """The designed foot path: stride (fore-aft sweep), step height, lowest point (leg frame)."""
    E, _ = foot_point(np.linspace(0.0, 2 * math.pi, n, endpoint=False), p)
    return dict(stride=float(np.ptp(E[:, 0])), step_height=float(np.ptp(E[:, 1])),
                z_min=float(E[:, 1].min()), x_min=float(E[:, 0].min()), x_max=float(E[:, 0].max()))


def quat_to_euler(q) -> np.ndarray:
    """(w, x, y, z) quaternions -> (roll phi, pitch theta, yaw psi), Z-Y-X sequence (Sec. III-B)."""
    q = np.asarray(q, float)
    w, x, y, z = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    roll = np.arctan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
    pitch = np.arcsin(np.clip(2 * (w * y - z * x), -1.0, 1.0))
    yaw = np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
    return np.stack([roll, pitch, yaw], axis=-1)
