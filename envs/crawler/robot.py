"""Three-link inchworm crawler (Gamus, Gat & Or): Physics, Task and model variations.

The paper's generalised coordinates q = [x, y, theta, phi1, phi2] are qpos[1:]
(MuJoCo's z is the paper's y); qpos[0] is a passive lateral slide that stays at
zero and lets MuJoCo's noslip solver act (models/crawler/README.md).  Joint angles are prescribed by eq. 5 (optionally
time-scaled by eq. 8) through stiff servos: a position actuator and a velocity
feed-forward actuator per joint.
"""
from __future__ import annotations

import math

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from ..core.model import metrics
from ..core.model.energy import METRICS as ENERGY
from ..core.model.errors import ConfigError
from ..core.model.inputs import DeviceLaw, PhasedSine
from ..core.model.robot import MODELS, Robot
from . import config

MODEL_DIR = MODELS / "crawler"
SCENE = MODEL_DIR / "scene.xml"

# The paper's low-frequency gait moves the crawler towards its foot-1 end (-x):
# S and V are measured positive in that direction (S = -(x1(t) - x1(t - T))).
FORWARD = -1.0
INITIAL_PENETRATION = 1e-6  # m, see Crawler.initial_pose


# ---- kinematics of the paper (two feet on the floor) ---------------------------
def theta_on_floor(phi1, phi2, l0: float, l: float):
    """Central-link angle theta with both feet at equal height (y1 = y2), vectorised."""
    from scipy.optimize import brentq      # here, not at import: scipy.optimize costs ~0.4 s of every start

    phi1, phi2 = np.broadcast_arrays(np.asarray(phi1, float), np.asarray(phi2, float))
    out = np.empty(phi1.shape)
    for i, (a, b) in enumerate(zip(phi1.ravel(), phi2.ravel())):
        f = lambda th: -l0 * np.sin(th) - l * np.sin(a - th) + l * np.sin(b + th)  # noqa: E731
        out.flat[i] = brentq(f, -np.pi / 2, np.pi / 2)
    return out


def feet(x, y, theta, phi1, phi2, l0: float, l: float):
    """Foot positions (x1, y1, x2, y2) of eqs. 12-13 (their integrals)."""
    x1 = x - 0.5 * l0 * np.cos(theta) + l * np.cos(phi1 - theta)
    y1 = y - 0.5 * l0 * np.sin(theta) - l * np.sin(phi1 - theta)
    x2 = x + 0.5 * l0 * np.cos(theta) - l * np.cos(phi2 + theta)
    y2 = y + 0.5 * l0 * np.sin(theta) - l * np.sin(phi2 + theta)
    return x1, y1, x2, y2


def foot_distance(phi1, phi2, l0: float, l: float):
    """x2 - x1 with both feet on the floor."""
    th = theta_on_floor(phi1, phi2, l0, l)
    x1, _, x2, _ = feet(0.0, 0.0, th, phi1, phi2, l0, l)
    return x2 - x1


def ideal_stride(inputs: PhasedSine, l0: float, l: float, n: int = 2001) -> float:
    """Quasi-static ideal step from kinematics alone.

    With ideal switching each foot slips only forward: the front foot while the
    feet spread, the rear foot while they close, so every foot advances by the
    full swing of the foot distance, max(D) - min(D), per cycle.
    """
    q, _, _ = inputs(np.linspace(0.0, inputs.period, n))
    d = foot_distance(q[:, 0], q[:, 1], l0, l)
    return float(d.max() - d.min())


def foot_contact(pair, mu: float, p: Crawler.SI) -> None:
    """One foot-floor <pair> (an MjsPair): friction mu (sliding, both tangent directions; pairs do not inherit
    geom friction) and the contact recipe of the point's parameters p (models/crawler/README.md)."""
    pair.friction[:2] = mu
    pair.solref = [p.contact_timeconst, p.contact_dampratio]
    pair.solreffriction[0] = p.contact_friction_timeconst   # [1] is inert (no position term)
    pair.solimp = [p.contact_impedance_min, p.contact_impedance_max, p.contact_impedance_width,
                   p.contact_impedance_midpoint, p.contact_impedance_power]


class Physics(dm_mujoco.Physics):
    """Crawler physics with named accessors (paper symbols)."""

    def joint_angles(self) -> np.ndarray:
        """[phi1, phi2] in rad."""
        return self.named.data.qpos[["phi1", "phi2"]].copy()

    def foot_positions(self) -> np.ndarray:
        return np.stack([self.named.data.site_xpos[f"foot{i}"][[0, 2]] for i in (1, 2)])

    def foot_velocities(self) -> np.ndarray:
        """Tangential foot velocities [x1', x2'] (m/s)."""
        return np.array([self.named.data.sensordata[f"foot{i}_vel"][0] for i in (1, 2)])

    def normal_forces(self) -> np.ndarray:
        return np.array([self.named.data.sensordata[f"foot{i}_touch"][0] for i in (1, 2)])



