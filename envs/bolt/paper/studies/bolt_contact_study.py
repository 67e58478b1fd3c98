"""BOLT foot contact study: candidate twin foot contacts, each at two timesteps, judged
against the paper model (engine=paper) at every compared crank period at once.  The reference is the
committed models/bolt/paper_reference.csv (the paper model at the bolt_twin_vs_paper inputs, written by
gaittwin.bolt.paper.studies.bolt_paper_reference, checked against a fresh run in CI), or a `results.csv` of
`experiment=bolt_twin_vs_paper` (its *_paper columns); tolerances stated first: speed within 10 % (relative),
duty factor within 0.05, one touch-down per revolution.  Prints a table; ~2 min with nice.

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_contact_study [--reference outputs/bolt_twin_vs_paper/<date>/results.csv]
"""
import argparse
import csv
import pathlib

import numpy as np

from ...robot import Bolt
from ....core.engines import batch
from ....core.model.paths import MODELS

REFERENCE = MODELS / "bolt" / "paper_reference.csv"

TOL_SPEED, TOL_DUTY = 0.10, 0.05
# name -> twin parameters (physical reading in models/bolt/README.md "Foot contact study")
CANDIDATES = {
    "rigid 1 ms (default)": {},
    "rigid 2 ms": dict(contact_timeconst=0.002),
    "rigid 5 ms": dict(contact_timeconst=0.005),
    "rubber pad 2.3e5 N/m, 20 N s/m": dict(pad_stiffness=2.3e5),
    "rubber pad, 200 N s/m": dict(pad_stiffness=2.3e5, pad_damping=200.0),
    # patched into the compiled model (not Bolt parameters; README "Phase budget")
    "dampratio 2 (k/4, same damping)": dict(_model=dict(solref=[0.001, 2.0])),
    "direct solref [-1e6, -4000] (same spring, damping ratio 2)": dict(_model=dict(solref=[-1e6, -4000.0])),
    "direct solref [-1e6, -8000] (damping ratio 4)": dict(_model=dict(solref=[-1e6, -8000.0])),
    "direct solref [-1e6, -16000] (damping ratio 8)": dict(_model=dict(solref=[-1e6, -16000.0])),
    "elliptic cone, impratio 10": dict(_model=dict(cone=1, impratio=10.0)),
    "noslip_iterations 10": dict(_model=dict(noslip_iterations=10)),
    # spring-free dampers (README "Foot impact test").  The rows with loops of 0.05 / 0.025 ms
    # need --timesteps 2.5e-5 1.25e-5 (/ 1.25e-5: the loops' time constant is at least two steps)
    "damper K 1e4, B 5000": dict(_model=dict(solref=[-1e4, -5000.0])),
    "damper K 1e2, B 5000": dict(_model=dict(solref=[-1e2, -5000.0])),
    "rigid 1 ms (default), loops 0.05 ms": dict(loop_timeconst=5e-5),
    **{f"damper K 0, B {b}, solimp 0.99-0.999, loops 0.05 ms": dict(
        loop_timeconst=5e-5, _model=dict(solref=[0.0, -float(b)], solimp=[0.99, 0.999, 0.001]))
       for b in (2000, 3000, 10000, 20000)},
    "foot_contact=plastic, loops 0.05 ms (B 5000)": dict(foot_contact="plastic", loop_timeconst=5e-5),
    "damper K 0, B 5000, solimp 0.99-0.999, loops 0.025 ms": dict(
        loop_timeconst=2.5e-5, _model=dict(solref=[0.0, -5000.0], solimp=[0.99, 0.999, 0.001])),
    "foot_contact=plastic, loops 0.025 ms (B 10000)": dict(foot_contact="plastic", loop_timeconst=2.5e-5),
}


