"""MinIAQ-II: the paper's own model (Askari & Ozcan, Sec. III), the reference engine beside the twin.

One rigid body with 6 DOF; 12 states X = [P_I, Gamma, V_B, Omega_B] (eqs. 8, 10, 13, 14):
position of the centroid in the world, Z-Y-X Euler angles (roll phi, pitch theta, yaw psi),
body-frame velocity (u, v, w) and body-frame angular velocity (p, q, r).  The legs are massless
and purely kinematic: the crank angles are prescribed (constant speed, the gait's phase offsets
and the side directions, exactly `MiniAQ.inputs`), the four-bar position analysis is the twin's
(`gaittwin.miniaq.robot.fourbar`, `foot_point`) and the velocity analysis is eqs. 1-6.  Each foot gets a
Hunt-Crossley normal force (eq. 15) and pseudo-Coulomb friction (eqs. 16-17), summed with the
weight into the body force and moment (eqs. 18-19).  SciPy's stiff integrators (`solve_ivp`,
LSODA by default: see models/miniaq/README.md for the method and tolerance study).

A `MiniAQ(**params)` point configures both engines: geometry, leg placement (pivots), mass, body
box, K, e, c_max, d, mu_d and the gait (the twin's per-foot friction mu_d_feet, torso COM
offset and passive hinge damping are refused: TWIN_ONLY).  What the twin does not declare is an argument here with
the paper's Table II value: mu_s = 0.4, V_s = 1 mm/s, V_d = 10 mm/s.  Differences from the twin
that are the paper's modelling choices: massless legs (the whole m in the body box, assumption 3),
no motor dynamics (the cranks turn exactly at constant speed), the power-law contact with
depth-dependent damping, and no true stiction.  The contact point is the bottom of the twin's
foot sphere (E lowered by `foot_radius` along the world vertical; `foot_radius=0` is the paper's
point foot E): so both engines stand at the same height.  Its velocity is that of E (the paper).

Eq. 15 as printed is not clipped at zero: a fast-withdrawing foot (V_p > K L_p^e / C) pulls the
body down.  `clip_normal=False` (the default) integrates it as printed; `clip_normal=True` uses
max(F_N, 0).  As printed, friction (eq. 17) multiplies F_N too, so a pulling foot's friction
also changes sign.

Typos and inconsistencies of the printed equations (detailed in models/miniaq/README.md):
  * eq. 9: the left side is printed M_B-dot; it is the moment M_B;
  * eq. 15: V_p is called the "penetration rate" but is defined as v_3 (the foot's upward
    velocity, = -dL_p/dt); the formula F_N = K L_p^e - C V_p is right only with V_p = v_3;
  * text after eq. 15: "10^-3 K < c_max < 10^-4 K" is an empty interval; with K in N/mm^e it
    reads 10^-4 K < c_max < 10^-3 K (Table II's 0.588 N s/mm lies inside: 0.115 .. 1.15);
  * eq. 16: a stray "+," closes the second line; mu as printed is signed (0 at rest, -mu_s at
    V_s, -mu_d beyond V_d): the minus in eq. 17's friction term comes from mu itself.
"""
from __future__ import annotations

import dataclasses
import math
import time

import numpy as np

from ...core.model.errors import ConfigError
from ..paper_laws import (LegTable, _perp, damping, euler_to_quat,  # noqa: F401
                                    friction_coefficient, friction_ratio, leg_kinematics, leg_table,
                                    normal_force, rotation_b2i, step, step_f)
from .run import PaperRun, sample_sensors, summarize  # noqa: F401
from ..kinematics import Leg
from ..robot import FRONT, G, LEFT, MiniAQ

METHODS = ("LSODA", "BDF", "Radau")
STIFFNESS = ("power", "secant")     # eq. 15's K L_p^e, or the twin's linear secant
DAMPING = ("depth", "constant")     # eq. 15's STEP(L_p; 0, 0, d, c_max), or the twin's constant C
# Table II: what MiniAQ does not declare (SI units)
MU_S = 0.4
V_S = 1.0e-3
V_D = 1.0e-2


