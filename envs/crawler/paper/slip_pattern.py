"""Fig. 5: the contact-mode pattern of each foot over the steady cycle, twin and exact model.

Modes per foot: stick, slip forward (in the advancement direction, FORWARD), slip backward,
lift-off.  The exact hybrid model has explicit modes (its event-switched contact state, logged
at every switch); the twin's come from its foot velocity sensor: a foot slips where
|x_i'| > v_th = v_stick_rel * omega (max D - min D) / 2, the peak foot speed of ideal switching
(D = x2 - x1 of the prescribed angles), and is lifted off where its touch sensor reads 0.  The
sticking twin foot is a 1 mm sphere that rolls on its contact point, so its centre moves at
r |leg angle rate| <= r * 1.5 omega A, 0.5 % of that speed scale at the Fig. 4 inputs (measured
median 0.25 % while the exact model's foot sticks at omega = 0.3): the default 1 % is above it.  A
slipping foot that reverses crosses |x_i'| < v_th for a moment, so the threshold counts about 1 %
of the cycle per reversal as stick: checked on the exact model by applying the same threshold to
its foot velocities (`threshold_vs_explicit`, `hybrid_threshold_fractions` in summary.json).

The paper (Sec. IV, Fig. 5) reads x_i' > 0 as the advancement direction (its S = x1(t) - x1(t - T)
is positive in range 1), i.e. our slip forward.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from ...core.model import metrics
from ...core.model.errors import ConfigError
from ...core.runs import sweep as sw
from ...core.runs.experiment import Result, robot_params, run_kw, runner
from . import plots
from ..config import ENGINES
from .engines import exp_cfg, hybrid_kw
from .plots import BWD, CODES, FWD, LIFT, NAMES, STICK  # noqa: F401  (mode codes, shared with the plot)
from ..robot import FORWARD, Crawler, foot_distance


# ---- computations -----------------------------------------------------------------------------
def speed_scale(robot: Crawler) -> float:
    """omega (max D - min D) / 2: the peak foot speed of ideal switching (m/s)."""
    q, _, _ = robot.inputs(np.linspace(0.0, robot.period, 721))
    d = foot_distance(q[:, 0], q[:, 1], robot.p.l0, robot.p.l)
    return float(robot.p.omega * (d.max() - d.min()) / 2)


def samples_dividing(steps: int, at_least: int) -> int:
    """The smallest divisor of `steps` that is >= at_least (samples must fall on steps)."""
    for n in range(min(at_least, steps), steps + 1):
        if steps % n == 0:
            return n
    return steps


def fractions(modes) -> dict:
    m = np.asarray(modes)
    return {k: float(np.mean(m == CODES[k])) for k in NAMES}


def slip_distance(vx, modes, dt, direction=BWD) -> list:
    """Distance slipped per foot over the window (m), >= 0: the integral of the speed in `direction`
    (BWD: backward, FWD: forward, the advancement direction) over the samples in that mode."""
    if direction not in (FWD, BWD):
        raise ValueError(f"direction must be FWD ({FWD}) or BWD ({BWD}), not {direction!r}")
    v = (FORWARD if direction == FWD else -FORWARD) * np.asarray(vx)
    return [float(np.sum(np.where(np.asarray(modes)[:, i] == direction, v[:, i], 0.0)) * dt) for i in (0, 1)]


def pair_fractions(modes) -> dict:
    """Both feet together: both slipping, both slipping forward."""
    m = np.asarray(modes)
    slip = np.isin(m, (FWD, BWD))
    return dict(both_slip=float(np.mean(slip.all(axis=1))), both_forward=float(np.mean((m == FWD).all(axis=1))))


def explicit_codes(mode, fn):
    """The exact model's logged contact state (0 stick, +-1 slip along +-x) as mode codes."""
    mode = np.asarray(mode)
    out = np.where(mode == 0, STICK, np.where(mode * FORWARD > 0, FWD, BWD))
    out[np.asarray(fn) <= 0] = LIFT
    return out


