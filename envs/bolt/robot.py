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
import functools
import math
import os

import numpy as np

from ..core.model import metrics
from ..core.model.energy import METRICS as ENERGY
from ..core.model.errors import ConfigError
from ..core.model.inputs import Crank
from ..core.model.robot import Robot
from . import config
from .config import HARDWARE_TOTAL_MASS, MASS_KEYS, MASS_SETS, TABLE3_LINKS  # noqa: F401  (README "Mass sets")
from .kinematics import (Geometry, foot_path, l2_interval, l3_interval, loop_kinematics,  # noqa: F401
                                   phi, stride_and_height, table1_lengths, touchdowns)
from .model import LINKS, MODEL_DIR, SCENE, BoltModel  # noqa: F401
from .physics import Physics
from . import coulomb_foot, coulomb_native


# The crank turns clockwise (q_1 decreasing): with Table 2's theta = +41.41 deg the
# foot loop is traversed so that its lower (stance) arc moves backwards, and the
# body advances towards +x as in Fig. 12(a).  README: "Running direction".
CRANK_DIRECTION = -1.0
FORWARD = +1.0
# limits_ok: a peak may exceed its limit by this relative amount (rounding); float32 (engine=warp):
# the clamped torque and the rate each carry <= 6e-8 relative, their product ~1.2e-7 (x 8 margin)
LIMIT_RTOL = {"mujoco": 1e-9, "warp": 1e-6}
INITIAL_PENETRATION = 1e-6   # m: the running leg starts with the foot just touching
POINTS = ("P", "A", "D", "B", "C", "E", "G", "F")   # checked against the floor (joint centres + foot)


