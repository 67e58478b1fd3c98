"""The crawler paper's exact model terms and the constrained dynamics of one contact state
(Gamus, Gat & Or, Section III + Appendix); the hybrid simulation is envs/crawler/paper/hybrid.py.

Rigid links, prescribed joint angles q_c = [phi1, phi2] (eq. 5 / eq. 8) or joint accelerations
from a feedback law (eq. 19), two persistent point contacts (y1 = y2 = 0) with exact Coulomb
friction: each foot is either sticking (|f^x| <= mu f^y, x_i' = 0) or slipping (f^x = -mu f^y
sign x_i').  The contact states stick-slip / slip-stick / slip-slip switch by events (scipy
`solve_ivp`): a slipping foot whose velocity crosses zero either sticks or reverses, a sticking
foot whose friction force leaves the cone slips (Fig. 3).  At each switch the new state is the
consistent one (sticking foot inside its cone, a foot starting to slip from rest accelerating in
its slip direction).  Normal forces are computed all along; where one is negative the
persistent-contact assumption fails (a foot would lift off): that is reported (contact mode
`liftoff`, `foot{i}_fn_min` < 0, `liftoff_t`) and, with `liftoff="stop"`, ends the run.

Generalised coordinates are the paper's q = [x, y, theta, phi1, phi2], the same
as the MuJoCo twin's qpos (envs/crawler/robot.py).  M, the velocity terms B and
gravity G are derived here from the link kinematics in closed form
(Kane / Newton-Euler projection: M = sum m J^T J + J_rot, B = sum m J^T (J' q'))
and checked against eq. 9 and MuJoCo's mj_rne in tests/test_crawler_hybrid.py.
Typos found in the printed appendix (see models/crawler/README.md):
  * eq. 10, B row 2: printed (phi2'+theta')^2 s2 - (phi1'+theta')^2 s1; correct
    (phi2'+theta')^2 s2 + (phi1'-theta')^2 s1;
  * eq. 16: Gamma_i = [-mu sign x_i', 0]^T; must be [-mu sign x_i', 1]^T
    (F_i = Gamma_i f_i^y, else the normal force would not act);
  * eq. 18: the last block row uses {W_2}_b (two rows); it must be {w_2^y}_b.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ..robot import FORWARD, Crawler, feet, theta_on_floor

G_ACC = 9.81
STICK = 0
SAMPLES_PER_CYCLE = 200


# ---- model terms -----------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Params:
    m0: float
    m1: float
    m2: float
    J0: float
    J1: float
    J2: float
    l0: float
    l: float
    mu1: float
    mu2: float
    g: float = G_ACC
    dc0: float = 0.0    # COM offsets along the links (envs/crawler/config.py); 0: the paper's midpoints
    dc1: float = 0.0
    dc2: float = 0.0

    @classmethod
    def from_robot(cls, r: Crawler, g: float = G_ACC) -> "Params":
        p = r.p
        mu1 = p.mu1 if p.mu1 is not None else p.mu
        mu2 = p.mu2 if p.mu2 is not None else p.mu
        return cls(p.m0, p.m1, p.m2, p.J0, p.J1, p.J2, p.l0, p.l, mu1, mu2, g,
                   p.dc0, p.dc1, p.dc2)

    @property
    def d(self):   # COM distances: along the central link from its midpoint, along links 1, 2 from the hinges
        return self.dc0, 0.5 * self.l + self.dc1, 0.5 * self.l + self.dc2


def com_jacobians(q, P: Params):
    """COM Jacobians (2x5) of the centre link and the two distal links."""
    _, _, th, p1, p2 = q
    h, (d0, d1, d2) = 0.5 * P.l0, P.d
    a1, a2 = p1 - th, p2 + th
    st, ct = math.sin(th), math.cos(th)
    s1, c1, s2, c2 = math.sin(a1), math.cos(a1), math.sin(a2), math.cos(a2)
    J0 = np.array([[1.0, 0, -d0 * st, 0, 0], [0, 1.0, d0 * ct, 0, 0]])
    J1 = np.array([[1.0, 0, h * st + d1 * s1, -d1 * s1, 0], [0, 1.0, -h * ct + d1 * c1, -d1 * c1, 0]])
    J2 = np.array([[1.0, 0, -h * st + d2 * s2, 0, d2 * s2], [0, 1.0, h * ct - d2 * c2, 0, -d2 * c2]])
    return J0, J1, J2


# angular-velocity Jacobians: centre theta', link 1 theta' - phi1', link 2 theta' + phi2'
_ROT = (np.array([0, 0, 1.0, 0, 0]), np.array([0, 0, 1.0, -1.0, 0]), np.array([0, 0, 1.0, 0, 1.0]))


def mass_matrix(q, P: Params) -> np.ndarray:
    """M(q) (eq. 9, for general m1, m2, J1, J2)."""
    J0, J1, J2 = com_jacobians(q, P)
    M = P.m0 * J0.T @ J0 + P.m1 * J1.T @ J1 + P.m2 * J2.T @ J2
    for Jr, I in zip(_ROT, (P.J0, P.J1, P.J2)):
        M += I * np.outer(Jr, Jr)
    return M


def _link_point_bias(q, qd, P: Params, d: float, d2: float):
    """J' q' (acceleration at zero q'') of the points at distance d along distal link 1, d2 along link 2."""
    _, _, th, p1, p2 = q
    thd, p1d, p2d = qd[2], qd[3], qd[4]
    h = 0.5 * P.l0
    a1, a2 = p1 - th, p2 + th
    a1d, a2d = p1d - thd, p2d + thd
    st, ct = math.sin(th), math.cos(th)
    b1 = np.array([h * ct * thd**2 - d * math.cos(a1) * a1d**2, h * st * thd**2 + d * math.sin(a1) * a1d**2])
    b2 = np.array([-h * ct * thd**2 + d2 * math.cos(a2) * a2d**2, -h * st * thd**2 + d2 * math.sin(a2) * a2d**2])
    return b1, b2


def com_bias(q, qd, P: Params):
    """COM accelerations at zero q'' (J' q') of the centre link (0 at dc0 = 0) and links 1 and 2."""
    th, thd = q[2], qd[2]
    b0 = -P.dc0 * thd**2 * np.array([math.cos(th), math.sin(th)])
    return (b0,) + _link_point_bias(q, qd, P, *P.d[1:])


def bias(q, qd, P: Params) -> np.ndarray:
    """B(q, q') of eq. 3 (Coriolis/centrifugal): sum_k m_k J_k^T J_k' q'."""
    J0, J1, J2 = com_jacobians(q, P)
    b0, b1, b2 = com_bias(q, qd, P)
    return P.m0 * J0.T @ b0 + P.m1 * J1.T @ b1 + P.m2 * J2.T @ b2


def gravity(q, P: Params) -> np.ndarray:
    """G(q) of eq. 3 (eq. 11 for m1 = m2)."""
    J0, J1, J2 = com_jacobians(q, P)
    return P.g * (P.m0 * J0[1] + P.m1 * J1[1] + P.m2 * J2[1])


def foot_jacobians(q, P: Params):
    """W_1, W_2 (2x5 each, rows x and y), eqs. 12-13."""
    _, _, th, p1, p2 = q
    h, l = 0.5 * P.l0, P.l
    a1, a2 = p1 - th, p2 + th
    st, ct = math.sin(th), math.cos(th)
    s1, c1, s2, c2 = math.sin(a1), math.cos(a1), math.sin(a2), math.cos(a2)
    W1 = np.array([[1.0, 0, h * st + l * s1, -l * s1, 0], [0, 1.0, -h * ct + l * c1, -l * c1, 0]])
    W2 = np.array([[1.0, 0, -h * st + l * s2, 0, l * s2], [0, 1.0, h * ct - l * c2, 0, -l * c2]])
    return W1, W2


def foot_bias(q, qd, P: Params):
    """W_i' q' (foot accelerations at zero q''), rows x, y."""
    return _link_point_bias(q, qd, P, P.l, P.l)


# ---- the printed equations (for the tests: what the paper says) -------------------
def paper_M(q, m0, m, l0, l, J0, J):
    """Eq. 9 as printed."""
    _, _, th, p1, p2 = q
    s1, s2, c1, c2 = math.sin(p1 - th), math.sin(p2 + th), math.cos(p1 - th), math.cos(p2 + th)
    M33 = 2 * J + J0 + m / 2 * (l0**2 + l**2 - l0 * l * math.cos(p1) - l0 * l * math.cos(p2))
    a = l * m / 2
    M34 = l * m / 4 * (l0 * math.cos(p1) - l) - J
    M35 = J + l * m / 4 * (l - l0 * math.cos(p2))
    return np.array([
        [m0 + 2 * m, 0, a * (s1 + s2), -a * s1, a * s2],
        [0, m0 + 2 * m, a * (c1 - c2), -a * c1, -a * c2],
        [a * (s1 + s2), a * (c1 - c2), M33, M34, M35],
        [-a * s1, -a * c1, M34, l**2 * m / 4 + J, 0],
        [a * s2, -a * c2, M35, 0, l**2 * m / 4 + J],
    ])


def paper_B(q, qd, m, l0, l):
    """Eq. 10 as printed (row 2 has a typo, see module docstring)."""
    _, _, th, p1, p2 = q
    _, _, thd, p1d, p2d = qd
    s1, s2, c1, c2 = math.sin(p1 - th), math.sin(p2 + th), math.cos(p1 - th), math.cos(p2 + th)
    B3 = 0.5 * l0 * ((2 * thd * p1d - p1d**2) * math.sin(p1) + (p2d**2 + 2 * thd * p2d) * math.sin(p2))
    return 0.5 * l * m * np.array([
        (p2d + thd)**2 * c2 - (p1d - thd)**2 * c1,
        (p2d + thd)**2 * s2 - (p1d + thd)**2 * s1,
        B3,
        -0.5 * l0 * thd**2 * math.sin(p1),
        -0.5 * l0 * thd**2 * math.sin(p2),
    ])


def paper_G(q, m0, m, l, g=G_ACC):
    """Eq. 11 as printed."""
    _, _, th, p1, p2 = q
    c1, c2 = math.cos(p1 - th), math.cos(p2 + th)
    return g * np.array([0, m0 + 2 * m, 0.5 * l * m * (c1 - c2), -0.5 * l * m * c1, -0.5 * l * m * c2])


# ---- constrained dynamics of one contact state --------------------------------------
class Model:
    """Constrained dynamics.  mode = (s1, s2): 0 = stick, +1/-1 = slipping along +x / -x."""

    def __init__(self, P: Params, baumgarte: float = 40.0):
        self.P = P
        self.kb = baumgarte

    def terms(self, q, qd):
        """Body rows of eq. 3 and the foot kinematics in closed form (scalars, fast path).

        Returns (Mb (3x5 rows x, y, theta of M), hb (3: B + G body rows), W (4x5: rows
        x1, y1, x2, y2 of W), wb (4: W' q'), foot heights (y1, y2)).  Equal to
        mass_matrix / bias / gravity / foot_jacobians / foot_bias (tested).
        """
        P = self.P
        th, p1, p2 = q[2], q[3], q[4]
        thd, p1d, p2d = qd[2], qd[3], qd[4]
        h, l, (d0, hl1, hl2) = 0.5 * P.l0, P.l, P.d
        m0, m1, m2 = P.m0, P.m1, P.m2
        mt = P.m0 + m1 + m2
        a1, a2 = p1 - th, p2 + th
        a1d, a2d = p1d - thd, p2d + thd
        st, ct = math.sin(th), math.cos(th)
        s1, c1, s2, c2 = math.sin(a1), math.cos(a1), math.sin(a2), math.cos(a2)
        # COM Jacobian entries (theta and phi columns); the centre link's theta column (dc0)
        j0xt, j0yt = -d0 * st, d0 * ct
        j1xt, j1yt, j1xp, j1yp = h * st + hl1 * s1, -h * ct + hl1 * c1, -hl1 * s1, -hl1 * c1
        j2xt, j2yt, j2xp, j2yp = -h * st + hl2 * s2, h * ct - hl2 * c2, hl2 * s2, -hl2 * c2
        Mb = [[mt, 0.0, m0 * j0xt + m1 * j1xt + m2 * j2xt, m1 * j1xp, m2 * j2xp],
              [0.0, mt, m0 * j0yt + m1 * j1yt + m2 * j2yt, m1 * j1yp, m2 * j2yp],
              [m0 * j0xt + m1 * j1xt + m2 * j2xt, m0 * j0yt + m1 * j1yt + m2 * j2yt,
               m0 * d0 * d0 + m1 * (j1xt * j1xt + j1yt * j1yt) + m2 * (j2xt * j2xt + j2yt * j2yt)
               + P.J0 + P.J1 + P.J2,
               m1 * (j1xt * j1xp + j1yt * j1yp) - P.J1, m2 * (j2xt * j2xp + j2yt * j2yp) + P.J2]]
        t2, a12, a22 = thd * thd, a1d * a1d, a2d * a2d
        b0x, b0y = -d0 * ct * t2, -d0 * st * t2      # j0 . b0 = 0: no theta-row term
        b1x, b1y = h * ct * t2 - hl1 * c1 * a12, h * st * t2 + hl1 * s1 * a12
        b2x, b2y = -h * ct * t2 + hl2 * c2 * a22, -h * st * t2 + hl2 * s2 * a22
        g = P.g
        hb = [m0 * b0x + m1 * b1x + m2 * b2x, m0 * b0y + m1 * b1y + m2 * b2y + g * mt,
              m1 * (j1xt * b1x + j1yt * b1y) + m2 * (j2xt * b2x + j2yt * b2y)
              + g * (m0 * j0yt + m1 * j1yt + m2 * j2yt)]
        W = [[1.0, 0.0, h * st + l * s1, -l * s1, 0.0],
             [0.0, 1.0, -h * ct + l * c1, -l * c1, 0.0],
             [1.0, 0.0, -h * st + l * s2, 0.0, l * s2],
             [0.0, 1.0, h * ct - l * c2, 0.0, -l * c2]]
        wb = [h * ct * t2 - l * c1 * a12, h * st * t2 + l * s1 * a12,
              -h * ct * t2 + l * c2 * a22, -h * st * t2 + l * s2 * a22]
        ys = (q[1] - h * st - l * s1, q[1] + h * st - l * s2)
        return Mb, hb, W, wb, ys

    def solve(self, q, qd, qdd_c, mode):
        """q_b'' and the contact forces (f1x, f1y, f2x, f2y) in contact state `mode`.

        Unknowns z = [q_b'' (3), per foot: f^x (if sticking), f^y].  Rows: the body
        rows of eq. 3 (tau does not enter them: E has zero body rows), y_i'' = 0 for
        both feet (Baumgarte-stabilised), x_i'' = 0 for a sticking foot (eqs. 14-17).
        """
        Mb, hb, W, wb, ys = self.terms(q, qd)
        u1, u2 = qdd_c[0], qdd_c[1]
        mus = (self.P.mu1, self.P.mu2)
        kb = self.kb
        n = 3 + (2 if mode[0] == STICK else 1) + (2 if mode[1] == STICK else 1)
        A = np.zeros((n, n))
        rhs = np.zeros(n)
        for r in range(3):
            A[r, 0], A[r, 1], A[r, 2] = Mb[r][0], Mb[r][1], Mb[r][2]
            rhs[r] = -Mb[r][3] * u1 - Mb[r][4] * u2 - hb[r]
        col, row = 3, 3
        cols = []
        for i, s in enumerate(mode):
            Wx, Wy = W[2 * i], W[2 * i + 1]
            if s == STICK:
                A[0, col], A[1, col], A[2, col] = -Wx[0], -Wx[1], -Wx[2]
                A[0, col + 1], A[1, col + 1], A[2, col + 1] = -Wy[0], -Wy[1], -Wy[2]
                cols.append((col, col + 1))
                A[row, 0], A[row, 1], A[row, 2] = Wx[0], Wx[1], Wx[2]
                vx = sum(Wx[k] * qd[k] for k in range(5))
                rhs[row] = -Wx[3] * u1 - Wx[4] * u2 - wb[2 * i] - kb * vx
                row += 1
                col += 2
            else:
                c = mus[i] * s
                A[0, col], A[1, col], A[2, col] = -(Wy[0] - c * Wx[0]), -(Wy[1] - c * Wx[1]), -(Wy[2] - c * Wx[2])
                cols.append((None, col))
                col += 1
            A[row, 0], A[row, 1], A[row, 2] = Wy[0], Wy[1], Wy[2]
            vy = sum(Wy[k] * qd[k] for k in range(5))
            rhs[row] = -Wy[3] * u1 - Wy[4] * u2 - wb[2 * i + 1] - 2 * kb * vy - kb * kb * ys[i]
            row += 1
        z = np.linalg.solve(A, rhs)
        f = np.empty(4)
        for i, s in enumerate(mode):
            cx, cy = cols[i]
            f[2 * i + 1] = z[cy]
            f[2 * i] = z[cx] if s == STICK else -mus[i] * s * z[cy]
        return z[:3], f

    def torques(self, q, qd, qdd, f):
        """Joint torques tau (rows phi1, phi2 of eq. 3) that realise q''."""
        P = self.P
        W1, W2 = foot_jacobians(q, P)
        gen = mass_matrix(q, P) @ qdd + bias(q, qd, P) + gravity(q, P) - W1.T @ f[:2] - W2.T @ f[2:]
        return gen[3:]

    def foot_vx(self, q, qd):
        P = self.P
        th, a1, a2 = q[2], q[3] - q[2], q[4] + q[2]
        h, l = 0.5 * P.l0, P.l
        st = math.sin(th)
        s1, s2 = math.sin(a1), math.sin(a2)
        return (qd[0] + (h * st + l * s1) * qd[2] - l * s1 * qd[3],
                qd[0] + (-h * st + l * s2) * qd[2] + l * s2 * qd[4])

    def foot_ax(self, q, qd, qdd):
        W1, W2 = foot_jacobians(q, self.P)
        w1, w2 = foot_bias(q, qd, self.P)
        return W1[0] @ qdd + w1[0], W2[0] @ qdd + w2[0]

    def energy(self, q, qd):
        """Kinetic + potential energy."""
        return 0.5 * qd @ mass_matrix(q, self.P) @ qd + self.potential(q)

    def potential(self, q):
        P = self.P
        _, y, th, p1, p2 = q
        d0, d1, d2 = P.d
        y1 = y - 0.5 * P.l0 * math.sin(th) - d1 * math.sin(p1 - th)
        y2 = y + 0.5 * P.l0 * math.sin(th) - d2 * math.sin(p2 + th)
        return P.g * (P.m0 * (y + d0 * math.sin(th)) + P.m1 * y1 + P.m2 * y2)


# ---- inputs: prescribed or feedback ------------------------------------------------
class Prescribed:
    """q_c(t) of eq. 5 / 8 (the twin's PhasedSine)."""

    feedback = False

    def __init__(self, inputs):
        self.inputs = inputs

    def __call__(self, t):
        inp = self.inputs
        w, A, al, up = inp.omega, inp.A, inp.alpha, inp.upsilon
        q, qd, qdd = np.empty(2), np.empty(2), np.empty(2)
        for j, d in enumerate(inp.offsets):
            xi = w * t + d
            s = xi + al * math.sin(xi + up)
            ds = 1.0 + al * math.cos(xi + up)
            dds = -al * math.sin(xi + up)
            ss, cs = math.sin(s), math.cos(s)
            q[j] = inp.phi0 + A * ss
            qd[j] = A * cs * ds * w
            qdd[j] = A * (-ss * ds * ds + cs * dds) * w * w
        return q, qd, qdd


class FeedbackLaw:
    """Eq. 19: PD reference tracking; in slip-slip with both angles in Phi, contact-velocity tracking.

    The reference foot velocities v_r are the ideal switching gait of the reference
    joint trajectories: while the feet spread the front foot (foot 1) slips forward
    alone, while they close the rear foot (foot 2) does (FORWARD = -x).
    """

    feedback = True

    def __init__(self, inputs, P: Params, Kv=10.0, Kp=80.0, Kd=100.0, phi_lim=(math.radians(90), math.radians(130))):
        self.inputs, self.P = inputs, P
        self.Kv, self.Kp, self.Kd = (np.eye(2) * k if np.isscalar(k) else np.asarray(k) for k in (Kv, Kp, Kd))
        self.phi_lim = phi_lim
        T = inputs.period
        t = np.linspace(0.0, T, 1025)
        q, _, _ = inputs(t)
        th = theta_on_floor(q[:, 0], q[:, 1], P.l0, P.l)
        x1, _, x2, _ = feet(0.0, 0.0, th, q[:, 0], q[:, 1], P.l0, P.l)
        D = x2 - x1
        D[-1] = D[0]
        from scipy.interpolate import CubicSpline     # here, not at import: scipy costs ~0.5 s of every start

        self.D = CubicSpline(t, D, bc_type="periodic")
        self.T = T

    def reference(self, t):
        q, qd, qdd = self.inputs(np.array([t]))
        return q[0], qd[0], qdd[0]

    def v_ref(self, t):
        """Reference foot velocities and their derivatives (x1', x2'), (x1'', x2'')."""
        tt = t % self.T
        d1, d2 = float(self.D(tt, 1)), float(self.D(tt, 2))
        if FORWARD < 0:
            if d1 > 0:   # spreading: foot 1 (front, -x) slips forward
                return np.array([-d1, 0.0]), np.array([-d2, 0.0])
            return np.array([0.0, d1]), np.array([0.0, d2])
        raise NotImplementedError

    def in_limits(self, phi):
        return bool(np.all(phi >= self.phi_lim[0]) and np.all(phi <= self.phi_lim[1]))

    def qdd_c(self, t, q, qd, mode, model: Model):
        qr, qdr, qddr = self.reference(t)
        if mode[0] != STICK and mode[1] != STICK and self.in_limits(q[3:]):
            # S1, S0 of eqs. 20-23: foot accelerations are affine in q_c'' in this state
            def acc(u):
                qdd_b, _ = model.solve(q, qd, u, mode)
                return np.array(model.foot_ax(q, qd, np.r_[qdd_b, u]))
            S0 = acc(np.zeros(2))
            S1 = np.column_stack([acc(e) - S0 for e in np.eye(2)])
            vr, vrd = self.v_ref(t)
            vx = np.array(model.foot_vx(q, qd))
            return np.linalg.solve(S1, vrd - self.Kv @ (vx - vr) - S0), "velocity"
        return qddr - self.Kd @ (qd[3:] - qdr) - self.Kp @ (q[3:] - qr), "pd"
