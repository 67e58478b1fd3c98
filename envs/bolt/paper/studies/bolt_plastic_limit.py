"""BOLT's plastic foot as a limit: the paper's Sec. 4.4 impact is rigid, plastic, instantaneous;
the twin's `foot_contact=plastic` is a spring-free damper of rate B = 0.25 / loop_timeconst, which reaches
that limit only as B -> infinity, with the loop closures' time constant -> 0 (stiffer than the foot, else
they rebound it) and the step -> 0 (two steps per loop time constant).  So the setting is a convergence
sequence, not a pick.  Written before the runs (models/bolt/README.md "Plastic foot as a limit"):

* Ladder: rung k has loop_timeconst = 2e-4 / 2^k s, timestep = loop_timeconst / 2, B = 0.25 / loop_timeconst
  (k = 0: the default loops and step, B 1250; k = 2: B 5000, the option's first setting; k = 4: B 20000).
  Rungs 0-1 (loops softer than `foot_contact=plastic` accepts) patch the same foot into the compiled model.
* Every rung runs the same inputs: bumper 0.40 m, 6 revolutions from rest, metrics over the last 3 (as
  experiment=bolt_twin_vs_paper), at every crank period where the paper model runs one touch-down per
  revolution (models/bolt/paper_reference.csv, or a bolt_twin_vs_paper results.csv).
* Convergence rule: the change from rung k to k+1 is within TOL_STEP_SPEED (2 % of the paper model's speed)
  and TOL_STEP_DUTY (0.01) at every period -- a fifth of the twin-vs-paper-model target (10 %, 0.05), so what the
  sequence still moves is small against the target.  The chosen rung is the first such k (the coarser of the
  two), not the one that meets the target.  A period where one of the last three rungs runs other than one
  touch-down per revolution, or is flagged, is skipped in the rule and the limit (said in the output); a
  missing value (NaN) fails the rule.  Converging: the changes shrink rung by rung; then a
  Richardson-style limit from the last three rungs (ratio r = d_{k-1} / d_k, limit = v_k + d_k / (r - 1)).
  The target (speed 10 %, duty 0.05) is then read off at the chosen rung and at the estimated limit.

    nice -n 10 .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_plastic_limit [--rungs 0 1 2 3 4] [--reference CSV]
"""
import argparse
import math
import pathlib

import numpy as np


from ...model import PLASTIC_MAX_LOOP_TIMECONST, PLASTIC_RATE, plastic_contact
from ...robot import Bolt
from ....core.engines import batch

from .bolt_contact_study import REFERENCE, patched, reference

TOL_SPEED, TOL_DUTY = 0.10, 0.05            # the target, twin vs paper model
TOL_STEP_SPEED, TOL_STEP_DUTY = 0.02, 0.01  # the convergence rule: change from one rung to the next
LOOP0 = 2e-4                                # rung 0: the default loop time constant


def rung(k: int) -> dict:
    """Rung k's settings: loop time constant, time step, damper rate B."""
    tau = LOOP0 / 2 ** k
    return dict(loop_timeconst=tau, timestep=tau / 2, B=PLASTIC_RATE / tau)


def run_rung(k: int, periods, cycles: int, bumper) -> list:
    """(speed, duty, touch-downs per revolution, flagged) per period at rung k."""
    s = rung(k)
    option = s["loop_timeconst"] <= PLASTIC_MAX_LOOP_TIMECONST
    robots = [Bolt(**(dict(foot_contact="plastic") if option else {}), crank_period=T, bumper_height=bumper,
                   loop_timeconst=s["loop_timeconst"], timestep=s["timestep"]) for T in periods]
    # below the option's accepted loops: the same foot (model.plastic_contact) patched into the compiled model
    patch = {} if option else dict(zip(("solref", "solimp"), plastic_contact(robots[0].p)))
    restore = patched(robots, patch)
    try:
        runs = batch.run_points(robots, Bolt, cycles=cycles, nthread=1)
    finally:
        restore()
    out = []
    for r, run in zip(robots, runs):
        m = r.summarize(run) if not run.error else {}
        out.append((m.get("speed", np.nan), m.get("duty_factor", np.nan),
                    m.get("touchdowns_per_revolution", np.nan), bool(run.problem or run.error)))
    return out


def usable(res: dict, periods) -> list:
    """Per period: True where each of the last three rungs ran one touch-down per revolution, unflagged (the
    rule and the limit compare only those; a missing value, NaN, is not 1)."""
    last = sorted(res)[-3:]
    return [all(res[k][i][2] == 1 and not res[k][i][3] for k in last) for i in range(len(periods))]