class Crawler(Robot):
    """One crawler point.  Config names (angles in degrees); see configs/robot/crawler.yaml."""

    name = "crawler"
    Params = config.Params
    physics = Physics
    gait_parameter = ("omega", 0.5)       # viewer keys: omega +/- 0.5 rad/s
    engines = config.ENGINES        # mujoco: the twin; hybrid: the paper's exact model (hybrid.py)
    columns = ("omega", "psi_deg", "A_deg", "phi0_deg", "alpha", "upsilon_deg", "mu")
    random_inputs = {"omega": (0.3, 16.0), "psi_deg": (-180.0, 180.0), "A_deg": (5.0, 25.0),
                     "phi0_deg": (95.0, 140.0), "mu": (0.1, 0.6)}
    metrics = ("S", "V", "steady", "period_cycles", "cycles", "tracking_error_deg") + tuple(
        f"foot{i}_{name}" for i in (1, 2) for name in list(metrics.MODE_NAMES.values()) + ["fn_min"]) + ENERGY

    # ---- inputs -------------------------------------------------------------
    @property
    def inputs(self) -> PhasedSine:
        p = self.p
        return PhasedSine(p.omega, p.A, p.phi0, (p.psi / 2, -p.psi / 2),
                          p.alpha, p.upsilon)

    @property
    def period(self) -> float:
        return 2 * math.pi / self.p.omega

    def controls(self, t):
        q, qd, _ = self.inputs(t)
        return np.concatenate([q, qd], axis=1)

    def device_law(self) -> DeviceLaw:
        """controls() = (q, qd) of eq. 5 with eq. 8's time scaling, as a law warp evaluates on the device."""
        inp, n = self.inputs, 2
        return DeviceLaw(inp.omega, c0=(inp.phi0,) * n + (0.0,) * n, c1=(0.0,) * 2 * n,
                         a_sin=(inp.A,) * n + (0.0,) * n, a_cos=(0.0,) * n + (inp.A * inp.omega,) * n,
                         delta=tuple(inp.offsets) * 2, alpha=inp.alpha, upsilon=inp.upsilon)

    # ---- validation ---------------------------------------------------------
    def validate(self) -> None:
        p = self.p
        for k, dc, half in (("dc0", p.dc0, p.l0 / 2), ("dc1", p.dc1, p.l / 2), ("dc2", p.dc2, p.l / 2)):
            if abs(dc) >= half:
                raise ConfigError(k, self.cfg[k], f"({-half:g}, {half:g}) m", "the centre of mass must lie on its link")
        problem = self._geometry_problem(p.A)
        if problem:
            a_max = self._max_amplitude()
            raise ConfigError("A_deg", self.cfg["A_deg"], f"[0, {math.degrees(a_max):.1f}] deg "
                              f"for phi0_deg={self.cfg['phi0_deg']:g}, psi_deg={self.cfg['psi_deg']:g}",
                              problem)

    def _geometry_problem(self, A: float) -> str:
        """Why the quasi-static two-foot posture is infeasible somewhere in the cycle, or ''."""
        p = self.p
        inp = PhasedSine(p.omega, A, p.phi0, (p.psi / 2, -p.psi / 2), p.alpha, p.upsilon)
        q, _, _ = inp(np.linspace(0.0, inp.period, 181))
        phi1, phi2 = q[:, 0], q[:, 1]
        if np.any(q <= math.radians(5)) or np.any(q >= math.radians(175)):
            return "a joint angle leaves (5, 175) deg: the links would fold onto each other"
        l0, l = p.l0, p.l
        th = theta_on_floor(phi1, phi2, l0, l)
        x1, _, x2, _ = feet(0.0, 0.0, th, phi1, phi2, l0, l)
        # leg angles to the floor: each distal link must point down
        a1, a2 = phi1 - th, phi2 + th
        if np.any(np.sin(a1) < math.sin(math.radians(5))) or np.any(np.sin(a2) < math.sin(math.radians(5))):
            return "a distal link would lie on the floor"
        if np.any(x2 - x1 < 0.1 * l):
            return "the feet would cross"
        # static balance: the centre of mass must lie between the feet, else a foot lifts
        y = l * np.sin(a1) + 0.5 * l0 * np.sin(th)
        hx1 = -0.5 * l0 * np.cos(th)
        hx2 = 0.5 * l0 * np.cos(th)
        c0 = p.dc0 * np.cos(th)
        c1 = hx1 + (0.5 * l + p.dc1) * np.cos(a1)
        c2 = hx2 - (0.5 * l + p.dc2) * np.cos(a2)
        xc = (p.m0 * c0 + p.m1 * c1 + p.m2 * c2) / (p.m0 + p.m1 + p.m2)
        if np.any(xc <= np.minimum(x1, x2)) or np.any(xc >= np.maximum(x1, x2)):
            return "the centre of mass would leave the support and a foot would leave the floor"
        if np.any(y <= 0):
            return "the central link would touch the floor"
        return ""

    def _max_amplitude(self) -> float:
        lo, hi = 0.0, math.radians(90)
        if self._geometry_problem(lo):
            return 0.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if not self._geometry_problem(mid) else (lo, mid)
        return lo

    # ---- model ----------------------------------------------------------------
    def spec(self) -> mujoco.MjSpec:
        p = self.p
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.impratio = p.impratio
        l0, l, r = p.l0, p.l, p.foot_radius
        mu1 = p.mu1 if p.mu1 is not None else p.mu
        mu2 = p.mu2 if p.mu2 is not None else p.mu
        center = spec.body("center")
        center.mass, center.inertia[1], center.ipos = p.m0, p.J0, [p.dc0, 0, 0]
        center.inertia[2] = p.J0
        center.inertia[0] = 0.05 * p.J0
        spec.geom("center").fromto = [-l0 / 2, 0, 0, l0 / 2, 0, 0]
        for i, (sgn, mu, m, dc, J) in enumerate(((+1, mu1, p.m1, p.dc1, p.J1), (-1, mu2, p.m2, p.dc2, p.J2)), start=1):
            body = spec.body(f"link{i}")
            body.pos = [-sgn * l0 / 2, 0, 0]
            body.mass, body.ipos = m, [sgn * l / 2 + sgn * dc, 0, 0]   # dc = 0: exactly l/2
            body.inertia = [0.05 * J, J, J]
            spec.geom(f"link{i}").fromto = [0, 0, 0, sgn * l, 0, 0]
            foot = spec.geom(f"foot{i}")
            foot.pos, foot.size[0] = [sgn * l, 0, 0], r
            foot_contact(spec.pair(f"foot{i}_floor"), mu, p)   # the foot's only contact (scene.xml)
            spec.site(f"foot{i}").pos = [sgn * l, 0, 0]
            spec.geom(f"foot{i}_visual").pos = [sgn * l, 0, 0]
            spec.site(f"foot{i}").size[0] = max(4 * r, 0.004)
        for j in ("phi1", "phi2"):
            pa, va = spec.actuator(f"{j}_p"), spec.actuator(f"{j}_v")
            pa.gainprm[0], pa.biasprm[1] = p.kp, -p.kp
            va.gainprm[0], va.biasprm[2] = p.kv, -p.kv
        return spec

    def initial_pose(self, model, data) -> None:
        """At rest, both feet touching the floor at the t=0 joint angles.

        The feet start 1 micrometre into the floor so that both contacts exist
        at t=0 (at exactly zero distance MuJoCo may or may not report one).
        """
        p = self.p
        q, _, _ = self.inputs(np.zeros(1))
        phi1, phi2 = q[0]
        th = float(theta_on_floor(phi1, phi2, p.l0, p.l))
        _, y1, _, _ = feet(0.0, 0.0, th, phi1, phi2, p.l0, p.l)
        z0 = model.body("center").pos[2]
        for name, v in (("root_x", 0.0), ("root_z", p.foot_radius - INITIAL_PENETRATION - y1 - z0),
                        ("theta", th), ("phi1", phi1), ("phi2", phi2)):
            data.joint(name).qpos[0] = v
        data.qvel[:] = 0.0

    # ---- metrics --------------------------------------------------------------
    def progress(self, sensordata, model):
        return FORWARD * self.sensor(sensordata, model, "foot1_pos")[..., 0]

    def summarize(self, run) -> dict:
        T, spc = self.period, self.samples_per_cycle
        st = run.steady
        S = st.value if st else float("nan")
        last = slice(max(0, len(run.t) - spc - 1), len(run.t))   # the last cycle
        after_first = slice(min(spc, len(run.t) - 1), len(run.t))
        ref = self.inputs(run.t)[0]
        err = np.abs(np.concatenate([run.sensor("phi1"), run.sensor("phi2")], axis=1) - ref)
        out = dict(S=S, V=S / T, steady=bool(st.steady) if st else False,
                   period_cycles=st.period if st else 0, cycles=run.cycles,
                   tracking_error_deg=float(np.degrees(err[after_first].max())) if len(err) > 1 else float("nan"))
        for i in (1, 2):
            vx = run.sensor(f"foot{i}_vel")[last, 0]
            fn = run.sensor(f"foot{i}_touch")[last, 0]
            modes = metrics.contact_modes(vx, fn, forward=FORWARD)
            for name, frac in metrics.mode_fractions(modes).items():
                out[f"foot{i}_{name}"] = frac
            out[f"foot{i}_fn_min"] = float(fn.min()) if len(fn) else float("nan")
        return out


# ---- dm_control ---------------------------------------------------------------
