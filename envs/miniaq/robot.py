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

import math

import mujoco
import numpy as np
from dm_control import mujoco as dm_mujoco

from ..core.model import metrics
from ..core.model.energy import METRICS as ENERGY
from ..core.model.errors import ConfigError
from ..core.model.inputs import DeviceLaw
from ..core.model.robot import MODELS, Robot
from . import config
from .foot import NoStaticDepth, add_pads, critical_solref, hunt_crossley_point, static_depth
from .contact import G, hunt_crossley_contact, power_law_contact, power_law_force  # noqa: F401
from .kinematics import (BRANCH, foot_path, foot_point, fourbar, grashof_l1_range,  # noqa: F401
                                    grashof_problem, mid_stance_angle, quat_to_euler)
from .phase import PhasedCrank, PhaseWander

MODEL_DIR = MODELS / "miniaq"
SCENE = MODEL_DIR / "scene.xml"

LEGS = ("fl", "fr", "hl", "hr")           # leg j = 1..4 of the paper: front/hind, left/right
LEFT = (True, False, True, False)
FRONT = (True, True, False, False)
PASSIVE = ("coupler", "rocker")           # each leg's unactuated hinges: pins D and A (C is a connect)

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
INITIAL_PENETRATION = 1e-6
PAD_TIMESTEP_MAX = 2.5e-5   # s: foot=pad's support pattern is converged in dt from here (README, Foot study)
COUPLER_SHARE = 0.6       # of m_leg (assumption, README provenance): the coupler carries the foot
CONTACT_FORCE_MIN = 1e-4   # N: a foot is in contact when its touch sensor reads more (0.05 % of m g)


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

    def loop_gaps(self) -> np.ndarray:
        sd = self.named.data.sensordata
        return np.array([np.linalg.norm(sd[f"{leg}_C_coupler"] - sd[f"{leg}_C_rocker"]) for leg in LEGS])



