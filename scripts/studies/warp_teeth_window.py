"""The teeth rule: does a longer measuring window narrow a chaotic gait's envelope enough that the
agreement check (scripts/warp_agreement.py) catches the swept parameter x 1.1 on the progress metric?
The C engine only (no warp).  Per window (cycles) and point of SWEEPS: the progress metric's C value,
its ENSEMBLE envelope (the member setting it), the floor (TOL) and the tolerance, and the move under the
swept parameter x TEETH; caught if the move exceeds the tolerance.  Then per point the envelope's
power law in the window (log-log slope over the measured cycles; -0.5 is a mean of independent cycles)
and, from it, the window at which the envelope's share (SAFETY x envelope) plus the floor would fall
below the move measured at the longest window (an extrapolation, printed as such).

    nice -n 10 .venv/bin/python scripts/studies/warp_teeth_window.py [--robot miniaq] [--cycles 2 4 8 16]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))   # scripts/: _cli, warp_agreement
import _cli  # noqa: E402,F401  (the project's checks; gaittwin chooses the GL backend)
import warp_agreement as wa  # noqa: E402
import warp_diagnostics as diag  # noqa: E402


def window(robot: str, cycles: int) -> list:
    """Per point of SWEEPS at `cycles`: (point, metric, C, envelope, set by, floor, tolerance, move, seconds)."""
    from gaittwin.core.engines import batch
    t = time.perf_counter()
    pts, name, kw, c, envs_, _ = wa.reference(robot, cycles=cycles)
    far = batch.run_points([dict(p, **{name: diag.TEETH * p[name]}) for p in pts], wa._class(robot), **kw)
    s = time.perf_counter() - t
    out = []
    for p, rc, rf, env in zip(pts, c, far, envs_):
        mc, mf = wa.metrics(rc), wa.metrics(rf)
        for k in diag.TEETH_METRIC[robot]:
            e, by = env[k]
            out.append((f"{name}={p[name]}", k, mc[k], e, by, wa.tolerance(k, mc[k]), wa.tolerance(k, mc[k], e),
                        abs(mf[k] - mc[k]), s))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--robot", default="miniaq", choices=list(wa.SWEEPS))
    ap.add_argument("--cycles", type=int, nargs="+", default=[2, 4, 8, 16])
    a = ap.parse_args(argv)
    if min(a.cycles) < 2:
        print("error: --cycles must be >= 2 (the first cycle is settling)", file=sys.stderr)
        return 2
    warnings.filterwarnings("ignore")
    print(f"{a.robot}: the swept parameter x {diag.TEETH}; tolerance = floor + {wa.SAFETY} x envelope\n"
          "| cycles | point | metric | C | envelope (set by) | floor | tolerance | move | caught | s |\n"
          "|---|---|---|---|---|---|---|---|---|---|", flush=True)
    by_point: dict = {}
    for n in a.cycles:
        for point, k, c, e, by, fl, tol, move, s in window(a.robot, n):
            by_point.setdefault((point, k), []).append((n, e, fl, move))
            print(f"| {n} | {point} | {k} | {c:.6g} | {e:.2g} ({by}) | {fl:.2g} | {tol:.2g} | {move:.2g} | "
                  f"{move > tol} | {s:.0f} |", flush=True)
    if len(a.cycles) < 2:
        return 0
    print("\n| point | metric | envelope slope vs window (cycles - 1) | window for floor + SAFETY x envelope < move "
          "(extrapolated) |\n|---|---|---|---|")
    for (point, k), rows in by_point.items():
        w = np.array([r[0] - 1 for r in rows], float)
        e = np.array([max(r[1], 1e-300) for r in rows])
        slope, icpt = np.polyfit(np.log(w), np.log(e), 1)
        fl, move = rows[-1][2], rows[-1][3]
        need = (move - fl) / wa.SAFETY
        if need <= 0:
            n_need = "never (the move is below the floor)"
        elif slope >= 0:
            n_need = "never (the envelope does not shrink)"
        else:
            n_need = f"{np.exp((np.log(need) - icpt) / slope) + 1:.3g} cycles"
        print(f"| {point} | {k} | {slope:.2f} | {n_need} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
