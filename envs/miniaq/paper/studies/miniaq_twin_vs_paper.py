#!/usr/bin/env python
"""MinIAQ-II: the MuJoCo twin beside the paper's own model (envs/miniaq/paper/model.py).

Prints the numbers behind models/miniaq/README.md ("Twin vs the paper's model"):

  python -m gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper              # trot + turn, both engines (about 1 min)
  python -m gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper --tolerance  # the paper engine's integrator/tolerance study
  python -m gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper --differences  # the four twin/paper differences, one at a time
  python -m gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper --contact      # the twin's contact laws vs the paper engine, dt study
  python -m gaittwin.miniaq.paper.studies.miniaq_twin_vs_paper --phase-error  # the support pattern vs the +-20 deg phase error
  options: --cycles N (default 13: the paper's 5 s at 2.5 Hz), --json FILE (all numbers)

The summary window is the twin's: cycles 2..N (the first cycle is settling).  "twin power" is the
twin with contact_law=power, "paper" is eq. 15 as printed (not clipped), "paper clipped" uses max(F_N, 0).
"""
from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from ....core.engines import batch
from ....core.model import metrics
from .. import model as paper
from ...robot import LEGS, MiniAQ
from ....core.runs.study import finish

CASES = {"trot": dict(), "turn": dict(direction_left=-1)}
ROWS = [("speed", "speed (mm/s)", 1e3), ("drift_y", "lateral drift (mm/s)", 1e3),
        ("yaw_rate_deg_s", "yaw rate (deg/s)", 1), ("roll_amplitude_deg", "roll amplitude (deg)", 1),
        ("pitch_amplitude_deg", "pitch amplitude (deg)", 1), ("pitch_mean_deg", "pitch mean (deg)", 1),
        ("height_mean", "centroid height (mm)", 1e3)] \
    + [(f"{leg}_duty_factor", f"duty factor {leg}", 1) for leg in LEGS] \
    + [(f"support_{k}", f"time on {k} legs", 1) for k in (2, 3, 4)] + [("support_le1", "time on <2 legs", 1)] \
    + [(f"{leg}_drag_fraction", f"drag fraction {leg}", 1) for leg in LEGS] \
    + [(f"{leg}_touchdowns_per_cycle", f"touchdowns/cycle {leg}", 1) for leg in LEGS] \
    + [(f"{leg}_duty_factor_10mN", f"duty factor {leg}, F_N > 10 mN", 1) for leg in LEGS] \
    + [(f"support_{k}_10mN", f"time on {k} legs, F_N > 10 mN", 1) for k in (2, 3, 4)] \
    + [("motor_torque_max", "motor torque max (mN m)", 1e3), ("fn_min", "min normal force (N)", 1),
       ("fn_min_dense", "min F_N, dense (N)", 1)] \
    + [(f"{leg}_pull_ms_per_cycle", f"pull time {leg} (ms/cycle)", 1) for leg in LEGS] \
    + [(f"{leg}_pull_impulse_fraction", f"pull impulse / push {leg}", 1) for leg in LEGS] \
    + [("wall_per_sim_s", "wall s per simulated s", 1), ("cpu_per_sim_s", "CPU s per simulated s", 1)]


LOAD = 0.01     # N: a second contact threshold, 4 % of m g (the summary's is 1e-4 N)


def load_pattern(run, spc) -> dict:
    """Duty factors and support fractions counting a foot as down only above LOAD newtons."""
    fn = np.stack([run.sensor(f"{leg}_touch")[spc:, 0] for leg in LEGS], axis=1)
    sf = metrics.support_fractions(fn > LOAD)
    out = {f"{leg}_duty_factor_10mN": metrics.duty_factor(fn[:, j] > LOAD) for j, leg in enumerate(LEGS)}
    out.update({f"support_{k}_10mN": sf[k] for k in (2, 3, 4)})
    return out


def twin(params, cycles):
    r = MiniAQ(**params)
    t0, c0 = time.perf_counter(), time.process_time()
    run = batch.run_point(r, MiniAQ, cycles=cycles, stop_when_steady=False, nthread=1)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if run.error:
        raise RuntimeError(run.error)
    s = r.summarize(run)
    s["wall_per_sim_s"] = wall / float(run.t[-1])
    s["cpu_per_sim_s"] = cpu / float(run.t[-1])
    s.update(load_pattern(run, r.samples_per_cycle))
    return s


