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

import functools
import math

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from ..core.model.energy import METRICS as ENERGY
from ..core.model.errors import ConfigError
from ..core.model.robot import MODELS, Robot
from . import config
from .gait import (InchwormGait, alpha_max, beta_of, d_unit, end_point_errors,  # noqa: F401
                             energy_loss, eq9_as_printed, ideal_positions, step_angles, step_joints, wave)

MODEL_DIR = MODELS / "snake"
SCENE = MODEL_DIR / "scene.xml"
N_XML = 8                     # links authored in models/snake/snake.xml (the prototype)
INITIAL_PENETRATION = 1e-6    # m: sections start 1 um into the floor so every contact exists at t=0


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
    viewer_timestep = 1.875e-4             # viewer: speed -3.7 % of the 3.125e-5 s reference (models/snake/README.md)
    gait_parameter = ("T_step", 0.1)       # viewer keys: step time +/- 0.1 s
    metrics = ("f", "d_unit", "d", "dx", "loss", "dx_period", "V", "cycles", "dx_period_std", "tracking_error_deg",
               "clearance_min") + ENERGY
    random_inputs = {"alpha_deg": (5.0, 70.0), "T_step": (0.25, 2.0), "mu": (0.1, 1.0)}   # n = 4 (alpha_max 74.6)

    # ---- validation -------------------------------------------------------------------
    def validate(self) -> None:
        p, cfg = self.p, self.cfg
        n, N = p.n, p.N
        if n >= N:
            raise ConfigError("n", cfg["n"], f"integers in [2, {N - 1}] for N={N}",
                              "the hump needs at least one link on the floor ahead of it")
        a_max = alpha_max(n)
        if not 0.0 < p.alpha < a_max:
            raise ConfigError("alpha_deg", cfg["alpha_deg"], f"(0, {math.degrees(a_max):.2f}) deg for n={n}",
                              "eq. 14: theta_1^0 must stay below 90 deg")
        if p.r >= p.l / 2:
            raise ConfigError("r", cfg["r"], f"(0, {p.l / 2:g}) m (below l/2)")
        if abs(p.com_offset) >= p.l / 2:
            raise ConfigError("com_offset", cfg["com_offset"], f"({-p.l / 2:g}, {p.l / 2:g}) m (within the "
                              f"section: |com_offset| < l/2)")
        rel = cfg["mu_links_rel"]
        if rel is not None and len(rel) != N:     # each element's bounds: the schema
            raise ConfigError("mu_links_rel", rel, f"a list of N = {N} values, each in (-1, 4], or null",
                              f"{len(rel)} values for N = {N}")

    # ---- inputs -----------------------------------------------------------------------
    @property
    def gait(self) -> InchwormGait:
        p = self.p
        return InchwormGait(p.n, p.N, p.alpha, p.T_step, p.timing)

    @property
    def steps(self) -> int:
        """Steps of one period: formation, N - n propulsion steps, release."""
        return self.p.N - self.p.n + 2

    @property
    def samples_per_cycle(self) -> int:   # 50 samples per step: step boundaries fall on samples
        return 50 * self.steps

    @property
    def period(self) -> float:
        return self.steps * self.p.T_step

    def controls(self, t):
        q, qd = self.gait(t)
        return np.concatenate([q, qd], axis=1)

    # ---- kinematic criteria ---------------------------------------------------------------
    def kinematics(self) -> dict:
        p = self.p
        du = d_unit(p.n, p.alpha)
        return dict(f=energy_loss(p.n, p.alpha), d_unit=du, d_period=p.l * du,
                    alpha_max_deg=math.degrees(alpha_max(p.n)))

    # ---- model --------------------------------------------------------------------------
    def spec(self) -> mujoco.MjSpec:
        p = self.p
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.impratio = p.impratio
        set_links(spec, p.N)
        l, r, mu = p.l, p.r, p.mu
        rel = p.mu_links_rel or [0.0] * p.N
        iquat, inertia = section_inertia(l, r, p.m)
        spec.geom("floor").friction[0] = mu
        spec.body("link1").pos = [0.0, 0.0, r]
        for k in range(1, p.N + 1):
            g = spec.geom(f"link{k}")      # priority 1: its friction and solref are every contact's
            g.fromto = [0, 0, 0, l, 0, 0]
            g.size[0], g.mass, g.friction[0] = r, p.m, mu * (1.0 + rel[k - 1])
            g.solref = [p.contact_timeconst, p.contact_dampratio]
            b = spec.body(f"link{k}")      # the capsule's inertia, its centre moved by com_offset along the link
            b.explicitinertial, b.mass, b.ipos = True, p.m, [0.5 * l + p.com_offset, 0, 0]
            b.iquat, b.inertia = iquat, inertia
            v = spec.geom(f"link{k}_visual")
            v.fromto = [0, 0, v.fromto[2], l, 0, v.fromto[5]]
            spec.site(f"P{k}").pos = [l, 0, 0]
            z = spec.site(f"link{k}_zone")                 # the touch sensor's zone: radius 2 r along the section
            z.fromto, z.size[0] = [0, 0, 0, l, 0, 0], 2.0 * r
            if k > 1:
                spec.body(f"link{k}").pos = [l, 0, 0]
        for k in range(1, p.N):
            pa, va = spec.actuator(f"phi{k}_p"), spec.actuator(f"phi{k}_v")
            pa.gainprm[0], pa.biasprm[1] = p.kp, -p.kp
            va.gainprm[0], va.biasprm[2] = p.kv, -p.kv
        spec.stat.center = [0.5 * p.N * l, 0, 0.05]
        spec.stat.extent = max(0.3, 0.9 * p.N * l)
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
        return np.stack([self.sensor(sensordata, model, f"P{k}") for k in range(self.p.N + 1)], axis=-2)

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
            ang = np.concatenate([run.sensor(f"phi{k}") for k in range(1, p.N)], axis=1)
            out["tracking_error_deg"] = float(np.degrees(np.abs(ang - ref).max()))
            z = self.points(run.sensordata, run.model)[..., 2]
            out["clearance_min"] = float(z.min() - p.r)     # < 0: a section is inside the floor
        else:
            out["tracking_error_deg"] = out["clearance_min"] = float("nan")
        return out


