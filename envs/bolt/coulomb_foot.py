"""BOLT's Coulomb foot (`foot_contact=coulomb`, `robot/foot=coulomb`; models/bolt/README.md "A Coulomb
foot outside MuJoCo's cone"): the plastic foot made frictionless (condim 1, envs/bolt/model.py) and Coulomb's law
applied by this per-step hook, with the paper model's impasse stop (Painleve), exactly the law of
gaittwin.bolt.paper.studies.bolt_coulomb_foot (its docstring has the law and the convergence study; the study imports it from here):

    F_t = -mu F_n v_t / sqrt(|v_t|^2 + v_eps^2),   F_n the step's own normal force (consistent with its friction)

`hook(robot, model, data)` runs from Bolt.feedback, last, before every mj_step, in every path of the C engine (the
batch runner, the stepper, the dm_control environment); MuJoCo Warp cannot run it (engine=warp refuses).  Where a C
compiler builds it (coulomb_native), Bolt.feedback and this step run as one C call (`native_feedback`,
envs/bolt/coulomb_foot.c: the same law, F_n's response read from the frictionless step's constraint solution
instead of the trial forward pass); CoulombFoot below is the reference and the fallback.

`foot_friction=implicit` (docs/notes/2026-11-28-bolt-implicit-friction.md): friction implicit in the slip, no v_eps:
the impasse stop's force at every contact step, along the slip the step would end with without friction; it sticks
(zero slip at the step's end) inside the cone and slides on it (CoulombFoot.implicit)."""
import math
import warnings

import mujoco
import numpy as np

from . import coulomb_native

V_EPS = 0.005    # m/s: the regularisation's slip scale, converged in the study (0.005 -> 0.0025: <= 1.6 %, 0.005)
IMPASSE = "stop"   # candidate 2 of the study: the paper model's impasse stop (converged at timestep 6.25e-6 s)
PROBE = 0.05   # the trial friction, a fraction of the frictionless step's: small, so the contact set stays
DEN_MIN = 0.05  # the paper model's impasse threshold (envs/bolt/paper/run.py DEN_MIN), mirrored, not tuned


