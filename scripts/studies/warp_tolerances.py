"""The derivation of engine=warp's agreement tolerances, printed from the C engine alone (no warp is
imported; the script checks that at its end).  The rule is scripts/warp_agreement.py's, unchanged
(ENSEMBLE v2, SAFETY 2, TOL): per point and metric

    tolerance = abs + rel*|C|  +  SAFETY * max over ENSEMBLE |C_member - C_nominal|

Per robot and point set (SWEEPS, HOLDOUT) it prints every member's value of every metric, the
envelope, the member setting it, the floor and the tolerance: the numbers warp is later judged by.

    nice .venv/bin/python scripts/studies/warp_tolerances.py [--robot miniaq] [--points SWEEPS HOLDOUT]
    nice .venv/bin/python scripts/studies/warp_tolerances.py --robot bolt --events [--rules E F]

--events: BOLT's touch-down rules (docs/notes/2026-11-28-warp-tolerances.md): E, each touch-down's margin
against eps (float32's one-step resolution of the foot height) and the term its ambiguous ones add; F, the
largest move of a metric when one touch-down moves by one step, per timestep of the ladder dt0 / 2^j.
"""
from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))   # scripts/: _cli, _warp_ref
import _cli  # noqa: E402,F401  (gaittwin chooses the GL backend)
import _warp_ref as ref  # noqa: E402


def derive(robot: str, sweeps: dict) -> list:
    """Per point: (point, nominal metrics, {member: metrics or {} for a run with a problem}, envelope).
    The same members (_warp_ref.member) and envelope as reference(), with each member's values kept."""
    from gaittwin.core.engines import batch
    cls = ref._class(robot)
    base, name, vals, cycles = sweeps[robot]
    pts = [dict(base, **{name: v}) for v in vals]
    kw = dict(cycles=cycles, stop_when_steady=False, chunk=1000)
    nominal = batch.run_points(pts, cls, **kw)
    ens = [ref.member(cls, p, name, *spec[1:]) for p in pts for spec in ref.ENSEMBLE]
    runs: list = [None] * len(ens)
    for loop in (False, True):          # the runner takes a layout's points all closed-loop or all not
        idx = [i for i, r in enumerate(ens) if r.closed_loop == loop]
        for i, r in zip(idx, batch.run_points([ens[i] for i in idx], **kw) if idx else []):
            runs[i] = r
    n, out = len(ref.ENSEMBLE), []
    for i, (p, rc) in enumerate(zip(pts, nominal)):
        members = {spec[0]: {} if r.problem else ref.metrics(r)
                   for spec, r in zip(ref.ENSEMBLE, runs[i * n:(i + 1) * n])}
        c = ref.metrics(rc)
        out.append((f"{name}={p[name]}", c, members, ref.envelope(c, members)))
    return out


def show(robot: str, which: str, rows: list) -> None:
    names = [spec[0] for spec in ref.ENSEMBLE]
    for point, c, members, env in rows:
        print(f"\n{robot} {which} {point}: |C_member - C| per member, then envelope, floor, tolerance")
        print("| metric | C | " + " | ".join(names) + " | envelope (set by) | floor | tolerance |")
        print("|---|---|" + "---|" * len(names) + "---|---|---|")
        for k, (e, by) in env.items():
            d = " | ".join(f"{abs(members[n][k] - c[k]):.2g}" if ref._numeric(members[n].get(k)) else "nan"
                           for n in names)
            print(f"| {k} | {c[k]:.6g} | {d} | {e:.2g} ({by}) | {ref.tolerance(k, c[k]):.2g} | "
                  f"{ref.tolerance(k, c[k], e):.2g} |")


def touchdowns(h) -> np.ndarray:
    """The steps s of a foot_events trace where the foot touches down (h[s] < 0 <= h[s-1])."""
    return np.flatnonzero((h[1:-1] < 0) & (h[:-2] >= 0)) + 1


def shift_effects(robot: str, point: dict, cycles: int) -> tuple:
    """Rule F at one point and timestep (C engine): every touch-down of the nominal run moved by one step,
    late (raised by d0 + travel/2 before step s) and early (lowered by clearance + travel/2 before step
    s-1).  (worst move in floors, its (metric, step, kind), the touch-downs, members whose touch-down did
    not land one step off (checked on the first EVENT_CHECK of them))."""
    from gaittwin.core.engines import batch
    cls = ref._class(robot)
    foot, zjoint = ref.EVENT_FOOT[robot]
    r = cls(**point)
    h, _ = ref.foot_events(r, foot, cycles * r.steps_per_cycle)
    td = touchdowns(h)
    spec = []
    for s in td:
        travel = h[s - 1] - h[s]
        spec += [(int(s), "late", int(s), -h[s] + travel / 2), (int(s), "early", int(s) - 1, -(h[s - 1] + travel / 2))]
    kw = dict(cycles=cycles, stop_when_steady=False, chunk=1000)
    runs = batch.run_points([cls(**point)] + [ref.shifted(cls, point, zjoint, at, dz) for _, _, at, dz in spec], **kw)
    c = ref.metrics(runs[0])
    worst, by = 0.0, None
    for (s, kind, _, _), run in zip(spec, runs[1:]):
        m = {} if run.problem else ref.metrics(run)
        for k in c:
            if k in ref.TOL and ref._numeric(c[k]):
                x = abs(m[k] - c[k]) / ref.tolerance(k, c[k]) if ref._numeric(m.get(k)) else math.inf
                if x > worst:
                    worst, by = x, (k, s, kind)
    bad = []
    for s, kind, at, dz in spec[:EVENT_CHECK]:
        hm, _ = ref.foot_events(ref.shifted(cls, point, zjoint, at, dz), foot, s + 3)
        want = s + 1 if kind == "late" else s - 1
        if want not in touchdowns(hm) or s in touchdowns(hm):
            bad.append((s, kind))
    return worst, by, td, bad