def log_fractions(run, t0: float, t1: float) -> list:
    """Time-weighted mode fractions per foot over [t0, t1] from the exact model's switch log."""
    times = [0.0] + [s[0] for s in run.switches] + [np.inf]
    states = [tuple(run.mode[0])] + [tuple(s[2]) for s in run.switches]
    out = []
    for i in (0, 1):
        acc = dict.fromkeys(NAMES, 0.0)
        for a, b, st in zip(times[:-1], times[1:], states):
            dt = min(b, t1) - max(a, t0)
            if dt > 0:
                name = "stick" if st[i] == 0 else ("slip_forward" if st[i] * FORWARD > 0 else "slip_backward")
                acc[name] += dt / (t1 - t0)
        out.append(acc)
    return out


def log_mode_at(run, t) -> np.ndarray:
    """The exact model's contact state at times t from its switch log (the state entered last)."""
    times = np.array([s[0] for s in run.switches])
    states = np.array([tuple(run.mode[0])] + [tuple(s[2]) for s in run.switches])
    return states[np.searchsorted(times, np.asarray(t), side="left")]


def window(t, period: float, cycles: int):
    """Indices of the last `cycles` periods of samples t (the final end sample excluded)."""
    n = len(t)
    t1 = t[-1]
    sel = np.flatnonzero((t >= t1 - cycles * period - 1e-9 * period) & (t < t1 - 1e-9 * period))
    return sel if len(sel) else np.arange(max(0, n - 1), n)


def twin_trace(params: dict, kw: dict, samples: int, v_rel: float, out=None) -> dict:
    """The twin's trace at one point (out: the run directory whose results.csv the point's rows are)."""
    r = Crawler(**params)
    r.samples_per_cycle = samples_dividing(r.steps_per_cycle, samples)   # same timestep as the default
    r.check_steps(kw["cycles"], kw["max_steps"])
    run = sw.run_point(r, out, "results.csv", ["omega"], kw=dict(cycles=kw["cycles"], min_cycles=kw["min_cycles"],
                                                                 stop_when_steady=kw["stop_when_steady"]))
    s = r.summarize(run)
    per = max(1, int(s["period_cycles"] or 1))
    sel = window(run.t, r.period, per)
    vx = np.stack([run.sensor(f"foot{i}_vel")[sel, 0] for i in (1, 2)], axis=1)
    fn = np.stack([run.sensor(f"foot{i}_touch")[sel, 0] for i in (1, 2)], axis=1)
    v_th = v_rel * speed_scale(r)
    modes = np.stack([metrics.contact_modes(vx[:, i], fn[:, i], v_stick=v_th, forward=FORWARD) for i in (0, 1)], axis=1)
    dt = r.period / r.samples_per_cycle
    return dict(t=(run.t[sel] - run.t[sel][0]) / r.period, vx=vx, fn=fn, modes=modes, S=s["S"], steady=s["steady"],
                cycles=run.cycles, period_cycles=per, error=run.problem, v_th=v_th,
                backward_m=[x / per for x in slip_distance(vx, modes, dt, BWD)],
                forward_m=[x / per for x in slip_distance(vx, modes, dt, FWD)],
                fractions=[fractions(modes[:, i]) for i in (0, 1)], samples=r.samples_per_cycle)


