"""The printed equations of the MinIAQ-II paper's model (Askari & Ozcan, Sec. III) as functions.

STEP and the contact laws (eqs. 15-17), the legs' velocity analysis (eqs. 1-6, positions from the
twin's four-bar), the Z-Y-X rotation (eq. 13) and the leg lookup table the ODE reads.  The model
and its runs are envs/miniaq/paper/model.py, which re-exports these names.
"""
from __future__ import annotations

import math

import numpy as np

from .kinematics import Leg, foot_point, fourbar


# ---- STEP and the contact laws (eqs. 15-17) ----------------------------------------
def step(x, x1, y1, x2, y2):
    """STEP(x, x1, y1, x2, y2): the standard smooth cubic step (MSC Adams, ref. [22]).

    y1 for x <= x1, y2 for x >= x2, and y1 + (y2 - y1) s^2 (3 - 2 s) with s = (x - x1)/(x2 - x1)
    in between: continuous with a continuous first derivative (zero at both knots).
    """
    s = np.clip((np.asarray(x, float) - x1) / (x2 - x1), 0.0, 1.0)
    return y1 + (y2 - y1) * s * s * (3.0 - 2.0 * s)


def step_f(x: float, x1: float, y1: float, x2: float, y2: float) -> float:
    """`step` for one float (no numpy: used inside the right-hand side and by the contact maps,
    envs/miniaq/contact.py and foot.py)."""
    if x <= x1:
        return y1
    if x >= x2:
        return y2
    s = (x - x1) / (x2 - x1)
    return y1 + (y2 - y1) * s * s * (3.0 - 2.0 * s)


def damping(Lp, c_max: float, d: float):
    """C = STEP(L_p, 0, 0, d, c_max) (eq. 15)."""
    return step(Lp, 0.0, 0.0, d, c_max)


def normal_force(Lp, Vp, K: float, e: float, c_max: float, d: float, clip: bool = False):
    """Eq. 15: F_N = K L_p^e - C V_p for L_p > 0, else 0; V_p = v_3, the foot's upward velocity.

    clip=True: max(F_N, 0) (the foot never pulls).
    """
    Lp = np.asarray(Lp, float)
    pos = np.maximum(Lp, 0.0)
    fn = np.where(Lp > 0, K * pos**e - damping(pos, c_max, d) * np.asarray(Vp, float), 0.0)
    return np.maximum(fn, 0.0) if clip else fn


def friction_coefficient(v_rel, mu_s: float, mu_d: float, V_s: float, V_d: float):
    """Eq. 16 as printed: the signed pseudo-Coulomb coefficient (0 at rest, -mu_s at V_s, -mu_d from V_d)."""
    return (step(v_rel, -V_d, mu_d, -V_s, mu_s) + step(v_rel, -V_s, mu_s, V_s, -mu_s)
            + step(v_rel, V_s, -mu_s, V_d, -mu_d))


def friction_ratio(v_rel, mu_s: float, mu_d: float, V_s: float, V_d: float):
    """mu / V_rel of eq. 17, finite at V_rel = 0.

    Below V_s eq. 16 reduces to mu = mu_s (u^3 - 3 u)/2 with u = V_rel/V_s, so
    mu / V_rel = mu_s (u^2 - 3) / (2 V_s): a viscous slope of -1.5 mu_s / V_s at rest.
    """
    v = np.asarray(v_rel, float)
    u = v / V_s
    low = mu_s * (u * u - 3.0) / (2.0 * V_s)
    high = friction_coefficient(v, mu_s, mu_d, V_s, V_d) / np.where(np.abs(v) < V_s, 1.0, v)
    return np.where(np.abs(v) < V_s, low, high)


# ---- leg kinematics (Sec. III-A, eqs. 1-6) ------------------------------------------
def _perp(r):
    """omega x r for a unit rate about the leg's hinge axis: (x, z) -> (-z, x) (counter-clockwise)."""
    return np.stack([-r[..., 1], r[..., 0]], axis=-1)


def leg_kinematics(theta2, theta2_dot, p) -> dict:
    """Position and velocity analysis of one four-bar leg in its (x, z) plane, B at the origin.

    Positions are the twin's (`fourbar`, `foot_point`).  Velocities (eqs. 1-6, planar): v_B = v_A =
    0; v_D = omega2 x r_BD (1); omega3, omega4 from v_D + omega3 x r_DC - omega4 x r_AC = 0 (4);
    v_E = v_D + omega3 x r_DE (5), v_F = v_D + omega3 x r_DF (6).  Rates are counter-clockwise in
    (x, z) (the twin's joint sign).  Returns D, C, E, F (..., 2), vD, vC, vE, vF, omega3, omega4.
    """
    th2 = np.asarray(theta2, float)
    w2 = np.broadcast_to(np.asarray(theta2_dot, float), th2.shape)
    D, C, th3, th4 = fourbar(th2, p.l1, p.theta1, p.l2, p.l3, p.l4)
    E, F = foot_point(th2, p)
    A = np.array([p.l1 * math.cos(p.theta1), p.l1 * math.sin(p.theta1)])
    vD = w2[..., None] * _perp(D)                                    # eq. 1 (r_BD = D)
    a, b = _perp(C - D), -_perp(C - A)                               # eq. 4: omega3 a + omega4 b = -v_D
    det = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    w3 = (-vD[..., 0] * b[..., 1] + vD[..., 1] * b[..., 0]) / det
    w4 = (-a[..., 0] * vD[..., 1] + a[..., 1] * vD[..., 0]) / det
    vC = vD + w3[..., None] * _perp(C - D)                           # eq. 2
    vE = vD + w3[..., None] * _perp(E - D)                           # eq. 5
    vF = vD + w3[..., None] * _perp(F - D)                           # eq. 6
    return dict(D=D, C=C, E=E, F=F, vD=vD, vC=vC, vE=vE, vF=vF, omega3=w3, omega4=w4, theta3=th3, theta4=th4)