class CoulombFoot:
    """The friction force of one compiled model; call(model, data) before each mj_step sets xfrc_applied on the
    foot body (and its reaction on the floor's body when that moves) and returns (F_n, |F_t|, |v_t|).
    impasse: "lag" (the first law: an inconsistent step keeps the trial's F_n) or "stop" (candidate 2: a step with
    1 - b <= DEN_MIN gets the force that stops the slip, docstring).  Counters: inconsistent (lag-law steps
    without a consistent F_n, lost-probe steps included), lost (the probe lost the contact), stops (data.time of
    each stop), stop_ratio (largest |F_t| / (mu F_n) of a stop), slip_after (|v_t| at the step after a stop),
    stop_log ([time, 1 - mu k_n, clipped at f_max, slip after (nan: no contact then)] per stop), touchdowns (the
    times of contact steps after a step without; a re-contact counts), liftoffs (the steps without after one
    with); den_min: DEN_MIN unless set (a sensitivity);
    friction: "regularised" (the law above) or "implicit" (CoulombFoot.implicit; sticks: its steps that stick);
    last: the branch of the last call ("none", "slide", "stop", "lag", "stick")."""

    def __init__(self, model, mu: float, v_eps: float, impasse: str = "lag", den_min: float = DEN_MIN,
                 friction: str = "regularised"):
        self.mu, self.v_eps, self.impasse, self.den_min = float(mu), float(v_eps), impasse, float(den_min)
        self.friction, self.sticks = friction, 0
        self.model = model
        self.foot, self.floor = model.geom("foot").id, model.geom("floor").id
        self.body, self.floor_body = int(model.geom_bodyid[self.foot]), int(model.geom_bodyid[self.floor])
        self.jac, self.jac_floor = np.zeros((3, model.nv)), np.zeros((3, model.nv))
        self.f6 = np.zeros(6)
        self.inconsistent = self.lost = self.contact_steps = 0
        self.stops, self.slip_after, self.stop_ratio, self.stop_log = [], [], 0.0, []
        self.after_stop, self.last, self.touchdowns, self.in_contact = False, "none", [], False
        self.liftoffs = []

    def jacobian(self, model, data, point) -> np.ndarray:
        """The foot's point jacobian relative to the floor's body (its velocity: J qvel, the slip's)."""
        mujoco.mj_jac(model, data, self.jac, None, point, self.body)
        if not self.floor_body:
            return self.jac.copy()
        mujoco.mj_jac(model, data, self.jac_floor, None, point, self.floor_body)
        return self.jac - self.jac_floor

    def contact(self, model, data):
        """(index, F_n) of the foot-floor contact in data (after a forward pass), or (None, 0)."""
        for i in range(data.ncon):
            c = data.contact[i]
            if {int(c.geom1), int(c.geom2)} == {self.foot, self.floor}:
                mujoco.mj_contactForce(model, data, i, self.f6)
                return i, max(float(self.f6[0]), 0.0)
        return None, 0.0

    def apply(self, data, f, p) -> None:
        xf = data.xfrc_applied
        xf[self.body, :3], xf[self.body, 3:] = f, np.cross(p - data.xipos[self.body], f)
        if self.floor_body:
            xf[self.floor_body, :3], xf[self.floor_body, 3:] = -f, np.cross(p - data.xipos[self.floor_body], -f)

    def __call__(self, model, data) -> tuple:
        """Consistent normal force: F_n is affine in the applied friction (one active set), so a forward pass
        without it (F_n = a) and one with a trial PROBE a u (F_n = a + b PROBE a) give F_n = a / (1 - b), the normal
        force the step carries with the friction mu F_n u it is given.  1 - b <= 0 (no consistent F_n: the friction
        presses the foot in faster than it grows, Painleve-like) or a lost contact keeps the trial's F_n (~ a, the
        lagged law's) and counts the step in self.inconsistent; with impasse="stop" a step with 1 - b <= DEN_MIN
        gets the stop force instead (self.stop)."""
        self.apply(data, np.zeros(3), np.zeros(3))
        mujoco.mj_forward(model, data)
        i, a = self.contact(model, data)
        after, self.after_stop, self.last = self.after_stop, False, "none"
        if i is None or a <= 0.0:
            if self.in_contact:
                self.liftoffs.append(float(data.time))
            self.in_contact = False
            return 0.0, 0.0, 0.0
        if not self.in_contact:
            self.touchdowns.append(float(data.time))
        self.contact_steps, self.in_contact = self.contact_steps + 1, True
        c = data.contact[i]
        p, n = c.pos.copy(), c.frame[:3].copy()
        J = self.jacobian(model, data, p)
        v, acc0 = J @ data.qvel, J @ data.qacc
        vt = v - (v @ n) * n
        s = float(np.linalg.norm(vt))
        if after:
            self.slip_after.append(s)
            self.stop_log[-1][3] = s
        if self.friction == "implicit":
            return self.implicit(model, data, a, vt, acc0, n, J, p, s)
        u = -self.mu / math.sqrt(s * s + self.v_eps ** 2) * vt      # friction per newton of normal force
        self.apply(data, PROBE * a * u, p)
        mujoco.mj_forward(model, data)
        j, a1 = self.contact(model, data)
        b = (a1 - a) / (PROBE * a)
        lost = j is None or a1 <= 0
        self.lost += lost
        if self.impasse == "stop" and not lost and s > 0 and 1.0 - b <= self.den_min:
            return self.stop(model, data, a, a1, PROBE * a * float(np.linalg.norm(u)), vt / s, s, acc0, J, p)
        ok = not lost and b < 1.0
        fn = a / (1.0 - b) if ok else a1
        self.inconsistent += not ok
        self.last = "slide" if ok else "lag"
        self.apply(data, fn * u, p)
        return fn, float(np.linalg.norm(fn * u)), s

    def stop(self, model, data, a, a1, fp, t, s, acc0, J, p) -> tuple:
        """The impasse step (docstring, candidate 2): f along -t (t: the slip's direction) that brings the slip
        predicted at the step's end, -s + dt (-t.J qacc_0 + k_t f), to zero, within [0, f_max], f_max the cone
        with the normal force a + k_n f the stop itself produces (none where 1 - mu k_n <= 0); fp: the probe's
        size (N, along -t), data: after the probe's forward pass."""
        k_n, k_t, f_max = self.cone(model, data, a, a1, fp, t, acc0, J)
        w0 = -s + model.opt.timestep * float(-t @ acc0)
        f = -w0 / k_t if k_t > 0 else 0.0
        f = min(max(f, 0.0), f_max)
        fn = a + k_n * f
        self.stops.append(float(data.time))
        self.stop_log.append([float(data.time), 1.0 - self.mu * k_n, f >= f_max, math.nan])
        self.stop_ratio = max(self.stop_ratio, f / (self.mu * fn) if fn > 0 else math.inf)
        self.after_stop, self.last, self.f_max = True, "stop", f_max
        self.apply(data, -f * t, p)
        return fn, f, s

    def cone(self, model, data, a, a1, fp, t, acc0, J) -> tuple:
        """After a trial force fp along -t (data: after its forward pass): k_n (normal force per newton along -t),
        k_t (slip removed over the step per newton) and f_max, the cone's bound on the force along -t with the
        normal force a + k_n f it produces (inf where 1 - mu k_n <= 0)."""
        k_n = (a1 - a) / fp
        k_t = model.opt.timestep * float(-t @ (J @ data.qacc - acc0)) / fp
        f_max = self.mu * a / (1.0 - self.mu * k_n) if 1.0 - self.mu * k_n > 0 else math.inf
        return k_n, k_t, f_max

    def implicit(self, model, data, a, vt, acc0, n, J, p, s) -> tuple:
        """Friction implicit in the slip (module docstring): with v_free = v_t + dt a_t0 (the slip at the step's end
        without friction) and t its direction, the force -f t, f = min(f_stick, f_max): f_stick ends the step with
        zero slip (stick), f_max = mu a / (1 - mu k_n) the cone at the normal force a + k_n f (unbounded where
        1 - mu k_n <= 0); k_n, k_t from a trial force of PROBE mu a along -t."""
        dt = model.opt.timestep
        vf = vt + dt * acc0
        vf -= (vf @ n) * n
        sf = float(np.linalg.norm(vf))
        if sf <= 0.0:
            self.sticks, self.last = self.sticks + 1, "stick"
            return a, 0.0, s
        t, fp = vf / sf, PROBE * self.mu * a
        self.apply(data, -fp * t, p)
        mujoco.mj_forward(model, data)
        j, a1 = self.contact(model, data)
        self.lost += j is None or a1 <= 0
        k_n, k_t, f_max = self.cone(model, data, a, a1, fp, t, acc0, J)
        f = sf / k_t if k_t > 0 else math.inf
        stick = f <= f_max
        f = f if stick else f_max
        f = f if math.isfinite(f) else 0.0
        self.sticks += stick
        self.last = "stick" if stick else "slide"
        self.apply(data, -f * t, p)
        return a + k_n * f, f, s


