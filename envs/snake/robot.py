"""Snakelike robot with the serpenoid inchworm gait (Sun, Ma & Wang): gait, model, metrics.

The paper plans one *propulsion step*: a hump of n links (a discretised serpenoid
half-wave, eqs. 6, 7, 13) moves forward by one link while the links behind and
ahead of it lie on the floor (eq. 8).  The twin runs a continuous crawl of the
whole N-link robot, one period being one passage of the hump:

  step 0            formation: the n tail links rise into the hump (P_0 slides forward)
  steps 1..N-n      the paper's propulsion step (eq. 8), moving the hump one link each
  step N-n+1        release: the n head links lie down again (P_N slides forward)

so a period has K = N - n + 2 steps of duration T_step and, ideally, the whole robot
advances by l * d_unit (eq. 12) per period.  Formation and release scale the hump's
joint angles uniformly (lambda * hump); because the hump is symmetric
(theta_{n+1-i} = -theta_i) its two ends stay on the baseline for every lambda.

Each step follows the paper's *path* exactly; its *timing* goes through a time
scaling sigma(tau) of the step's normalised time tau in [0, 1]:
  - "cycloidal" (default): sigma = tau - sin(2 pi tau) / (2 pi): zero joint velocity
    and acceleration at every step boundary, so references and their velocity
    feed-forward are continuous across steps (stiff servos feel no jumps);
  - "linear": sigma = tau, the paper's timing (omega_2 t = pi/2 * tau,
    omega_1 = 2 beta omega_2 / pi), whose joint velocities jump at step boundaries.
Kinematic criteria (X_error, Y_error, f, d_unit) depend on the path only.

Angles are radians here; configs use *_deg.  Joint k (k = 1..N-1) is the paper's
relative angle phi_k = theta_{k+1} - theta_k at point P_k (eq. 1).
"""
from __future__ import annotations

import math
import pathlib

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from envs.core.errors import ConfigError
from envs.core.robot import MODELS, Robot
from envs.snake import config
from envs.snake.config import TIMINGS

MODEL_DIR = MODELS / "snake"
SCENE = MODEL_DIR / "scene.xml"
N_XML = 8                     # links authored in models/snake/snake.xml (the prototype)
INITIAL_PENETRATION = 1e-6    # m: sections start 1 um into the floor so every contact exists at t=0


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


# ---- the robot -----------------------------------------------------------------------
class Physics(dm_mujoco.Physics):
    """Snake physics with named accessors (paper symbols)."""

    def _N(self) -> int:
        return sum(1 for i in range(self.model.nbody) if self.model.id2name(i, "body").startswith("link"))

    def phi(self) -> np.ndarray:
        """Relative angles phi_1..phi_{N-1} (rad), eq. 1."""
        return self.named.data.qpos[[f"phi{k}" for k in range(1, self._N())]].copy()

    def theta(self) -> np.ndarray:
        """Absolute link angles theta_1..theta_N (rad, counter-clockwise from the baseline)."""
        th1 = self.named.data.qpos["theta1"]
        return np.r_[th1, th1 + np.cumsum(self.phi())]

    def points(self) -> np.ndarray:
        """(N+1, 2): the paper's points P_0..P_N as (x, y) (MuJoCo x, z)."""
        return np.stack([self.named.data.site_xpos[f"P{k}"][[0, 2]] for k in range(self._N() + 1)])

    def center_of_mass(self) -> np.ndarray:
        """(x, y) of the whole robot's centre of mass."""
        return self.named.data.sensordata["com"][[0, 2]].copy()