def paper_engine(params, cycles, **kw):
    run = paper.simulate(params, cycles=cycles, **kw)
    if run.error:
        raise RuntimeError(run.error)
    s = paper.summarize(run)
    s["wall_per_sim_s"] = run.wall_s / float(run.t[-1])
    s["cpu_per_sim_s"] = run.cpu_s / float(run.t[-1])
    s.update(load_pattern(run, run.robot.samples_per_cycle))
    return s


def pulling(params, cycles=3, spc=20000) -> dict:
    """Eq. 15 as printed, sampled densely (T / 20000) over cycles 2..: how long and how hard the
    feet pull (F_N < 0 while penetrating), per leg and cycle."""
    run = paper.simulate(params, cycles=cycles, samples_per_cycle=spc)
    fn = run.extra["FN"][spc:]
    dt = run.robot.period / spc
    n_cyc = cycles - 1
    pull = np.minimum(fn, 0.0)
    return dict(fn_min_dense=float(fn.min()),
                **{f"{leg}_pull_ms_per_cycle": float(np.sum(fn[:, j] < 0) * dt / n_cyc * 1e3) for j, leg in enumerate(LEGS)},
                **{f"{leg}_pull_impulse_fraction": float(pull[:, j].sum() / fn[:, j].clip(min=0).sum())
                   for j, leg in enumerate(LEGS)})


def _fmt(v, scale):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v * scale:.3g}" if abs(v * scale) < 1000 else f"{v * scale:.0f}"


def comparison(cycles):
    out = {}
    for case, params in CASES.items():
        cols = {"twin": twin(params, cycles), "twin power": twin(dict(params, contact_law="power"), cycles),
                "paper": paper_engine(params, cycles), "paper clipped": paper_engine(params, cycles, clip_normal=True)}
        cols["paper"].update(pulling(params, cycles=min(cycles, 3)))
        out[case] = cols
        print(f"\n{case} ({params or 'default point'}), {cycles} cycles at 2.5 Hz, metrics over cycles 2..{cycles}")
        print(f"| {'quantity':26s} | " + " | ".join(f"{c:>13s}" for c in cols) + " |")
        print("|" + "-" * 28 + "|" + "|".join("-" * 15 for _ in cols) + "|")
        for key, label, scale in ROWS:
            print(f"| {label:26s} | " + " | ".join(f"{_fmt(cols[c].get(key), scale):>13s}" for c in cols) + " |")
    return out


TOL_KEYS = ("speed", "roll_amplitude_deg", "pitch_amplitude_deg", "support_3", "hl_duty_factor", "fl_drag_fraction")


def _tol_row(case, method, rtol, atol, ref, sref, max_step=None):
    run = paper.simulate(CASES[case], cycles=len(ref.cycle_values), method=method, rtol=rtol, atol=atol,
                         max_step=max_step)
    ms = "T/20" if max_step is None else f"{max_step:g}"
    if run.error:
        print(f"| {case} | {method} | {rtol:g} | {atol:g} | {ms} | failed: {run.error} |")
        return None
    s = paper.summarize(run)
    dx = float(np.abs(run.X[:, 0:3] - ref.X[:, 0:3]).max()) * 1e3
    d = {k: s[k] - sref[k] for k in TOL_KEYS}
    print(f"| {case} | {method} | {rtol:g} | {atol:g} | {ms} | {run.cpu_s / run.t[-1]:.2f} | {run.nfev} | {dx:.2g} | "
          + " | ".join(f"{v:+.1g}" for v in d.values()) + " |", flush=True)
    return dict(case=case, method=method, rtol=rtol, atol=atol, max_step=ms, cpu_per_sim_s=run.cpu_s / run.t[-1],
                wall_per_sim_s=run.wall_s / run.t[-1],
                nfev=run.nfev, max_dx_mm=dx, **{f"d_{k}": v for k, v in d.items()})


