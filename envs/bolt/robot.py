"""BOLT (Liu & Ben-Tzvi): one-DOF six-bar running leg on a planar boom.

The mechanism is a tree of bodies closed by two `connect` equalities, exactly
the paper's "virtual separation" (Appendix A): loop 1 (Phi_1, Phi_2) is cut at
B, loop 2 (Phi_3, Phi_4) at G.  Joint angles are the paper's q_1 ... q_5 (q_1
crank and q_4 femur absolute in the body frame {B}, the others relative to
their parent link), counter-clockwise positive in the paper's x-y plane, which
is the world x-z plane here (hinge axes -y).  {B} has its origin at the crank
centre P.

Both loops solve in closed form (two circle intersections per crank angle):
`loop_kinematics` is the reference the twin's foot path is compared against.
Provenance of every number: models/bolt/README.md.
"""
from __future__ import annotations

import dataclasses
import math
import pathlib

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from envs.core import metrics
from envs.core.errors import ConfigError
from envs.core.inputs import Crank
from envs.core.robot import MODELS, Robot
from envs.bolt import config

MODEL_DIR = MODELS / "bolt"
SCENE = MODEL_DIR / "scene.xml"

# Assembly modes (circle-intersection branches), fixed by the paper's Fig. 2/5:
# B lies clockwise of the ray D->A (femur hangs below the hip), G clockwise of
# the ray C->E (the KFE link meets the tibia behind the knee).
BRANCH_B, BRANCH_G = -1.0, -1.0
# The crank turns clockwise (q_1 decreasing): with Table 2's theta = +41.41 deg the
# foot loop is traversed so that its lower (stance) arc moves backwards, and the
# body advances towards +x as in Fig. 12(a).  README: "Running direction".
CRANK_DIRECTION = -1.0
FORWARD = +1.0
INITIAL_PENETRATION = 1e-6   # m: the running leg starts with the foot just touching
LINKS = ("crank", "hfe", "kfe", "femur", "tibia")
# points whose height is checked against the floor (joint centres + foot)
POINTS = ("P", "A", "D", "B", "C", "E", "G", "F")


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
    def of(cls, p: dict) -> "Geometry":
        return cls(**{f.name: float(p[f.name]) for f in dataclasses.fields(cls)})


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


def touchdowns(touch, min_flight: int) -> list[int]:
    """Sample indices where the foot lands after at least `min_flight` samples in the air
    (contact chatter within one stance does not count as a new stride)."""
    out, last_off = [], None
    for a, b in metrics.intervals(touch):
        if last_off is None or a - last_off >= min_flight:
            out.append(int(a))
        last_off = b
    return out


# ---- the robot ----------------------------------------------------------------------
class Physics(dm_mujoco.Physics):
    """BOLT physics with named accessors (paper symbols)."""

    def crank_angle(self) -> float:
        """q_1 (rad, unwrapped)."""
        return float(self.named.data.qpos["q_1"][0])

    def dependent_angles(self) -> np.ndarray:
        """z = [q_2, q_3, q_4, q_5] (rad)."""
        return np.array([self.named.data.qpos[f"q_{i}"][0] for i in range(2, 6)])

    def body_position(self) -> np.ndarray:
        """[x_b, y_b] of {B}'s origin (the crank centre P) in the world (m)."""
        return self.named.data.sensordata["body_pos"][[0, 2]].copy()

    def foot_position(self) -> np.ndarray:
        """[x, y] of the foot in the body frame {B} (m)."""
        return self.named.data.sensordata["foot_in_B"][[0, 2]].copy()

    def loop_gaps(self) -> np.ndarray:
        """[|B_hfe - B_femur|, |G_kfe - G_tibia|] (m)."""
        s = self.named.data.sensordata
        return np.array([np.linalg.norm(s["B_hfe"] - s["B_femur"]), np.linalg.norm(s["G_kfe"] - s["G_tibia"])])

    def crank_torque(self) -> float:
        return float(self.named.data.sensordata["crank_torque"][0])

    def crank_power(self) -> float:
        s = self.named.data.sensordata
        return float(s["crank_torque"][0] * s["crank_rate"][0])

    def foot_force(self) -> float:
        """Normal force on the foot (N), from the touch sensor."""
        return float(self.named.data.sensordata["foot_touch"][0])



