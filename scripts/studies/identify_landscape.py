#!/usr/bin/env python
"""The cost landscape of an identification: 1-D cuts of a fit's cost through the hidden values.

Synthetic data written by the twin at hidden values (as scripts/identify_targets.py --full: 3 cycles, 1 % noise,
a random time offset, seed 4), then the fit's own cost (envs/core/identify_problem.Problem: the sum of squared
residuals in units of each channel's spread, time offset profiled out) along each fitted parameter with the
others held at their hidden values: a coarse cut over +-`--span` and a fine cut over +-`--fine` (relative).
Printed per cut: the cost at the truth, the lowest cost on the cut and where, the number of local minima on the
cut (a point lower than both neighbours: a jagged cost has many), and the cost's roughness (the RMS of its second
difference against the RMS of the cost's rise over the cut).  Calibration data, not validation.

    python scripts/studies/identify_landscape.py bolt        # m_5, contact_timeconst
    python scripts/studies/identify_landscape.py miniaq      # mu_d, kp
    python scripts/studies/identify_landscape.py miniaq --channels x fl_crank fr_crank hl_crank hr_crank
    python scripts/studies/identify_landscape.py bolt --record-every-step   # the fit's twin sampled at every step
    options: --points N (per cut, default 21), --span R (0.10), --fine R (0.01), --cycles N (3), --json FILE

Measured (2026-11-27, 11 points per cut; README "Targets"): BOLT's cost is a broad valley (x 3.3 at m_5 +-10 %)
with teeth of 3-13 % of its value between points 0.2 % apart (z, x, foot_x); recording the fit's twin at every step
instead of 200 samples per cycle changed no cost by more than 1 %, so the teeth are the dynamics' (contact events),
not the interpolation of the record.  MinIAQ-II's x and cranks hardly move with mu_d or kp (+-10 %: within 1.5 x the
noise); yaw carries both, and jumps 20-fold between points 0.4 % apart in mu_d; along kp no valley is visible at
+-10 % (the cost 1-5 x its value at the truth, irregularly).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
import pathlib

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))   # scripts/: _cli
import _cli  # noqa: E402

CASES = {  # robot: (base overrides, hidden values): the hard pairs (identify_targets.py's FULL, less the crawler's flat impratio)
    "bolt": (["robot.m_5=0.9754"], {"m_5": 1.05, "contact_timeconst": 0.0012}),
    "miniaq": ([], {"mu_d": 0.33, "kp": 0.55}),
    "crawler": (["robot.omega=5"], {"mu": 0.2, "m0": 0.22}),
}


def problem(root: pathlib.Path, robot: str, cycles: int, channels, seed: int = 4, fine_record=False):
    """(Problem, hidden x) for the synthetic case of `robot` written under root: the identify runner's own fit
    (envs/core/identify.problem_of), the hidden values as its fitted params."""
    from gaittwin.core.runs import config
    from gaittwin.core.runs.experiment import run
    from gaittwin.core.analysis.identify import problem_of
    base, hidden = CASES[robot]
    (root / "data").mkdir(parents=True, exist_ok=True)
    run(config.compose([f"experiment={robot}_trajectory", *base, *[f"robot.{k}={v}" for k, v in hidden.items()],
                        f"experiment.cycles={cycles}", "experiment.noise_rel=0.01", "experiment.time_offset=null",
                        f"experiment.seed={seed}", "run.progress=false"]), root / "data")
    over = [f"experiment={robot}_identify", *base, f"experiment.data={root / 'data' / 'trajectory.csv'}",
            f"experiment.params=[{','.join(hidden)}]", "run.progress=false"]
    if channels:
        over.append(f"experiment.channels=[{','.join(channels)}]")
    cfg = config.compose(over)
    if fine_record:             # the fit's twin recorded at every step (the data keep the twin's usual sampling)
        nominal = config.robot_point(cfg)
        type(nominal).samples_per_cycle = nominal.steps_per_cycle
    (root / "fit").mkdir(exist_ok=True)
    p, _, _ = problem_of(cfg, root / "fit")
    return p, np.array([hidden[k] for k in p.names], float)


def cut(p, x_true, j: int, rel) -> dict:
    X = [np.where(np.arange(len(x_true)) == j, x_true[j] * (1 + r), x_true) for r in rel]
    rows = p.evaluate(X)
    cost = np.array([row["cost"] for row in rows])
    # each channel's share of the cost: (w rms / scale)^2, its contribution to `cost`
    share = {c: [float((w * float(row[f"rms_{c}"]) / p.scale[c]) ** 2) for row in rows]
             for c, w in zip(p.channels, p.weights)}
    inner = (cost[1:-1] < cost[:-2]) & (cost[1:-1] < cost[2:])
    k = int(np.argmin(cost))
    rise = float(np.sqrt(np.mean((cost - cost.min()) ** 2)))
    return dict(rel=[float(r) for r in rel], cost=cost.tolist(), argmin_rel=float(rel[k]), min_cost=float(cost[k]),
                local_minima=int(inner.sum()), channel_cost=share, roughness=float(np.sqrt(np.mean(np.diff(cost, 2) ** 2))) / max(rise, 1e-300))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("robot", choices=sorted(CASES))
    ap.add_argument("--points", type=int, default=21)
    ap.add_argument("--span", type=float, default=0.10)
    ap.add_argument("--fine", type=float, default=0.01)
    ap.add_argument("--cycles", type=int, default=3)
    ap.add_argument("--channels", nargs="*")
    ap.add_argument("--record-every-step", action="store_true",
                    help="the fit's twin recorded at every step, not at samples_per_cycle (interpolation error)")
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    if a.points < 3 or not 0 < a.fine <= a.span < 1 or a.cycles < 1:
        print("error: --points >= 3, 0 < --fine <= --span < 1, --cycles >= 1", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        p, x = problem(pathlib.Path(tmp), a.robot, a.cycles, a.channels, fine_record=a.record_every_step)
        truth = p.evaluate([x])[0]["cost"]
        print(f"{a.robot}: channels {p.channels}, cost at the hidden values {truth:.4g}")
        out = dict(robot=a.robot, channels=p.channels, hidden=dict(zip(p.names, x.tolist())), truth_cost=truth, cuts={})
        for j, name in enumerate(p.names):
            for label, span in (("coarse", a.span), ("fine", a.fine)):
                c = cut(p, x, j, np.linspace(-span, span, a.points))
                out["cuts"][f"{name} {label}"] = c
                print(f"  {name} +-{100 * span:g} %: min {c['min_cost']:.4g} at {100 * c['argmin_rel']:+.2f} %, "
                      f"{c['local_minima']} local minima, roughness {c['roughness']:.2f}")
                print("    cost / truth: " + " ".join(f"{q / truth:.3g}" for q in c["cost"]))
                for ch, v in c["channel_cost"].items():
                    print(f"      {ch:>9}: " + " ".join(f"{q / truth:.3g}" for q in v))
    out["wall_s"] = time.perf_counter() - t0
    print(f"wall {out['wall_s']:.0f} s")
    return _cli.finish(out, a.json)


if __name__ == "__main__":
    raise SystemExit(main())