def tolerance(cycles):
    """Wall time and deviation from a tight reference (Radau, rtol 1e-9), per method and rtol
    (atol = 1e-3 rtol, in m, rad, m/s, rad/s); then the non-stiff RK45, no step limit, and turning."""
    refs = {}
    for case in ("trot", "turn"):
        ref = paper.simulate(CASES[case], cycles=cycles, method="Radau", rtol=1e-9, atol=1e-12)
        refs[case] = (ref, paper.summarize(ref))
        print(f"reference {case}: Radau rtol 1e-9 atol 1e-12 ({ref.wall_s:.1f} s wall for {ref.t[-1]:.2f} s): "
              + ", ".join(f"{k} {refs[case][1][k]:.5g}" for k in TOL_KEYS))
    print("| case | method | rtol | atol | max_step | CPU s / sim s | nfev | max abs(dP) (mm) | "
          + " | ".join(f"d {k}" for k in TOL_KEYS) + " |")
    print("|---|---|---|---|---|---|---|---|" + "---|" * len(TOL_KEYS))
    rows = []
    for method in paper.METHODS:
        for rtol in (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8):
            rows.append(_tol_row("trot", method, rtol, 1e-3 * rtol, *refs["trot"]))
    rows.append(_tol_row("trot", "LSODA", 1e-6, 1e-9, *refs["trot"], max_step=np.inf))
    for rtol in (1e-3, 1e-6):
        rows.append(_tol_row("trot", "RK45", rtol, 1e-3 * rtol, *refs["trot"]))
    for rtol in (1e-4, 1e-6):
        rows.append(_tol_row("turn", "LSODA", rtol, 1e-3 * rtol, *refs["turn"]))
    return dict(reference={k: v[1] for k, v in refs.items()}, rows=[r for r in rows if r])


# One difference at a time (trot, default point).  Paper engine: switched towards the twin.
# Twin: switched towards the paper.  A row is (engine, label, robot params, paper.simulate kwargs).
DIFFERENCES = [
    ("paper", "paper model (reference)", {}, {}),
    ("paper", "contact: linear secant stiffness (damping STEP)", {}, dict(stiffness="secant")),
    ("paper", "contact: constant damping (stiffness K d^2)", {}, dict(damping="constant")),
    ("paper", "contact: twin's linear law (secant + constant C)", {}, dict(stiffness="secant", damping="constant")),
    ("paper", "friction: one mu = mu_d = 0.3", {}, dict(mu_s=0.3)),
    ("paper", "friction: one mu, stiction (V_s = 0.1 mm/s)", {}, dict(mu_s=0.3, V_s=1e-4, V_d=1e-3)),
    ("mujoco", "twin (default)", {}, None),
    ("mujoco", "legs 20x lighter (m_leg 0.01 g)", dict(m_leg=1e-5), None),
    ("mujoco", "legs 5x heavier (m_leg 1 g)", dict(m_leg=1e-3), None),
    ("mujoco", "rotor inertia 1e-8 (100x less)", dict(armature=1e-8), None),
    ("mujoco", "motor: ideal tracking (kp, kv, tau_max x 20)", dict(kp=10.0, kv=0.04, tau_max=0.2), None),
    ("mujoco", "contact: impedance 0.02 (no added mass)", dict(impedance=0.02), None),
    ("mujoco", "contact: K d^2-shaped solimp (contact_law=power)", dict(contact_law="power"), None),
    ("mujoco", "power contact + ideal motor", dict(contact_law="power", kp=10.0, kv=0.04, tau_max=0.2), None),
    ("mujoco", "power contact + light legs (dt 25 us)", dict(contact_law="power", m_leg=1e-5, timestep=2.5e-5), None),
    ("mujoco", "friction: mu_d = 0.4 (the paper's mu_s)", dict(mu_d=0.4), None),
]
DIFF_KEYS = [("support_2", "2 legs", 1), ("support_3", "3 legs", 1), ("support_le1", "< 2 legs", 1),
             ("hl_duty_factor", "hind duty", 1), ("fl_duty_factor", "front duty", 1),
             ("hl_drag_fraction", "hind drag", 1), ("hl_touchdowns_per_cycle", "hind touchdowns/cycle", 1),
             ("speed", "speed mm/s", 1e3), ("roll_amplitude_deg", "roll deg", 1), ("max_depth_um", "max depth um", 1),
             ("max_loop_gap", "loop gap um", 1e6)]


def _max_depth(run, r) -> float:
    z = np.stack([run.sensor(f"{leg}_foot_pos")[:, 2] for leg in LEGS], axis=1)
    return float((r.p.foot_radius - z).max() * 1e6)


def _one(engine, params, kw, cycles):
    r = MiniAQ(**params)
    if engine == "paper":
        run = paper.simulate(r, cycles=cycles, **kw)
        s = paper.summarize(run)
    else:
        run = batch.run_point(r, MiniAQ, cycles=cycles, stop_when_steady=False, nthread=1)
        if run.error:
            return dict(error=run.error)
        s = r.summarize(run)
    s["max_depth_um"] = _max_depth(run, r)
    return s