# the twin's robustness-only parameters this model does not have: name -> (default, why); a
# non-default value is refused, never silently dropped
_CENTROID = "its mass at the centroid"
TWIN_ONLY = {"mu_d_feet": (None, "one mu_d"), "com_offset_x": (0.0, _CENTROID), "com_offset_y": (0.0, _CENTROID),
             "passive_damping": (0.0, "massless legs with ideal pins and prescribed cranks")}


def check_supported(cfg: dict) -> None:
    """ConfigError for a parameter of TWIN_ONLY away from its default (config values)."""
    for k, (v0, why) in TWIN_ONLY.items():
        if cfg.get(k, v0) != v0:
            raise ConfigError(k, cfg[k], f"{'null' if v0 is None else v0} with engine=paper",
                              f"the paper's model has {why}: use engine=mujoco")


@dataclasses.dataclass(frozen=True)
class Params:
    """Everything the paper engine needs (SI)."""

    m: float
    inertia: tuple            # (I_xx, I_yy, I_zz) of the uniform box with the whole mass m
    leg: Leg                  # four-bar geometry: l1..l6, theta1, theta35, theta36
    pivots: tuple             # 4 x (x, y, z): crank axes B_j in the body frame
    omega: float              # crank speed magnitude (rad/s)
    offsets: tuple            # theta2_j(0)
    signs: tuple              # d theta2_j / dt / omega (+-1)
    K: float
    e: float
    c_max: float
    d: float
    mu_s: float
    mu_d: float
    V_s: float
    V_d: float
    foot_radius: float
    clip_normal: bool = False
    contact: bool = True
    g: float = G
    wander: object = None           # MiniAQ.inputs.wander: the slow phase error delta_j(t), or None
    k_lin: float | None = None      # set: elastic term k_lin L_p (the twin's secant) instead of K L_p^e
    c_const: float | None = None    # set: constant damping instead of STEP(L_p; 0, 0, d, c_max)

    @classmethod
    def from_robot(cls, r: MiniAQ, *, mu_s: float = MU_S, V_s: float = V_S, V_d: float = V_D,
                   clip_normal: bool = False, contact: bool = True, foot_radius: float | None = None,
                   g: float = G, stiffness: str = "power", damping: str = "depth") -> "Params":  # noqa: F811  (the keyword, not the re-exported law)
        """stiffness="secant" / damping="constant": the twin's linear contact (its Hunt-Crossley
        secant k and damping C at the static load point, `MiniAQ.contact`) in place of eq. 15's
        K L_p^e / STEP damping: the paper model with one of the twin's differences switched on."""
        if stiffness not in STIFFNESS or damping not in DAMPING:
            raise ValueError(f"stiffness must be one of {STIFFNESS}, damping one of {DAMPING}")
        check_supported(r.cfg)
        p = r.p
        lin = r.contact()
        m = p.m
        Lx, Ly, Lz = p.body_length, p.body_width, p.body_height
        inertia = (m / 12 * (Ly**2 + Lz**2), m / 12 * (Lx**2 + Lz**2), m / 12 * (Lx**2 + Ly**2))
        leg = Leg.of(p)
        pivots = tuple((p.pivot_x if front else -p.pivot_x, p.pivot_y if left else -p.pivot_y,
                        p.pivot_z) for left, front in zip(LEFT, FRONT))
        crank = r.inputs
        signs = (1.0,) * 4 if crank.directions is None else tuple(float(s) for s in crank.directions)
        return cls(m=m, inertia=inertia, leg=leg, pivots=pivots, omega=float(crank.omega),
                   offsets=tuple(float(o) for o in crank.offsets), signs=signs, K=p.K, e=p.e,
                   c_max=p.c_max, d=p.d, mu_s=mu_s, mu_d=p.mu_d, V_s=V_s, V_d=V_d,
                   foot_radius=p.foot_radius if foot_radius is None else foot_radius,
                   clip_normal=clip_normal, contact=contact, g=g, wander=crank.wander,
                   k_lin=lin["stiffness"] if stiffness == "secant" else None,
                   c_const=lin["damping"] if damping == "constant" else None)