def steady_start(cycles: int) -> int:
    """First revolution of the steady window: the second half of the revolutions (at least the last one);
    the twin's and the paper model's summaries both use it."""
    return min(cycles // 2, max(cycles - 1, 0))


# ---- the robot ----------------------------------------------------------------------
class Bolt(BoltModel, Robot):
    """One BOLT point.  Config names (angles in *_deg, else SI); see configs/robot/bolt.yaml."""

    name = "bolt"
    samples_per_cycle = 200
    # randomised reliability runs (tests/test_reliability.py): the crank rates that run period-1
    # within the limits; faster rates hit harder (loop gap up to 1.7 mm, README "Speed sweep")
    random_inputs = {"crank_period": (0.3, 0.6), "theta_1_0_deg": (-30.0, 0.0)}
    max_loop_gap = 1e-4          # m: a run whose loops open wider is flagged (README "Loop closure")
    # Sec. 5.1 actuator: the limit is switched every step from the foot contact (README "Actuator")
    gait_parameter = ("crank_period", 0.02)   # viewer keys
    closed_loop = True
    engines = ("mujoco", "paper")   # paper: Sec. 4-5 SPF hybrid model (envs/bolt/paper/model.py), bolt_speed_sweep
    AUX = ("tau_flight", "tau_stance", "power_flight", "power_stance", "foot_force", "loop_gap",
           "foot_impulse")   # per-step maxima since the last sample; foot_impulse: N s since t = 0 (cumulative)
    n_aux = len(AUX)
    Params = config.Params
    physics = Physics
    columns = ("crank_period", "bumper_height", "body_fixed")
    loops = (("B_hfe", "B_femur"), ("G_kfe", "G_tibia"))      # loop 1 and loop 2 closure points
    metrics = ("crank_period", "omega", "cycles", "min_point_height", "peak_torque_flight", "peak_torque_stance",
               "peak_power_flight", "peak_power_stance", "peak_foot_force", "max_loop_gap", "peak_torque",
               "peak_power", "peak_stance_power", "torque_limit_binds_flight", "power_limit_binds_stance",
               "limits_ok", "loop_gap_ok", "max_tracking_error_deg",
               "foot_path_error",                                                                  # body fixed
               "speed", "crank_period_measured", "belt_speed", "speed_over_belt", "stride_time",  # running
               "touchdowns", "touchdowns_per_revolution", "stride_length", "duty_factor", "stance_impulse",
               "impact_force", "max_spring_compression", "height_min", "height_max", "steady") + ENERGY

    # ---- validation -----------------------------------------------------------------
    def validate(self) -> None:
        p = self.p
        unset = {k: v for k, v in self.mass_set_values(p.mass_set).items() if getattr(p, k) is None}
        p = self.p = dataclasses.replace(p, **unset)   # null: the mass set's value
        if p.spring_stiffness is not None and not p.foot_mass < p.m_5:
            raise ConfigError("foot_mass", self.cfg["foot_mass"], f"(0, m_5={p.m_5:g}) kg: it is part of "
                              "the tibia's mass")
        if p.belt_speed is not None and p.body_fixed:
            raise ConfigError("belt_speed", self.cfg["belt_speed"], "null when body_fixed (no treadmill under a "
                              "held body)")
        if not p.loop_dmin <= p.loop_dmax:
            raise ConfigError("loop_dmin", self.cfg["loop_dmin"], f"(0, loop_dmax={self.cfg['loop_dmax']:g}]")
        self.check_foot_contact()   # first: with plastic, a too-coarse step is the timestep's fault
        for name, tc in (("loop_timeconst", p.loop_timeconst), ("contact_timeconst", p.contact_timeconst)):
            if tc < 2 * self.timestep:
                raise ConfigError(name, self.cfg[name], f"[{2 * self.timestep:g}, 1] s (at least two "
                                  f"time steps, else MuJoCo silently softens it)")
        g = Geometry.of(p)
        # points on links must lie on them: C on HFE (D..B), B on the femur (A..E), G on the tibia (E..F)
        for name, part, whole, length in (("l_s", p.l_s, "l_2", p.l_2), ("l_f", p.l_f, "l_4", p.l_4),
                                          ("l_t", p.l_t, "l_5", p.l_5)):
            if part >= length:
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

    def mass_set_values(self, name: str) -> dict:
        """The masses (kg) and crank armature (kg m^2) of mass set `name`."""
        arm = self.p.rotor_inertia * self.p.gear_ratio ** 2 if name == "hardware" else 0.0
        return dict(MASS_SETS[name], armature=arm)

    @property
    def total_mass(self) -> float:
        """Links and body (kg): what the boom carries."""
        p = self.p
        return float(sum((p.m_1, p.m_2, p.m_3, p.m_4, p.m_5, p.m_b)))   # MASS_KEYS

    # ---- inputs ---------------------------------------------------------------------
    @property
    def geometry(self) -> Geometry:
        return Geometry.of(self.p)

    @property
    def period(self) -> float:
        return float(self.p.crank_period)

    @property
    def omega(self) -> float:
        """Commanded crank speed |d theta_1d / dt| (rad/s)."""
        return 2 * math.pi / self.period

    @property
    def inputs(self) -> Crank:
        return Crank(self.omega, (self.p.theta_1_0,), (CRANK_DIRECTION,))

    def torque_limit(self, stance: bool, crank_rate: float) -> float:
        """Sec. 5.1: +-tau_max in flight; in stance the peak-power limit |tau dq_1/dt| <= P_max,
        i.e. |tau| <= P_max / |dq_1/dt| at the measured crank rate (no torque limit)."""
        if self.p.limit_mode == "clamp":
            return min(self.p.tau_max, self.p.P_max / self.omega)
        if stance:
            return self.p.P_max / max(abs(crank_rate), 1e-9)
        return self.p.tau_max

    @property
    def treadmill(self) -> bool:
        return self.p.belt_speed is not None

    def model_key(self) -> tuple:
        return super().model_key() + (("treadmill", self.treadmill),)

    def controls(self, t):
        """theta_1d(t) of eq. 20: a constant-speed crank, the position servo's reference; on the
        treadmill also the belt's velocity reference (-belt_speed: the belt runs towards -x)."""
        q = self.inputs(t)[0]
        if self.treadmill:
            q = np.concatenate([q, np.full((len(q), 1), -float(self.p.belt_speed))], axis=1)
        return q

    def _indices(self, model) -> tuple:
        key = id(model)
        idx = self.__dict__.setdefault("_idx", {}).get(key)
        if idx is None:
            adr = lambda n: int(model.sensor(n).adr[0])   # noqa: E731
            idx = (adr("foot_touch"), adr("crank_rate"), int(model.jnt_dofadr[model.joint("q_1").id]),
                   adr("B_hfe"), adr("B_femur"), adr("G_kfe"), adr("G_tibia"))
            if len(self._idx) > 64:
                self._idx.clear()
            self._idx[key] = idx
        return idx

    def feedback(self, model, data):
        """The Sec. 5.1 actuator, every step: eq. 20 is MuJoCo's position servo on q_1; its
        force limit is switched here from the foot contact -- stance (foot touch sensor > 0) gets
        the power limit P_max / |dq_1/dt|, flight the torque limit tau_max.

        The touch sensor is the previous step's (contact forces need the constraint solve, which
        needs the actuator force first: a sensor is read before the motor acts), the crank rate
        the current state's.  data.userdata[0] keeps the phase of the last step's limit, so the
        returned per-step peaks (AUX: |tau| and |tau dq_1/dt| by that phase, foot force, loop gap)
        describe the step just taken with the limit it had; userdata[1] sums foot force x timestep.
        """
        if self.p.foot_contact == "coulomb":   # the whole method and the Coulomb step in C where it builds
            aux = coulomb_foot.native_feedback(self, model, data)
            if aux is not None:
                return aux
        i_touch, i_rate, i_dof, b1, b2, g1, g2 = self._indices(model)
        sd = data.sensordata
        prev_stance = data.userdata[0] > 0.5
        tau = abs(float(data.actuator_force[0]))
        power = abs(tau * float(sd[i_rate]))
        gap = math.sqrt(max((sd[b1] - sd[b2]) ** 2 + (sd[b1 + 1] - sd[b2 + 1]) ** 2 + (sd[b1 + 2] - sd[b2 + 2]) ** 2,
                            (sd[g1] - sd[g2]) ** 2 + (sd[g1 + 1] - sd[g2 + 1]) ** 2 + (sd[g1 + 2] - sd[g2 + 2]) ** 2))
        force = float(sd[i_touch])
        stance = force > 0.0
        lim = self.torque_limit(stance, float(data.qvel[i_dof]))
        model.actuator_forcerange[0, 0], model.actuator_forcerange[0, 1] = -lim, lim
        data.userdata[0] = 1.0 if stance else 0.0
        data.userdata[1] += force * model.opt.timestep
        imp = float(data.userdata[1])
        if self.p.foot_contact == "coulomb":   # last (its forward passes rewrite sensordata): the friction force
            coulomb_foot.hook(self, model, data)
        if prev_stance:
            return (0.0, tau, 0.0, power, force, gap, imp)
        return (tau, 0.0, power, 0.0, force, gap, imp)

    def native_loop(self, model, data):
        """The closed loop in C (coulomb_foot.c gaittwin_bolt_run: controls, this class's feedback with the Coulomb
        foot's step where it is on, mj_step), where the C library builds and `feedback` is this class's own;
        GAITTWIN_NATIVE_LOOP=0 keeps the Python loop (the same run to the bit, slower)."""
        if os.environ.get("GAITTWIN_NATIVE_LOOP", "1") == "0" or type(self).feedback is not Bolt.feedback:
            return None
        fns = coulomb_native.load()
        if fns is None:
            return None
        if self.p.foot_contact == "coulomb":
            f = coulomb_foot.foot(self, model)
            return functools.partial(f.steps, self, model, data) if isinstance(f, coulomb_native.NativeFoot) else None
        return functools.partial(coulomb_native.NativeLoop(fns, model).steps, self, model, data)

    @classmethod
    def warp_refusal(cls, params: dict) -> str:
        return "foot_contact=coulomb applies friction by a per-step hook (envs/bolt/coulomb_foot.c, .py) that needs " \
               "the step's frictionless constraint solution before the step; MuJoCo Warp's device feedback has " \
               "only the previous step's sensors (friction from them, one step late, misses the paper model's duty " \
               "at crank 0.6 and 0.5 s and does not converge there: docs/notes/2026-11-28-bolt-fewer-steps.md); " \
               "robot/foot=soft runs there" \
            if params.get("foot_contact") == "coulomb" \
            else ""

    def device_feedback(self):     # `feedback` on the device (engine=warp; the Coulomb step has none: warp_refusal)
        from .warp_feedback import ActuatorLimit
        return ActuatorLimit()

    def pose(self, q1: float) -> dict:
        """Closed-form joint angles at crank angle q1 (rad)."""
        k = loop_kinematics(np.array([q1]), self.geometry)
        return {f"q_{i}": float(k[f"q{i}"][0]) for i in range(1, 6)} | {"F": complex(k["F"][0])}

    def initial_pose(self, model, data) -> None:
        """At rest, assembled at theta_1_0; running: the foot just touching the floor."""
        pose = self.pose(self.p.theta_1_0)
        for i in range(1, 6):
            data.joint(f"q_{i}").qpos[0] = pose[f"q_{i}"]
        if not self.p.body_fixed:
            z0 = model.body("base").pos[2]
            data.joint("x").qpos[0] = 0.0
            z = self.p.foot_radius - INITIAL_PENETRATION - pose["F"].imag
            if self.p.bumper_height is not None:
                z = max(z, self.p.bumper_height)   # resting on the bumper, the foot above the floor
            data.joint("z").qpos[0] = z - z0
        data.qvel[:] = 0.0
        if self.treadmill:   # the belt already running
            data.joint("belt").qvel[0] = -float(self.p.belt_speed)

    # ---- metrics ----------------------------------------------------------------------
    def progress(self, sensordata, model):
        return FORWARD * self.sensor(sensordata, model, "body_pos")[..., 0]

    def phase_peaks(self, run, window=slice(None)) -> dict:
        """Per-step peaks by actuator phase (flight: torque limit, stance: power limit) from the
        closed-loop record (every step counted); falls back to the samples without it."""
        if run.aux is not None and len(run.aux[window]):
            a = np.maximum(run.aux[window], 0.0)
            col = lambda k: float(a[:, self.AUX.index(k)].max())   # noqa: E731
            return dict(peak_torque_flight=col("tau_flight"), peak_torque_stance=col("tau_stance"),
                        peak_power_flight=col("power_flight"), peak_power_stance=col("power_stance"),
                        peak_foot_force=col("foot_force"), max_loop_gap=col("loop_gap"))
        tau = run.sensor("crank_torque")[window, 0]
        power = np.abs(tau * run.sensor("crank_rate")[window, 0])
        touch = run.sensor("foot_touch")[window, 0]
        st = touch > 0
        pk = lambda x, m: float(np.abs(x[m]).max()) if m.any() else 0.0   # noqa: E731
        gaps = self.loop_gaps(run)[window]
        return dict(peak_torque_flight=pk(tau, ~st), peak_torque_stance=pk(tau, st),
                    peak_power_flight=pk(power, ~st), peak_power_stance=pk(power, st),
                    peak_foot_force=float(touch.max()) if len(touch) else math.nan,
                    max_loop_gap=float(gaps.max()) if len(gaps) else math.nan)

    def limit_columns(self, pk: dict, rtol: float = 1e-9) -> dict:
        """Overall peaks and which Sec. 5.1 limit bound where (flight torque, stance power) from the
        peaks by phase `pk` (phase_peaks' keys); shared with the paper model's summary.  rtol: how far
        over a limit a peak may read and still keep it (float64 1e-9; MuJoCo Warp's float32 forces
        and rates: LIMIT_RTOL["warp"])."""
        p = self.p
        return dict(peak_torque=max(pk["peak_torque_flight"], pk["peak_torque_stance"]),
                    peak_power=max(pk["peak_power_flight"], pk["peak_power_stance"]),
                    peak_stance_power=pk["peak_power_stance"],
                    torque_limit_binds_flight=bool(pk["peak_torque_flight"] >= p.tau_max * (1 - 1e-6)),
                    power_limit_binds_stance=bool(pk["peak_power_stance"] >= p.P_max * (1 - 1e-6)),
                    limits_ok=bool(pk["peak_torque_flight"] <= p.tau_max * (1 + rtol)
                                   and pk["peak_power_stance"] <= p.P_max * (1 + rtol)),
                    loop_gap_ok=bool(pk["max_loop_gap"] <= self.max_loop_gap))

    def summarize(self, run) -> dict:
        T, spc, n = self.period, self.samples_per_cycle, len(run.t)
        touch = run.sensor("foot_touch")[:, 0] > 0
        heights = np.stack([run.sensor(f"{pt}_pos")[:, 2] for pt in POINTS], axis=1)
        heights[:, POINTS.index("F")] -= self.p.foot_radius   # bottom of the foot sphere
        out = dict(crank_period=T, omega=self.omega, cycles=run.cycles,
                   min_point_height=float(heights.min()) if n else math.nan)
        pk = self.phase_peaks(run) if n else {}
        out.update(pk)
        if n:
            out.update(self.limit_columns(pk, LIMIT_RTOL.get(run.engine, LIMIT_RTOL["mujoco"])))
        ref = self.controls(run.t)[:, 0]
        err = np.abs(run.sensor("q_1")[:, 0] - ref)
        out["max_tracking_error_deg"] = float(np.degrees(err.max())) if n else math.nan
        if self.p.body_fixed:
            k = loop_kinematics(run.sensor("q_1")[:, 0], self.geometry)
            foot = run.sensor("foot_in_B")[:, [0, 2]]
            out["foot_path_error"] = float(np.abs(foot[:, 0] + 1j * foot[:, 1] - k["F"]).max()) if n else math.nan
            return out
        ncyc = run.cycles   # running: the steady window from steady_start on
        k0 = steady_start(ncyc)
        win = slice(k0 * spc, n)
        x = run.sensor("body_pos")[:, 0] * FORWARD
        z = run.sensor("body_pos")[:, 2]
        t = run.t
        span = t[win][-1] - t[win][0] if n > 1 and ncyc > k0 else math.nan
        out["speed"] = float((x[win][-1] - x[win][0]) / span) if span == span and span > 0 else math.nan
        q1 = run.sensor("q_1")[:, 0]   # the crank's real mean rate: the servo may lag its reference
        turned = abs(q1[win][-1] - q1[win][0]) if n else 0.0
        out["crank_period_measured"] = float(2 * math.pi * span / turned) if turned > 0 and span == span else math.nan
        if self.treadmill:   # speed is the body's over the world; over the belt it is speed + belt speed
            out["belt_speed"] = float(self.p.belt_speed)
            out["speed_over_belt"] = out["speed"] + out["belt_speed"]
        td = touchdowns(touch, spc // 4)
        td_t = np.array([t[i] for i in td if i >= k0 * spc])
        out["stride_time"] = float(np.mean(np.diff(td_t))) if len(td_t) >= 2 else math.nan
        out["touchdowns"] = len(td)
        out["touchdowns_per_revolution"] = float(len(td_t) / (ncyc - k0)) if ncyc > k0 else math.nan
        out["stride_length"] = float(np.mean(run.cycle_values[k0:])) if ncyc > k0 else math.nan
        out["duty_factor"] = metrics.duty_factor(touch[win]) if n else math.nan
        # N s per touch-down in the window: the foot force's integral over every step (AUX foot_impulse, in
        # the closed-loop record BOLT's runners keep) / the touch-downs in it
        cum = run.aux[:, self.AUX.index("foot_impulse")] if len(td_t) and run.aux is not None else None
        out["stance_impulse"] = float(cum[-1] - cum[k0 * spc]) / len(td_t) if cum is not None else math.nan
        out["impact_force"] = self.impact_force(run, k0)
        if self.p.spring_stiffness is not None:   # compression of the die spring (sampled)
            out["max_spring_compression"] = float(-run.sensor("spring")[:, 0].min()) if n else math.nan
        out["height_min"] = float(z[win].min()) if n else math.nan
        out["height_max"] = float(z[win].max()) if n else math.nan
        out["steady"] = bool(run.steady.steady) if run.steady else False
        return out

    def impact_force(self, run, k0: int) -> float:
        """Median over the revolutions from k0 on that touch the ground of each one's peak foot
        force (N, every step when recorded): the impact force of a steady stride."""
        spc, ncyc = self.samples_per_cycle, run.cycles
        f = (run.aux[:, self.AUX.index("foot_force")] if run.aux is not None
             else run.sensor("foot_touch")[:, 0])
        peaks = [f[k * spc + 1:(k + 1) * spc + 1].max() for k in range(k0, ncyc) if len(f) > k * spc + 1]
        peaks = [x for x in peaks if x > 0]
        return float(np.median(peaks)) if peaks else 0.0

    def run_error(self, summary: dict) -> str | None:
        """Flag a run whose loops opened wider than max_loop_gap (metrics kept)."""
        gap = summary.get("max_loop_gap", math.nan)
        if gap == gap and gap > self.max_loop_gap:
            return f"loop gap {gap * 1e3:.3f} mm exceeds max_loop_gap {self.max_loop_gap * 1e3:g} mm"
        return None


def standing(seconds: float = 1.5, **params):
    """The leg standing still on its foot at the lowest point of the stance arc (no bumper, crank
    held) after `seconds`: (robot, model, data) (README "Compliance")."""
    import copy, mujoco   # noqa: E401
    q = np.linspace(0, 2 * np.pi, 721)
    q_low = float(q[np.argmin(loop_kinematics(q, Bolt(**params).geometry)["F"].imag)])
    r = Bolt(**dict(params, bumper_height=None, crank_period=100.0, theta_1_0_deg=math.degrees(q_low)))
    m = copy.copy(r.model())
    d = mujoco.MjData(m)
    r.initial_pose(m, d)
    mujoco.mj_forward(m, d)
    for _ in range(int(seconds / m.opt.timestep)):
        d.ctrl[:] = r.controls(np.array([d.time]))[0]
        r.feedback(m, d)
        mujoco.mj_step(m, d)
    mujoco.mj_forward(m, d)
    return r, m, d
