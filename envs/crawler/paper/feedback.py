"""Crawler Section VIII: the eq. 19 feedback law against the open loop (Figs. 13/14), in both engines."""
from __future__ import annotations

import math
import time
from functools import partial

import numpy as np

from ...core.model import metrics
from ...core.model.robot import PENETRATION_SENSOR, WARNING_NAMES
from ...core.runs.experiment import Result, robot_params, run_kw, runner
from . import plots
from ..robot import FORWARD, Crawler
from .engines import engine_of, exp_cfg, hybrid_kw, hybrid_penetration


# ---- Section VIII: feedback control ------------------------------------------------------
PERIOD_RTOL, PERIOD_ATOL, PERIOD_REPEATS = 2e-3, 2e-5, 3


def gait_period(strides, rtol=PERIOD_RTOL, atol=PERIOD_ATOL, repeats=PERIOD_REPEATS) -> dict:
    """Period (1 or 2 steps; 0: not converged) of a per-step stride sequence S_k (m).

    Period p when the last `repeats` lag-p differences |S_k - S_{k-p}| are all within
    atol + rtol * mean|S| of the tail (the shared gaittwin.core.model.metrics.steady_state test; p = 1
    is tried first, so a period-2 gait is one whose alternation exceeds that tolerance).
    Returns period, the mean stride per step over the last period (over the last 2 steps when
    not converged) and, for period 2, the two alternating strides (the last two steps).
    """
    v = np.asarray(strides, float)
    st = metrics.steady_state(v, rtol=rtol, atol=atol, repeats=repeats, max_period=2, n_avg=2)
    out = dict(period=st.period, mean_stride=st.value, alternating_strides=None,
               tolerance=dict(rtol=rtol, atol_m=atol, repeats=repeats))
    if st.period == 2:
        out["alternating_strides"] = [float(v[-2]), float(v[-1])]
    return out


@runner("crawler_feedback")
def feedback(job, out) -> Result:
    """Eq. 19 feedback vs open loop at omega=8 (Fig. 13/14): summary.json, results.csv, PNG."""
    from . import hybrid as H
    base = robot_params(job)
    fb = exp_cfg(job, "feedback")
    cycles = int(exp_cfg(job, "cycles"))
    engine = engine_of(job)
    r = Crawler(**base)
    if engine == "mujoco":
        r.check_steps(cycles, run_kw(job)["max_steps"])      # bounded: rejected before simulating
    P = H.Params.from_robot(r)
    law_kw = dict(Kv=fb["Kv"], Kp=fb["Kp"], Kd=fb["Kd"], phi_lim=tuple(math.radians(x) for x in fb["phi_lim_deg"]))
    t0 = time.perf_counter()
    if engine == "hybrid":
        hk = hybrid_kw(job)
        open_run = H.simulate(r, cycles=cycles, stop_when_steady=False, **hk)
        fb_run = H.simulate(r, cycles=cycles, stop_when_steady=False, law=H.FeedbackLaw(r.inputs, P, **law_kw), **hk)
        traces = {k: dict(t=x.t, q=x.q[:, 3:], vx=x.vx, ctrl=x.control)
                  for k, x in (("open", open_run), ("feedback", fb_run))}
        seqs = {"open": open_run.cycle_values, "feedback": fb_run.cycle_values}
        pen = {k: hybrid_penetration(x) for k, x in (("open", open_run), ("feedback", fb_run))}
        errors = {k: x.error or r.health_error(pen[k]) for k, x in (("open", open_run), ("feedback", fb_run))}
        liftoff = {"open": open_run.liftoff_t, "feedback": fb_run.liftoff_t}
    elif engine in ("warp", "auto"):   # both runs through the batch runner, eq. 19 as a device kernel on warp
        traces, seqs, errors, liftoff, pen = warp_feedback_runs(base, law_kw, cycles, run_kw(job), out)
    else:
        traces, seqs, errors, liftoff, pen = {}, {}, {}, {}, {}
        for k in ("open", "feedback"):
            tr = mujoco_feedback_run(r, law_kw if k == "feedback" else None, cycles)
            traces[k], seqs[k], errors[k], liftoff[k], pen[k] = (tr, tr["S_seq"], tr["error"], tr["liftoff_t"],
                                                                 tr["max_penetration"])
    navg = int(exp_cfg(job, "n_avg"))
    # a failed or unhealthy run has no result (its row keeps `error`, as every sweep row does)
    S_open, S_fb = (None if errors[k] else float(np.mean(seqs[k][-navg:])) for k in ("open", "feedback"))
    rows = []
    for k, S in (("open", S_open), ("feedback", S_fb)):
        rows.append({**{c: r.cfg[c] for c in Crawler.columns}, "S": S, "V": None if S is None else S / r.period,
                     "steady": (None if S is None else bool(abs(seqs[k][-1] - seqs[k][-1 - navg]) < 2e-5 + 2e-3 * abs(S))
                                if len(seqs[k]) > navg else False),
                     "control": k, "max_penetration": pen[k], "error": errors[k] or ""})
    summary = dict(engine=engine, omega=r.cfg["omega"], S_open=S_open, S_feedback=S_fb,
                   failed_points=sum(bool(e) for e in errors.values()), all_healthy=not any(errors.values()),
                   S_open_seq=[float(x) for x in seqs["open"]], S_feedback_seq=[float(x) for x in seqs["feedback"]],
                   S_seq=[float(x) for x in seqs["feedback"]], n_avg=navg, errors=errors, liftoff_t=liftoff,
                   gains=dict(Kv=fb["Kv"], Kp=fb["Kp"], Kd=fb["Kd"], phi_lim_deg=fb["phi_lim_deg"]),
                   wall_s=time.perf_counter() - t0)
    for k in ("open", "feedback"):          # Sec. VIII: the feedback gait is two-step periodic
        g = gait_period(seqs[k])
        summary[f"period_{k}"], summary[f"mean_stride_{k}"] = g["period"], g["mean_stride"]
        summary[f"alternating_strides_{k}"] = g["alternating_strides"]
    summary["period_tolerance"] = g["tolerance"]
    draw = partial(plots.feedback, traces, r, H.FeedbackLaw(r.inputs, P, **law_kw), engine)
    plotted = {} if any(errors.values()) else {"feedback.png": draw}      # no plot of a failed run
    return Result(summary, tables={"results.csv": (list(rows[0].keys()), rows)}, plots=plotted)