def exact_trace(params: dict, kw: dict, samples: int, v_rel: float, hkw: dict) -> dict:
    from . import hybrid as H
    r = Crawler(**params)
    run = H.simulate(r, cycles=kw["cycles"], min_cycles=kw["min_cycles"], stop_when_steady=kw["stop_when_steady"],
                     samples_per_cycle=samples, **hkw)
    s = H.summarize(run)
    per = max(1, int(s["period_cycles"] or 1))
    sel = window(run.t, r.period, per)
    modes = explicit_codes(run.mode[sel], run.fn[sel])
    t0, t1 = run.t[sel][0], run.t[sel][0] + per * r.period
    v_th = v_rel * speed_scale(r)
    by_threshold = np.stack([metrics.contact_modes(run.vx[sel, i], run.fn[sel, i], v_stick=v_th, forward=FORWARD)
                             for i in (0, 1)], axis=1)
    return dict(t=(run.t[sel] - t0) / r.period, vx=run.vx[sel], fn=run.fn[sel], modes=modes, S=s["S"],
                steady=s["steady"], cycles=run.cycles, period_cycles=per, error=run.error, v_th=v_th,
                backward_m=[x / per for x in slip_distance(run.vx[sel], modes, r.period / samples, BWD)],
                threshold_fractions=[fractions(by_threshold[:, i]) for i in (0, 1)],
                fractions=log_fractions(run, t0, t1), sampled_fractions=[fractions(modes[:, i]) for i in (0, 1)],
                log_agrees=bool(np.array_equal(run.mode[sel], log_mode_at(run, run.t[sel]))),
                threshold_vs_explicit=float(np.mean(by_threshold != modes)), samples=samples)


# ---- the paper's statements (Sec. IV, Fig. 5); tolerances fixed before comparing -------------------
def claims(tr: dict) -> list:
    """tr: {omega: trace} of one engine (omega 0.3, 5.1, 16 where present)."""
    out = []

    def add(omega, statement, value, holds, tol):
        out.append(dict(omega=omega, statement=statement, value=value, holds=bool(holds), tolerance=tol))
    lo, mid, hi = tr.get(0.3), tr.get(5.1), tr.get(16.0)
    if lo:
        f = lo["fractions"]
        add(0.3, "range 1: slip only in the advancement direction", max(x["slip_backward"] for x in f),
            max(x["slip_backward"] for x in f) <= 0.02, "each foot slip_backward <= 0.02")
        bd = max(lo["backward_m"]) / lo["S"]
        add(0.3, "range 1: backward slip distance negligible", bd, bd <= 0.02,
            "each foot's backward slip distance per cycle <= 0.02 S")
        add(0.3, "range 1: the feet slip consecutively (ideal switching)", pair_fractions(lo["modes"])["both_slip"],
            pair_fractions(lo["modes"])["both_slip"] <= 0.05, "both feet slipping <= 0.05 of the cycle")
        add(0.3, "range 1: each foot slips forward about half the cycle", [x["slip_forward"] for x in f],
            all(0.4 <= x["slip_forward"] <= 0.6 for x in f), "each foot slip_forward in [0.4, 0.6]")
    if lo and mid:
        b0 = sum(x["slip_backward"] for x in lo["fractions"])
        b1 = sum(x["slip_backward"] for x in mid["fractions"])
        add(5.1, "range 2: a growing portion of the cycle slips in the opposing direction", b1,
            b1 >= b0 + 0.1, "slip_backward summed over the feet >= its omega = 0.3 value + 0.1")
        add(5.1, "range 2: the advancement is almost entirely cancelled", mid["S"] / lo["S"],
            abs(mid["S"]) <= 0.05 * abs(lo["S"]), "|S(5.1)| <= 0.05 S(0.3)")
    if hi:
        pf = pair_fractions(hi["modes"])
        add(16.0, "range 3: opposing slippage continues", [x["slip_backward"] for x in hi["fractions"]],
            all(x["slip_backward"] >= 0.1 for x in hi["fractions"]), "each foot slip_backward >= 0.1")
        add(16.0, "range 3: for a short portion of the cycle both feet slip forward together", pf["both_forward"],
            0 < pf["both_forward"] <= 0.25, "0 < both feet slipping forward <= 0.25 of the cycle")
        if mid:
            add(16.0, "range 3: a rigid-body progression in the advancement direction", hi["S"],
                hi["S"] > 0 and hi["S"] > mid["S"], "S(16) > 0 and S(16) > S(5.1)")
    return out


