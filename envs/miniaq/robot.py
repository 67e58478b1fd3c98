"""MinIAQ-II quadruped (Askari & Ozcan): four one-DOF four-bar legs, one constant-speed motor each.

The gait is set only by the phase offsets between the cranks (Sec. II-III): trot (the paper's),
pace, bound, pronk, walk, or any custom offsets; in-place turning reverses one side.

Body frame: X forward, Y left, Z up at the body centroid.  Each leg is a planar four-bar in a
plane parallel to X-Z (Fig. 2b): crank BD (l2) on the motor axis B, coupler DC (l3), rocker AC
(l4), ground link AB (l1); the foot tip E and the fold node F are fixed on the coupler:
E = D + l5 e(theta3 + theta35), F = D + l6 e(theta3 + theta36), with theta3 the angle of DC and
e(a) = (cos a, sin a) in the leg's (x, z) plane (angles counter-clockwise seen from the right).
l1 and the pivot positions are not in the paper: assumptions documented in models/miniaq/README.md.
"""
from __future__ import annotations

import dataclasses
import functools
import math
import pathlib

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from envs.core import metrics
from envs.core.errors import ConfigError
from envs.core.inputs import Crank
from envs.core.robot import MODELS, Robot
from envs.miniaq import config

MODEL_DIR = MODELS / "miniaq"
SCENE = MODEL_DIR / "scene.xml"

LEGS = ("fl", "fr", "hl", "hr")           # leg j = 1..4 of the paper: front/hind, left/right
LEFT = (True, False, True, False)
FRONT = (True, True, False, False)
G = 9.81

# Gait phase offsets (deg) per leg (fl, fr, hl, hr): the fraction of a crank cycle by which a
# leg lags leg fl, i.e. each leg passes its mid-stance (lowest foot point) phase_deg/360 of a
# period after t = 0.
GAITS = {
    "trot": (0.0, 180.0, 180.0, 0.0),     # diagonal pairs in phase, pairs 180 deg apart (paper)
    "pace": (0.0, 180.0, 0.0, 180.0),     # lateral pairs in phase
    "bound": (0.0, 0.0, 180.0, 180.0),    # front pair / hind pair
    "pronk": (0.0, 0.0, 0.0, 0.0),        # all legs together
    "walk": (90.0, 270.0, 0.0, 180.0),    # lateral-sequence walk: HL, FL, HR, FR a quarter apart
}
# The crank turns clockwise in the leg's (x, z) plane (negative theta2 rate) to drive the feet
# backward along the bottom of their path, i.e. to walk forward (+X): direction +1 per side.
FORWARD_SPIN = -1.0
BRANCH = +1          # assembly of the four-bar: C on the left of the line D -> A (see fourbar)
INITIAL_PENETRATION = 1e-6
CONTACT_FORCE_MIN = 1e-4   # N: a foot is in contact when its touch sensor reads more (0.05 % of m g)


# ---- inputs: constant-speed cranks with the paper's phase error --------------------------
WANDER_TERMS = 4     # sinusoids per leg in the slow phase wander


@dataclasses.dataclass(frozen=True)
class PhaseWander:
    """A slow, bounded, seeded random phase error per leg: a pure function of time.

    delta_j(t) = A sum_k a_jk sin(2 pi t / T_jk + phi_jk) / sum_k a_jk, so |delta_j| <= A (rad);
    a_jk ~ U(0.5, 1), T_jk ~ U(T, 5 T), phi_jk ~ U(0, 2 pi) from numpy's default_rng(seed).
    A sum of sinusoids rather than a stepped random walk: smooth (the crank speed stays finite)
    and evaluable at any t, in chunks, by both engines.
    """

    amplitude: float
    period: float
    seed: int
    n: int = 4

    @functools.cached_property
    def terms(self) -> tuple:
        rng = np.random.default_rng(self.seed)
        a = rng.uniform(0.5, 1.0, (self.n, WANDER_TERMS))
        T = rng.uniform(self.period, 5 * self.period, (self.n, WANDER_TERMS))
        phi = rng.uniform(0.0, 2 * math.pi, (self.n, WANDER_TERMS))
        return self.amplitude * a / a.sum(axis=1, keepdims=True), 2 * math.pi / T, phi

    def __call__(self, t):
        """(delta, d delta/dt), each (len(t), n) rad and rad/s."""
        a, w, phi = self.terms
        x = np.asarray(t, float)[:, None, None] * w[None] + phi[None]
        return np.sum(a[None] * np.sin(x), axis=2), np.sum(a[None] * w[None] * np.cos(x), axis=2)


