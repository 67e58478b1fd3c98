"""BOLT's paper model over the speed sweep, written as the committed reference the twin is judged against
(models/bolt/paper_reference.csv: read by gaittwin.bolt.paper.studies.bolt_contact_study, checked against a fresh run by
tests/test_bolt_twin_vs_paper.py).  The inputs of `experiment=bolt_twin_vs_paper` at its defaults: the twin's
bumper (0.40 m), 6 revolutions from rest, the paper engine's default options (Coulomb foot, Radau, rtol 1e-7,
den_min 0.05: each a column).
One row per crank period: the comparison's metrics (twin_vs_paper.METRICS) and the paper model's own
(slide_fraction, painleve_impasses, grazing_impacts), full precision.  ~4 min with nice on 2 cores.

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_paper_reference [--out models/bolt/paper_reference.csv] [--periods 0.6 0.5 ...]
"""
import argparse
import csv
import pathlib


from .. import model as paper, run as paper_run
from ...robot import Bolt
from ..twin_vs_paper import METRICS
from ....core.model.paths import MODELS

OUT = MODELS / "bolt" / "paper_reference.csv"
PERIODS = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15)      # s: the bolt_twin_vs_paper sweep
CYCLES, BUMPER = 6, 0.40
OPTIONS = ("foot", "method", "rtol", "atol", "epsilon", "den_min")   # the paper options each row was run at
COLUMNS = (("crank_period", "bumper_height", "cycles") + OPTIONS
           + METRICS
           + ("slide_fraction", "painleve_impasses", "grazing_impacts", "error"))


def row(T: float, cycles: int = CYCLES, bumper=BUMPER) -> tuple:
    """(one reference row, wall time [s]): the paper model at crank period T (its default options)."""
    opts = paper.check_options({})
    run = paper_run.simulate(Bolt(crank_period=T, bumper_height=bumper), cycles, **opts)
    s = paper_run.summarize(run) if not run.error else {}
    out = dict(crank_period=T, bumper_height=bumper, cycles=cycles, **{k: opts[k] for k in OPTIONS})
    out.update({k: s.get(k, "") for k in METRICS + ("slide_fraction", "painleve_impasses", "grazing_impacts")})
    out["error"] = run.error or ""
    return out, run.wall_s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=pathlib.Path, default=OUT)
    ap.add_argument("--periods", type=float, nargs="+", default=list(PERIODS))
    a = ap.parse_args()
    rows = []
    for T in a.periods:
        r, wall = row(T)
        rows.append(r)
        print({k: r[k] for k in ("crank_period", "speed", "touchdowns_per_revolution", "duty_factor", "error")},
              f"{wall:.1f} s", flush=True)
    tmp = a.out.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    tmp.replace(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