_NATIVE = [True]
_WARNED: list = []


def use_native(on: bool) -> None:
    """Run the C step (coulomb_native, the default where it builds) or the Python CoulombFoot (the same law)."""
    _NATIVE[0] = bool(on)


def backend() -> str:
    """Which implementation hook() runs, and why."""
    if not _NATIVE[0]:
        return "python (asked for)"
    return "native C" if coulomb_native.load() else f"python ({coulomb_native.reason()})"


def new_foot(model, mu: float, friction: str = "regularised"):
    """The option's foot for one compiled model: the C step where it builds (else the Python one, warned once)."""
    fn = coulomb_native.load() if _NATIVE[0] else None
    if fn is None:
        if _NATIVE[0] and not _WARNED:
            _WARNED.append(1)
            warnings.warn(f"BOLT's Coulomb foot runs its Python hook (the same law, ~3x slower): "
                          f"{coulomb_native.reason()}", RuntimeWarning, stacklevel=3)
        return CoulombFoot(model, mu, V_EPS, IMPASSE, friction=friction)
    return coulomb_native.NativeFoot(fn, model, mu, V_EPS, IMPASSE, DEN_MIN, PROBE, friction)


def foot(robot, model):
    """The option's foot of robot's compiled model (one per model: its counters per run's model copy)."""
    hooks = robot.__dict__.setdefault("_coulomb", {})
    f = hooks.get(id(model))
    if f is None or f.model is not model:
        if len(hooks) > 64:
            hooks.clear()
        f = hooks[id(model)] = new_foot(model, robot.p.mu, robot.p.foot_friction)
    return f


def native_feedback(robot, model, data):
    """Bolt.feedback and the Coulomb step in one C call (its per-step values, Bolt.AUX), or None where the foot
    runs in Python (then Bolt.feedback runs its own arithmetic and calls hook)."""
    f = foot(robot, model)
    return f.feedback(robot, model, data) if isinstance(f, coulomb_native.NativeFoot) else None


def hook(robot, model, data):
    """The Coulomb foot's step for robot (a Bolt with foot_contact=coulomb): one foot per compiled model
    (its counters per run's model copy), called last in feedback: its forward pass overwrites sensordata and
    actuator_force with the state about to be stepped (mj_step recomputes both)."""
    return foot(robot, model)(model, data)