@dataclasses.dataclass(frozen=True)
class PhasedCrank(Crank):
    """Crank with a time-varying phase error: theta_j = offset_j + s_j (omega t - delta_j(t))."""

    wander: PhaseWander | None = None

    def __call__(self, t):
        q, qd, qdd = super().__call__(t)
        if self.wander is None or self.wander.amplitude == 0.0:
            return q, qd, qdd
        sgn = np.ones(len(self.offsets)) if self.directions is None else np.asarray(self.directions, float)
        dl, dld = self.wander(t)
        return q - sgn[None] * dl, qd - sgn[None] * dld, qdd


# ---- leg kinematics (Sec. III-A) ----------------------------------------------------
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


def foot_point(theta2, p: dict):
    """Foot tip E (and fold node F) in the leg frame (B at the origin), shape (..., 2)."""
    D, _, th3, _ = fourbar(theta2, p["l1"], p["theta1"], p["l2"], p["l3"], p["l4"])
    E = D + p["l5"] * np.stack([np.cos(th3 + p["theta35"]), np.sin(th3 + p["theta35"])], axis=-1)
    F = D + p["l6"] * np.stack([np.cos(th3 + p["theta36"]), np.sin(th3 + p["theta36"])], axis=-1)
    return E, F


def mid_stance_angle(p: dict, n: int = 3600) -> float:
    """The crank angle theta2 at which the foot is lowest (mid-stance of the designed path)."""
    th = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    E, _ = foot_point(th, p)
    return float(th[np.argmin(E[:, 1])])


def foot_path(p: dict, n: int = 720) -> dict:
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


def hunt_crossley_contact(K: float, e: float, c_max: float, d: float, m: float, n_feet: int,
                          impedance: float, inv_weight: float) -> dict:
    """Map the Hunt-Crossley contact (eq. 15) to MuJoCo's direct solref (-k, -b).

    MuJoCo's soft contact produces, at (quasi-)static balance, the force
    f = (k r + b v) / ((1 - d_imp) A) for penetration r and rate v, with d_imp the (constant)
    impedance and A the contact's diagonal inverse-mass approximation (the foot body's
    translational invweight0).  k and b are chosen so that f equals the Hunt-Crossley force's
    secant at the static load point: n feet carrying the weight m g penetrate
    delta0 = (m g / (n K))^(1/e), with damping C = c_max STEP(delta0; 0, d).
    """
    delta0 = (m * G / (n_feet * K)) ** (1.0 / e)
    x = min(delta0 / d, 1.0)
    C = c_max * x * x * (3 - 2 * x)
    k_sec = m * G / (n_feet * delta0)
    scale = (1 - impedance) * inv_weight
    k_lin = e * K * delta0 ** (e - 1)
    return dict(delta0=delta0, stiffness=k_sec, damping=C, solref=(-k_sec * scale, -C * scale),
                zeta_hc=C / (2 * math.sqrt(k_lin * m / n_feet)))