@runner("crawler_slip_pattern")
def slip_pattern(job, out) -> Result:
    """Fig. 5: results.csv (engine x omega x foot), summary.json, slip_pattern_<omega>.png."""
    base = robot_params(job)
    kw = run_kw(job)
    omegas = [float(w) for w in exp_cfg(job, "omega")]
    which = exp_cfg(job, "engines")
    engines = list(ENGINES) if which == "both" else [which]
    v_rel, samples = float(exp_cfg(job, "v_stick_rel")), int(exp_cfg(job, "samples_per_cycle"))
    if not omegas:
        raise ConfigError("experiment.omega", omegas, "a non-empty list of omegas in (0, 200] rad/s")
    for w in omegas:                                    # validation first: nothing simulated on bad input
        Crawler(**{**base, "omega": w}).check_steps(kw["cycles"], kw["max_steps"])
    traces = {e: {} for e in engines}
    for w in omegas:
        p = {**base, "omega": w}
        for e in engines:
            traces[e][w] = (twin_trace(p, kw, samples, v_rel, out) if e == "mujoco"
                            else exact_trace(p, kw, samples, v_rel, hybrid_kw(job)))
    rows = []
    for e in engines:
        for w in omegas:
            tr = traces[e][w]
            for i in (0, 1):
                rows.append(dict(engine=e, omega=w, foot=i + 1, **tr["fractions"][i],
                                 slip_backward_mm=tr["backward_m"][i] * 1e3, S=tr["S"], steady=tr["steady"],
                                 period_cycles=tr["period_cycles"], cycles=tr["cycles"], v_threshold=tr["v_th"],
                                 samples_per_cycle=tr["samples"], error=tr["error"] or ""))
    figures = {f"slip_pattern_{w:g}.png": partial(plots.slip_pattern, {e: traces[e][w] for e in engines}, w)
               for w in omegas}
    summary = dict(engines=engines, omega=omegas, v_stick_rel=v_rel,
                   fractions={e: {f"{w:g}": {f"foot{i + 1}": traces[e][w]["fractions"][i] for i in (0, 1)}
                                  for w in omegas} for e in engines},
                   pairs={e: {f"{w:g}": pair_fractions(traces[e][w]["modes"]) for w in omegas} for e in engines},
                   S={e: {f"{w:g}": traces[e][w]["S"] for w in omegas} for e in engines},
                   v_threshold={f"{w:g}": traces[engines[0]][w]["v_th"] for w in omegas},
                   claims={e: claims(traces[e]) for e in engines},
                   errors={e: {f"{w:g}": traces[e][w]["error"] for w in omegas if traces[e][w]["error"]} for e in engines})
    if "hybrid" in engines:
        h = traces["hybrid"]
        summary["hybrid_sampled_fractions"] = {f"{w:g}": h[w]["sampled_fractions"] for w in omegas}
        summary["hybrid_modes_match_log"] = all(h[w]["log_agrees"] for w in omegas)
        summary["threshold_vs_explicit"] = {f"{w:g}": h[w]["threshold_vs_explicit"] for w in omegas}
        summary["hybrid_threshold_fractions"] = {f"{w:g}": h[w]["threshold_fractions"] for w in omegas}
    if len(engines) == 2:
        diff = {f"{w:g}": max(abs(traces["mujoco"][w]["fractions"][i][k] - traces["hybrid"][w]["fractions"][i][k])
                              for i in (0, 1) for k in NAMES) for w in omegas}
        summary["max_abs_fraction_diff"] = diff
        summary["max_abs_fraction_diff_all"] = max(diff.values())
        same = {f"{w:g}": max(abs(traces["mujoco"][w]["fractions"][i][k] - traces["hybrid"][w]["threshold_fractions"][i][k])
                              for i in (0, 1) for k in NAMES) for w in omegas}
        summary["max_abs_fraction_diff_same_classifier"] = same
    return Result(summary, tables={"results.csv": (list(rows[0].keys()), rows)}, plots=figures)
