"""engine=warp against the C engine (engine=mujoco) on a small sweep of every robot: kernel compile
time, Warp steps/s and the metrics' differences, each against its stated tolerance.

    .venv/bin/python scripts/warp_agreement.py [--device cpu] [--cold] [--robots crawler snake miniaq]
    .venv/bin/python scripts/warp_agreement.py --envelope [--robots ...]   # the C side only, no warp
    .venv/bin/python scripts/warp_agreement.py --holdout [...]   # the out-of-sample points (HOLDOUT)
    .venv/bin/python scripts/warp_agreement.py --f32-state --robots snake   # diagnostic: C with float32 state
    .venv/bin/python scripts/warp_agreement.py --event-timing [...]   # diagnostic: + one-step time shifts
    .venv/bin/python scripts/warp_agreement.py --f32-state-members [...]   # candidate v3: + F32_STATE
    .venv/bin/python scripts/warp_agreement.py --teeth [--holdout] [--f32-state-members]   # the wrong-world check, C only (rule v2)

The tolerance of each metric at each point is derived from the C engine alone, before warp runs:

    |warp - C| <= abs + rel*|C|  +  SAFETY * envelope,   envelope = max over ENSEMBLE |C_member - C_nominal|

`abs + rel*|C|` is the fixed floor (TOL: float32 against float64 on a well-conditioned metric);
the envelope is how far the C engine's own metric moves under the float32-level changes that
MuJoCo Warp makes to the same run: its solver tolerance (MuJoCo Warp raises opt.tolerance to
1e-6 for float32, WARP_SOLVER_TOLERANCE), the rounding of its inputs to float32 (the swept
parameter and the initial qpos scaled by 1 +- PERTURB = 1e-7, float32's resolution), the whole
model and initial state rounded to float32 ("f32", what Warp simulates), and the model's float
fields each jittered by a seeded U(-1, 1) x PERTURB ("rand<k>", at Warp's solver tolerance).
SAFETY = 2 because the envelope is the maximum of a small sample: were warp's difference one
more draw from the distribution the members sample, it would exceed their maximum with
probability 1/(n+1) (exchangeable draws, n distinct members) -- 20 % for the 4 distinct members
the snake had in ENSEMBLE v1 (safety 1), which failed one of its points (README "Engines").
ENSEMBLE v2 and SAFETY were fixed after that failure and before any further warp run; HOLDOUT
holds points no warp result had been seen for, to test the criterion out of sample (--holdout).
An event-timing term was tried and rejected (--event-timing, EVENT_TIMING; README "Engines"):
after BOLT's tau_max 15 failed on a touchdown that C takes one step before warp, the members
"t0+dt,tol" / "t0-dt,tol" (the run's time origin moved by one step: the inputs at t +- dt from
the same initial state) were added for every robot before any warp run under them.  BOLT still
failed (their envelope 4.4e-5 m/s against warp's 2.2e-3), and they widened the crawler's S
envelope 1000-fold (6.6e-7 -> 6.5e-4 m at omega 16), so that the crawler at a 10 % higher mu
passed: a check that can no longer fail.  The criterion stays ENSEMBLE v2; the members are kept
as a diagnostic.
Candidate ENSEMBLE v3, F32_STATE (--f32-state-members; fixed 2026-11-27 before any run under it): the
C engine run with what MuJoCo Warp holds in float32 rounded to float32 before every step (qpos, qvel,
act, qacc_warmstart; ctrl after any feedback has written it), at Warp's solver tolerance:
"f32,tol,state" (model and initial state rounded, as "f32") and "rand<k>,tol,state" (k in SEEDS).
Why: BOLT's tau_max 15 touch-down that warp takes a step after C (step 3647) is decided by float32
forward kinematics (studies/warp_bolt_touchdown.py): on warp's own state the foot is 2.0e-8 m
above the floor in float32 and 2.7e-8 m below it in float64; no ENSEMBLE v2 member perturbs the
state at every step, so none can move such an event.  Rule, stated before it was run: F32_STATE
joins ENSEMBLE only if under ENSEMBLE + F32_STATE, for every robot of SWEEPS at every point
(warp_diagnostics.teeth, C engine only): (1) a rerun of the same world is within tolerance on every metric;
(2) the world with the swept parameter x 1.1 (mu; MinIAQ-II mu_d; BOLT tau_max) FAILs the robot's
progress metric (its TEETH_METRIC: crawler S and V at 1 cycle, as
test_derived_tolerance_rejects_a_world_with_another_friction; snake dx; MinIAQ-II speed; BOLT
speed; crawler_feedback S).  Else it stays a diagnostic and BOLT's tau_max 15 stays FAIL.
Outcome (README "Engines"): not adopted.  It moves BOLT's tau_max 15 speed envelope from 2.1e-6 to
1.4e-5 m/s only (warp: 2.2e-3), and the snake's mu = 0.6 world with mu x 1.1 passes under it (dx 2.2e-3
against a tolerance of 2.3e-3 m; 1.5e-3 under v2).  Kept as a diagnostic.
A contact-rich gait whose metric is ill-conditioned (the snake's dx, MinIAQ's yaw rate) gets a
wide envelope; a well-conditioned one (the crawler's S) keeps about the floor.  The envelope
and the tolerance are printed next to each comparison.

--cold: a fresh Warp kernel cache (measures the first-ever compile; otherwise the cache in
~/.cache/warp makes it a load).  Needs the extra: pip install -e ".[gpu]" -c constraints.txt
"""
from __future__ import annotations