def power_law_contact(K: float, e: float, c_max: float, d: float, m: float, n_feet: int, d0: float,
                      inv_weight: float) -> dict:
    """Map the Hunt-Crossley contact (eq. 15) to MuJoCo with a depth-dependent impedance.

    MuJoCo's reference acceleration is a_ref = -B v - K_mj imp(r) r and its constraint regulariser
    R = (1 - imp)/imp A (A: the diagonal inverse-mass approximation, the foot body's invweight0);
    at (quasi-)static balance the normal force is f = imp (B v + K_mj imp r) / ((1 - imp) A).  With
    the impedance rising linearly with depth, imp(r) = d0 (1 + r / delta0) up to 10 delta0
    (solimp = (d0, 11 d0, 10 delta0, 0.5, 1)), the elastic part d0^2 (1 + r/delta0)^2 K_mj r / A is
    a cubic whose log-slope is exactly 2 at the load point delta0 (1.5 .. 2.5 over delta0/3 .. 3
    delta0): K_mj is set so that it equals K delta0^e there.  The damping imp B / ((1 - imp) A)
    grows with depth as imp does (half at zero depth, twice at 3 delta0); B matches the
    Hunt-Crossley C = c_max STEP(delta0; 0, d) at delta0.  With imp <= 11 d0 << 1 the contact is
    a force law, not the near-hard constraint of a high impedance: MuJoCo's constraint adds an
    apparent mass imp / (1 - imp) / A to the foot in contact (9 foot masses at imp = 0.9, 0.01 .. 0.12
    here).  Returns solref (direct, -k, -b), solimp and the force-law curves for the README.
    """
    delta0 = (m * G / (n_feet * K)) ** (1.0 / e)
    x = min(delta0 / d, 1.0)
    C0 = c_max * x * x * (3 - 2 * x)
    d1, width = 11.0 * d0, 10.0 * delta0
    imp0 = 2.0 * d0
    K_mj = K * delta0 ** (e - 1) * (1 - imp0) * inv_weight / imp0**2
    B = C0 * (1 - imp0) * inv_weight / imp0
    # MuJoCo divides direct solref by dmax^2 (stiffness) and dmax (damping)
    return dict(delta0=delta0, damping=C0, solref=(-K_mj * d1 * d1, -B * d1), solimp=(d0, d1, width, 0.5, 1.0),
                K_mj=K_mj, B=B, inv_weight=inv_weight)


def power_law_force(r, v, c: dict):
    """The quasi-static normal force of `power_law_contact` at depth r (m) and closing rate v (m/s)."""
    d0, d1, width = c["solimp"][:3]
    imp = d0 + (d1 - d0) * np.clip(np.asarray(r, float) / width, 0.0, 1.0)
    r, v = np.asarray(r, float), np.asarray(v, float)
    return imp * (c["B"] * v + c["K_mj"] * imp * r) / ((1 - imp) * c["inv_weight"])


class Physics(dm_mujoco.Physics):
    """MinIAQ-II physics with named accessors (paper symbols)."""

    def body_position(self) -> np.ndarray:
        """P_I = [P_Ix, P_Iy, P_Iz] of the body centroid (m)."""
        return self.named.data.sensordata["torso_pos"].copy()

    def orientation(self) -> np.ndarray:
        """Gamma = [phi, theta, psi]: roll, pitch, yaw (rad), Z-Y-X sequence."""
        return quat_to_euler(self.named.data.sensordata["torso_quat"])

    def crank_angles(self) -> np.ndarray:
        """theta2 of legs fl, fr, hl, hr (rad, unwrapped)."""
        return np.array([self.named.data.qpos[f"{leg}_crank"][0] for leg in LEGS])

    def foot_positions(self) -> np.ndarray:
        """r_E of the four feet in the world frame, shape (4, 3)."""
        return np.stack([self.named.data.sensordata[f"{leg}_foot_pos"] for leg in LEGS])

    def normal_forces(self) -> np.ndarray:
        """F_N of the four feet (N)."""
        return np.array([self.named.data.sensordata[f"{leg}_touch"][0] for leg in LEGS])

    def contact_forces(self) -> np.ndarray:
        """Net floor force on each foot in the world frame, shape (4, 3)."""
        return np.stack([self.named.data.sensordata[f"{leg}_contact"] for leg in LEGS])

    def loop_gaps(self) -> np.ndarray:
        sd = self.named.data.sensordata
        return np.array([np.linalg.norm(sd[f"{leg}_C_coupler"] - sd[f"{leg}_C_rocker"]) for leg in LEGS])

    def motor_torques(self) -> np.ndarray:
        return np.array([self.named.data.sensordata[f"{leg}_motor_torque"][0] for leg in LEGS])



