"""BOLT's paper model (envs/bolt/paper/run.py): its metrics against the solver tolerance and the SPF
time constant epsilon at a few crank periods (no bumper unless --bumper; paper.foot default, coulomb).  Prints a
table; run with nice, ~2-8 min.

    .venv/bin/python -m gaittwin.bolt.paper.studies.bolt_paper_convergence [--cycles 4] [--periods 0.3 0.6] [--bumper 0.40]
"""
import argparse


from ..run import simulate, summarize
from ...robot import Bolt

COLS = ("speed", "touchdowns_per_revolution", "duty_factor", "stance_impulse", "peak_torque_stance",
        "peak_power_flight", "max_loop_gap", "grazing_impacts", "max_friction_ratio", "slip_fraction", "slide_fraction",
        "painleve_impasses", "wall_s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cycles", type=int, default=4)
    ap.add_argument("--periods", type=float, nargs="+", default=[0.3, 0.6])
    ap.add_argument("--bumper", type=float, default=None, help="robot.bumper_height [m] (default: none, Sec. 5)")
    a = ap.parse_args()
    settings = [dict(rtol=1e-6, epsilon=1e-3), dict(rtol=1e-7, epsilon=1e-3), dict(rtol=1e-8, epsilon=1e-3),
                dict(rtol=1e-7, epsilon=3e-4)]
    print("| crank period [s] | rtol | epsilon [s] | " + " | ".join(COLS) + " | error |")
    print("|---" * (len(COLS) + 4) + "|")
    for T in a.periods:
        for o in settings:
            run = simulate(Bolt(crank_period=T, bumper_height=a.bumper), a.cycles, method="Radau", **o)
            s = summarize(run) if not run.error else {}
            vals = " | ".join(f"{s.get(c, float('nan')):.4g}" for c in COLS)
            print(f"| {T:g} | {o['rtol']:g} | {o['epsilon']:g} | {vals} | {run.error or ''} |", flush=True)


if __name__ == "__main__":
    main()