class Model:
    """The 12-state ODE X' = f(t, X) (eqs. 8, 10, 13, 14 with the forces of eqs. 15-19).

    `evaluate` is the one implementation (plain floats, for speed inside the integrator); with
    detail=True it also returns every per-foot quantity (for the sampled outputs and the tests).
    """

    def __init__(self, P: Params):
        self.P = P
        self.table = leg_table(P.leg)

    def crank(self, t):
        """theta2_j(t) and theta2_j' of the four legs (MiniAQ.inputs): arrays (4,) + t.shape."""
        t = np.asarray(t, float)
        sh = (4,) + (1,) * t.ndim
        sg = np.asarray(self.P.signs).reshape(sh)
        th = np.asarray(self.P.offsets).reshape(sh) + sg * self.P.omega * t
        thd = np.broadcast_to(sg * self.P.omega, th.shape)
        if self.P.wander is not None:
            dl, dld = self.P.wander(t.reshape(-1))
            th = th - sg * dl.T.reshape(th.shape)
            thd = thd - sg * dld.T.reshape(th.shape)
        return th, thd

    def feet_body(self, t: float):
        """Per leg (r_E in the body frame, dE/dtheta2 in the leg plane, theta2'): 4 tuples."""
        P, tab = self.P, self.table
        out = []
        if P.wander is None:
            for (bx, by, bz), off, sg in zip(P.pivots, P.offsets, P.signs):
                ex, ez, jx, jz = tab(off + sg * P.omega * t)
                out.append(((bx + ex, by, bz + ez), (jx, jz), sg * P.omega))
            return out
        dl, dld = P.wander(np.array([t]))            # the slow phase error (MiniAQ.inputs)
        for j, ((bx, by, bz), off, sg) in enumerate(zip(P.pivots, P.offsets, P.signs)):
            ex, ez, jx, jz = tab(off + sg * (P.omega * t - float(dl[0, j])))
            out.append(((bx + ex, by, bz + ez), (jx, jz), sg * (P.omega - float(dld[0, j]))))
        return out

    def evaluate(self, t: float, X, detail: bool = False):
        """X' at (t, X); with detail, (X', dict of per-foot quantities)."""
        P = self.P
        t = float(t)
        _, _, Pz, phi, theta, psi, u, v, w, p_, q_, r_ = (float(x) for x in X)
        cf, sf = math.cos(phi), math.sin(phi)
        ct, st = math.cos(theta), math.sin(theta)
        cp, sp = math.cos(psi), math.sin(psi)
        # R_{B->I}, eq. 13
        R00, R01, R02 = ct * cp, st * sf * cp - sp * cf, st * cf * cp + sp * sf
        R10, R11, R12 = ct * sp, st * sf * sp + cp * cf, st * cf * sp - cp * sf
        R20, R21, R22 = -st, ct * sf, ct * cf
        m, g, rf = P.m, P.g, P.foot_radius
        # eq. 18: the weight in the body frame, R_{I->B} [0, 0, -m g]
        Fx, Fy, Fz = -m * g * R20, -m * g * R21, -m * g * R22
        Mx = My = Mz = 0.0
        K, e, c_max, d, clip = P.K, P.e, P.c_max, P.d, P.clip_normal
        k_lin, c_const = P.k_lin, P.c_const
        mu_s, V_s = P.mu_s, P.V_s
        rec = [] if detail else None
        for (rx, ry, rz), (jx, jz), thd in self.feet_body(t):
            zE = Pz + R20 * rx + R21 * ry + R22 * rz
            Lp = rf - zE                                   # penetration of the foot sphere's bottom
            if (Lp <= 0.0 or not P.contact) and not detail:
                continue
            # velocity of E, body frame: V + Omega x r_E + v_E,rel (eqs. 1-6), then world frame
            bx = u + q_ * rz - r_ * ry + jx * thd
            by = v + r_ * rx - p_ * rz
            bz = w + p_ * ry - q_ * rx + jz * thd
            v1 = R00 * bx + R01 * by + R02 * bz
            v2 = R10 * bx + R11 * by + R12 * bz
            v3 = R20 * bx + R21 * by + R22 * bz
            vt = math.sqrt(v1 * v1 + v2 * v2)
            if Lp > 0.0 and P.contact:
                # eq. 15, C = STEP(L_p, 0, 0, d, c_max)
                if c_const is None:
                    s = Lp / d
                    C = c_max if s >= 1.0 else c_max * s * s * (3.0 - 2.0 * s)
                else:
                    C = c_const
                FN = (K * Lp**e if k_lin is None else k_lin * Lp) - C * v3
                if clip and FN < 0.0:
                    FN = 0.0
                # eqs. 16-17: mu / V_rel (closed form below V_s)
                if vt < V_s:
                    x = vt / V_s
                    ratio = mu_s * (x * x - 3.0) / (2.0 * V_s)
                else:
                    ratio = self._mu(vt) / vt
                f1, f2, f3 = ratio * FN * v1, ratio * FN * v2, FN
                # R_{I->B} = R^T
                fx = R00 * f1 + R10 * f2 + R20 * f3
                fy = R01 * f1 + R11 * f2 + R21 * f3
                fz = R02 * f1 + R12 * f2 + R22 * f3
                Fx += fx
                Fy += fy
                Fz += fz
                # eq. 19 about the centroid, at the contact point r_E - rf z_I
                cx, cy, cz = rx - rf * R20, ry - rf * R21, rz - rf * R22
                Mx += cy * fz - cz * fy
                My += cz * fx - cx * fz
                Mz += cx * fy - cy * fx
            else:
                FN = ratio = f1 = f2 = f3 = fx = fy = fz = 0.0
            if detail:
                rec.append(dict(rE=(rx, ry, rz), Lp=Lp, FN=FN, vI=(v1, v2, v3), v_t=vt, mu=ratio * vt,
                                FI=(f1, f2, f3), FB=(fx, fy, fz), tau=-(fx * jx + fz * jz)))
        Ixx, Iyy, Izz = P.inertia
        tt = st / ct
        qs_rc = q_ * sf + r_ * cf
        Xd = (R00 * u + R01 * v + R02 * w,                           # eq. 13
              R10 * u + R11 * v + R12 * w,
              R20 * u + R21 * v + R22 * w,
              p_ + qs_rc * tt,                                       # eq. 14
              q_ * cf - r_ * sf,
              qs_rc / ct,
              Fx / m - (q_ * w - r_ * v),                            # eq. 8
              Fy / m - (r_ * u - p_ * w),
              Fz / m - (p_ * v - q_ * u),
              (Mx - (Izz - Iyy) * q_ * r_) / Ixx,                    # eq. 10
              (My - (Ixx - Izz) * r_ * p_) / Iyy,
              (Mz - (Iyy - Ixx) * p_ * q_) / Izz)
        if not detail:
            return Xd
        return Xd, dict(feet=rec, F=(Fx, Fy, Fz), M=(Mx, My, Mz),
                        R=((R00, R01, R02), (R10, R11, R12), (R20, R21, R22)))

    def _mu(self, vt: float) -> float:
        """Eq. 16 (the three STEPs) for one float."""
        P = self.P
        return (step_f(vt, -P.V_d, P.mu_d, -P.V_s, P.mu_s) + step_f(vt, -P.V_s, P.mu_s, P.V_s, -P.mu_s)
                + step_f(vt, P.V_s, -P.mu_s, P.V_d, -P.mu_d))

    def rhs(self, t, X):
        return np.array(self.evaluate(t, X))

    def energy(self, X) -> np.ndarray:
        """Kinetic + gravitational energy of the body (J); X (12, ...)."""
        X = np.asarray(X, float)
        Ixx, Iyy, Izz = self.P.inertia
        return (0.5 * self.P.m * np.sum(X[6:9] ** 2, axis=0)
                + 0.5 * (Ixx * X[9] ** 2 + Iyy * X[10] ** 2 + Izz * X[11] ** 2) + self.P.m * self.P.g * X[2])

    def momenta(self, X):
        """Linear momentum and angular momentum about the centroid, world frame, (3, ...) each."""
        X = np.asarray(X, float)
        R = rotation_b2i(X[3], X[4], X[5])
        Ixx, Iyy, Izz = self.P.inertia
        L = np.einsum("ij...,j...->i...", R, np.stack([Ixx * X[9], Iyy * X[10], Izz * X[11]]))
        return self.P.m * np.einsum("ij...,j...->i...", R, X[6:9]), L

    def initial_state(self) -> np.ndarray:
        """At rest, body level, cranks at t = 0; the lowest feet at the static Hunt-Crossley depth."""
        P = self.P
        z = np.array([r[2] for r, _, _ in self.feet_body(0.0)])
        z_low = float(z.min())
        n_down = int(np.sum(z < z_low + 1e-7))
        load = P.m * P.g / n_down
        pen = (load / P.K) ** (1.0 / P.e) if P.k_lin is None else load / P.k_lin
        pen = pen if P.contact else 0.0
        X = np.zeros(12)
        X[2] = P.foot_radius - pen - z_low
        return X


