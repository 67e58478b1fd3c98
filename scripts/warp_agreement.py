"""engine=warp against the C engine (engine=mujoco) on a small sweep of every robot: kernel compile
time, Warp steps/s and the metrics' differences, each against its stated tolerance.

    .venv/bin/python scripts/warp_agreement.py [--device cpu] [--cold] [--robots crawler snake miniaq]
    .venv/bin/python scripts/warp_agreement.py --envelope [--robots ...]   # the C side only, no warp
    .venv/bin/python scripts/warp_agreement.py --f32-state --robots snake   # diagnostic: C with float32 state

The tolerance of each metric at each point is derived from the C engine alone, before warp runs:

    |warp - C| <= abs + rel*|C|  +  envelope,    envelope = max over ENSEMBLE |C_member - C_nominal|

`abs + rel*|C|` is the fixed floor (TOL: float32 against float64 on a well-conditioned metric);
the envelope is how far the C engine's own metric moves under the float32-level changes that
MuJoCo Warp makes to the same run: its solver tolerance (MuJoCo Warp raises opt.tolerance to
1e-6 for float32, WARP_SOLVER_TOLERANCE) and the rounding of its inputs to float32 (the swept
parameter, a per-world float32 field, and the initial qpos, each scaled by 1 +- PERTURB = 1e-7,
float32's resolution).  ENSEMBLE is that set, fixed before any warp result was looked at; no
safety factor (1).  A contact-rich gait whose metric is ill-conditioned (the snake's dx, MinIAQ's
yaw rate) gets a wide envelope; a well-conditioned one (the crawler's S) keeps about the floor.
The envelope and the tolerance are printed next to each comparison.

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

import numpy as np

# Each robot's small sweep (two points that differ in a per-world model field, short periods, a few
# thousand steps: cycles x steps per cycle) and the metrics compared.
SWEEPS = {   # robot: (base point, swept parameter, values, cycles)
    "crawler": (dict(omega=16.0), "mu", [0.172, 0.398], 2),        # 2 x 2000 steps
    "snake": (dict(T_step=0.25), "mu", [0.3, 0.6], 1),             # 1 x 48000 steps (period 1.5 s)
    "miniaq": (dict(f=4.0), "mu_d", [0.3, 0.5], 2),                # 2 x 2600 steps
    "bolt": (dict(crank_period=0.3), "bumper_height", [None], 1),  # refused (closed_loop)
}
TOL = {   # metric: (abs, rel), the floor; float32 against float64, the same contacts: S to ~1e-6 m expected
    "S": (2e-5, 1e-3), "V": (2e-5, 1e-3),
    "foot1_slip_forward": (0.01, 0), "foot1_slip_backward": (0.01, 0), "foot1_stick": (0.01, 0),
    "foot2_slip_forward": (0.01, 0), "foot2_slip_backward": (0.01, 0), "foot2_stick": (0.01, 0),
    "foot1_liftoff": (0.01, 0), "foot2_liftoff": (0.01, 0),                 # fractions: 2 samples in 200
    "d": (2e-5, 1e-3), "dx": (2e-5, 1e-3),
    "speed": (2e-5, 1e-3), "drift_y": (2e-5, 1e-2), "yaw_rate_deg_s": (0.05, 1e-2),
    "max_loop_gap": (2e-6, 0.1), "max_penetration": (2e-6, 0.02),
}
WARP_SOLVER_TOLERANCE = 1e-6   # mujoco_warp put_model: opt.tolerance = max(opt.tolerance, 1e-6)
PERTURB = 1e-7                 # relative: float32's resolution (ulp 2^-23 = 1.2e-7, rounding <= 6e-8)
ENSEMBLE = (   # name: (opt.tolerance or None = the model's, swept-parameter factor, initial-qpos factor)
    ("tol", WARP_SOLVER_TOLERANCE, 1.0, 1.0),
    ("param+", None, 1 + PERTURB, 1.0), ("param-", None, 1 - PERTURB, 1.0), ("qpos+", None, 1.0, 1 + PERTURB),
    ("tol,param+", WARP_SOLVER_TOLERANCE, 1 + PERTURB, 1.0), ("tol,param-", WARP_SOLVER_TOLERANCE, 1 - PERTURB, 1.0),
    ("tol,qpos+", WARP_SOLVER_TOLERANCE, 1.0, 1 + PERTURB),
)


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
    """The stated tolerance: the floor abs + rel*|C| plus the C engine's own envelope."""
    a, r = TOL[metric]
    return a + r * abs(c) + env


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


def member(cls, point: dict, name: str | None, tol: float | None, fp: float, fq: float):
    """The Robot of one ensemble member: `point` with its swept parameter `name` scaled by fp, the
    model's opt.tolerance set to tol (None: kept) and the initial qpos scaled by fq."""
    import mujoco
    p = dict(point)
    if name is not None and fp != 1.0:
        p[name] = p[name] * fp
    r = cls(**p)
    if tol is not None:
        m = copy.copy(r.model())
        m.opt.tolerance = tol
        r.model = lambda m=m: m                 # this instance only; the cached model is untouched
    if fq != 1.0:
        init, spec = r.initial_state, mujoco.mjtState.mjSTATE_INTEGRATION

        def initial_state(model):
            d = mujoco.MjData(model)
            mujoco.mj_setState(model, d, init(model), spec)
            d.qpos[:] *= fq
            s = np.empty(mujoco.mj_stateSize(model, spec))
            mujoco.mj_getState(model, d, s, spec)
            return s
        r.initial_state = initial_state
    return r


def metrics(run) -> dict:
    """A run's summary with its deepest penetration (compared like a metric)."""
    s = run.robot.summarize(run)
    s["max_penetration"] = run.max_penetration
    return s