def warp_feedback_runs(params, law_kw, cycles, kw, out=None):
    """engine=warp: the open loop and eq. 19 (envs/crawler/paper/feedback_robot.py FeedbackCrawler, its law
    a device kernel) as two worlds of the batch runner (engine=auto: split as any points are, on C the
    law in Python); (traces, S sequences, errors, lift-off times, deepest penetrations) by run ("open",
    "feedback"), the engine that ran each recorded as a results.csv point of `out` (key: control).  Its
    samples and cycle boundaries are the batch runner's (the state after k steps; mujoco_feedback_run reads positions after k - 1)."""
    from ...core.runs import sweep
    from .feedback_robot import FeedbackCrawler
    pts = {"open": FeedbackCrawler(None, **params), "feedback": FeedbackCrawler(law_kw, **params)}
    control = {id(p): k for k, p in pts.items()}
    runs = sweep.run_points(pts.values(), out, "results.csv", lambda p: {"control": control[id(p)]},
                            kw=dict(cycles=cycles, stop_when_steady=False, chunk=kw["chunk"], max_steps=kw["max_steps"],
                                    engine=kw.get("engine", "warp"), device=kw["device"], nworld=kw["nworld"]))
    res = {}, {}, {}, {}, {}
    for k, run in zip(pts, runs):
        fn = np.stack([run.sensor(f"foot{i}_touch")[:, 0] for i in (1, 2)], axis=1)
        neg = np.flatnonzero((fn <= 1e-6).any(axis=1))
        tr = dict(t=run.t, q=np.stack([run.sensor(f"phi{i}")[:, 0] for i in (1, 2)], axis=1),
                  vx=np.stack([run.sensor(f"foot{i}_vel")[:, 0] for i in (1, 2)], axis=1), ctrl=None)
        for d, v in zip(res, (tr, run.cycle_values, run.problem, float(run.t[neg[0]]) if len(neg) else None,
                              run.max_penetration)):
            d[k] = v
    return res


def mujoco_feedback_run(r: Crawler, law_kw, cycles):
    """The MuJoCo twin under eq. 19 (law_kw: FeedbackLaw's gains; None: the open loop), one
    simulation stepped by the Stepper with FeedbackCrawler.feedback as its per-step hook: the one
    implementation of the law on the C engine (envs/crawler/paper/feedback_robot.py), which the batch
    runner (engine=warp's C side, scripts/warp_agreement.py) calls too.
    """
    import copy

    from dm_control.mujoco import wrapper

    from ...core.model.stepper import Stepper
    from .feedback_robot import FeedbackCrawler
    fc = FeedbackCrawler(law_kw, **r.cfg)
    phys = fc.physics.from_model(wrapper.MjModel(copy.copy(fc.model())))
    step = Stepper(fc, phys.model.ptr, phys.data.ptr)
    stride = r.steps_per_cycle // r.samples_per_cycle
    ts, qs, vs, fns = [], [], [], []
    x1_b = [phys.foot_positions()[0, 0]]
    d = phys.data.ptr
    pen = phys.model.ptr.sensor(PENETRATION_SENSOR).adr[0]
    deepest, error = 0.0, None
    for k in range(1, cycles * r.steps_per_cycle + 1):
        step(1)
        deepest = max(deepest, -float(d.sensordata[pen]))
        if k % stride == 0 or k == cycles * r.steps_per_cycle:     # the batch runner's health checks
            if d.warning.number.any():
                w = [WARNING_NAMES[n] for n in np.flatnonzero(d.warning.number)]
                error = f"MuJoCo warning {', '.join(w)} by t={d.time:.4f} s"
            elif not (np.isfinite(d.qpos).all() and np.isfinite(d.sensordata).all()):
                error = f"non-finite (NaN/inf) state by t={d.time:.4f} s"
            if error:
                break
        if k % stride == 0:
            ts.append(phys.data.time)
            qs.append(phys.joint_angles())
            vs.append(phys.foot_velocities())
            fns.append(phys.normal_forces())
        if k % r.steps_per_cycle == 0:
            x1_b.append(phys.foot_positions()[0, 0])
    fn = np.array(fns)
    neg = np.flatnonzero((fn <= 1e-6).any(axis=1)) if len(fn) else []
    return dict(t=np.array(ts), q=np.array(qs), vx=np.array(vs), ctrl=None,
                S_seq=FORWARD * np.diff(x1_b), liftoff_t=float(np.array(ts)[neg[0]]) if len(neg) else None,
                max_penetration=deepest, error=error or r.health_error(deepest))