def patched(robots, patch):
    """Apply a candidate's model patch (foot solref, cone, impratio, noslip) to the robots' compiled
    models; returns a function that restores them."""
    saved = []
    for m in {id(r.model()): r.model() for r in robots}.values():
        f = m.geom("foot").id
        saved.append((m, m.geom_solref[f].copy(), m.geom_solimp[f].copy(), m.opt.cone, m.opt.impratio,
                      m.opt.noslip_iterations))
        if "solref" in patch:
            m.geom_solref[f] = patch["solref"]
        if "solimp" in patch:
            m.geom_solimp[f, :3] = patch["solimp"]
        m.opt.cone = patch.get("cone", m.opt.cone)
        m.opt.impratio = patch.get("impratio", m.opt.impratio)
        m.opt.noslip_iterations = patch.get("noslip_iterations", m.opt.noslip_iterations)

    def restore():
        for m, sr, si, cone, imp, ns in saved:
            m.geom_solref[m.geom("foot").id] = sr
            m.geom_solimp[m.geom("foot").id] = si
            m.opt.cone, m.opt.impratio, m.opt.noslip_iterations = cone, imp, ns
    return restore


def reference(path: pathlib.Path) -> dict:
    """crank period -> (speed, duty factor) of the paper model where it runs one touch-down per revolution,
    from the committed reference (plain metric names) or a bolt_twin_vs_paper results.csv (*_paper)."""
    out = {}
    for r in csv.DictReader(path.open()):
        col = (lambda k: r[f"{k}_paper"]) if "speed_paper" in r else (lambda k: r[k])   # noqa: E731
        if col("touchdowns_per_revolution") and float(col("touchdowns_per_revolution")) == 1.0:
            out[float(r["crank_period"])] = (float(col("speed")), float(col("duty_factor")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", default=REFERENCE, type=pathlib.Path)
    ap.add_argument("--cycles", type=int, default=6)
    ap.add_argument("--timesteps", type=float, nargs="+", default=[1e-4, 5e-5])
    ap.add_argument("--only", nargs="*", default=None, help="candidate names to run (default: all)")
    ap.add_argument("--bumper", default="0.40", help="the reference run's robot.bumper_height (m, or none)")
    a = ap.parse_args()
    ref = reference(a.reference)
    periods = sorted(ref)
    bumper = None if a.bumper.lower() in ("none", "null") else float(a.bumper)
    print(f"reference: {a.reference} (paper model, bumper {bumper}); periods {periods}; "
          f"tolerances: speed {TOL_SPEED:.0%}, duty {TOL_DUTY}")
    print("| candidate | timestep [s] | " + " | ".join(f"{T:g} s: speed / duty / td per rev" for T in periods)
          + " | max speed error | max duty error | within target at all |")
    print("|---" * (len(periods) + 5) + "|")
    for name, extra in CANDIDATES.items():
        if a.only is not None and name not in a.only:
            continue
        for dt in a.timesteps:
            params = {k: v for k, v in extra.items() if k != "_model"}
            robots = [Bolt(**dict(params, crank_period=T, timestep=dt, bumper_height=bumper)) for T in periods]
            restore = patched(robots, extra.get("_model", {}))
            try:
                runs = batch.run_points(robots, Bolt, cycles=a.cycles, nthread=1)
            finally:
                restore()
            cells, ev, ed, ok = [], [], [], True
            for T, r, run in zip(periods, robots, runs):
                s = r.summarize(run) if not run.error else {}
                v, d, n = s.get("speed", np.nan), s.get("duty_factor", np.nan), s.get("touchdowns_per_revolution", np.nan)
                vp, dp = ref[T]
                ev.append(abs(v - vp) / abs(vp))
                ed.append(abs(d - dp))
                ok &= bool(n == 1 and ev[-1] <= TOL_SPEED and ed[-1] <= TOL_DUTY and not run.problem)
                cells.append(f"{v:.3f} / {d:.3f} / {n:.2f}" + (" (flagged)" if run.problem else ""))
            print(f"| {name} | {dt:g} | " + " | ".join(cells) + f" | {max(ev):.1%} | {max(ed):.3f} | {ok} |", flush=True)


if __name__ == "__main__":
    main()
