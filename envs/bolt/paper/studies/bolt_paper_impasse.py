"""Is BOLT's paper-model reference determined by the paper's physics or by our Painleve rule?

With the Coulomb foot (paper.foot=coulomb, mu = 1, the default) a sliding stance ends where
den = 1 + mu dir N1 falls to `paper.den_min` (default 0.05, envs/bolt/paper/run.py) with a tangential plastic
impulse (then pinned / sliding back / released if neither exists): a modelling choice, never varied before.
At 0.4 s the stance ends in such an impasse (12-16 per run) and its duty (0.2818) is the period no twin meets.
This study varies den_min and asks whether the reference (models/bolt/paper_reference.csv) moves.

RULE (written and committed before any run: the commit "studies/bolt_paper_impasse.py: the DEN_MIN ladder's
rule", 2026-11-27 05:05 UTC; the first run started 05:05:45):
* Ladder: den_min = 0.1, 0.05 (the default), 0.025, 0.0125.  At every crank period of the reference that runs
  one touch-down per revolution: 0.6, 0.5, 0.4, 0.3, 0.25, 0.2 s; otherwise the reference's inputs (bumper
  0.40 m, 6 revolutions from rest, metrics over the last 3 (paper_run.summarize), Radau, rtol 1e-7, atol 1e-9,
  epsilon 1e-3 s, Coulomb foot, mu = 1).  Recorded per run: speed, duty_factor, touchdowns_per_revolution,
  painleve_impasses (all 6 revolutions), slide_fraction (sliding share of stance, last 3), grazes, error, wall.
* Tolerances, stated before comparing (the project's convergence rule): a metric is **determined** at a period
  when each successive pair from the default downwards (0.05 -> 0.025 and 0.025 -> 0.0125) moves speed by
  <= 2 % (relative to the smaller den_min's value) and duty by <= 0.01 (absolute).  The 0.1 rung (above the
  default) is reported, not judged.  The **spread** is max - min over all four rungs (speed relative to the
  default's value).
* Outcomes, stated before running:
  - determined: the reference's value at that period comes from the stated physics (paper model + Coulomb law),
    den_min is immaterial there; a twin that misses it misses the paper model.
  - not determined, spread within the twin-vs-paper-model target's own size (speed 10 %, duty 0.05): the reference still
    judges a twin there; the README states the spread beside the period as the reference's uncertainty.
  - spread larger than the target's size (speed > 10 % or duty > 0.05), or touch-downs per revolution not 1
    at some rung: that metric (both, if the gait changes) at that period cannot judge a twin.  The comparison
    (experiment=bolt_twin_vs_paper and the twin-vs-paper target test) must exclude it with this measured reason,
    never silently.
* Solver at small den_min: near an impasse the friction F_T = -mu dir N0 / den grows like 1 / den_min, so a
  run may stiffen or fail.  A failed rung (solve_ivp error, Zeno, a missed event) is reported with its error,
  never dropped or replaced; the determination is then judged on the rungs that ran and labelled "not shown".
  A failure is no measured movement, so it does not exclude by itself (the lead decides); it is reported.
  An extra rung (0.00625) may be run at a period whose last pair is not within tolerance, reported as extra;
  the verdict stays the rule's.

Added after the first ladder had run (instrumentation, no change to the rule or its verdicts): per run the
number of impasses resolved by the stopping impulse (`stops`; the others are releases where the sliding mode
would start at den <= den_min), the foot's slip speed that impulse removes (max, median), and the impulse itself
(F_T the tangential impulse applied, F_N the height constraint's: eq. 18-19's no-slip impulse on the flight
rates, which the stop equals within 1e-11, envs/bolt/paper/run.py `stops`): its smallest normal part and largest
|F_T| / F_N.  If the slip speed vanished as den_min -> 0, the impulse (our rule's kind, not only its threshold)
would become immaterial in the limit; if the impulse lies outside the cone (|F_T| > mu F_N, or F_N <= 0), the rule
is not Coulomb's.

Writes one CSV row per (crank period, den_min) as it goes (a rerun skips the rows already there), then prints
the table and the verdicts.  ~1 min per run with nice on 2 cores (24 runs).

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_paper_impasse --out /tmp/bolt24i/ladder.csv [--periods 0.4] [--den-min 0.05 ...]
    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_paper_impasse --out /tmp/bolt24i/ladder.csv --judge     # verdicts only
"""
import argparse
import csv
import math
import pathlib


