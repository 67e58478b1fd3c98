"""BOLT's closed-form kinematics: the loop equations of Appendix A (Phi_1..Phi_4), the designed
foot path, the assembly intervals of l_2 and l_3, Table 1's lengths and touch-down detection."""
from __future__ import annotations

import dataclasses

import numpy as np

from ..core.model import metrics

# Assembly modes (circle-intersection branches), fixed by the paper's Fig. 2/5:
# B lies clockwise of the ray D->A (femur hangs below the hip), G clockwise of
# the ray C->E (the KFE link meets the tibia behind the knee).
BRANCH_B, BRANCH_G = -1.0, -1.0

# ---- closed-form kinematics of the loop equations (Appendix A, Phi_1..Phi_4) -----------
@dataclasses.dataclass(frozen=True)
class Geometry:
    """Table 2 link lengths (m) and base angle theta (rad)."""

    l_c: float
    l_1: float
    l_2: float
    l_3: float
    l_4: float
    l_5: float
    l_s: float
    l_f: float
    l_t: float
    theta: float

    @classmethod
    def of(cls, p) -> "Geometry":
        """The geometry of a point's SI parameters (`Bolt.SI`)."""
        return cls(**{f.name: float(getattr(p, f.name)) for f in dataclasses.fields(cls)})


def _circle_intersection(p0, r0, p1, r1, branch):
    """Points at distance r0 from p0 and r1 from p1 (complex arrays); also h^2 (< 0: no solution).

    branch +1 / -1: the intersection counter-clockwise / clockwise of the ray p0 -> p1.
    """
    d = p1 - p0
    L = np.abs(d)
    a = (r0**2 - r1**2 + L**2) / (2 * L)
    h2 = r0**2 - a**2
    u = d / L
    return p0 + a * u + branch * 1j * np.sqrt(np.maximum(h2, 0.0)) * u, h2


def loop_kinematics(q1, g: Geometry) -> dict:
    """Closed-form solution of Phi_1..Phi_4 for crank angles q1 (rad, array).

    Returns the paper's joint angles q1..q5 (rad; q2, q3, q5 relative) and the
    points P, A, D, B, C, E, G, F as complex numbers x + i y in the body frame {B}
    (origin P), plus h2_B, h2_G (squared half-chords; > 0 where the loops close).
    Loop 1: B at l_2 from the crank pin D and l_f from the hip A.  C lies on the
    HFE link between D and B (l_s from D).  Loop 2: G at l_3 from C and l_t from
    the knee E.  The foot F is on the tibia ray E->G at l_5 from E.
    """
    q1 = np.asarray(q1, float)
    P = np.zeros_like(q1, dtype=complex)
    A = g.l_c * np.exp(1j * g.theta) + P
    D = g.l_1 * np.exp(1j * q1)
    B, h2_B = _circle_intersection(D, g.l_2, A, g.l_f, BRANCH_B)
    th2 = np.angle(B - D)
    q4 = np.angle(B - A)
    C = D + g.l_s * np.exp(1j * th2)
    E = A + g.l_4 * np.exp(1j * q4)
    G, h2_G = _circle_intersection(C, g.l_3, E, g.l_t, BRANCH_G)
    th3 = np.angle(G - C)
    th5 = np.angle(G - E)
    F = E + g.l_5 * np.exp(1j * th5)
    wrap = lambda a: (a + np.pi) % (2 * np.pi) - np.pi  # noqa: E731
    return dict(q1=q1, q2=wrap(th2 - q1), q3=wrap(th3 - th2), q4=q4, q5=wrap(th5 - q4),
                P=P, A=A, D=D, B=B, C=C, E=E, G=G, F=F, h2_B=h2_B, h2_G=h2_G)


def phi(q, g: Geometry) -> np.ndarray:
    """Appendix A's constraint vector Phi_1..Phi_4 at q = (q1, q2, q3, q4, q5) (rows)."""
    q1, q2, q3, q4, q5 = np.asarray(q, float).T
    c, s = np.cos, np.sin
    return np.stack([
        g.l_2 * c(q1 + q2) + g.l_1 * c(q1) - g.l_f * c(q4) - g.l_c * c(g.theta),
        g.l_2 * s(q1 + q2) + g.l_1 * s(q1) - g.l_f * s(q4) - g.l_c * s(g.theta),
        g.l_s * c(q1 + q2) - g.l_t * c(q4 + q5) + g.l_1 * c(q1) - g.l_4 * c(q4) - g.l_c * c(g.theta)
        + g.l_3 * c(q1 + q2 + q3),
        g.l_s * s(q1 + q2) - g.l_t * s(q4 + q5) + g.l_1 * s(q1) - g.l_4 * s(q4) - g.l_c * s(g.theta)
        + g.l_3 * s(q1 + q2 + q3),
    ], axis=-1)


def foot_path(g: Geometry, n: int = 721) -> np.ndarray:
    """Closed-form foot path over one revolution: (n, 2) [x, y] in {B}."""
    F = loop_kinematics(np.linspace(0.0, 2 * np.pi, n), g)["F"]
    return np.stack([F.real, F.imag], axis=1)


def stride_and_height(xy) -> tuple[float, float]:
    """Stride length = horizontal extent, step height = vertical extent of a foot path in {B}."""
    xy = np.asarray(xy, float)
    return float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1]))


def l2_interval(g: Geometry) -> tuple[float, float]:
    """Loop 1 closes for every crank angle iff |l_2 - l_f| <= |l_c - l_1| and l_2 + l_f >= l_c + l_1."""
    e = abs(g.l_c - g.l_1)
    return max(g.l_c + g.l_1 - g.l_f, g.l_f - e), g.l_f + e


def l3_interval(g: Geometry, n: int = 1441) -> tuple[float, float]:
    """Loop 2 closes for every crank angle iff |CE| - l_t <= l_3 <= |CE| + l_t at every angle (l_3 > l_t)."""
    k = loop_kinematics(np.linspace(0.0, 2 * np.pi, n), g)
    d = np.abs(k["C"] - k["E"])
    return float(max(d.max() - g.l_t, g.l_t)), float(d.min() + g.l_t)


# Table 1: bounds (m) of the optimisation's search space; l_leg = l_AE + l_EF (eq. 5)
TABLE1_BOUNDS = {"l_leg": (0.45, 0.50), "l_f": (0.073, 0.098), "l_c": (0.075, 0.12), "l_s": (0.039, 0.056),
                 "l_t": (0.044, 0.067)}


def table1_lengths(g: Geometry) -> dict:
    """The lengths Table 1 bounds: l_leg = |AE| + |EF| = l_4 + l_5 (the foot at l_5 from the knee E)."""
    return {"l_leg": g.l_4 + g.l_5, "l_f": g.l_f, "l_c": g.l_c, "l_s": g.l_s, "l_t": g.l_t}


def touchdowns(touch, min_flight: int) -> list[int]:
    """Sample indices where the foot lands after at least `min_flight` samples in the air
    (contact chatter within one stance does not count as a new stride)."""
    out, last_off = [], None
    for a, b in metrics.intervals(touch):
        if last_off is None or a - last_off >= min_flight:
            out.append(int(a))
        last_off = b
    return out