# ---- rigid body (Sec. III-B, eqs. 8-14) -----------------------------------------------
def rotation_b2i(phi, theta, psi) -> np.ndarray:
    """R_{B->I} of eq. 13 (Z-Y-X: R_z(psi) R_y(theta) R_x(phi)), shape (3, 3, ...)."""
    cf, sf, ct, st, cp, sp = np.cos(phi), np.sin(phi), np.cos(theta), np.sin(theta), np.cos(psi), np.sin(psi)
    return np.array([[ct * cp, st * sf * cp - sp * cf, st * cf * cp + sp * sf],
                     [ct * sp, st * sf * sp + cp * cf, st * cf * sp - cp * sf],
                     [-st, ct * sf, ct * cf]])


def euler_to_quat(eul) -> np.ndarray:
    """(roll, pitch, yaw) Z-Y-X -> (w, x, y, z) quaternions (the inverse of `miniaq.quat_to_euler`)."""
    eul = np.asarray(eul, float)
    cr, sr = np.cos(eul[..., 0] / 2), np.sin(eul[..., 0] / 2)
    cp, sp = np.cos(eul[..., 1] / 2), np.sin(eul[..., 1] / 2)
    cy, sy = np.cos(eul[..., 2] / 2), np.sin(eul[..., 2] / 2)
    return np.stack([cr * cp * cy + sr * sp * sy, sr * cp * cy - cr * sp * sy,
                     cr * sp * cy + sr * cp * sy, cr * cp * sy - sr * sp * cy], axis=-1)


class LegTable:
    """A leg's foot tip E(theta2) and Jacobian J = dE/dtheta2 over one crank turn, for the ODE.

    Built from the exact analysis (`leg_kinematics`: the twin's four-bar positions, eqs. 1-6
    velocities) at n nodes and read by periodic cubic Hermite interpolation (E with J, J with
    dJ/dtheta2 by central differences of the exact J): the error is below 1e-12 m for n = 2048
    (tested against `foot_point`).  Plain-float lookup: the right-hand side runs without numpy.
    """

    def __init__(self, p: Leg, n: int = 2048):
        th = np.arange(n) * (2 * math.pi / n)
        k = leg_kinematics(th, 1.0, p)
        hd = 1e-6
        dJ = (leg_kinematics(th + hd, 1.0, p)["vE"] - leg_kinematics(th - hd, 1.0, p)["vE"]) / (2 * hd)
        self.n, self.h = n, 2 * math.pi / n
        E, J = k["E"], k["vE"]
        rows = np.column_stack([E, J * self.h, J, dJ * self.h])
        rows = np.vstack([rows, rows[:1]])                     # periodic: node n is node 0
        self.rows = [tuple(r) for r in rows.tolist()]

    def __call__(self, theta2: float):
        """(E_x, E_z, J_x, J_z) at crank angle theta2 (leg plane, B at the origin)."""
        u = (theta2 % (2 * math.pi)) / self.h
        i = int(u)
        if i >= self.n:
            i = self.n - 1
        s = u - i
        a = self.rows[i]
        b = self.rows[i + 1]
        s2 = s * s
        s3 = s2 * s
        h00 = 2 * s3 - 3 * s2 + 1
        h10 = s3 - 2 * s2 + s
        h01 = -2 * s3 + 3 * s2
        h11 = s3 - s2
        return (h00 * a[0] + h10 * a[2] + h01 * b[0] + h11 * b[2],
                h00 * a[1] + h10 * a[3] + h01 * b[1] + h11 * b[3],
                h00 * a[4] + h10 * a[6] + h01 * b[4] + h11 * b[6],
                h00 * a[5] + h10 * a[7] + h01 * b[5] + h11 * b[7])


_LEG_TABLES: dict = {}


def leg_table(leg: Leg) -> LegTable:
    if leg not in _LEG_TABLES:
        if len(_LEG_TABLES) > 64:
            _LEG_TABLES.clear()
        _LEG_TABLES[leg] = LegTable(leg)
    return _LEG_TABLES[leg]
