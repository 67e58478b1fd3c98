"""BOLT's paper model under Sec. 5.1's rules as printed (`paper.rules=printed`): what the paper leaves open, swept,
and the speed against the *measured* stride time beside the zero-force rules and the twin.

The printed rules (envs/bolt/paper/run.py): lift-off when the leg angle (hip A to foot F from {B}'s downward
vertical) falls to a set point, eq. 20 tracking a constant-speed crank that stops at the attack crank angle and
waits there until touch-down, the paper's pinned pivot (holding, pulling if need be, until the set angle), Sec.
5.1's limits (30 N m in flight, 1350 W in stance), the free hopper (no bumper).  The stride time is an outcome.

Left open by the paper, and what this study does with each:
* the lift-off set point (no value printed): swept, `--angles` (deg; `mirror`: minus the leg angle at the
  attack angle, the option's default);
* the constant speed of theta_1d (no value printed; the crank period's omega): swept, `--periods`; it is an input,
  never picked to match a speed;
* the attack angle alpha_m^des = 0 read as the crank angle q_1 = 0 (Sec. 5.2: 'the impact happens when q_1
  reaches 360 deg'): fixed (`paper.attack_crank_deg`);
* K_P, K_D (not printed; the project's 300 N m/rad, 2 N m s/rad): fixed here, the twin's;
* the flight trajectory's start (the command goes on from its own value at lift-off) and a floor still pushing
  at the set angle (the stance goes on to zero normal force): fixed, stated in run.py.

Tolerance of the report row built on this curve (envs/bolt/paper/claims_printed.py), stated before any value
was computed: the twin's speed at the paper model's measured stride time (the twin's bolt_speed_sweep, speed
against its measured stride time, interpolated linearly; outside its range: no value) within 10 % of the paper
model's (the project's twin-vs-paper-model target, B6c).  Added after the twin's sweep showed a second branch (at
0.15 s its stride is 0.30 s, as at 0.3 s, at 1.8x the speed) and before any comparison: the twin's curve is its
points of one touch-down per crank revolution (within B5's 0.05).

Writes one CSV row per (rule set, crank period, lift-off angle) as it goes (a rerun skips the rows there), then
prints the table; `--plot` draws the curve from one or more CSVs with the zero-force reference
(models/bolt/paper_reference.csv) and a twin bolt_speed_sweep results.csv (`--twin`).

    nice .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_printed_rules --out /tmp/pr/a.csv --periods 0.15 0.2
    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_printed_rules --plot /tmp/pr/curve.png --csv /tmp/pr/*.csv \\
        --twin outputs/bolt_speed_sweep/results.csv
"""
import argparse
import csv
import math
import pathlib


from .. import plots, run as paper_run
from ...robot import Bolt
from ....core.model.paths import MODELS

REFERENCE = MODELS / "bolt" / "paper_reference.csv"
PRINTED = {"rules": "printed", "foot": "pinned"}


def _num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return x


def read(paths) -> list[dict]:
    rows = []
    for p in paths:
        with open(p) as f:
            rows += [{k: _num(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return rows


def sweep(out: pathlib.Path, periods, angles, cycles: int) -> None:
    done = {(r["rule_set"], r["crank_period"], str(r["angle"])) for r in read([out])} if out.exists() else set()
    params = dict(Bolt().cfg)
    for a in angles:
        label = f"printed, lift-off {a}" + ("" if a == "mirror" else " deg")
        opts = dict(PRINTED, liftoff_angle_deg=None if a == "mirror" else float(a))
        for T in periods:
            if (label, float(T), str(a)) in done:
                continue
            row = paper_run.speed_stride_curve(params, [T], cycles, {label: ({"bumper_height": None}, opts)})[0]
            row["angle"], row["cycles"] = a, cycles
            new = not out.exists()
            with open(out, "a", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(row))
                if new:
                    w.writeheader()
                w.writerow(row)
            print(f"{label}, {T:g} s: stride {row['stride_time']:.4g} s, speed {row['speed']:.4g} m/s, "
                  f"td/rev {row['touchdowns_per_revolution']:.3g}, steady {row['steady']}, {row['wall_s']:.0f} s "
                  f"{row['error']}", flush=True)


def zero_force_reference() -> list[dict]:
    """The zero-force rules' curve: the committed reference (bumper 0.40 m, Coulomb foot, 6 revolutions)."""
    return [dict(r, rule_set="zero_force (reference: bumper, Coulomb foot)") for r in read([REFERENCE])]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--periods", type=float, nargs="+", default=[0.15, 0.2, 0.3])
    ap.add_argument("--angles", nargs="+", default=["mirror", "-6", "0", "6"])
    ap.add_argument("--cycles", type=int, default=6)
    ap.add_argument("--plot", type=pathlib.Path)
    ap.add_argument("--csv", type=pathlib.Path, nargs="*", default=[])
    ap.add_argument("--twin", type=pathlib.Path, help="a bolt_speed_sweep results.csv (crank_period, stride_time, speed)")
    a = ap.parse_args(argv)
    if a.out:
        sweep(a.out, a.periods, a.angles, a.cycles)
    if a.plot:
        paper = [r for r in read(a.csv)] + zero_force_reference()
        twin = read([a.twin]) if a.twin else []
        plots.speed_vs_stride_time(paper, twin, a.plot)
        for r in sorted(paper, key=lambda r: (r["rule_set"], r["crank_period"])):
            st, v = r.get("stride_time", math.nan), r.get("speed", math.nan)
            print(f"{r['rule_set']:<44} {r['crank_period']:5g} s  stride {st:8.4g} s  speed {v:8.4g} m/s  "
                  f"{r.get('error') or ''}")
        for r in sorted(twin, key=lambda r: r["crank_period"]):
            print(f"{'twin (bolt_speed_sweep)':<44} {r['crank_period']:5g} s  stride {r['stride_time']:8.4g} s  "
                  f"speed {r['speed']:8.4g} m/s")


if __name__ == "__main__":
    main()