class Snake(Robot):
    """One snake point.  Config names (angles in degrees); see configs/robot/snake.yaml."""

    name = "snake"
    Params = config.Params
    physics = Physics
    columns = ("n", "alpha_deg", "N", "T_step", "mu", "timing")
    random_inputs = {"alpha_deg": (5.0, 70.0), "T_step": (0.25, 2.0), "mu": (0.1, 1.0)}   # n = 4 (alpha_max 74.6)

    # ---- validation -------------------------------------------------------------------
    def validate(self) -> None:
        p, cfg = self.p, self.cfg
        n, N = p["n"], p["N"]
        if n >= N:
            raise ConfigError("n", cfg["n"], f"integers in [2, {N - 1}] for N={N}",
                              "the hump needs at least one link on the floor ahead of it")
        a_max = alpha_max(n)
        if not 0.0 < p["alpha"] < a_max:
            raise ConfigError("alpha_deg", cfg["alpha_deg"], f"(0, {math.degrees(a_max):.2f}) deg for n={n}",
                              "eq. 14: theta_1^0 must stay below 90 deg")
        if p["r"] >= p["l"] / 2:
            raise ConfigError("r", cfg["r"], f"(0, {p['l'] / 2:g}) m (below l/2)")

    # ---- inputs -----------------------------------------------------------------------
    @property
    def gait(self) -> InchwormGait:
        p = self.p
        return InchwormGait(p["n"], p["N"], p["alpha"], p["T_step"], p["timing"])

    @property
    def steps(self) -> int:
        """Steps of one period: formation, N - n propulsion steps, release."""
        return self.p["N"] - self.p["n"] + 2

    @property
    def samples_per_cycle(self) -> int:   # 50 samples per step: step boundaries fall on samples
        return 50 * self.steps

    @property
    def period(self) -> float:
        return self.steps * self.p["T_step"]

    def controls(self, t):
        q, qd = self.gait(t)
        return np.concatenate([q, qd], axis=1)

    # ---- kinematic criteria ---------------------------------------------------------------
    def kinematics(self) -> dict:
        p = self.p
        du = d_unit(p["n"], p["alpha"])
        return dict(f=energy_loss(p["n"], p["alpha"]), d_unit=du, d_period=p["l"] * du,
                    alpha_max_deg=math.degrees(alpha_max(p["n"])))

    # ---- model --------------------------------------------------------------------------
    def spec(self) -> mujoco.MjSpec:
        p = self.p
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.impratio = p["impratio"]
        set_links(spec, p["N"])
        l, r, mu = p["l"], p["r"], p["mu"]
        spec.geom("floor").friction[0] = mu
        spec.body("link1").pos = [0.0, 0.0, r]
        for k in range(1, p["N"] + 1):
            g = spec.geom(f"link{k}")
            g.fromto = [0, 0, 0, l, 0, 0]
            g.size[0], g.mass, g.friction[0] = r, p["m"], mu
            v = spec.geom(f"link{k}_visual")
            v.fromto = [0, 0, v.fromto[2], l, 0, v.fromto[5]]
            spec.site(f"P{k}").pos = [l, 0, 0]
            if k > 1:
                spec.body(f"link{k}").pos = [l, 0, 0]
        for k in range(1, p["N"]):
            pa, va = spec.actuator(f"phi{k}_p"), spec.actuator(f"phi{k}_v")
            pa.gainprm[0], pa.biasprm[1] = p["kp"], -p["kp"]
            va.gainprm[0], va.biasprm[2] = p["kv"], -p["kv"]
        spec.stat.center = [0.5 * p["N"] * l, 0, 0.05]
        spec.stat.extent = max(0.3, 0.9 * p["N"] * l)
        return spec

    def initial_pose(self, model, data) -> None:
        """State a of Fig. 1: every link on the baseline, at rest (1 um into the floor)."""
        data.qpos[:] = 0.0
        data.joint("root_z").qpos[0] = -INITIAL_PENETRATION
        data.qvel[:] = 0.0

    # ---- metrics ------------------------------------------------------------------------
    def progress(self, sensordata, model):
        """x of the whole robot's centre of mass (every period starts and ends flat)."""
        return self.sensor(sensordata, model, "com")[..., 0]

    def points(self, sensordata, model) -> np.ndarray:
        """(samples, N+1, 3) positions of P_0..P_N."""
        return np.stack([self.sensor(sensordata, model, f"P{k}") for k in range(self.p["N"] + 1)], axis=-2)

    def summarize(self, run) -> dict:
        p = self.p
        kin = self.kinematics()
        vals = run.cycle_values
        dx_period = float(np.mean(vals)) if len(vals) else float("nan")
        d = 10.0 * kin["d_period"]
        dx = 10.0 * dx_period
        out = dict(f=kin["f"], d_unit=kin["d_unit"], d=d, dx=dx, loss=(d - dx) / d,
                   dx_period=dx_period, V=dx_period / self.period, cycles=run.cycles,
                   dx_period_std=float(np.std(vals)) if len(vals) else float("nan"))
        if len(run.t) > 1:
            ref = self.gait(run.t)[0]
            ang = np.concatenate([run.sensor(f"phi{k}") for k in range(1, p["N"])], axis=1)
            out["tracking_error_deg"] = float(np.degrees(np.abs(ang - ref).max()))
            z = self.points(run.sensordata, run.model)[..., 2]
            out["clearance_min"] = float(z.min() - p["r"])     # < 0: a section is inside the floor
        else:
            out["tracking_error_deg"] = out["clearance_min"] = float("nan")
        return out


