"""Diagnostics of scripts/warp_agreement.py that need no warp (the C engine only), outside its criterion:

  f32_state    the C engine stepped with its state rounded to float32 after every step (--f32-state)
  teeth        the wrong-world check of a candidate ensemble (--teeth): per point, a rerun of the same
               world within tolerance on every metric, and the world with the swept parameter x TEETH
               FAIL on the robot's progress metric (TEETH_METRIC; the rule of warp_agreement's F32_STATE)

The teeth rule, v2 (stated and committed 2026-11-27 05:38 UTC, before any run under it; the C engine
only, nothing from warp enters it).  Per robot of SWEEPS at every point, under the criterion as it is
(ENSEMBLE, SAFETY, TOL unchanged):
  (1) a rerun of the same world is within tolerance on every metric;
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

import numpy as np

from warp_agreement import ENSEMBLE, SWEEPS, _class, judge, metrics, reference

TEETH = 1.1      # the wrong world: the swept parameter x TEETH
TEETH_METRIC = {"crawler": ("S", "V"), "snake": ("dx",), "miniaq": ("speed",), "bolt": ("speed",),
                "crawler_feedback": ("S",)}
TEETH_CYCLES = {"crawler": 1}     # as test_derived_tolerance_rejects_a_world_with_another_friction


def teeth(robot: str, ensemble=ENSEMBLE) -> list:
    """The rule's check (C engine only): per point, (point, a rerun of the same world within tolerance on
    every metric, the world with the swept parameter x TEETH FAIL on every TEETH_METRIC, its rows)."""
    from envs.core import batch
    cls = _class(robot)
    pts, name, kw, c, envs_, _ = reference(robot, cycles=TEETH_CYCLES.get(robot), ensemble=ensemble)
    same = batch.run_points(pts, cls, **kw)
    far = batch.run_points([dict(p, **{name: TEETH * p[name]}) for p in pts], cls, **kw)
    out = []
    for p, rc, rs, rf, env in zip(pts, c, same, far, envs_):
        ok_same = all(r[-1] for r in judge("-", metrics(rc), metrics(rs), env))
        rows = [r for r in judge("-", metrics(rc), metrics(rf), env) if r[1] in TEETH_METRIC[robot]]
        out.append((f"{name}={p[name]}", ok_same, len(rows) == len(TEETH_METRIC[robot]) and not any(r[-1] for r in rows),
                    rows))
    return out


def print_teeth(robot: str, ensemble=ENSEMBLE) -> bool:
    print(f"\n{robot}: the same world / the swept parameter x {TEETH}\n| point | same world within | metric | C | "
          f"wrong world | abs diff | envelope (set by) | tolerance | wrong world FAIL |\n|---|---|---|---|---|---|---|---|---|")
    good = True
    for point, ok_same, caught, rows in teeth(robot, ensemble):
        good &= ok_same and caught
        for r in rows:
            print(f"| {point} | {ok_same} | {r[1]} | {r[2]:.6g} | {r[3]:.6g} | {r[4]:.2g} | {r[5]:.2g} ({r[6]}) | "
                  f"{r[7]:.2g} | {not r[-1]} |")
    return good


def f32_state(robot: str) -> list:
    """Diagnostic, not part of the tolerance: the C engine stepped with its state (qpos, qvel, act,
    warm start) rounded to float32 after every step, as Warp stores it.  Per point of the sweep:
    (point, change of the robot's progress coordinate over the sweep's run, the same with rounding)."""
    import mujoco

    from envs.core.stepper import Stepper
    cls = _class(robot)
    base, name, vals, cycles = SWEEPS[robot]
    out = []
    for v in vals:
        r = cls(**dict(base, **({name: v} if v is not None else {})))
        change = []
        for rounded in (False, True):
            st = Stepper(r)
            m, d = st.model, st.data
            x0 = float(np.ravel(r.progress(d.sensordata.copy(), m))[0])
            for _ in range(cycles * r.steps_per_cycle):
                st(1)
                if rounded:
                    for arr in (d.qpos, d.qvel, d.act, d.qacc_warmstart):
                        arr[:] = arr.astype(np.float32)
            mujoco.mj_forward(m, d)
            change.append(float(np.ravel(r.progress(d.sensordata.copy(), m))[0]) - x0)
        out.append((f"{name}={v}", *change))
    return out


def print_f32_state(robot: str) -> None:
    cycles = SWEEPS[robot][3]
    print(f"\n{robot} ({cycles} cycle(s))\n| point | progress change, C | C with float32 state | abs diff |\n|---|---|---|---|")
    for point, c, c32 in f32_state(robot):
        print(f"| {point} | {c:.6g} | {c32:.6g} | {abs(c32 - c):.2g} |")