from .. import model as paper, run as paper_run
from ...robot import Bolt

PERIODS = (0.6, 0.5, 0.4, 0.3, 0.25, 0.2)          # s: the reference's periods with one touch-down per revolution
LADDER = (0.1, 0.05, 0.025, 0.0125)                 # den_min; 0.05 is the default
JUDGED = (0.05, 0.025, 0.0125)                      # the successive pairs judged: the default downwards
CYCLES, BUMPER = 6, 0.40
TOL_SPEED, TOL_DUTY = 0.02, 0.01                    # determined: per successive pair (relative, absolute)
TARGET_SPEED, TARGET_DUTY = 0.10, 0.05              # the twin-vs-paper-model target: the spread a judging reference may have
COLUMNS = ("crank_period", "den_min", "speed", "duty_factor", "touchdowns_per_revolution", "painleve_impasses",
           "slide_fraction", "grazing_impacts", "stops", "stop_slip_speed_max", "stop_slip_speed_median",
           "stop_impulse_normal_min", "stop_impulse_ratio_max", "error", "wall_s")


def run_one(T: float, den_min: float) -> dict:
    opts = paper.check_options({"den_min": den_min})
    run = paper_run.simulate(Bolt(crank_period=T, bumper_height=BUMPER), CYCLES, **opts)
    s = paper_run.summarize(run) if not run.error else {}
    out = dict(crank_period=T, den_min=den_min, error=run.error or "", wall_s=round(run.wall_s, 1))
    out.update({k: s.get(k, "") for k in COLUMNS[2:8]})
    # added after the first ladder (not part of the rule): the slip speed the impasse's tangential impulse stops
    sp = sorted(d["slip_speed"] for d in run.stops)
    out.update(stops=len(sp), stop_slip_speed_max=sp[-1] if sp else "", stop_slip_speed_median=sp[len(sp) // 2] if sp else "",
               stop_impulse_normal_min=min((d["impulse"].imag for d in run.stops), default=""),
               stop_impulse_ratio_max=max((abs(d["impulse"].real) / d["impulse"].imag if d["impulse"].imag > 0 else math.inf
                                           for d in run.stops), default=""))
    return out


def judge(rows: list) -> list:
    """Per crank period: the rule of the docstring applied to speed and duty (a list of verdict dicts)."""
    out = []
    for T in sorted({float(r["crank_period"]) for r in rows}, reverse=True):
        by = {float(r["den_min"]): r for r in rows if float(r["crank_period"]) == T}
        ok = {d: r for d, r in by.items() if not r["error"]}
        v = dict(crank_period=T, failed=sorted((d for d in by if d not in ok), reverse=True),
                 gait_one=all(abs(float(r["touchdowns_per_revolution"]) - 1) < 1e-9 for d, r in ok.items() if d in LADDER))
        for m, tol, target, rel in (("speed", TOL_SPEED, TARGET_SPEED, True), ("duty_factor", TOL_DUTY, TARGET_DUTY, False)):
            val = {d: float(r[m]) for d, r in ok.items() if d in LADDER}     # extra rungs: in the table only
            steps = []
            for a, b in zip(JUDGED, JUDGED[1:]):
                if a in val and b in val:
                    steps.append(abs(val[a] - val[b]) / (abs(val[b]) if rel else 1.0))
            # relative to the default's value; if the default failed, to the rung that ran with the smallest
            # |value| (the largest relative spread): a failure does not exclude by itself (the docstring)
            ref = val[JUDGED[0]] if JUDGED[0] in val else min(val.values(), key=abs, default=math.nan)
            spread = ((max(val.values()) - min(val.values())) / (abs(ref) if rel else 1.0)
                      if val and not any(map(math.isnan, val.values())) else math.nan)     # NaN: not within
            v[m] = dict(steps=steps, spread=spread,
                        determined=len(steps) == len(JUDGED) - 1 and all(s <= tol for s in steps),
                        shown=len(steps) == len(JUDGED) - 1,
                        within_target_size=spread <= target,
                        judges=bool(v["gait_one"] and spread <= target))
        out.append(v)
    return out


def g(r, k):
    return f"{float(r[k]):.3g}" if r.get(k) not in ("", None) else "-"


def print_table(rows, verdicts):
    print("| crank period [s] | den_min | speed [m/s] | duty | td / rev | Painleve impasses | sliding share | grazes | "
          "stops by impulse | slip speed stopped, max / median [m/s] | stop impulse: min F_N [N s], max |F_T|/F_N | "
          "wall [s] | error |")
    print("|---" * 13 + "|")
    for r in sorted(rows, key=lambda r: (-float(r["crank_period"]), -float(r["den_min"]))):
        f = lambda k: f"{float(r[k]):.4g}" if r[k] not in ("", None) else "-"   # noqa: E731
        print(f"| {float(r['crank_period']):g} | {float(r['den_min']):g} | {f('speed')} | {f('duty_factor')} | "
              f"{f('touchdowns_per_revolution')} | {r['painleve_impasses']} | {f('slide_fraction')} | "
              f"{r['grazing_impacts']} | {r.get('stops', '-')} | {g(r, 'stop_slip_speed_max')} / "
              f"{g(r, 'stop_slip_speed_median')} | {g(r, 'stop_impulse_normal_min')}, {g(r, 'stop_impulse_ratio_max')} | "
              f"{r['wall_s']} | {r['error']} |")
    print(f"\nverdicts (successive pairs {JUDGED}: speed <= {TOL_SPEED:.0%}, duty <= {TOL_DUTY}; spread over all "
          f"rungs vs target {TARGET_SPEED:.0%} / {TARGET_DUTY}):")
    for v in verdicts:
        parts = []
        for m in ("speed", "duty_factor"):
            d = v[m]
            steps = ", ".join(f"{s:.3g}" for s in d["steps"])
            state = "determined" if d["determined"] else ("NOT determined" if d["shown"] else "not shown")
            parts.append(f"{m}: steps [{steps}] spread {d['spread']:.3g} -> {state}, "
                         f"{'judges' if d['judges'] else 'CANNOT judge'}")
        print(f"  {v['crank_period']:g} s: " + "; ".join(parts)
              + (f"; failed rungs {v['failed']}" if v["failed"] else "") + ("" if v["gait_one"] else "; GAIT CHANGES"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=pathlib.Path, required=True, help="CSV, one row per run (appended, resumable)")
    ap.add_argument("--periods", type=float, nargs="+", default=list(PERIODS))
    ap.add_argument("--den-min", type=float, nargs="+", default=list(LADDER))
    ap.add_argument("--judge", action="store_true", help="no runs: the table and verdicts of --out")
    a = ap.parse_args()
    rows = list(csv.DictReader(a.out.open())) if a.out.exists() else []
    done = {(float(r["crank_period"]), float(r["den_min"])) for r in rows}
    if not a.judge:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        new = not a.out.exists()
        with a.out.open("a", newline="") as f:
            w = csv.DictWriter(f, COLUMNS)
            if new:
                w.writeheader()
            for T in a.periods:
                for d in a.den_min:
                    if (T, d) in done:
                        continue
                    r = run_one(T, d)
                    w.writerow(r)
                    f.flush()
                    rows.append({k: str(x) for k, x in r.items()})
                    print({k: r[k] for k in ("crank_period", "den_min", "speed", "duty_factor", "painleve_impasses",
                                             "slide_fraction", "error", "wall_s")}, flush=True)
    print_table(rows, judge(rows))


if __name__ == "__main__":
    main()