@functools.lru_cache(maxsize=64)
def section_inertia(l: float, r: float, m: float) -> tuple:
    """(iquat, principal inertia) of one section (capsule of length l, radius r, mass m, along x) about
    its centre, as MuJoCo computes them from the geom: explicit body inertials with these values and
    com_offset = 0 compile to exactly the model whose inertia MuJoCo infers from the geoms (tested)."""
    spec = mujoco.MjSpec()
    spec.worldbody.add_body().add_geom(type=mujoco.mjtGeom.mjGEOM_CAPSULE, size=[r, 0, 0],
                                       fromto=[0, 0, 0, l, 0, 0], mass=m)
    model = spec.compile()
    return tuple(model.body_iquat[1]), tuple(model.body_inertia[1])


def touch_zone(spec: mujoco.MjSpec, body, k: int) -> None:
    """Section k's contact normal force, as authored in snake.xml for links 1-8: a touch sensor
    `link<k>_touch` over a capsule site `link<k>_zone` around the section (Snake.spec sizes it)."""
    body.add_site(default=spec.find_default("snake"), name=f"link{k}_zone", type=mujoco.mjtGeom.mjGEOM_CAPSULE, size=[0.004, 0, 0],
                  fromto=[0, 0, 0, 0.084, 0, 0], group=5)
    spec.add_sensor(name=f"link{k}_touch", type=mujoco.mjtSensor.mjSENS_TOUCH,
                    objtype=mujoco.mjtObj.mjOBJ_SITE, objname=f"link{k}_zone")


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
            spec.delete(spec.sensor(f"link{k}_touch"))
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
            touch_zone(spec, b, k)
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