def set_links(spec: mujoco.MjSpec, N: int) -> None:
    """Give the authored 8-link snake N links with MjSpec calls (defaults of class 'snake').

    Fewer: delete the head links' bodies (their subtree) with their actuators and sensors.
    More: add links N_XML+1..N after the head, each a copy of the authored definition; the
    velocity servos are re-added after the position servos so controls stay [q, qd].
    """
    if N < N_XML:
        for k in range(N, N_XML):       # joints phi_N..phi_7 and links N+1..8
            for a in (f"phi{k}_p", f"phi{k}_v"):
                spec.delete(spec.actuator(a))
            spec.delete(spec.sensor(f"phi{k}"))
        for k in range(N + 1, N_XML + 1):
            spec.delete(spec.sensor(f"P{k}"))
        spec.delete(spec.body(f"link{N + 1}"))
    elif N > N_XML:
        d = spec.find_default("snake")
        dp, dv = spec.find_default("servo_p"), spec.find_default("servo_v")
        dvis = spec.find_default("visual")
        for k in range(N_XML + 1, N + 1):
            parent = spec.body(f"link{k - 1}")
            b = parent.add_body(name=f"link{k}", pos=[0.084, 0, 0], childclass="snake")
            b.add_joint(default=d, name=f"phi{k - 1}")
            b.add_geom(default=d, name=f"link{k}")
            b.add_geom(default=dvis, name=f"link{k}_visual")
            b.add_site(default=d, name=f"P{k}", pos=[0.084, 0, 0])
        for k in range(1, N_XML):
            spec.delete(spec.actuator(f"phi{k}_v"))
        for k in range(N_XML, N):
            spec.add_actuator(default=dp, name=f"phi{k}_p", target=f"phi{k}",
                              trntype=mujoco.mjtTrn.mjTRN_JOINT)
        for k in range(1, N):
            spec.add_actuator(default=dv, name=f"phi{k}_v", target=f"phi{k}",
                              trntype=mujoco.mjtTrn.mjTRN_JOINT)
        for k in range(N_XML + 1, N + 1):
            spec.add_sensor(name=f"P{k}", type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                            objtype=mujoco.mjtObj.mjOBJ_SITE, objname=f"P{k}")
        for k in range(N_XML, N):
            spec.add_sensor(name=f"phi{k}", type=mujoco.mjtSensor.mjSENS_JOINTPOS,
                            objtype=mujoco.mjtObj.mjOBJ_JOINT, objname=f"phi{k}")


# ---- dm_control -----------------------------------------------------------------------