def rule(res: dict, ref: dict, periods) -> list:
    """(k0, k1, speed changes, duty changes, within) per pair of successive rungs, over the usable periods:
    within only if every change is <= its tolerance (a NaN change fails)."""
    use = usable(res, periods)
    ks, out = sorted(res), []
    for k0, k1 in zip(ks, ks[1:]):
        dv = [abs(res[k1][i][0] - res[k0][i][0]) / ref[T][0] for i, T in enumerate(periods) if use[i]]
        dd = [abs(res[k1][i][1] - res[k0][i][1]) for i, T in enumerate(periods) if use[i]]
        within = bool(dv) and all(x <= TOL_STEP_SPEED for x in dv) and all(x <= TOL_STEP_DUTY for x in dd)
        out.append((k0, k1, dv, dd, within))
    return out


def richardson(values):
    """Limit estimate from the last three values of a sequence whose changes shrink geometrically
    (same sign, ratio r > 1); None otherwise.  Returns (limit, ratio)."""
    a, b, c = values[-3:]
    d1, d2 = b - a, c - b
    if d2 == 0:
        return c, math.inf
    r = d1 / d2
    if r <= 1:
        return None, r
    return c + d2 / (r - 1), r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=REFERENCE, type=pathlib.Path)
    ap.add_argument("--rungs", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--cycles", type=int, default=6)
    ap.add_argument("--bumper", type=float, default=0.40)
    a = ap.parse_args()
    ref = reference(a.reference)
    periods = sorted(ref, reverse=True)
    print(f"reference {a.reference}: periods {periods}; target speed {TOL_SPEED:.0%}, duty {TOL_DUTY}; "
          f"convergence: change to the next rung <= {TOL_STEP_SPEED:.0%} of the paper speed, duty <= {TOL_STEP_DUTY}")
    print("| rung | loops [s] | dt [s] | B [1/s] | " + " | ".join(f"{T:g} s: speed / duty (err %, d)" for T in periods)
          + " | max speed err | max duty err | target |")
    print("|---" * (len(periods) + 7) + "|")
    res = {}
    for k in a.rungs:
        s = rung(k)
        res[k] = run_rung(k, periods, a.cycles, a.bumper)
        ev = [(v - ref[T][0]) / abs(ref[T][0]) for T, (v, d, n, f) in zip(periods, res[k])]
        ed = [d - ref[T][1] for T, (v, d, n, f) in zip(periods, res[k])]
        ok = all(n == 1 and not f and abs(e) <= TOL_SPEED and abs(g) <= TOL_DUTY
                 for (v, d, n, f), e, g in zip(res[k], ev, ed))
        cells = [f"{v:.3f} / {d:.3f} ({e:+.1%}, {g:+.3f})" + ("" if n == 1 else f" {n:.2f} td/rev") + (" flagged" if f else "")
                 for (v, d, n, f), e, g in zip(res[k], ev, ed)]
        print(f"| {k} | {s['loop_timeconst']:g} | {s['timestep']:g} | {s['B']:g} | " + " | ".join(cells)
              + f" | {np.max(np.abs(ev)):.1%} | {np.max(np.abs(ed)):.3f} | {'met' if ok else 'no'} |", flush=True)
    ks, use = sorted(res), usable(res, periods)
    skipped = [T for T, u in zip(periods, use) if not u]
    print(f"\nskipped in the rule and the limit (a last-three rung off one touch-down per revolution or flagged): "
          f"{', '.join(f'{T:g} s' for T in skipped) or 'none'}")
    print("change to the next rung (speed: % of the paper speed; duty):")
    chosen = None
    for k0, k1, dv, dd, within in rule(res, ref, periods):
        chosen = k0 if within and chosen is None else chosen
        print(f"  {k0} -> {k1}: speed max {np.max(dv):.1%} ({', '.join(f'{x:.1%}' for x in dv)}); duty max "
              f"{np.max(dd):.3f} ({', '.join(f'{x:.3f}' for x in dd)}) -> {'within' if within else 'over'} the rule")
    print(f"chosen rung (first within the rule): {chosen}")
    if len(ks) >= 3:
        print("\nRichardson-style limit from the last three rungs (speed, duty; error against the paper model):")
        for i, T in enumerate(periods):
            if not use[i]:
                print(f"  {T:g} s: skipped")
                continue
            lv, rv = richardson([res[k][i][0] for k in ks])
            ld, rd = richardson([res[k][i][1] for k in ks])
            sv = "none (changes not shrinking)" if lv is None else f"{lv:.3f} (r {rv:.2f}, {(lv - ref[T][0]) / ref[T][0]:+.1%})"
            sd = "none (changes not shrinking)" if ld is None else f"{ld:.3f} (r {rd:.2f}, {ld - ref[T][1]:+.3f})"
            print(f"  {T:g} s: speed {sv}; duty {sd}; paper {ref[T][0]:.3f} / {ref[T][1]:.3f}")


if __name__ == "__main__":
    main()
