"""The C engine's side of scripts/warp_agreement.py's criterion, shared with scripts/warp_diagnostics.py
(the imports go one way: warp_agreement -> warp_diagnostics -> here).  Each robot's points (SWEEPS,
HOLDOUT), the floor (TOL), the ensembles (ENSEMBLE, the criterion; EVENT_TIMING and F32_STATE,
diagnostics), one member's Robot (member), Warp's float32 state (round_state), the envelope, rule E's
event term (EVENT_FOOT, event_terms), the derived tolerance and the judge; the rules and their history are in warp_agreement's docstring."""
from __future__ import annotations

import copy
import math
import time

import _cli  # noqa: F401  (GL backend chosen before MuJoCo)
import numpy as np

# Each robot's small sweep (two points that differ in a per-world model field, short periods, a few
# thousand steps: cycles x steps per cycle) and the metrics compared.
SWEEPS = {   # robot: (base point, swept parameter, values, cycles)
    "crawler": (dict(omega=16.0), "mu", [0.172, 0.398], 2),        # 2 x 2000 steps
    "snake": (dict(T_step=0.25), "mu", [0.3, 0.6], 1),             # 1 x 48000 steps (period 1.5 s)
    "miniaq": (dict(f=4.0), "mu_d", [0.3, 0.5], 2),                # 2 x 2600 steps
    # BOLT: limits low enough that both Sec. 5.1 limits bind (the device feedback decides the gait)
    "bolt": (dict(crank_period=0.3, P_max=450.0), "tau_max", [15.0, 20.0], 2),   # 2 x 3000 steps
    # the crawler under eq. 19 (envs/crawler/paper/feedback_robot.py, Sec. VIII's gains), the experiment's omega
    "crawler_feedback": (dict(omega=8.0), "mu", [0.172, 0.285], 2),              # 2 x 4000 steps
}
HOLDOUT = {  # other points, fixed with ENSEMBLE v2 before they were run on warp (out of sample)
    "crawler": (dict(omega=8.0), "mu", [0.172, 0.285], 2),         # 2 x 4000 steps (the dynamic regime)
    "snake": (dict(T_step=0.25), "mu", [0.45, 0.8], 1),            # 1 x 48000 steps
    "miniaq": (dict(f=3.0), "mu_d", [0.4, 0.6], 2),                # 2 x 3467 steps
    "bolt": (dict(crank_period=0.45, tau_max=18.0), "P_max", [300.0, 600.0], 2),   # 2 x 4500 steps
    "crawler_feedback": (dict(omega=6.0), "mu", [0.22, 0.35], 2),                 # 2 x 5200 steps
}
TOL = {   # metric: (abs, rel), the floor; float32 against float64, the same contacts: S to ~1e-6 m expected
    "S": (2e-5, 1e-3), "V": (2e-5, 1e-3),
    "foot1_slip_forward": (0.01, 0), "foot1_slip_backward": (0.01, 0), "foot1_stick": (0.01, 0),
    "foot2_slip_forward": (0.01, 0), "foot2_slip_backward": (0.01, 0), "foot2_stick": (0.01, 0),
    "foot1_liftoff": (0.01, 0), "foot2_liftoff": (0.01, 0),                 # fractions: 2 samples in 200
    "d": (2e-5, 1e-3), "dx": (2e-5, 1e-3),
    "speed": (2e-5, 1e-3), "drift_y": (2e-5, 1e-2), "yaw_rate_deg_s": (0.05, 1e-2),
    "max_loop_gap": (2e-6, 0.1), "max_penetration": (2e-6, 0.02),
    # BOLT (added with its device feedback, before its agreement ran): the Sec. 5.1 limit's peaks and
    # the stride; float32 against float64 as above
    "peak_torque_flight": (1e-4, 1e-3), "peak_torque_stance": (1e-4, 1e-3),
    "peak_power_flight": (1e-3, 1e-3), "peak_power_stance": (1e-3, 1e-3), "stride_length": (2e-5, 1e-3),
}
WARP_SOLVER_TOLERANCE = 1e-6   # mujoco_warp put_model: opt.tolerance = max(opt.tolerance, 1e-6)
PERTURB = 1e-7                 # relative: float32's resolution (ulp 2^-23 = 1.2e-7, rounding <= 6e-8)
SAFETY = 2                     # on the envelope, the maximum of a small sample (warp_agreement's docstring)
SEEDS = range(1, 7)            # the rand<k> members
ENSEMBLE = (   # name: (opt.tolerance or None = the model's, swept-parameter factor, initial-qpos factor, model
    #              [, time-origin shift in steps, default 0])
    # v1: the solver tolerance, the swept parameter and the initial qpos
    ("tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, None),
    ("param+", None, 1 + PERTURB, 1.0, None), ("param-", None, 1 - PERTURB, 1.0, None),
    ("qpos+", None, 1.0, 1 + PERTURB, None),
    ("tol,param+", WARP_SOLVER_TOLERANCE, 1 + PERTURB, 1.0, None),
    ("tol,param-", WARP_SOLVER_TOLERANCE, 1 - PERTURB, 1.0, None),
    ("tol,qpos+", WARP_SOLVER_TOLERANCE, 1.0, 1 + PERTURB, None),
    # v2: the model (its physics float fields, model_fields) and initial state in float32, and
    # the model's float fields jittered at float32's resolution: model None (as compiled), "f32"
    # (rounded to float32) or a seed k (x (1 + PERTURB * U(-1, 1)), element-wise)
    ("f32", None, 1.0, 1.0, "f32"), ("f32,tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, "f32"),
) + tuple((f"rand{k},tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, k) for k in SEEDS)

EVENT_TIMING = (  # diagnostic, not the criterion (--event-timing; rejected, warp_agreement's docstring): the run's time
    # origin moved by one step (the inputs at t +- dt from the same initial state, its time +- dt)
    ("t0+dt,tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, None, 1),
    ("t0-dt,tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, None, -1),
)
F32_STATE = (   # candidate ENSEMBLE v3 (warp_agreement's docstring; not adopted): the 7th field says
    # "round_state before every step"
    ("f32,tol,state", WARP_SOLVER_TOLERANCE, 1.0, 1.0, "f32", 0, True),
) + tuple((f"rand{k},tol,state", WARP_SOLVER_TOLERANCE, 1.0, 1.0, k, 0, True) for k in SEEDS)


# Rule E (event margin; docs/notes/2026-11-28-warp-tolerances.md, stated before any run under it): a touch-down
# whose margin at the step boundary is under float32's one-step resolution of the foot height (eps) may land a
# step later (penetration < eps) or earlier (clearance the step before < eps) in float32; its member is the C
# run with that one event moved by one step, and |member - C| summed over such events joins the tolerance
# (additive, no safety factor: a computed alternative, not a draw).  Robots with one foot whose flight phase
# ends in a single touch-down: robot -> (foot geom, root height slide joint).
EVENT_FOOT = {"bolt": ("foot", "z")}


def _class(robot: str):
    """The Robot class of a SWEEPS name: a registered robot, or crawler_feedback (the crawler under
    eq. 19, a closed_loop variant that is no robot of its own)."""
    import gaittwin
    if robot == "crawler_feedback":
        from gaittwin.crawler.paper.feedback_robot import FeedbackCrawler
        return FeedbackCrawler
    return gaittwin.robot_class(robot)


def _refused(cls) -> str:
    """Why engine=warp refuses robot class cls ("" where it runs; needs no warp)."""
    from gaittwin.core.engines.warp_engine import unsupported
    return unsupported(cls)


def _numeric(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def envelope(nominal: dict, members: dict) -> dict:
    """Per metric of TOL: (max |member - nominal| over the ensemble's metric dicts {name: metrics},
    the member that sets it).  nan if the nominal value or a member's is missing or not finite:
    then no tolerance can be derived and the comparison fails."""
    out = {}
    for k, c in nominal.items():
        if k not in TOL or isinstance(c, bool) or not isinstance(c, (int, float)):
            continue
        d = {n: abs(m[k] - c) if _numeric(m.get(k)) else math.nan for n, m in members.items()}
        bad = ([] if _numeric(c) else ["nominal"]) + [n for n, v in d.items() if math.isnan(v)]
        if bad:
            out[k] = (math.nan, bad[0])
            continue
        e, by = max(((v, n) for n, v in d.items()), default=(0.0, "-"))
        out[k] = (e, by if e else "-")
    return out


def tolerance(metric: str, c: float, env: float = 0.0) -> float:
    """The stated tolerance: the floor abs + rel*|C| plus SAFETY x the C engine's own envelope."""
    a, r = TOL[metric]
    return a + r * abs(c) + SAFETY * env


def within(metric, c, w, env: float = 0.0) -> bool:
    return abs(w - c) <= tolerance(metric, c, env)     # False for a nan envelope or a nan warp value


def judge(point: str, c: dict, w: dict, env: dict, problem=None) -> list:
    """Rows [point, metric, C, warp, |diff|, envelope, set by, tolerance, ok] for every metric with an
    envelope (env: envelope()'s dict); not ok where warp lacks the metric or a run has a problem."""
    rows = []
    for k, (e, by) in env.items():
        wk = w[k] if _numeric(w.get(k)) else math.nan
        rows.append([point, k, c[k], wk, abs(wk - c[k]), e, by, tolerance(k, c[k], e),
                     within(k, c[k], wk, e) and not problem])
    return rows


def model_fields(m) -> list:
    """The names of the model's float64 arrays that MuJoCo Warp holds in float32.  Left out:
    cameras' and lights' (no physics) and the compiler's bounding boxes (geom_aabb, bvh_aabb):
    conservative bounds for the broad phase, not physics; jittered they shrink below the geom and
    the C engine's broad phase drops resting contacts (the snake stops: dx 0.25 -> 0 m)."""
    return [k for k in dir(m) if not k.startswith(("_", "cam_", "light_")) and not k.endswith("aabb")
            and isinstance(getattr(m, k), np.ndarray) and getattr(m, k).dtype == np.float64]


def float32_model(m, how):
    """A copy of model m with its float fields rounded to float32 (how="f32") or each element
    scaled by 1 + PERTURB * U(-1, 1) drawn with seed `how` (an int)."""
    m = copy.copy(m)
    rng = np.random.default_rng(how) if how != "f32" else None
    for k in model_fields(m):
        a = getattr(m, k)
        a[...] = a.astype(np.float32) if rng is None else a * (1 + PERTURB * rng.uniform(-1, 1, a.shape))
    return m


def member(cls, point: dict, name: str | None, tol: float | None, fp: float, fq: float, model=None, shift=0,
           state32=False):
    """The Robot of one ensemble member: `point` with its swept parameter `name` scaled by fp, the
    model's opt.tolerance set to tol (None: kept), the initial qpos scaled by fq, the model
    float32_model(how=model) (None: as compiled; "f32" rounds the initial state to float32 too),
    and its time origin moved by `shift` steps: inputs at t + shift x dt (the initial state's
    controls too) and the initial state's time shift x dt (a feedback law reading data.time sees it);
    state32: a closed-loop run whose hook, before every step, rounds the state (round_state without
    ctrl), runs the robot's own feedback, then rounds ctrl (F32_STATE)."""
    import mujoco
    p = dict(point)
    if name is not None and fp != 1.0:
        p[name] = p[name] * fp
    r = cls(**p)
    t0 = shift * r.timestep
    if shift:
        controls = r.controls
        r.controls = lambda t, c=controls: c(np.asarray(t) + t0)     # this instance only
    if tol is not None or model is not None:
        m = copy.copy(r.model()) if model is None else float32_model(r.model(), model)
        if tol is not None:
            m.opt.tolerance = tol
        r.model = lambda m=m: m                 # this instance only; the cached model is untouched
    if fq != 1.0 or model == "f32" or shift:
        init, spec = r.initial_state, mujoco.mjtState.mjSTATE_INTEGRATION

        def initial_state(mm, f32=model == "f32"):
            d = mujoco.MjData(mm)
            mujoco.mj_setState(mm, d, init(mm), spec)
            d.qpos[:] *= fq
            d.time += t0
            s = np.empty(mujoco.mj_stateSize(mm, spec))
            mujoco.mj_getState(mm, d, s, spec)
            return s.astype(np.float32).astype(np.float64) if f32 else s
        r.initial_state = initial_state
    if state32:
        fb = r.feedback if r.closed_loop else None

        def rounded(m, d, fb=fb):
            round_state(d, ctrl=False)      # the robot's feedback reads the float32 state
            out = fb(m, d) if fb is not None else ()
            round_state(d)                  # and the control it wrote (the state: unchanged)
            return out
        r.feedback, r.closed_loop = rounded, True     # this instance only
    return r


def round_state(d, ctrl: bool = True) -> None:
    """Warp's float32 state, the one definition (F32_STATE's members, --f32-state): data d's qpos, qvel,
    act, qacc_warmstart and (ctrl=True) ctrl rounded to float32 in place, before a step."""
    for a in (d.qpos, d.qvel, d.act, d.qacc_warmstart) + ((d.ctrl,) if ctrl else ()):
        a[:] = a.astype(np.float32)


def foot_events(r, foot: str, n: int) -> tuple:
    """Rule E's C-engine trace of Robot r over n steps, stepped as the batch runner steps a closed-loop
    point (controls, feedback, mj_step): (h, eps).  h[k]: the foot's height above the floor after
    step k (geom centre z - radius; h[-1] the initial state's at the end); eps: max over the steps
    of |h after the C step from the state rounded to float32 (round_state) - h after the exact step|."""
    import mujoco
    m = copy.copy(r.model())
    d, d32 = mujoco.MjData(m), mujoco.MjData(m)
    spec = mujoco.mjtState.mjSTATE_INTEGRATION
    mujoco.mj_setState(m, d, r.initial_state(m), spec)
    mujoco.mj_forward(m, d)
    g = m.geom(foot).id
    rad = float(m.geom_size[g, 0])
    s = np.empty(mujoco.mj_stateSize(m, spec))
    ctrl = r.controls(np.arange(n) * r.timestep)
    h, eps = np.empty(n + 1), 0.0
    h[-1] = d.geom_xpos[g, 2] - rad
    for k in range(n):
        d.ctrl[:] = ctrl[k]
        if r.closed_loop:
            r.feedback(m, d)
        mujoco.mj_getState(m, d, s, spec)
        mujoco.mj_setState(m, d32, s, spec)
        round_state(d32)
        mujoco.mj_step(m, d)
        mujoco.mj_step(m, d32)
        mujoco.mj_kinematics(m, d32)
        mujoco.mj_kinematics(m, d)      # the next step recomputes it; sensordata (feedback's input) is kept
        h[k] = d.geom_xpos[g, 2] - rad
        eps = max(eps, abs(float(d32.geom_xpos[g, 2] - rad) - h[k]))
    return h, eps


def ambiguous_events(h, eps: float) -> list:
    """Rule E's events of a foot_events trace: (step s, "late" or "early", height change dz) for every
    touch-down (h[s] < 0 <= h[s-1]) with penetration -h[s] < eps (raised by (-h[s] + eps) / 2 before
    step s: contact one step later) or clearance h[s-1] < eps (lowered by (h[s-1] + eps) / 2 before
    step s-1: contact one step earlier)."""
    out = []
    for s in np.flatnonzero((h[1:-1] < 0) & (h[:-2] >= 0)) + 1:
        if -h[s] < eps:
            out.append((int(s), "late", (-h[s] + eps) / 2))
        if h[s - 1] < eps:
            out.append((int(s), "early", -(h[s - 1] + eps) / 2))
    return out


def shifted(cls, point: dict, zjoint: str, at: int, dz: float):
    """Rule E's member: the Robot of `point` with its root height joint moved by dz once, before step at."""
    r = cls(**point)
    fb = r.feedback

    def feedback(m, d, fb=fb):
        if round(d.time / r.timestep) == at:
            d.qpos[m.jnt_qposadr[m.joint(zjoint).id]] += dz
        return fb(m, d)
    r.feedback = feedback           # this instance only
    return r


def event_terms(robot: str, pts: list, nominal: list, kw: dict) -> list:
    """Per point: ({metric: sum over rule E's ambiguous events of |C_member - C|}, [(s, kind, dz, metrics)],
    eps); ({}, [], nan) for a robot without EVENT_FOOT."""
    from gaittwin.core.engines import batch
    if robot not in EVENT_FOOT:
        return [({}, [], math.nan) for _ in pts]
    cls = _class(robot)
    foot, zjoint = EVENT_FOOT[robot]
    out = []
    for p, rc in zip(pts, nominal):
        r = cls(**p)
        h, eps = foot_events(r, foot, kw["cycles"] * r.steps_per_cycle)
        ev = ambiguous_events(h, eps)
        runs = batch.run_points([shifted(cls, p, zjoint, s - (kind == "early"), dz) for s, kind, dz in ev], **kw) \
            if ev else []
        c = metrics(rc)
        ms = [{} if run.problem else metrics(run) for run in runs]
        term = {k: sum(abs(m[k] - c[k]) if _numeric(m.get(k)) else math.nan for m in ms)
                for k in c if k in TOL and _numeric(c[k])}
        out.append((term, [e + (m,) for e, m in zip(ev, ms)], eps))
    return out


def with_events(env: dict, term: dict) -> dict:
    """An envelope() dict with rule E's term folded in: per metric (envelope + term / SAFETY, set by), so that
    tolerance() = floor + SAFETY x envelope + term."""
    return {k: ((e + term[k] / SAFETY, f"{by}+events") if term.get(k) else (e, by)) for k, (e, by) in env.items()}


def metrics(run) -> dict:
    """A run's summary with its deepest penetration (compared like a metric)."""
    s = run.robot.summarize(run)
    s["max_penetration"] = run.max_penetration
    return s


def reference(robot: str, chunk=1000, cycles=None, sweeps=None, ensemble=ENSEMBLE, events=True):
    """The C engine's side, which needs no warp: (points, swept parameter, run settings, nominal
    Runs, per point envelope() of ENSEMBLE, seconds of the nominal runs) for the robot's sweep in
    `sweeps` (SWEEPS unless given, or HOLDOUT); cycles: the sweep's unless given; events: rule E's
    term folded in (with_events) for a robot of EVENT_FOOT."""
    from gaittwin.core.engines import batch
    cls = _class(robot)
    base, name, vals, n_cycles = (sweeps or SWEEPS)[robot]
    pts = [dict(base, **({name: v} if v is not None else {})) for v in vals]
    kw = dict(cycles=cycles or n_cycles, stop_when_steady=False, chunk=chunk)
    t = time.perf_counter()
    c = batch.run_points(pts, cls, **kw)
    c_s = time.perf_counter() - t
    if _refused(cls):              # refused by engine=warp: nothing to compare
        return pts, name, kw, c, [{} for _ in c], c_s
    ens = [member(cls, p, name if p.get(name) is not None else None, *spec[1:]) for p in pts for spec in ensemble]
    runs: list = [None] * len(ens)
    for loop in (False, True):      # the runner takes a layout's points all closed-loop or all not
        idx = [i for i, r in enumerate(ens) if r.closed_loop == loop]
        for i, r in zip(idx, batch.run_points([ens[i] for i in idx], **kw) if idx else []):
            runs[i] = r
    n = len(ensemble)
    envs_ = [envelope(metrics(rc), {spec[0]: {} if r.problem else metrics(r)
                                    for spec, r in zip(ensemble, runs[i * n:(i + 1) * n])})
             for i, rc in enumerate(c)]
    if events and robot in EVENT_FOOT:
        envs_ = [with_events(e, t[0]) for e, t in zip(envs_, event_terms(robot, pts, c, kw))]
    return pts, name, kw, c, envs_, c_s