# ---- runs ---------------------------------------------------------------------------------


def simulate(robot_or_params, *, cycles: int = 13, method: str = "LSODA", rtol: float = 1e-6,
             atol: float = 1e-9, max_step: float | None = None, samples_per_cycle: int | None = None,
             **params_kw) -> PaperRun:
    """Run one MiniAQ point (a MiniAQ or its config parameters) with the paper's model.

    params_kw: `Params.from_robot` options (mu_s, V_s, V_d, clip_normal, contact, foot_radius,
    stiffness, damping).
    Samples: samples_per_cycle per crank period (the twin's 200) from t = 0 to cycles T.
    max_step default: T / 20 (so no contact is stepped over).
    """
    from scipy.integrate import solve_ivp     # here, not at import: scipy costs ~0.5 s of every start

    from ...core.model import metrics

    r = robot_or_params if isinstance(robot_or_params, MiniAQ) else MiniAQ(**robot_or_params)
    if method not in METHODS + ("RK45", "DOP853"):
        raise ValueError(f"method must be one of {METHODS} (stiff) or RK45/DOP853, not {method!r}")
    P = Params.from_robot(r, **params_kw)
    model = Model(P)
    T = r.period
    spc = samples_per_cycle or r.samples_per_cycle
    t_eval = np.arange(cycles * spc + 1) * (T / spc)
    X0 = model.initial_state()
    t0, c0 = time.perf_counter(), time.process_time()
    with np.errstate(over="ignore"):     # scipy's num_jac grows the step of the zero columns (P_x, P_y)
        sol = solve_ivp(model.rhs, (0.0, float(t_eval[-1])), X0, method=method, t_eval=t_eval, rtol=rtol, atol=atol,
                        max_step=max_step if max_step is not None else T / 20)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    error = None if sol.status == 0 else f"integration failed at t={sol.t[-1]:.4f}: {sol.message}"
    t, X = sol.t, sol.y.T
    if len(t) and not np.all(np.isfinite(X)):
        error = error or "non-finite state"
    sensors, extra = sample_sensors(model, t, X) if len(t) else ({}, {})
    nb = (len(t) - 1) // spc
    xs = X[::spc, 0][: nb + 1] if len(t) else np.zeros(0)
    vals = metrics.per_cycle(xs)
    st = metrics.steady_state(vals) if len(vals) else None
    return PaperRun(r, P, t, X, sensors, extra, vals, st, error, wall, cpu, int(sol.nfev), method)