class Bolt(Robot):
    """One BOLT point.  Config names (angles in *_deg, else SI); see configs/robot/bolt.yaml."""

    name = "bolt"
    Params = config.Params
    physics = Physics
    samples_per_cycle = 200
    # randomised reliability runs (tests/test_reliability.py): the crank rates that run period-1
    # within the limits; faster rates hit harder (loop gap up to 1.7 mm, README "Speed sweep")
    random_inputs = {"crank_period": (0.3, 0.6), "theta_1_0_deg": (-30.0, 0.0)}
    max_loop_gap = 1e-3
    columns = ("crank_period", "bumper_height", "body_fixed")

    # ---- validation -----------------------------------------------------------------
    def validate(self) -> None:
        p = self.p
        for name in ("loop_timeconst", "contact_timeconst"):
            if p[name] < 2 * self.timestep:
                raise ConfigError(name, self.cfg[name], f"[{2 * self.timestep:g}, 1] s (at least two "
                                  f"time steps, else MuJoCo silently softens it)")
        g = Geometry.of(p)
        # points on links must lie on them: C on HFE (D..B), B on the femur (A..E), G on the tibia (E..F)
        for name, whole in (("l_s", "l_2"), ("l_f", "l_4"), ("l_t", "l_5")):
            if p[name] >= p[whole]:
                raise ConfigError(name, self.cfg[name], f"(0, {whole}={self.cfg[whole]:g}) m: the point must "
                                  f"lie on its link")
        lo, hi = l2_interval(g)
        if lo >= hi:
            raise ConfigError("l_1", self.cfg["l_1"], "a crank radius for which loop 1 can close at all",
                              "loop 1 (l_c, l_1, l_2, l_f) cannot be a crank-rocker")
        if not lo < g.l_2 < hi:
            raise ConfigError("l_2", self.cfg["l_2"], f"({lo:.4f}, {hi:.4f}) m for l_c={g.l_c:g}, "
                              f"l_1={g.l_1:g}, l_f={g.l_f:g}",
                              "loop 1 cannot assemble over the full crank revolution")
        lo, hi = l3_interval(g)
        if not lo < g.l_3 < hi:
            raise ConfigError("l_3", self.cfg["l_3"], f"({lo:.4f}, {hi:.4f}) m for the other links",
                              "loop 2 cannot assemble over the full crank revolution")

    # ---- inputs ---------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return Geometry.of(self.p)

    @property
    def period(self) -> float:
        return float(self.p["crank_period"])

    @property
    def omega(self) -> float:
        """Commanded crank speed |d theta_1d / dt| (rad/s)."""
        return 2 * math.pi / self.period

    @property
    def inputs(self) -> Crank:
        return Crank(self.omega, (self.p["theta_1_0"],), (CRANK_DIRECTION,))

    @property
    def torque_limit(self) -> float:
        """The actuator clamp: tau_max, lowered to P_max / omega so the power at the commanded
        crank rate cannot exceed P_max (README: "Power limit")."""
        return min(self.p["tau_max"], self.p["P_max"] / self.omega)

    def controls(self, t):
        """theta_1d(t) of eq. 20: a constant-speed crank, the position servo's reference."""
        return self.inputs(t)[0]

    # ---- model ----------------------------------------------------------------------
    def spec(self) -> mujoco.MjSpec:
        p, g = self.p, self.geometry
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.timestep = self.timestep
        k = loop_kinematics(np.array([0.0]), g)   # the authored (assembled) pose: q_1 = 0
        q = {i: float(k[f"q{i}"][0]) for i in range(1, 6)}
        xz = lambda c: [float(np.real(c)), 0.0, float(np.imag(c))]   # noqa: E731
        base = spec.body("base")
        base.mass = p["m_b"]
        if p["body_fixed"]:
            for j in ("x", "z"):
                spec.delete(spec.joint(j))
            base.pos = [0.0, 0.0, p["fixed_height"]]
        elif p["bumper_height"] is not None:
            jz = spec.joint("z")
            jz.limited = mujoco.mjtLimited.mjLIMITED_TRUE
            jz.range = [p["bumper_height"] - base.pos[2], 10.0]
            jz.solref_limit = [p["contact_timeconst"], 1.0]
        spec.site("A").pos = xz(k["A"][0])
        spec.geom("base_link").fromto = [0, 0, 0] + xz(k["A"][0])
        # each link: body frame at its proximal joint, local x along the link, joint ref = authored angle
        frames = dict(crank=([0, 0, 0], q[1]), hfe=([g.l_1, 0, 0], q[2]), kfe=([g.l_s, 0, 0], q[3]),
                      femur=(xz(k["A"][0]), q[4]), tibia=([g.l_4, 0, 0], q[5]))
        lengths = dict(crank=g.l_1, hfe=g.l_2, kfe=g.l_3, femur=g.l_4, tibia=g.l_5)
        for i, link in enumerate(LINKS, start=1):
            body = spec.body(link)
            body.pos, ang = frames[link]
            body.alt.type = mujoco.mjtOrientation.mjORIENTATION_AXISANGLE   # as authored in bolt.xml
            body.alt.axisangle = [0.0, -1.0, 0.0, ang]
            spec.joint(f"q_{i}").ref = ang
            body.mass, body.ipos = p[f"m_{i}"], [p[f"l_cm_{i}"], 0, 0]
            body.inertia = [0.05 * p[f"I_{i}"], p[f"I_{i}"], p[f"I_{i}"]]
            geom = spec.geom(link)
            geom.fromto = [0, geom.fromto[1], 0, lengths[link], geom.fromto[4], 0]
        spec.geom("crank_disk").size[0] = 1.5 * g.l_1
        for name, pos in (("D", g.l_1), ("B_hfe", g.l_2), ("C", g.l_s), ("G_kfe", g.l_3), ("B_femur", g.l_f),
                          ("E", g.l_4), ("G_tibia", g.l_t), ("F", g.l_5)):
            spec.site(name).pos = [pos, 0, 0]
        foot = spec.geom("foot")
        foot.pos, foot.size[0], foot.friction[0] = [g.l_5, 0, 0], p["foot_radius"], p["mu"]
        foot.solref = [p["contact_timeconst"], 1.0]
        spec.site("foot_touch").size[0] = 1.5 * p["foot_radius"]
        spec.site("foot_touch").pos = [g.l_5, 0, 0]
        spec.geom("floor").friction[0] = p["mu"]
        for eq in ("loop_B", "loop_G"):
            spec.equality(eq).solref = [p["loop_timeconst"], 1.0]
        spec.joint("q_1").armature = p["armature"]
        act = spec.actuator("crank")
        act.gainprm[0], act.biasprm[1], act.biasprm[2] = p["K_P"], -p["K_P"], -p["K_D"]
        act.forcerange = [-self.torque_limit, self.torque_limit]
        return spec

    def pose(self, q1: float) -> dict:
        """Closed-form joint angles at crank angle q1 (rad)."""
        k = loop_kinematics(np.array([q1]), self.geometry)
        return {f"q_{i}": float(k[f"q{i}"][0]) for i in range(1, 6)} | {"F": complex(k["F"][0])}

    def initial_pose(self, model, data) -> None:
        """At rest, assembled at theta_1_0; running: the foot just touching the floor."""
        pose = self.pose(self.p["theta_1_0"])
        for i in range(1, 6):
            data.joint(f"q_{i}").qpos[0] = pose[f"q_{i}"]
        if not self.p["body_fixed"]:
            z0 = model.body("base").pos[2]
            data.joint("x").qpos[0] = 0.0
            z = self.p["foot_radius"] - INITIAL_PENETRATION - pose["F"].imag
            if self.p["bumper_height"] is not None:
                z = max(z, self.p["bumper_height"])   # resting on the bumper, the foot above the floor
            data.joint("z").qpos[0] = z - z0
        data.qvel[:] = 0.0

    # ---- metrics ----------------------------------------------------------------------
    def progress(self, sensordata, model):
        return FORWARD * self.sensor(sensordata, model, "body_pos")[..., 0]

    def loop_gaps(self, sensordata, model) -> np.ndarray:
        """(samples, 2): |B_hfe - B_femur| and |G_kfe - G_tibia| (m), the loop-closure errors."""
        s = lambda n: self.sensor(sensordata, model, n)  # noqa: E731
        return np.stack([np.linalg.norm(s("B_hfe") - s("B_femur"), axis=-1),
                         np.linalg.norm(s("G_kfe") - s("G_tibia"), axis=-1)], axis=-1)

    def summarize(self, run) -> dict:
        T, spc, n = self.period, self.samples_per_cycle, len(run.t)
        tau = run.sensor("crank_torque")[:, 0]
        w = run.sensor("crank_rate")[:, 0]
        power = tau * w
        touch = run.sensor("foot_touch")[:, 0] > 0
        gaps = self.loop_gaps(run.sensordata, run.model)
        heights = np.stack([run.sensor(f"{pt}_pos")[:, 2] for pt in POINTS], axis=1)
        heights[:, POINTS.index("F")] -= self.p["foot_radius"]   # bottom of the foot sphere
        out = dict(crank_period=T, omega=self.omega, torque_limit=self.torque_limit, cycles=run.cycles,
                   peak_torque=float(np.abs(tau).max()) if n else math.nan,
                   peak_power=float(np.abs(power).max()) if n else math.nan,
                   peak_stance_power=float(np.abs(power[touch]).max()) if touch.any() else 0.0,
                   max_loop_gap=float(gaps.max()) if n else math.nan,
                   min_point_height=float(heights.min()) if n else math.nan)
        ref = self.controls(run.t)[:, 0]
        err = np.abs(run.sensor("q_1")[:, 0] - ref)
        out["max_tracking_error_deg"] = float(np.degrees(err.max())) if n else math.nan
        if self.p["body_fixed"]:
            k = loop_kinematics(run.sensor("q_1")[:, 0], self.geometry)
            foot = run.sensor("foot_in_B")[:, [0, 2]]
            out["foot_path_error"] = float(np.abs(foot[:, 0] + 1j * foot[:, 1] - k["F"]).max()) if n else math.nan
            return out
        # running: the steady window is the second half of the strides (at least the last one)
        ncyc = run.cycles
        k0 = min(ncyc // 2, max(ncyc - 1, 0))
        win = slice(k0 * spc, n)
        x = run.sensor("body_pos")[:, 0] * FORWARD
        z = run.sensor("body_pos")[:, 2]
        t = run.t
        span = t[win][-1] - t[win][0] if n > 1 and ncyc > k0 else math.nan
        out["speed"] = float((x[win][-1] - x[win][0]) / span) if span == span and span > 0 else math.nan
        td = touchdowns(touch, spc // 4)
        td_t = np.array([t[i] for i in td if i >= k0 * spc])
        out["stride_time"] = float(np.mean(np.diff(td_t))) if len(td_t) >= 2 else math.nan
        out["touchdowns"] = len(td)
        out["touchdowns_per_revolution"] = float(len(td_t) / (ncyc - k0)) if ncyc > k0 else math.nan
        out["limits_ok"] = bool(out["peak_torque"] <= self.p["tau_max"] + 1e-9
                                and out["peak_stance_power"] <= self.p["P_max"])
        out["stride_length"] = float(np.mean(run.cycle_values[k0:])) if ncyc > k0 else math.nan
        out["duty_factor"] = metrics.duty_factor(touch[win]) if n else math.nan
        out["height_min"] = float(z[win].min()) if n else math.nan
        out["height_max"] = float(z[win].max()) if n else math.nan
        out["steady"] = bool(run.steady.steady) if run.steady else False
        return out


# ---- dm_control -----------------------------------------------------------------------