def reference(robot: str, chunk=1000, cycles=None):
    """The C engine's side, which needs no warp: (points, swept parameter, run settings, nominal
    Runs, per point envelope() of ENSEMBLE, seconds of the nominal runs); cycles: SWEEPS' unless given."""
    import envs
    from envs.core import batch
    cls = envs.robot_class(robot)
    base, name, vals, n_cycles = SWEEPS[robot]
    pts = [dict(base, **({name: v} if v is not None else {})) for v in vals]
    kw = dict(cycles=cycles or n_cycles, stop_when_steady=False, chunk=chunk)
    t = time.perf_counter()
    c = batch.run_points(pts, cls, **kw)
    c_s = time.perf_counter() - t
    if cls.closed_loop:            # refused by engine=warp: nothing to compare
        return pts, name, kw, c, [{} for _ in c], c_s
    ens = [member(cls, p, name if p.get(name) is not None else None, *spec[1:]) for p in pts for spec in ENSEMBLE]
    runs = batch.run_points(ens, **kw)
    n = len(ENSEMBLE)
    envs_ = [envelope(metrics(rc), {spec[0]: {} if r.problem else metrics(r)
                                    for spec, r in zip(ENSEMBLE, runs[i * n:(i + 1) * n])})
             for i, rc in enumerate(c)]
    return pts, name, kw, c, envs_, c_s


def compare(robot: str, device=None, chunk=1000):
    """(rows of [robot, point, metric, C, warp, |diff|, envelope, set by, tolerance, ok], compile_s,
    warp steps/s, C steps/s).  The C engine's nominal runs and ENSEMBLE run first: every tolerance
    is fixed before warp runs."""
    import envs
    from envs.core import batch
    from envs.core.errors import ConfigError
    cls = envs.robot_class(robot)
    pts, name, kw, c, envs_, c_s = reference(robot, chunk)
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


def print_envelopes(robot: str) -> None:
    """The C engine's envelope and tolerance per point and metric (no warp needed)."""
    import envs
    if envs.robot_class(robot).closed_loop:
        print(f"\n{robot}: refused by engine=warp (closed_loop): nothing to compare")
        return
    pts, name, _, c, envs_, _ = reference(robot)
    print(f"\n{robot}\n| point | metric | C engine | C envelope (set by) | tolerance |\n|---|---|---|---|---|")
    for p, rc, env in zip(pts, c, envs_):
        m = metrics(rc)
        for k, (e, by) in env.items():
            print(f"| {name}={p.get(name)} | {k} | {m[k]:.6g} | {e:.2g} ({by}) | {tolerance(k, m[k], e):.2g} |")


def f32_state(robot: str) -> list:
    """Diagnostic, not part of the tolerance: the C engine stepped with its state (qpos, qvel, act,
    warm start) rounded to float32 after every step, as Warp stores it.  Per point of the sweep:
    (point, change of the robot's progress coordinate over the sweep's run, the same with rounding)."""
    import mujoco

    import envs
    from envs.core.stepper import Stepper
    cls = envs.robot_class(robot)
    base, name, vals, cycles = SWEEPS[robot]
    out = []
    for v in vals:
        r = cls(**dict(base, **({name: v} if v is not None else {})))
        change = []
        for rounded in (False, True):
            st = Stepper(r)
            m, d = st.model, st.data
            x0 = float(np.ravel(r.progress(d.sensordata.copy(), m))[0])
            for _ in range(cycles * r.steps_per_cycle):
                st(1)
                if rounded:
                    for arr in (d.qpos, d.qvel, d.act, d.qacc_warmstart):
                        arr[:] = arr.astype(np.float32)
            mujoco.mj_forward(m, d)
            change.append(float(np.ravel(r.progress(d.sensordata.copy(), m))[0]) - x0)
        out.append((f"{name}={v}", *change))
    return out


def print_f32_state(robot: str) -> None:
    cycles = SWEEPS[robot][3]
    print(f"\n{robot} ({cycles} cycle(s))\n| point | progress change, C | C with float32 state | abs diff |\n|---|---|---|---|")
    for point, c, c32 in f32_state(robot):
        print(f"| {point} | {c:.6g} | {c32:.6g} | {abs(c32 - c):.2g} |")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default=None, help="Warp device (default: cuda if usable, else cpu)")
    ap.add_argument("--cold", action="store_true", help="a fresh Warp kernel cache: the first-ever compile")
    ap.add_argument("--robots", nargs="*", default=list(SWEEPS))
    ap.add_argument("--envelope", action="store_true", help="only the C engine's envelopes and tolerances")
    ap.add_argument("--f32-state", action="store_true", help="diagnostic: the C engine with its state rounded "
                                                             "to float32 after every step (no warp needed)")
    a = ap.parse_args(argv)
    warnings.filterwarnings("ignore")
    if a.f32_state:
        for robot in a.robots:
            print_f32_state(robot)
        return 0
    if a.envelope:
        for robot in a.robots:
            print_envelopes(robot)
        return 0
    import warp as wp
    wp.config.quiet = True
    if a.cold:
        wp.config.kernel_cache_dir = tempfile.mkdtemp(prefix="warp-cache-")
    from envs.core import warp_engine
    dev = warp_engine.device(a.device)
    print(f"device {dev}; sweeps and cycles in SWEEPS; tolerance |warp - C| <= abs + rel*|C| (TOL) + envelope: "
          f"max |C_member - C| over ENSEMBLE ({', '.join(e[0] for e in ENSEMBLE)}; tol: opt.tolerance "
          f"{WARP_SOLVER_TOLERANCE:g}, param/qpos: x(1 +- {PERTURB:g})), safety factor 1")
    bad = 0
    for robot in a.robots:
        t = time.perf_counter()
        rows, comp, wsps, csps = compare(robot, a.device)
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