class MiniAQ(Robot):
    """One MinIAQ-II point.  Config names (angles in degrees); see configs/robot/miniaq.yaml."""

    name = "miniaq"
    Params = config.Params
    physics = Physics
    engines = ("mujoco", "paper")  # paper: the paper's own rigid-body model (paper.py)
    viewer_timestep = 1.25e-4              # viewer: trot speed +0.2 %, turn yaw -1.5 % of 1e-4 s (models/miniaq/README.md)
    gait_parameter = ("f", 0.25)           # viewer keys: motor frequency +/- 0.25 Hz
    columns = ("gait", "f", "direction_left", "direction_right", "mu_d")
    loops = tuple((f"{leg}_C_coupler", f"{leg}_C_rocker") for leg in LEGS)   # the four-bar of each leg
    metrics = ("cycles", "speed", "drift_y", "yaw_rate_deg_s", "roll_amplitude_deg", "pitch_amplitude_deg",
               "roll_mean_deg", "pitch_mean_deg", "height_mean", "max_loop_gap", "motor_torque_max",
               "motor_saturated_fraction", "crank_lag_max_deg") + tuple(
        f"{leg}_{k}" for leg in LEGS for k in ("duty_factor", "drag_fraction", "touchdowns_per_cycle")) + (
        "support_2", "support_3", "support_4", "support_le1") + ENERGY
    random_inputs = {"f": (1.0, 4.0), "mu_d": (0.2, 0.6)}   # bounded ranges for reliability runs

    # ---- validation ---------------------------------------------------------------
    def validate(self) -> None:
        p, cfg = self.p, self.cfg
        if 4 * p.m_leg >= p.m:
            raise ConfigError("m_leg", cfg["m_leg"], f"(0, {p.m / 4:g}) kg: the legs must weigh less than m")
        if cfg["phase_deg"] is not None and len(cfg["phase_deg"]) != 4:
            raise ConfigError("phase_deg", cfg["phase_deg"], self.allowed("phase_deg"), "not 4 offsets")
        pe = cfg["phase_error_deg"]
        if pe is not None and (len(pe) != 4 or any(abs(v) > 180 for v in pe)):
            raise ConfigError("phase_error_deg", pe, self.allowed("phase_error_deg"), "not 4 errors in [-180, 180]")
        mu = cfg["mu_d_feet"]                 # each element's range: the schema (envs/core/model/schema.py)
        if mu is not None and len(mu) != 4:
            raise ConfigError("mu_d_feet", mu, self.allowed("mu_d_feet"), "not 4 friction coefficients in (0, 2]")
        if cfg["foot"] == "pad" and p.pad_mass >= COUPLER_SHARE * p.m_leg:
            raise ConfigError("pad_mass", cfg["pad_mass"], f"(0, {COUPLER_SHARE * p.m_leg:g}) kg with foot=pad",
                              "the pad is part of the coupler's mass")
        if cfg["foot"] == "pad" and cfg["contact_law"] == "power":
            raise ConfigError("contact_law", cfg["contact_law"], "hunt_crossley or linear with foot=pad",
                              "the pad sets its own damping (linear secant; hunt_crossley means linear there)")
        if cfg["foot"] == "pad" and p.timestep > PAD_TIMESTEP_MAX:
            raise ConfigError("timestep", cfg["timestep"], f"(0, {PAD_TIMESTEP_MAX:g}] s with foot=pad",
                              "the pad's contact is converged from there on (README, Foot study)")
        problem = grashof_problem(p.l1, p.l2, p.l3, p.l4)
        if problem:
            lo, hi = grashof_l1_range(p.l2, p.l3, p.l4)
            raise ConfigError("l1", cfg["l1"], f"[{lo:.5g}, {hi:.5g}] m for l2={cfg['l2']:g}, l3={cfg['l3']:g}, "
                              f"l4={cfg['l4']:g} (Grashof crank-rocker)", problem)
        path = foot_path(p)
        if path["z_min"] + p.pivot_z > -p.body_height / 2 - p.foot_radius:
            raise ConfigError("pivot_z", cfg["pivot_z"], f"< {-path['z_min'] - p.body_height / 2:.4g} m",
                              "the feet would not reach below the body")
        try:                                  # the start (initial_pose): the feet must carry the weight
            m = self.model()
            self.initial_pose(m, mujoco.MjData(m))
        except NoStaticDepth as e:
            raise ConfigError("K", cfg["K"], f"a K (up to 1e13 N/m^e) whose feet carry the weight m g = "
                              f"{p.m * G:.3g} N at rest at a depth below 1 m (contact_law={cfg['contact_law']}, "
                              f"e={cfg['e']:g}; the force grows with K)", str(e)) from None

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
        if self.p.phase_wander == 0.0:
            return None
        return PhaseWander(self.p.phase_wander, self.p.phase_wander_period, int(self.cfg["phase_wander_seed"]))

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
        return PhasedCrank(2 * math.pi * self.p.f, offsets, sgn, self.wander)

    @property
    def period(self) -> float:
        return 1.0 / self.p.f

    def controls(self, t):
        q, qd, _ = self.inputs(t)
        return q + (self.p.kv / self.p.kp) * qd

    def device_law(self) -> DeviceLaw | None:
        """controls() = q + (kv/kp) qd of the phased cranks, as a law warp evaluates on the device
        (None with a phase wander: its random walk stays on the host)."""
        inp = self.inputs
        if inp.wander is not None and inp.wander.amplitude != 0.0:
            return None
        k, n = self.p.kv / self.p.kp, len(inp.offsets)
        rate = tuple(s * inp.omega for s in inp.directions)
        return DeviceLaw(inp.omega, c0=tuple(o + k * r for o, r in zip(inp.offsets, rate)), c1=rate,
                         a_sin=(0.0,) * n, a_cos=(0.0,) * n, delta=(0.0,) * n)

    # ---- model --------------------------------------------------------------------
    def contact(self, inv_weight: float = 1.0) -> dict:
        """The foot contact's MuJoCo parameters (`contact_law`): solref (and solimp for power)."""
        p = self.p
        if self.cfg["contact_law"] == "power":
            c = power_law_contact(p.K, p.e, p.c_max, p.d, p.m, int(self.cfg["contact_feet"]),
                                  p.impedance_min, inv_weight)
            return dict(c, stiffness=p.m * G / (int(self.cfg["contact_feet"]) * c["delta0"]))
        lin = hunt_crossley_contact(p.K, p.e, p.c_max, p.d, p.m, int(self.cfg["contact_feet"]),
                                    p.impedance, inv_weight)
        if self.cfg["contact_law"] == "hunt_crossley" and self.cfg["foot"] == "point":
            return dict(lin, **hunt_crossley_point(p, inv_weight))   # delta0, stiffness, damping: the secant's
        return lin

    def spec(self) -> mujoco.MjSpec:
        p = self.p
        spec = mujoco.MjSpec.from_file(str(SCENE))
        spec.option.impratio = p.impratio
        Lx, Ly, Lz = p.body_length, p.body_width, p.body_height
        mb = p.m - 4 * p.m_leg
        torso = spec.body("torso")
        torso.mass = mb
        torso.ipos = [p.com_offset_x, p.com_offset_y, 0.0]   # the box's inertia, moved with its COM
        torso.inertia = [mb / 12 * (Ly**2 + Lz**2), mb / 12 * (Lx**2 + Lz**2), mb / 12 * (Lx**2 + Ly**2)]
        spec.geom("torso").size = [Lx / 2, Ly / 2, Lz / 2]
        A = (p.l1 * math.cos(p.theta1), p.l1 * math.sin(p.theta1))
        t35, t36 = p.theta35, p.theta36
        E = (p.l5 * math.cos(t35), p.l5 * math.sin(t35))
        F = (p.l6 * math.cos(t36), p.l6 * math.sin(t36))
        # leg mass split (assumption): crank 10 %, coupler 60 %, rocker 30 %
        mc, mk, mr = 0.1 * p.m_leg, COUPLER_SHARE * p.m_leg, 0.3 * p.m_leg
        mu_feet = p.mu_d_feet or (p.mu_d,) * 4
        for leg, left, front, mu in zip(LEGS, LEFT, FRONT, mu_feet):
            B = (p.pivot_x if front else -p.pivot_x, p.pivot_y if left else -p.pivot_y, p.pivot_z)
            crank, coupler, rocker = (spec.body(f"{leg}_{n}") for n in ("crank", "coupler", "rocker"))
            crank.pos = list(B)
            crank.mass, crank.ipos = mc, [p.l2 / 2, 0, 0]
            crank.inertia = [_rod(mc, p.l2)] * 3
            spec.geom(f"{leg}_l2").fromto = [0, 0, 0, p.l2, 0, 0]
            coupler.pos = [p.l2, 0, 0]
            coupler.mass = mk
            coupler.ipos = [(p.l3 + E[0]) / 4, 0, E[1] / 4]
            coupler.inertia = [_rod(mk, max(p.l3, p.l5))] * 3
            spec.geom(f"{leg}_l3").fromto = [0, 0, 0, p.l3, 0, 0]
            spec.geom(f"{leg}_l6").fromto = [0, 0, 0, F[0], 0, F[1]]
            spec.geom(f"{leg}_l5").fromto = [F[0], 0, F[1], E[0], 0, E[1]]
            foot = spec.geom(f"{leg}_foot")
            foot.pos, foot.size[0] = [E[0], 0, E[1]], p.foot_radius
            foot.friction[0] = mu         # priority 1: the foot's friction is its contact's, not max(foot, floor)
            foot.solimp[:3] = [p.impedance, p.impedance, 0.001]
            spec.site(f"{leg}_foot").pos = [E[0], 0, E[1]]
            spec.site(f"{leg}_foot").size[0] = 3 * p.foot_radius
            spec.site(f"{leg}_C_coupler").pos = [p.l3, 0, 0]
            rocker.pos = [B[0] + A[0], B[1], B[2] + A[1]]
            rocker.mass, rocker.ipos = mr, [p.l4 / 2, 0, 0]
            rocker.inertia = [_rod(mr, p.l4)] * 3
            spec.geom(f"{leg}_l4").fromto = [0, 0, 0, p.l4, 0, 0]
            spec.site(f"{leg}_C_rocker").pos = [p.l4, 0, 0]
            spec.joint(f"{leg}_crank").armature = p.armature
            for j in PASSIVE:
                spec.joint(f"{leg}_{j}").damping[0] = p.passive_damping
            spec.equality(f"{leg}_loop").solref = [p.loop_timeconst, 1.0]
            act = spec.actuator(f"{leg}_motor")
            act.gainprm[0] = p.kp
            act.biasprm[:3] = [0.0, -p.kp, -p.kv]
            act.forcerange = [-p.tau_max, p.tau_max]
        spec.geom("floor").friction[0] = p.mu_d
        pad = self.cfg["foot"] == "pad"
        if pad:
            th3 = float(fourbar(mid_stance_angle(p), p.l1, p.theta1, p.l2, p.l3, p.l4)[2])
            add_pads(spec, LEGS, th3, p, self.contact()["stiffness"])
        # contact: MuJoCo scales a contact's softness by the foot body's invweight0 (known once
        # compiled), so the Hunt-Crossley map needs one calibration compile
        m0 = spec.compile()
        for leg in LEGS:
            A = float(m0.body_invweight0[m0.body(f"{leg}_{'pad' if pad else 'coupler'}").id, 0])
            c = self.contact(A)
            if pad:
                c = dict(c, solref=critical_solref(c["stiffness"], p.contact_damping_ratio, p.impedance, A))
            spec.geom(f"{leg}_foot").solref = list(c["solref"])
            if "solimp" in c:
                spec.geom(f"{leg}_foot").solimp = list(c["solimp"])
        return spec

    def leg_angles(self, theta2) -> tuple:
        """(crank, coupler, rocker) joint angles of a leg at crank angle(s) theta2."""
        p = self.p
        _, _, th3, th4 = fourbar(theta2, p.l1, p.theta1, p.l2, p.l3, p.l4)
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
            z.append(p.pivot_z + E[1])
        z_low = min(z)
        # the lowest feet start at the depth where the contact in use (its compiled solref, solimp: every
        # contact_law and foot) carries the weight at rest
        down = [f"{leg}_foot" for leg, zj in zip(LEGS, z) if zj < z_low + 1e-7]
        pen = max(INITIAL_PENETRATION, static_depth(model, down, p.m * G))
        root = data.joint("root")
        root.qpos[:3] = [0.0, 0.0, p.foot_radius - pen - z_low]
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
        out["max_loop_gap"] = (float(run.max_loop_gap) if getattr(run, "max_loop_gap", None) is not None
                               else float(self.loop_gaps(run).max()))   # every step, where measured
        tau = np.stack([run.sensor(f"{leg}_motor_torque")[steady, 0] for leg in LEGS], axis=1)
        out["motor_torque_max"] = float(np.abs(tau).max())
        out["motor_saturated_fraction"] = float(np.mean(np.abs(tau) >= 0.999 * self.p.tau_max))
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
        ph = np.mod(self.p.f * t[:, None] - np.array(self.gait_phases)[None, :] / (2 * math.pi) + 0.5, 1.0) - 0.5
        return np.abs(ph) <= duty / 2


def _rod(m: float, L: float) -> float:
    return max(m * L * L / 12.0, 1e-12)


def _heading(quat) -> np.ndarray:
    """Unit vectors of the body's X axis projected on the floor, shape (n, 2)."""
    yaw = quat_to_euler(quat)[:, 2]
    return np.stack([np.cos(yaw), np.sin(yaw)], axis=1)


# ---- dm_control -----------------------------------------------------------------------
