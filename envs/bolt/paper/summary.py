"""The summary columns of a run of BOLT's paper model (envs/bolt/paper/run.py): the twin's running
columns (Bolt.summarize's definitions) computed from the paper model's events and samples."""
from __future__ import annotations

import math

import numpy as np

from .model import PEAK_SAMPLES
from ..robot import steady_start


PAPER_METRICS = ("stance_impulse", "impact_impulse", "impact_energy_loss", "pull_fraction", "max_constraint_error",
                 "grazing_impacts", "max_friction_ratio", "slip_fraction", "slide_fraction", "painleve_impasses", "wall_s", "nfev", "method", "engine")


def summarize(run) -> dict:
    """The twin's running columns (Bolt.summarize's definitions: steady window = the second half of
    the revolutions, stride time between touch-downs after >= 1/4 revolution of flight) from the
    paper model's events and samples; impact_force is NaN (a plastic impact is an impulse: see
    impact_impulse, N s, and stance_impulse, N s per stride incl. the impact).  Under the printed rules
    (run.options["rules"]) the crank does not turn once per crank period: touch-downs per revolution count the
    crank's measured turns, the stride length is speed x stride time, and steadiness compares the last two strides'
    advance."""
    r, S, t = run.robot, run.samples, run.t
    T, ncyc, p = r.period, run.cycles, r.p
    k0 = steady_start(ncyc)
    ta, tb = k0 * T, ncyc * T
    win = (t >= ta - 1e-12)
    st = S["stance"] > 0.5
    pk = lambda x, msk: float(np.nanmax(np.abs(x[msk]))) if msk.any() else 0.0   # noqa: E731
    out = dict(crank_period=T, omega=r.omega, cycles=ncyc, engine="paper", method=run.options.get("method"),
               wall_s=run.wall_s, nfev=run.nfev)
    out.update(peak_torque_flight=pk(S["tau"], ~st), peak_torque_stance=pk(S["tau"], st),
               peak_power_flight=pk(S["power"], ~st), peak_power_stance=pk(S["power"], st),
               max_loop_gap=float(np.nanmax(S["loop_gap"])), max_constraint_error=float(np.nanmax(S["psi"])))
    out.update(r.limit_columns(out))
    printed = run.options.get("rules") == "printed"
    out["max_tracking_error_deg"] = float(np.degrees(np.nanmax(np.abs(S["q_1"] - S["theta_1d"]))))
    span = tb - ta
    x = S["x"]
    out["speed"] = float((x[-1] - x[win][0]) / span)
    turned = abs(S["q_1"][-1] - S["q_1"][win][0])
    out["crank_period_measured"] = float(2 * math.pi * span / turned) if turned > 0 else math.nan
    # touch-downs after >= T/4 of flight (the twin's rule) in the window
    strides, last_off = [], None
    los = sorted(run.liftoffs)
    for td in run.touchdowns:
        if last_off is None or td["t"] - last_off >= T / 4:
            strides.append(td)
        later = [lo for lo in los if lo >= td["t"]]
        last_off = later[0] if later else math.inf
    tdw = [d for d in strides if d["t"] >= ta]
    out["touchdowns"] = len(strides)
    out["stride_time"] = float(np.mean(np.diff([d["t"] for d in tdw]))) if len(tdw) >= 2 else math.nan
    revs = turned / (2 * math.pi) if printed else ncyc - k0
    out["touchdowns_per_revolution"] = float(len(tdw) / revs) if revs > 0 else math.nan
    out["stride_length"] = out["speed"] * (out["stride_time"] if printed else T)
    # duty factor from the events (exact): stance time in the window / its length
    stance_t, on = 0.0, None
    # at one instant a touch-down comes before its lift-off (an impact without stance: zero length)
    events = sorted([(d["t"], 1) for d in run.touchdowns] + [(lo, 0) for lo in los], key=lambda e: (e[0], -e[1]))
    for te, kind in events + [(tb, 0)]:
        if kind == 1 and on is None:
            on = te
        elif kind == 0 and on is not None:
            stance_t += max(0.0, min(te, tb) - max(on, ta))
            on = None
    out["duty_factor"] = stance_t / span
    out["impact_force"] = math.nan
    imp = [d["impulse"].imag for d in run.touchdowns if d["t"] >= ta]
    out["impact_impulse"] = float(np.median(imp)) if imp else 0.0
    out["impact_energy_loss"] = float(np.median([d["ke_before"] - d["ke_after"] for d in run.touchdowns
                                                 if d["t"] >= ta])) if imp else 0.0
    dt = t[1] - t[0]
    fn = np.nan_to_num(S["F_N"][win])
    out["stance_impulse"] = float((np.sum(fn) * dt + sum(imp)) / len(tdw)) if tdw else math.nan   # per touch-down
    out["pull_fraction"] = float(np.mean(fn[st[win]] < 0)) if st[win].any() else 0.0
    out["grazing_impacts"] = len(run.grazes)
    out["painleve_impasses"] = len(run.impasses)
    out["slide_fraction"] = float(np.mean(S["sliding"][win & st] > 0.5)) if (win & st).any() else 0.0
    fs = st & (S["F_N"] > 0)          # friction the no-slip pivot needs: |F_T| / F_N (the twin has mu)
    out["max_friction_ratio"] = float(np.nanmax(np.abs(S["F_T"][fs]) / S["F_N"][fs])) if fs.any() else 0.0
    sw_ = st & win
    # stance samples whose foot force lies outside the cone mu (relative 1e-6: a sliding foot sits on it)
    out["slip_fraction"] = (float(np.mean(np.abs(S["F_T"][sw_]) > p.mu * S["F_N"][sw_] * (1 + 1e-6)))
                            if sw_.any() else 0.0)
    out["height_min"], out["height_max"] = float(np.nanmin(S["y"][win])), float(np.nanmax(S["y"][win]))
    if printed:       # advance per stride, touch-down to touch-down
        adv = list(np.diff(np.interp([d["t"] for d in tdw], t, x)))
    else:
        adv = [x[min(len(x) - 1, (k + 1) * PEAK_SAMPLES)] - x[k * PEAK_SAMPLES] for k in range(k0, ncyc)]
    out["steady"] = bool(len(adv) >= 2 and np.ptp(adv[-2:]) <= 0.002 * max(abs(np.mean(adv[-2:])), 1e-9))
    out["min_point_height"] = math.nan
    return out
