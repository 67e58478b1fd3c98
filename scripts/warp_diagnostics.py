"""Diagnostics of scripts/warp_agreement.py that need no warp (the C engine only), outside its criterion:

  f32_state    the C engine stepped with Warp's float32 state (_warp_ref.round_state before every step,
               as F32_STATE's members) against the plain C engine (--f32-state)
  teeth        the wrong-world check of a candidate ensemble (--teeth): per point, a rerun of the same
               world, split differently (RERUN), within tolerance on every metric, and the probe world
               FAILs on the robot's progress metric (TEETH_METRIC)

The teeth rule, v2 (stated and committed 2026-11-27 05:38 UTC, before any run under it; the C engine
only, nothing from warp enters it).  Per robot of SWEEPS at every point, under the criterion as it is
(ENSEMBLE, SAFETY, TOL unchanged):
  (1) a rerun of the same world is within tolerance on every metric.  The rerun differs only in what
      must not matter (RERUN: the points in reverse order, another chunk, one thread), not a repeat
      of reference()'s call: the C engine is deterministic, so a repeat could not fail; this one
      fails where the runner's chunking, pool or order leaks into a world (a shared model a
      closed-loop robot's feedback edits, a control schedule off at a chunk boundary).  Amended
      2026-11-27 ~06:00 UTC (review): (1)'s first form repeated reference()'s own call;
  (2) the probe world FAILs on every TEETH_METRIC of the robot.
  The probe is the swept parameter x TEETH (1.1), with one exception, decided on the C engine before
  the probe is judged:
  (R2) where the swept parameter x TEETH moves some TEETH_METRIC by less than its floor (TOL's
       abs + rel*|C|, the tolerance without the envelope), the parameter does not act on progress at
       that point: no tolerance at the floor could see it, and the floor is a float32 prior shared by
       every robot, not tuned per point.  There the probe is the point's other parameter (a key of the
       SWEEPS base point) x TEETH that moves every TEETH_METRIC by at least 2 x its floor with the
       smallest such move (the most demanding probe the point's physics allows); the report names the
       point, the swept parameter's move and its floor.  If none qualifies the point has no teeth
       (the check is False).
  (R3) a move above the floor that still passes (inside SAFETY x envelope: the envelope is too wide)
       is not excused and nothing is substituted: the point lacks teeth.  A longer window (more
       cycles) counts as a fix only if measured (C engine) to narrow the envelope below the move at
       every point of the robot, and then it is SWEEPS' cycles that change (the agreement itself,
       warp rerun), not the teeth check's alone.
"""
from __future__ import annotations

import math

import numpy as np

from _warp_ref import ENSEMBLE, SWEEPS, _class, _numeric, judge, member, metrics, reference, tolerance

TEETH = 1.1      # the wrong world: the swept parameter x TEETH
TEETH_METRIC = {"crawler": ("S", "V"), "snake": ("dx",), "miniaq": ("speed",), "bolt": ("speed",),
                "crawler_feedback": ("S",)}
TEETH_CYCLES = {"crawler": 1}     # as test_derived_tolerance_rejects_a_world_with_another_friction
RERUN = dict(chunk=257, nthread=1)   # rule (1)'s rerun: reference() runs chunk 1000 on every core, in order
NO_TEETH = {   # (robot, point of SWEEPS): why the agreement check cannot FAIL its probe there (measured, C only)
    # MinIAQ-II at f = 4 is chaotic (README "Engines"): mu_d x 1.1 moves speed by 2.0 / 1.3 floors (3.9e-4 /
    # 2.5e-4 m/s), inside SAFETY x its envelope (1.3e-3 / 1.7e-3 m/s).  R3: not excused, and no window fixes
    # it (scripts/studies/warp_teeth_window.py, 2..48 cycles): the envelope shrinks as window^-0.5 to 16 cycles
    # (3.4e-4 at both points) and then stops (24-48 cycles: 0.84-1.1e-3 at mu_d 0.3, 1.7-1.9e-4 at mu_d 0.5,
    # the chaotic heading's share included); at mu_d 0.5 the move stays under floor + SAFETY x envelope at
    # every window (4-16 cycles: 5.8-7.6e-4 against 0.88-1.7e-3; 24-48: 3.3-3.5e-4 against 5.3-5.7e-4 m/s).
    ("miniaq", "mu_d=0.3"): "chaotic envelope: mu_d x 1.1 moves speed 2.0 floors, tolerance 15 floors",
    ("miniaq", "mu_d=0.5"): "chaotic envelope: mu_d x 1.1 moves speed 1.3 floors, tolerance 19 floors",
}


def moves(c: dict, w: dict, names) -> dict:
    """Per metric of `names`: how far world w's value lies from c's, in floors (TOL's abs + rel*|C|,
    the tolerance without the envelope); inf where w lacks it."""
    return {k: abs(w[k] - c[k]) / tolerance(k, c[k]) if _numeric(w.get(k)) else math.inf for k in names}


def choose_probe(swept: str, moved: dict):
    """The teeth rule's probe (module docstring): `moved` maps a parameter to its moves() of the
    TEETH_METRIC (in floors) under parameter x TEETH.  The swept parameter unless it moves some metric
    by less than one floor (R2); then the other parameter that moves every metric by at least 2 floors
    with the smallest such move; None if none does."""
    if min(moved[swept].values()) >= 1:
        return swept
    ok = {k: min(m.values()) for k, m in moved.items() if k != swept and min(m.values()) >= 2}
    return min(ok, key=ok.get) if ok else None