def _diff_table(rows, cycles):
    print(f"trot, {cycles} cycles at 2.5 Hz, metrics over cycles 2..{cycles}; deltas from each engine's reference")
    print("| engine | switched | " + " | ".join(k[1] for k in DIFF_KEYS) + " |")
    print("|---|---|" + "---|" * len(DIFF_KEYS))
    for row in rows:
        s = row["summary"]
        if s.get("error"):
            print(f"| {row['engine']} | {row['label']} | failed: {s['error']} |")
            continue
        print(f"| {row['engine']} | {row['label']} | " + " | ".join(_fmt(s.get(k), sc) for k, _, sc in DIFF_KEYS)
              + " |", flush=True)


def differences(cycles):
    """Each of the twin's differences from the paper's model switched alone (DIFFERENCES)."""
    rows = []
    for engine, label, params, kw in DIFFERENCES:
        rows.append(dict(engine=engine, label=label, params=params, kw=kw,
                         summary=_one(engine, params, kw or {}, cycles)))
    _diff_table(rows, cycles)
    return rows


CONTACT_CASES = [("linear", {}), ("power", dict(contact_law="power"))]


def contact_study(cycles):
    """The twin's contact laws against the paper engine, and their convergence in timestep."""
    rows = [dict(engine="paper", label="paper model", summary=_one("paper", {}, {}, cycles))]
    for law, params in CONTACT_CASES:
        for dt in (1e-4, 5e-5, 2.5e-5):
            rows.append(dict(engine="mujoco", label=f"{law}, dt {dt * 1e3:g} ms", params=dict(params, timestep=dt),
                             summary=_one("mujoco", dict(params, timestep=dt), {}, cycles)))
    _diff_table(rows, cycles)
    return rows


def _random_errors(seed, bound=20.0):
    return [round(float(v), 1) for v in np.random.default_rng(seed).uniform(-bound, bound, 4)]


# The paper's +-20 deg phase error (Sec. II), trot: fixed per-leg errors and a slow wander
PHASE_CASES = [("none", {})] + [
    (f"{leg} {e:+d} deg", dict(phase_error_deg=[float(e) if k == leg else 0.0 for k in LEGS]))
    for leg in ("fl", "hl") for e in (-20, 20)] + [
    (f"fixed U(+-20) seed {s}: {_random_errors(s)}", dict(phase_error_deg=_random_errors(s))) for s in (1, 2, 3)] + [
    (f"wander +-{a} deg, seed {s}", dict(phase_wander_deg=float(a), phase_wander_seed=s)) for a in (10, 20)
    for s in (1, 2)]
PHASE_KEYS = [("support_2", "2 legs", 1), ("support_3", "3 legs", 1), ("support_4", "4 legs", 1),
              ("support_le1", "< 2 legs", 1), ("hl_duty_factor", "duty hl", 1), ("hr_duty_factor", "duty hr", 1),
              ("fl_duty_factor", "duty fl", 1), ("fr_duty_factor", "duty fr", 1), ("speed", "speed mm/s", 1e3),
              ("yaw_rate_deg_s", "yaw deg/s", 1)]


def phase_error(cycles):
    """Support pattern vs the phase error, both engines (PHASE_CASES)."""
    rows = []
    print(f"trot, {cycles} cycles at 2.5 Hz, metrics over cycles 2..{cycles}")
    print("| phase error | engine | " + " | ".join(k[1] for k in PHASE_KEYS) + " |")
    print("|---|---|" + "---|" * len(PHASE_KEYS))
    for label, params in PHASE_CASES:
        for engine in ("paper", "mujoco"):
            s = _one(engine, params, {}, cycles)
            rows.append(dict(label=label, engine=engine, params=params, summary=s))
            cells = " | ".join(_fmt(s.get(k), sc) for k, _, sc in PHASE_KEYS) if not s.get("error") else s["error"]
            print(f"| {label} | {ENGINE_NAMES[engine]} | {cells} |", flush=True)
    return rows


ENGINE_NAMES = {"paper": "paper", "mujoco": "twin"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=int, default=13)
    ap.add_argument("--tolerance", action="store_true", help="the integrator/tolerance study instead")
    ap.add_argument("--differences", action="store_true", help="the four differences, one at a time")
    ap.add_argument("--contact", action="store_true", help="the twin's contact laws and timestep convergence")
    ap.add_argument("--phase-error", action="store_true", help="the support pattern vs the paper's phase error")
    ap.add_argument("--json", help="write all numbers to this file")
    args = ap.parse_args(argv)
    if args.tolerance:
        res = tolerance(args.cycles)
    elif args.differences:
        res = differences(args.cycles)
    elif args.contact:
        res = contact_study(args.cycles)
    elif args.phase_error:
        res = phase_error(args.cycles)
    else:
        res = comparison(args.cycles)
    return finish(res, args.json)


if __name__ == "__main__":
    sys.exit(main())