class MiniAQ(Robot):
    """One MinIAQ-II point.  Config names (angles in degrees); see configs/robot/miniaq.yaml."""

    name = "miniaq"
    Params = config.Params
    physics = Physics
    engines = ("mujoco", "paper")  # paper: the paper's own rigid-body model (paper.py)
    columns = ("gait", "f", "direction_left", "direction_right", "mu_d")
    random_inputs = {"f": (1.0, 4.0), "mu_d": (0.2, 0.6)}   # bounded ranges for reliability runs

    # ---- validation ---------------------------------------------------------------
    def validate(self) -> None:
        p, cfg = self.p, self.cfg
        if 4 * p["m_leg"] >= p["m"]:
            raise ConfigError("m_leg", cfg["m_leg"], f"(0, {p['m'] / 4:g}) kg: the legs must weigh less than m")
        if cfg["phase_deg"] is not None and len(cfg["phase_deg"]) != 4:
            raise ConfigError("phase_deg", cfg["phase_deg"], self.allowed("phase_deg"), "not 4 offsets")
        pe = cfg["phase_error_deg"]
        if pe is not None and (len(pe) != 4 or any(abs(v) > 180 for v in pe)):
            raise ConfigError("phase_error_deg", pe, self.allowed("phase_error_deg"), "not 4 errors in [-180, 180]")
        problem = grashof_problem(p["l1"], p["l2"], p["l3"], p["l4"])
        if problem:
            lo, hi = grashof_l1_range(p["l2"], p["l3"], p["l4"])
            raise ConfigError("l1", cfg["l1"], f"[{lo:.5g}, {hi:.5g}] m for l2={cfg['l2']:g}, l3={cfg['l3']:g}, "
                              f"l4={cfg['l4']:g} (Grashof crank-rocker)", problem)
        path = foot_path(p)
        if path["z_min"] + p["pivot_z"] > -p["body_height"] / 2 - p["foot_radius"]:
            raise ConfigError("pivot_z", cfg["pivot_z"], f"< {-path['z_min'] - p['body_height'] / 2:.4g} m",
                              "the feet would not reach below the body")

    # ---- inputs ---------------------------------------------------------------------
    @property
    def phases(self) -> tuple:
        """Phase offsets per leg (rad): the lag of each leg's mid-stance behind t = 0, the gait's
        (or phase_deg) plus the fixed phase error phase_error_deg."""
        ph = self.cfg["phase_deg"] if self.cfg["phase_deg"] is not None else GAITS[self.cfg["gait"]]
        err = self.cfg["phase_error_deg"] or (0.0,) * 4
        return tuple(math.radians(float(v) + float(e)) for v, e in zip(ph, err))

    @property
    def gait_phases(self) -> tuple:
        """The intended gait's offsets (rad), without the phase error."""
        ph = self.cfg["phase_deg"] if self.cfg["phase_deg"] is not None else GAITS[self.cfg["gait"]]
        return tuple(math.radians(float(v)) for v in ph)

    @property
    def wander(self) -> PhaseWander | None:
        if self.p["phase_wander"] == 0.0:
            return None
        return PhaseWander(self.p["phase_wander"], self.p["phase_wander_period"], int(self.cfg["phase_wander_seed"]))

    @property
    def directions(self) -> tuple:
        return tuple(float(self.cfg["direction_left"] if left else self.cfg["direction_right"]) for left in LEFT)

    @property
    def inputs(self) -> PhasedCrank:
        """theta2_j(t) = theta2_mid + s_j (omega t - phase_j - delta_j(t)), s_j = FORWARD_SPIN x side
        direction; phase_j includes the fixed phase error, delta_j is the slow wander (PhaseWander)."""
        th_mid = mid_stance_angle(self.p)
        sgn = tuple(FORWARD_SPIN * s for s in self.directions)
        offsets = tuple(th_mid - s * ph for s, ph in zip(sgn, self.phases))
        return PhasedCrank(2 * math.pi * self.p["f"], offsets, sgn, self.wander)

    @property
    def period(self) -> float:
        return 1.0 / self.p["f"]

    def controls(self, t):
        q, qd, _ = self.inputs(t)
        return q + (self.p["kv"] / self.p["kp"]) * qd

    # ---- model --------------------------------------------------------------------
    def contact(self, inv_weight: float = 1.0) -> dict:
        """The foot contact's MuJoCo parameters (`contact_law`): solref (and solimp for power)."""
        p = self.p
        if self.cfg["contact_law"] == "power":
            c = power_law_contact(p["K"], p["e"], p["c_max"], p["d"], p["m"], int(self.cfg["contact_feet"]),
                                  p["impedance_min"], inv_weight)
            return dict(c, stiffness=p["m"] * G / (int(self.cfg["contact_feet"]) * c["delta0"]))
        return hunt_crossley_contact(p["K"], p["e"], p["c_max"], p["d"], p["m"], int(self.cfg["contact_feet"]),
                                     p["impedance"], inv_weight)

    def spec(self) -> mujoco.MjSpec:
        p = self.p
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.impratio = p["impratio"]
        Lx, Ly, Lz = p["body_length"], p["body_width"], p["body_height"]
        mb = p["m"] - 4 * p["m_leg"]
        torso = spec.body("torso")
        torso.mass = mb
        torso.inertia = [mb / 12 * (Ly**2 + Lz**2), mb / 12 * (Lx**2 + Lz**2), mb / 12 * (Lx**2 + Ly**2)]
        spec.geom("torso").size = [Lx / 2, Ly / 2, Lz / 2]
        A = (p["l1"] * math.cos(p["theta1"]), p["l1"] * math.sin(p["theta1"]))
        t35, t36 = p["theta35"], p["theta36"]
        E = (p["l5"] * math.cos(t35), p["l5"] * math.sin(t35))
        F = (p["l6"] * math.cos(t36), p["l6"] * math.sin(t36))
        # leg mass split (assumption): crank 10 %, coupler 60 %, rocker 30 %
        mc, mk, mr = 0.1 * p["m_leg"], 0.6 * p["m_leg"], 0.3 * p["m_leg"]
        for leg, left, front in zip(LEGS, LEFT, FRONT):
            B = (p["pivot_x"] if front else -p["pivot_x"], p["pivot_y"] if left else -p["pivot_y"], p["pivot_z"])
            crank, coupler, rocker = (spec.body(f"{leg}_{n}") for n in ("crank", "coupler", "rocker"))
            crank.pos = list(B)
            crank.mass, crank.ipos = mc, [p["l2"] / 2, 0, 0]
            crank.inertia = [_rod(mc, p["l2"])] * 3
            spec.geom(f"{leg}_l2").fromto = [0, 0, 0, p["l2"], 0, 0]
            coupler.pos = [p["l2"], 0, 0]
            coupler.mass = mk
            coupler.ipos = [(p["l3"] + E[0]) / 4, 0, E[1] / 4]
            coupler.inertia = [_rod(mk, max(p["l3"], p["l5"]))] * 3
            spec.geom(f"{leg}_l3").fromto = [0, 0, 0, p["l3"], 0, 0]
            spec.geom(f"{leg}_l6").fromto = [0, 0, 0, F[0], 0, F[1]]
            spec.geom(f"{leg}_l5").fromto = [F[0], 0, F[1], E[0], 0, E[1]]
            foot = spec.geom(f"{leg}_foot")
            foot.pos, foot.size[0] = [E[0], 0, E[1]], p["foot_radius"]
            foot.friction[0] = p["mu_d"]
            foot.solimp[:3] = [p["impedance"], p["impedance"], 0.001]
            spec.site(f"{leg}_foot").pos = [E[0], 0, E[1]]
            spec.site(f"{leg}_foot").size[0] = 3 * p["foot_radius"]
            spec.site(f"{leg}_C_coupler").pos = [p["l3"], 0, 0]
            rocker.pos = [B[0] + A[0], B[1], B[2] + A[1]]
            rocker.mass, rocker.ipos = mr, [p["l4"] / 2, 0, 0]
            rocker.inertia = [_rod(mr, p["l4"])] * 3
            spec.geom(f"{leg}_l4").fromto = [0, 0, 0, p["l4"], 0, 0]
            spec.site(f"{leg}_C_rocker").pos = [p["l4"], 0, 0]
            spec.joint(f"{leg}_crank").armature = p["armature"]
            spec.equality(f"{leg}_loop").solref = [p["loop_timeconst"], 1.0]
            act = spec.actuator(f"{leg}_motor")
            act.gainprm[0] = p["kp"]
            act.biasprm[:3] = [0.0, -p["kp"], -p["kv"]]
            act.forcerange = [-p["tau_max"], p["tau_max"]]
        spec.geom("floor").friction[0] = p["mu_d"]
        # contact: MuJoCo scales a contact's softness by the foot body's invweight0 (known once
        # compiled), so the Hunt-Crossley map needs one calibration compile
        m0 = spec.compile()
        for leg in LEGS:
            c = self.contact(float(m0.body_invweight0[m0.body(f"{leg}_coupler").id, 0]))
            spec.geom(f"{leg}_foot").solref = list(c["solref"])
            if "solimp" in c:
                spec.geom(f"{leg}_foot").solimp = list(c["solimp"])
        return spec

    def leg_angles(self, theta2) -> tuple:
        """(crank, coupler, rocker) joint angles of a leg at crank angle(s) theta2."""
        p = self.p
        _, _, th3, th4 = fourbar(theta2, p["l1"], p["theta1"], p["l2"], p["l3"], p["l4"])
        return np.asarray(theta2, float), th3 - np.asarray(theta2, float), th4

    def initial_pose(self, model, data) -> None:
        """At rest, body level, cranks at their t=0 angles, the lowest feet on the floor."""
        p = self.p
        th2 = self.inputs(np.zeros(1))[0][0]
        data.qpos[:] = model.qpos0
        z = []
        for leg, th in zip(LEGS, th2):
            qc, qk, qr = self.leg_angles(th)
            data.joint(f"{leg}_crank").qpos[0] = qc
            data.joint(f"{leg}_coupler").qpos[0] = qk
            data.joint(f"{leg}_rocker").qpos[0] = qr
            E, _ = foot_point(th, p)
            z.append(p["pivot_z"] + E[1])
        z_low = min(z)
        # the lowest feet start at the static penetration of the mapped contact (weight shared)
        n_down = sum(1 for zj in z if zj < z_low + 1e-7)
        load = p["m"] * G / n_down
        power = self.cfg["contact_law"] == "power"
        pen = (load / p["K"]) ** (1 / p["e"]) if power else load / self.contact()["stiffness"]
        pen = max(INITIAL_PENETRATION, pen)
        root = data.joint("root")
        root.qpos[:3] = [0.0, 0.0, p["foot_radius"] - pen - z_low]
        root.qpos[3:] = [1.0, 0.0, 0.0, 0.0]
        data.qvel[:] = 0.0

    # ---- metrics ------------------------------------------------------------------
    def progress(self, sensordata, model):
        return self.sensor(sensordata, model, "torso_pos")[..., 0]

    def gait(self, run, window=None) -> metrics.GaitDiagram:
        """Contacts and friction direction of the four feet (samples in `window`)."""
        sl = slice(None) if window is None else window
        fn = np.stack([run.sensor(f"{leg}_touch")[sl, 0] for leg in LEGS], axis=1)
        heading = _heading(run.sensor("torso_quat")[sl])
        # the contact sensor (geom1 = foot) reads the force the foot exerts on the floor, in the
        # world frame: the friction on the foot is its negative tangential part
        ff = np.stack([-np.sum(run.sensor(f"{leg}_contact")[sl, :2] * heading, axis=1) for leg in LEGS], axis=1)
        return metrics.gait_diagram(fn > CONTACT_FORCE_MIN, ff)

    def summarize(self, run) -> dict:
        spc = self.samples_per_cycle
        n = len(run.t)
        out = dict(cycles=run.cycles)
        if n < spc + 2:
            return out
        steady = slice(spc, n)                     # after the first (settling) cycle
        t = run.t[steady]
        pos = run.sensor("torso_pos")[steady]
        eul = np.unwrap(quat_to_euler(run.sensor("torso_quat")[steady]), axis=0)
        dt = t[-1] - t[0]
        # forward speed along the initial heading (+X), lateral drift, yaw rate
        out["speed"] = float((pos[-1, 0] - pos[0, 0]) / dt)
        out["drift_y"] = float((pos[-1, 1] - pos[0, 1]) / dt)
        out["yaw_rate_deg_s"] = float(np.degrees(np.polyfit(t, eul[:, 2], 1)[0]))
        out["roll_amplitude_deg"] = float(np.degrees(np.ptp(eul[:, 0])) / 2)
        out["pitch_amplitude_deg"] = float(np.degrees(np.ptp(eul[:, 1])) / 2)
        out["roll_mean_deg"] = float(np.degrees(eul[:, 0].mean()))
        out["pitch_mean_deg"] = float(np.degrees(eul[:, 1].mean()))
        out["height_mean"] = float(pos[:, 2].mean())
        out["max_loop_gap"] = float(self.loop_gaps(run).max())
        tau = np.stack([run.sensor(f"{leg}_motor_torque")[steady, 0] for leg in LEGS], axis=1)
        out["motor_torque_max"] = float(np.abs(tau).max())
        out["motor_saturated_fraction"] = float(np.mean(np.abs(tau) >= 0.999 * self.p["tau_max"]))
        ref = self.inputs(t)[0]
        q = np.stack([run.sensor(f"{leg}_crank_pos")[steady, 0] for leg in LEGS], axis=1)
        out["crank_lag_max_deg"] = float(np.degrees(np.abs(q - ref).max()))
        g = self.gait(run, steady)
        n_cyc = (n - spc) / spc
        for leg, df, dr, iv in zip(LEGS, g.duty_factor, g.drag_fraction, g.intervals):
            out[f"{leg}_duty_factor"] = df
            out[f"{leg}_drag_fraction"] = dr
            out[f"{leg}_touchdowns_per_cycle"] = len(iv) / n_cyc    # 1: one stance a cycle; more: chatter
        for k in (2, 3, 4):
            out[f"support_{k}"] = g.support_fraction[k]
        out["support_le1"] = g.support_fraction[0] + g.support_fraction[1]
        return out

    def intended_contact(self, t, duty: float = 0.5) -> np.ndarray:
        """The intended gait: each foot on the floor for `duty` of the cycle centred on its
        mid-stance (phase_j after t = 0), shape (len(t), 4) bool."""
        t = np.asarray(t, float)
        ph = np.mod(self.p["f"] * t[:, None] - np.array(self.gait_phases)[None, :] / (2 * math.pi) + 0.5, 1.0) - 0.5
        return np.abs(ph) <= duty / 2

    def loop_gaps(self, run) -> np.ndarray:
        """|C_coupler - C_rocker| per sample and leg (m)."""
        return np.stack([np.linalg.norm(run.sensor(f"{leg}_C_coupler") - run.sensor(f"{leg}_C_rocker"), axis=1)
                         for leg in LEGS], axis=1)



def _rod(m: float, L: float) -> float:
    return max(m * L * L / 12.0, 1e-12)


def _heading(quat) -> np.ndarray:
    """Unit vectors of the body's X axis projected on the floor, shape (n, 2)."""
    yaw = quat_to_euler(quat)[:, 2]
    return np.stack([np.cos(yaw), np.sin(yaw)], axis=1)


# ---- dm_control -----------------------------------------------------------------------