def rerun(pts, cls, kw) -> list:
    """Rule (1)'s rerun of reference()'s nominal worlds: the same points and run settings, split as
    RERUN (another chunk, one thread) and run in reverse order; the runs in the order of pts."""
    from gaittwin.core.engines import batch
    return batch.run_points(pts[::-1], cls, **dict(kw, **RERUN))[::-1]


def teeth(robot: str, ensemble=ENSEMBLE, sweeps=None) -> list:
    """The rule's check (C engine only): per point a dict: point, same (a rerun of the same world within
    tolerance on every metric), probe (the parameter x TEETH judged: the swept one, R2's substitute or
    None), moved ({parameter: moves() in floors} of the swept parameter and of R2's candidates),
    caught (the probe world FAILs every TEETH_METRIC), rows (the probe world's TEETH_METRIC rows).
    sweeps: SWEEPS unless given (HOLDOUT)."""
    from gaittwin.core.engines import batch
    cls = _class(robot)
    pts, name, kw, c, envs_, _ = reference(robot, cycles=TEETH_CYCLES.get(robot), sweeps=sweeps, ensemble=ensemble)
    same = rerun(pts, cls, kw)
    far = batch.run_points([dict(p, **{name: TEETH * p[name]}) for p in pts], cls, **kw)
    others = [k for k, v in (sweeps or SWEEPS)[robot][0].items() if k != name and _numeric(v)]
    out = []
    for p, rc, rs, rf, env in zip(pts, c, same, far, envs_):
        mc, names = metrics(rc), TEETH_METRIC[robot]
        moved, worlds = {name: moves(mc, metrics(rf), names)}, {name: rf}
        if min(moved[name].values()) < 1 and others:       # R2: the swept parameter does not act here
            for k, r in zip(others, batch.run_points([dict(p, **{k: TEETH * p[k]}) for k in others], cls, **kw)):
                moved[k], worlds[k] = moves(mc, metrics(r), names), r
        probe = choose_probe(name, moved)
        rows = ([r for r in judge("-", mc, metrics(worlds[probe]), env) if r[1] in names]
                if probe is not None else [])
        out.append(dict(point=f"{name}={p[name]}", same=all(r[-1] for r in judge("-", mc, metrics(rs), env)),
                        probe=probe, moved=moved, rows=rows,
                        caught=len(rows) == len(names) and not any(r[-1] for r in rows)))
    return out


def print_teeth(robot: str, ensemble=ENSEMBLE, sweeps=None) -> bool:
    print(f"\n{robot}: the same world / the probe (the swept parameter x {TEETH}, or R2's)\n| point | same world "
          f"within | probe (moves in floors: swept; R2's candidates) | metric | C | probe world | abs diff | "
          f"envelope (set by) | tolerance | probe world FAIL |\n|---|---|---|---|---|---|---|---|---|---|")
    good = True
    teeth_out = teeth(robot, ensemble, sweeps)
    for t in teeth_out:
        good &= t["same"] and t["caught"]
        mv = "; ".join(f"{k} " + ", ".join(f"{v:.2g}" for v in m.values()) for k, m in t["moved"].items())
        for r in t["rows"] or [[None, "-", *[float("nan")] * 4, "-", float("nan"), True]]:
            print(f"| {t['point']} | {t['same']} | {t['probe']} ({mv}) | {r[1]} | {r[2]:.6g} | {r[3]:.6g} | "
                  f"{r[4]:.2g} | {r[5]:.2g} ({r[6]}) | {r[7]:.2g} | {not r[-1]} |")
    for t in teeth_out:
        why = NO_TEETH.get((robot, t["point"]))
        if why:
            print(f"{t['point']}: no teeth, documented (NO_TEETH): {why}; caught now: {t['caught']}")
    return good


def f32_state(robot: str) -> list:
    """Diagnostic, not part of the tolerance: the C engine stepped with Warp's float32 state
    (_warp_ref.round_state before every step: F32_STATE's hook on the model as compiled, at the model's
    solver tolerance).  Per point of the sweep: (point, change of the robot's progress coordinate
    over the sweep's run, the same with rounding)."""
    import mujoco

    from gaittwin.core.model.stepper import Stepper
    cls = _class(robot)
    base, name, vals, cycles = SWEEPS[robot]
    out = []
    for v in vals:
        p = dict(base, **({name: v} if v is not None else {}))
        change = []
        for r in (cls(**p), member(cls, p, None, None, 1.0, 1.0, state32=True)):
            st = Stepper(r)
            m, d = st.model, st.data
            x0 = float(np.ravel(r.progress(d.sensordata.copy(), m))[0])
            st(cycles * r.steps_per_cycle)
            mujoco.mj_forward(m, d)
            change.append(float(np.ravel(r.progress(d.sensordata.copy(), m))[0]) - x0)
        out.append((f"{name}={v}", *change))
    return out


def print_f32_state(robot: str) -> None:
    cycles = SWEEPS[robot][3]
    print(f"\n{robot} ({cycles} cycle(s))\n| point | progress change, C | C with float32 state | abs diff |\n|---|---|---|---|")
    for point, c, c32 in f32_state(robot):
        print(f"| {point} | {c:.6g} | {c32:.6g} | {abs(c32 - c):.2g} |")