def rule_e(robot: str) -> None:
    """Rule E (C engine): per point of SWEEPS and HOLDOUT, eps, every touch-down's penetration at its first
    contact step and clearance the step before, the ambiguous ones and the term they add."""
    from gaittwin.core.engines import batch
    cls = ref._class(robot)
    foot, _ = ref.EVENT_FOOT[robot]
    print(f"\n{robot}: rule E, touch-downs (step, penetration after it, clearance the step before; m)")
    for which in ("SWEEPS", "HOLDOUT"):
        base, name, vals, cycles = getattr(ref, which)[robot]
        pts = [dict(base, **{name: v}) for v in vals]
        kw = dict(cycles=cycles, stop_when_steady=False, chunk=1000)
        c = batch.run_points(pts, cls, **kw)
        for p, (term, ev, eps) in zip(pts, ref.event_terms(robot, pts, c, kw)):
            r = cls(**p)
            h, _ = ref.foot_events(r, foot, cycles * r.steps_per_cycle)
            td = ", ".join(f"({s}, {-h[s]:.2g}, {h[s - 1]:.2g})" for s in touchdowns(h))
            print(f"{which} {name}={p[name]}: eps {eps:.2g} m; {td}; ambiguous: "
                  f"{[(s, kind, f'{dz:.2g}') for s, kind, dz, _ in ev] or 'none'}; term {term if ev else '-'}")


EVENT_CHECK = 4          # members per point and step whose one-step move is verified by a trace


def rule_f(robot: str) -> None:
    """Rule F (docs/notes/2026-11-28-warp-tolerances.md): per timestep dt0 / 2^j, per point of SWEEPS and
    HOLDOUT, the largest move of a TOL metric (in floors) when one touch-down moves by one step; the chosen
    step is the largest with every move under 1/2 floor."""
    cls = ref._class(robot)
    print(f"\n{robot}: rule F, one touch-down moved by one step (C engine): largest move of a TOL metric in floors")
    print("| timestep | point | touch-downs | worst move (floors) | metric, step, kind | one-step checks failed | s |")
    print("|---|---|---|---|---|---|---|")
    chosen = None
    pts = [(which, *getattr(ref, which)[robot], v) for which in ("SWEEPS", "HOLDOUT")
           for v in getattr(ref, which)[robot][2]]
    for j in range(4):
        ok = True
        for which, base, name, vals, cycles, v in pts:      # a step fails at its first failing point: the rest skipped
            t = time.perf_counter()
            dt = cls(**base).timestep_max / 2 ** j
            p = dict(base, **{name: v}, timestep=dt)
            worst, by, td, bad = shift_effects(robot, p, cycles)
            ok = worst < 0.5 and not bad
            print(f"| {dt:.4g} | {which} {name}={v} | {len(td)} | {worst:.3g} | {by} | {bad or '-'} | "
                  f"{time.perf_counter() - t:.0f} |", flush=True)
            if not ok:
                pts.insert(0, pts.pop(pts.index((which, base, name, vals, cycles, v))))   # tried first at the next step
                break
        if ok:
            chosen = dt
            break
    print(f"rule F: {'timestep ' + format(chosen, 'g') + ' s' if chosen else 'no step of the ladder qualifies'}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--robot", default="miniaq", choices=list(ref.SWEEPS))
    ap.add_argument("--points", nargs="*", default=["SWEEPS", "HOLDOUT"], choices=["SWEEPS", "HOLDOUT"])
    ap.add_argument("--events", action="store_true", help="rules E and F (robots of EVENT_FOOT) instead")
    ap.add_argument("--rules", nargs="*", default=["E", "F"], choices=["E", "F"])
    a = ap.parse_args(argv)
    if a.events and a.robot not in ref.EVENT_FOOT:
        ap.error(f"--events: --robot must be one of {sorted(ref.EVENT_FOOT)} (robots with rule E's foot), not {a.robot}")
    warnings.filterwarnings("ignore")
    if a.events:
        if "E" in a.rules:
            rule_e(a.robot)
        if "F" in a.rules:
            rule_f(a.robot)
        return 0
    print(f"rule: tolerance = abs + rel*|C| (TOL) + SAFETY ({ref.SAFETY}) x max over ENSEMBLE "
          f"({len(ref.ENSEMBLE)} members: {', '.join(s[0] for s in ref.ENSEMBLE)}) of |C_member - C|")
    for which in a.points:
        t = time.perf_counter()
        rows = derive(a.robot, getattr(ref, which))
        show(a.robot, which, rows)
        print(f"({which}: {time.perf_counter() - t:.0f} s, C engine)")
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("warp", "mujoco_warp"))
    print(f"\nwarp modules imported: {loaded or 'none'} (the derivation is the C engine's alone)")
    return 1 if loaded else 0


if __name__ == "__main__":
    raise SystemExit(main())