import argparse
import copy
import math
import tempfile
import time
import warnings

import _cli  # noqa: F401  (this checkout's envs on sys.path, GL backend chosen)
import numpy as np

# Each robot's small sweep (two points that differ in a per-world model field, short periods, a few
# thousand steps: cycles x steps per cycle) and the metrics compared.
SWEEPS = {   # robot: (base point, swept parameter, values, cycles)
    "crawler": (dict(omega=16.0), "mu", [0.172, 0.398], 2),        # 2 x 2000 steps
    "snake": (dict(T_step=0.25), "mu", [0.3, 0.6], 1),             # 1 x 48000 steps (period 1.5 s)
    "miniaq": (dict(f=4.0), "mu_d", [0.3, 0.5], 2),                # 2 x 2600 steps
    # BOLT: limits low enough that both Sec. 5.1 limits bind (the device feedback decides the gait)
    "bolt": (dict(crank_period=0.3, P_max=450.0), "tau_max", [15.0, 20.0], 2),   # 2 x 3000 steps
    # the crawler under eq. 19 (envs/crawler/feedback_robot.py, Sec. VIII's gains), the experiment's omega
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
SAFETY = 2                     # on the envelope, the maximum of a small sample (module docstring)
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

EVENT_TIMING = (  # diagnostic, not the criterion (--event-timing; rejected, module docstring): the run's time
    # origin moved by one step (the inputs at t +- dt from the same initial state, its time +- dt)
    ("t0+dt,tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, None, 1),
    ("t0-dt,tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0, None, -1),
)
F32_STATE = (   # candidate ENSEMBLE v3 (module docstring): the 7th field says "round the state every step"
    ("f32,tol,state", WARP_SOLVER_TOLERANCE, 1.0, 1.0, "f32", 0, True),
) + tuple((f"rand{k},tol,state", WARP_SOLVER_TOLERANCE, 1.0, 1.0, k, 0, True) for k in SEEDS)
def _class(robot: str):
    """The Robot class of a SWEEPS name: a registered robot, or crawler_feedback (the crawler under
    eq. 19, a closed_loop variant that is no robot of its own)."""
    import envs
    if robot == "crawler_feedback":
        from envs.crawler.feedback_robot import FeedbackCrawler
        return FeedbackCrawler
    return envs.robot_class(robot)


def _refused(cls) -> str:
    """Why engine=warp refuses robot class cls ("" where it runs; needs no warp)."""
    from envs.core.warp_engine import unsupported
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
    state32: a closed-loop run whose hook rounds qpos, qvel, act, qacc_warmstart (then, after the
    robot's own feedback, ctrl) to float32 before every step (F32_STATE)."""
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
            for a in (d.qpos, d.qvel, d.act, d.qacc_warmstart):
                a[:] = a.astype(np.float32)
            out = fb(m, d) if fb is not None else ()
            d.ctrl[:] = d.ctrl.astype(np.float32)
            return out
        r.feedback, r.closed_loop = rounded, True     # this instance only
    return r


def metrics(run) -> dict:
    """A run's summary with its deepest penetration (compared like a metric)."""
    s = run.robot.summarize(run)
    s["max_penetration"] = run.max_penetration
    return s


def reference(robot: str, chunk=1000, cycles=None, sweeps=None, ensemble=ENSEMBLE):
    """The C engine's side, which needs no warp: (points, swept parameter, run settings, nominal
    Runs, per point envelope() of ENSEMBLE, seconds of the nominal runs) for the robot's sweep in
    `sweeps` (SWEEPS unless given, or HOLDOUT); cycles: the sweep's unless given."""
    from envs.core import batch
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
    return pts, name, kw, c, envs_, c_s


def compare(robot: str, device=None, chunk=1000, sweeps=None, ensemble=ENSEMBLE):
    """(rows of [robot, point, metric, C, warp, |diff|, envelope, set by, tolerance, ok], compile_s,
    warp steps/s, C steps/s).  The C engine's nominal runs and ENSEMBLE run first: every tolerance
    is fixed before warp runs."""
    from envs.core import batch
    from envs.core.errors import ConfigError
    cls = _class(robot)
    pts, name, kw, c, envs_, c_s = reference(robot, chunk, sweeps=sweeps, ensemble=ensemble)
    steps = sum(r.cycles * r.robot.steps_per_cycle for r in c)
    try:    # compile: the first step of one world (kernels compiled or loaded from the cache)
        from envs.core import warp_batch
        compile_s = warp_batch.first_step(cls(**pts[0]), device)
    except ConfigError as e:
        return [[robot, "-", "refused", "", "", "", "", "", "", str(e)]], math.nan, math.nan, steps / c_s
    t = time.perf_counter()
    w = batch.run_points(pts, cls, engine="warp", device=device, **kw)
    w_s = time.perf_counter() - t
    rows = []
    for rc, rw, p, env in zip(c, w, pts, envs_):
        rows += [[robot] + r for r in judge(f"{name}={p.get(name)}", metrics(rc), metrics(rw), env,
                                            rw.problem or rc.problem)]
    return rows, compile_s, steps / w_s, steps / c_s


def print_envelopes(robot: str, sweeps=None, ensemble=ENSEMBLE) -> None:
    """The C engine's envelope and tolerance per point and metric (no warp needed)."""
    if _refused(_class(robot)):
        print(f"\n{robot}: refused by engine=warp: {_refused(_class(robot))}")
        return
    pts, name, _, c, envs_, _ = reference(robot, sweeps=sweeps, ensemble=ensemble)
    print(f"\n{robot}\n| point | metric | C engine | C envelope (set by) | tolerance |\n|---|---|---|---|---|")
    for p, rc, env in zip(pts, c, envs_):
        m = metrics(rc)
        for k, (e, by) in env.items():
            print(f"| {name}={p.get(name)} | {k} | {m[k]:.6g} | {e:.2g} ({by}) | {tolerance(k, m[k], e):.2g} |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default=None, help="Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--cold", action="store_true", help="a fresh Warp kernel cache: the first-ever compile")
    ap.add_argument("--robots", nargs="*", default=list(SWEEPS))
    ap.add_argument("--holdout", action="store_true", help="the out-of-sample points (HOLDOUT), not SWEEPS")
    ap.add_argument("--envelope", action="store_true", help="only the C engine's envelopes and tolerances")
    ap.add_argument("--event-timing", action="store_true", help="diagnostic, not the criterion: the ensemble "
                                                                "with EVENT_TIMING's one-step time shifts")
    ap.add_argument("--f32-state", action="store_true", help="diagnostic: the C engine with its state rounded "
                                                             "to float32 after every step (no warp needed)")
    ap.add_argument("--f32-state-members", action="store_true", help="candidate ENSEMBLE v3: + F32_STATE")
    ap.add_argument("--teeth", action="store_true", help="the rule's check, C only: a rerun passes, the swept "
                                                         "parameter x 1.1 FAILs the progress metric")
    a = ap.parse_args(argv)
    sweeps = HOLDOUT if a.holdout else SWEEPS
    ens = ENSEMBLE + (EVENT_TIMING if a.event_timing else ()) + (F32_STATE if a.f32_state_members else ())
    warnings.filterwarnings("ignore")
    if a.teeth or a.f32_state:
        import warp_diagnostics as diag
    if a.teeth:
        good = [diag.print_teeth(robot, ens, sweeps) for robot in a.robots]
        print(f"\nteeth: {'every robot' if all(good) else 'NOT every robot'}")
        return 0 if all(good) else 1
    if a.f32_state:
        for robot in a.robots:
            diag.print_f32_state(robot)
        return 0
    if a.envelope:
        for robot in a.robots:
            print_envelopes(robot, sweeps, ens)
        return 0
    import warp as wp
    from envs.core.warp_law import quiet
    quiet()
    if a.cold:
        wp.config.kernel_cache_dir = tempfile.mkdtemp(prefix="warp-cache-")
    from envs.core import warp_engine
    dev = warp_engine.device(a.device)
    print(f"device {dev}; points and cycles in {'HOLDOUT' if a.holdout else 'SWEEPS'}; tolerance |warp - C| <= "
          f"abs + rel*|C| (TOL) + {SAFETY} x envelope: max |C_member - C| over ENSEMBLE "
          f"({', '.join(e[0] for e in ens)}; tol: opt.tolerance {WARP_SOLVER_TOLERANCE:g}, param/qpos/rand: "
          f"x(1 +- {PERTURB:g}), f32: the model and initial state rounded to float32)")
    bad = 0
    for robot in a.robots:
        t = time.perf_counter()
        rows, comp, wsps, csps = compare(robot, a.device, sweeps=sweeps, ensemble=ens)
        total = time.perf_counter() - t
        print(f"\n{robot}: warp {wsps:.0f} world-steps/s, C {csps:.0f} steps/s, first call (compile or cache "
              f"load, put_model, one step) {comp:.1f} s, total {total:.0f} s")
        print("| robot | point | metric | C engine | warp | abs diff | C envelope (set by) | tolerance | ok |\n"
              "|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            if r[2] == "refused":
                print(f"| {robot} | - | refused | | | | | | {r[-1]} |")
                continue
            bad += not r[-1]
            print(f"| {robot} | {r[1]} | {r[2]} | {r[3]:.6g} | {r[4]:.6g} | {r[5]:.2g} | {r[6]:.2g} ({r[7]}) | "
                  f"{r[8]:.2g} | {'ok' if r[-1] else 'FAIL'} |")
    print(f"\n{'all within tolerance' if not bad else f'{bad} comparisons over tolerance'}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
