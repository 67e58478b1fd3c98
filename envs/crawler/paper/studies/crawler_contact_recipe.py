#!/usr/bin/env python
"""The crawler's foot-floor contact recipe: a measured study against the exact hybrid model.

For each candidate recipe (the previous geom contact; the explicit foot-floor <pair> recipe,
the default; variations of its normal time constant, friction time constant and solimp) and
each timestep (2e-4, 1e-4, 5e-5 s) the twin's steady stride S is compared with the exact
hybrid model (envs/crawler/paper/hybrid.py) at the Fig. 4 inputs (A = 18, phi0 = 110, psi = 20 deg)
for mu = 0.172 and 0.398, and off Fig. 4 (phi0 = 145, psi = 105 deg, mu = 0.398).  Reported
per recipe: max |S_twin - S_exact|, the target max(1.5 mm, 3 %) at every omega, steadiness
where the exact model is steady, the sign where |S_exact| > 1 mm, and the minimum normal force
over the last (steady) cycle at omega = 8 against the exact model's, and where a foot lifts off
(touch sensors read at every step from omega = 8 up).  Recipes are named
"pair normal_ms/friction_ms/(dmin, dmax)".  Further parts: steps/s, the omega = 0.3 offset vs
the foot radius, the servo stiffness at mu = 0.398, omega = 8-12.  The numbers behind
models/crawler/README.md, "Contact recipe" (a full run takes about an hour on 2 cores).

  python -m gaittwin.crawler.paper.studies.crawler_contact_recipe                    # recipes x timesteps x cases
  python -m gaittwin.crawler.paper.studies.crawler_contact_recipe --recipes "pair 0.5/50/(0.05, 0.1)" previous --dt 2e-4 --cases fig4
  python -m gaittwin.crawler.paper.studies.crawler_contact_recipe --part radius      # omega = 0.3 offset
  python -m gaittwin.crawler.paper.studies.crawler_contact_recipe --part servo       # mu = 0.398, omega = 9
  python -m gaittwin.crawler.paper.studies.crawler_contact_recipe --part timing      # steps/s, previous vs default
  ... --json out.json   (all numbers, for the README tables); --exact-cache ex.json (reuse)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import mujoco
import numpy as np

from ....core.engines import batch
from ....core.runs.study import finish
from .. import hybrid as H
from ...robot import Crawler, feet, ideal_stride, theta_on_floor

OMEGAS = [0.3, 1.0, 2.0, 3.2, 5.1, 8.0, 12.0, 16.0]
CASES = {   # name -> (inputs, omegas)
    "fig4": (dict(), OMEGAS),
    "mu0.398": (dict(mu=0.398), [0.3, 1.0, 2.0, 3.2, 5.1, 8.0, 9.0, 12.0, 16.0]),
    "off": (dict(phi0_deg=145.0, psi_deg=105.0, mu=0.398), [1.0, 2.0, 3.2, 5.1, 8.0, 9.0, 12.0, 16.0]),
}
DTS = [2e-4, 1e-4, 5e-5]
CYCLES = 40
OMEGA_FN = 8.0          # the minimum normal force is reported at this omega
EVERY_STEP_FROM = 8.0   # normal forces (lift-off) are read at every step from this omega up (else 200 a cycle)
PREVIOUS = "previous"   # the recipe before the foot-floor pairs


def recipe(normal_ms, friction_ms, dmin, dmax, **extra):
    """Every contact_* parameter of one foot-floor pair recipe (the rest: width 1 mm, midpoint 0.5, power 2)."""
    return dict(contact_timeconst=1e-3 * normal_ms, contact_dampratio=1.0,
                contact_friction_timeconst=1e-3 * friction_ms,
                contact_impedance_min=dmin, contact_impedance_max=dmax, contact_impedance_width=0.001,
                contact_impedance_midpoint=0.5, contact_impedance_power=2.0, **extra)


DEFAULT = "pair 0.5/50/(0.05, 0.1)"     # normal ms / friction ms / (dmin, dmax): the committed default
WIDE = "pair 1/27.5/(0.15, 0.2)"        # a candidate with the wider impedance band (dmin 0.15, dmax 0.2)
# name -> robot parameters (PREVIOUS: the geom contact before the pairs, see Previous)
RECIPES = {
    PREVIOUS: {},
    DEFAULT: recipe(0.5, 50, 0.05, 0.1),
    # around the default
    "pair 1/50/(0.05, 0.1)": recipe(1, 50, 0.05, 0.1),
    "pair 0.5/35/(0.05, 0.1)": recipe(0.5, 35, 0.05, 0.1),
    "pair 0.5/50/(0.1, 0.15)": recipe(0.5, 50, 0.1, 0.15),
    "pair 1/35/(0.05, 0.1)": recipe(1, 35, 0.05, 0.1),
    "pair 1/27.5/(0.05, 0.1)": recipe(1, 27.5, 0.05, 0.1),
    "pair 1/35/(0.1, 0.15)": recipe(1, 35, 0.1, 0.15),
    "pair 1/27.5/(0.02, 0.05)": recipe(1, 27.5, 0.02, 0.05),
    # the wide-band candidate and its variations
    WIDE: recipe(1, 27.5, 0.15, 0.2),
    "pair 0.5/27.5/(0.15, 0.2)": recipe(0.5, 27.5, 0.15, 0.2),
    "pair 2/27.5/(0.15, 0.2)": recipe(2, 27.5, 0.15, 0.2),
    "pair 3/27.5/(0.15, 0.2)": recipe(3, 27.5, 0.15, 0.2),
    "pair 1/1/(0.15, 0.2) (friction tied to normal)": recipe(1, 1, 0.15, 0.2),
    "pair 1/10/(0.15, 0.2)": recipe(1, 10, 0.15, 0.2),
    "pair 1/20/(0.15, 0.2)": recipe(1, 20, 0.15, 0.2),
    "pair 1/35/(0.15, 0.2)": recipe(1, 35, 0.15, 0.2),
    "pair 1/50/(0.15, 0.2)": recipe(1, 50, 0.15, 0.2),
    "pair 1/100/(0.15, 0.2)": recipe(1, 100, 0.15, 0.2),
    "pair 1/27.5/(0.5, 0.6)": recipe(1, 27.5, 0.5, 0.6),
    "pair 1/27.5/(0.9, 0.95) (MuJoCo's solimp)": recipe(1, 27.5, 0.9, 0.95),
    "pair 3/27.5/(0.9, 0.95)": recipe(3, 27.5, 0.9, 0.95),
    # the default with a smaller foot (the omega = 0.3 offset, see part radius)
    "default, foot radius 0.1 mm": recipe(0.5, 50, 0.05, 0.1, foot_radius=1e-4),
}


# name -> MjSpec edit of the default recipe (simulation options the robot parameters do not expose)
def _no_noslip(s):
    s.option.noslip_iterations = 0


def _no_lateral(s):   # without the passive lateral slide the feet's lateral friction rows are inert
    s.delete(s.joint("lateral"))


def _pyramidal(s):
    s.option.cone = mujoco.mjtCone.mjCONE_PYRAMIDAL


SPEC_EDITS = {"no noslip": _no_noslip, "no lateral slide": _no_lateral, "pyramidal cone": _pyramidal}
RECIPES.update({"default, no noslip": {}, "default, no lateral slide": {}, "default, pyramidal cone": {},
                "default, impratio 10": dict(impratio=10.0), "default, impratio 1": dict(impratio=1.0)})
SPEC_EDITS = {f"default, {k}": v for k, v in SPEC_EDITS.items()}
_EDITED = {}


def _edited(edit):
    if edit not in _EDITED:
        class Edited(Crawler):
            def spec(self):
                s = super().spec()
                edit(s)
                return s

            def model_key(self):
                return super().model_key() + (edit.__name__,)

        _EDITED[edit] = Edited
    return _EDITED[edit]


class Previous(Crawler):
    """The recipe before the pairs: foot geoms collide with the floor (priority 1, geom friction
    mu, the floor mu too), solref (0.02, 1), MuJoCo's default solimp, no solreffriction."""

    def spec(self):
        s = super().spec()
        p = self.p
        for i, mu_i in ((1, p.mu1), (2, p.mu2)):
            s.delete(s.pair(f"foot{i}_floor"))
            mu = mu_i if mu_i is not None else p.mu
            g = s.geom(f"foot{i}")
            g.contype, g.conaffinity, g.priority = 1, 1, 1
            g.friction = [mu, 0.0, 0.0]
            g.solref, g.solimp = [0.02, 1.0], [0.9, 0.95, 0.001, 0.5, 2.0]
        s.geom("floor").friction = [p.mu, 0.0, 0.0]
        return s



def _every_step(robot):
    """The point recording every step (samples_per_cycle = steps_per_cycle: the same timestep)."""
    robot.samples_per_cycle = robot.steps_per_cycle
    return robot


def twin(name: str, inputs: dict, omegas, dt: float, nthread=None) -> list[dict]:
    """Twin summaries (S, steady, normal forces, lift-off) at each omega."""
    cls = Previous if name == PREVIOUS else _edited(SPEC_EDITS[name]) if name in SPEC_EDITS else Crawler
    params = dict(RECIPES[name], timestep=dt, **inputs)
    robots = [cls(omega=w, **params) for w in omegas]
    robots = [_every_step(r) if w >= EVERY_STEP_FROM else r for w, r in zip(omegas, robots)]
    runs = batch.run_points(robots, cycles=CYCLES, stop_when_steady=True, nthread=nthread)
    out = []
    for w, r in zip(omegas, runs):
        s = r.robot.summarize(r)
        out.append(dict(omega=w, S=s["S"], steady=s["steady"], cycles=r.cycles, error=r.error,
                        fn_min=min(s["foot1_fn_min"], s["foot2_fn_min"]),
                        liftoff=max(s["foot1_liftoff"], s["foot2_liftoff"]),
                        tracking_deg=s["tracking_error_deg"]))
    return out


def exact(inputs: dict, omegas) -> list[dict]:
    out = []
    for w in omegas:
        run = H.simulate(dict(omega=w, **inputs), cycles=CYCLES, samples_per_cycle=2000)
        s = H.summarize(run)
        out.append(dict(omega=w, S=s["S"], steady=s["steady"], cycles=run.cycles,
                        fn_min=float(run.fn[-2001:].min())))
    return out


def target(S_exact: float) -> float:
    return max(1.5e-3, 0.03 * abs(S_exact))


def verdict(tw: list[dict], ex: list[dict]) -> dict:
    d = [a["S"] - b["S"] for a, b in zip(tw, ex)]
    within = all(abs(x) <= target(b["S"]) for x, b in zip(d, ex))
    steady = all(a["steady"] or not b["steady"] for a, b in zip(tw, ex))
    sign = all(np.sign(a["S"]) == np.sign(b["S"]) for a, b in zip(tw, ex) if abs(b["S"]) > 1e-3)
    fn = {a["omega"]: (a["fn_min"], b["fn_min"]) for a, b in zip(tw, ex) if a["omega"] == OMEGA_FN}
    lift = fn[OMEGA_FN][0] > 0 if fn else None
    lift_w = [a["omega"] for a, b in zip(tw, ex) if a["liftoff"] > 0 and b["fn_min"] > 0]
    return dict(max_abs_dS=float(np.max(np.abs(d))), within=within, steady=steady, sign=sign,
                no_liftoff_at_8=lift, liftoff_omegas=lift_w, ok=bool(within and steady and sign and lift is not False))


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _S(a):
    return f"{1e3 * a['S']:.2f}" + ("" if a["steady"] else " (ns)")


def part_recipes(args, res):
    ex_all = res.setdefault("exact", {})
    if args.exact_cache and os.path.exists(args.exact_cache):
        with open(args.exact_cache) as f:
            ex_all.update(json.load(f))
    for case in args.cases:
        inputs, omegas = CASES[case]
        if args.omegas:   # a subset of the case's omegas
            omegas = [w for w in omegas if w in args.omegas]
        have = {b["omega"]: b for b in ex_all.get(case, [])}
        missing = [w for w in omegas if w not in have]
        if missing:
            t0 = time.perf_counter()
            have.update({b["omega"]: b for b in exact(inputs, missing)})
            ex_all[case] = [have[w] for w in sorted(have)]
            print(f"[exact {case}: {time.perf_counter() - t0:.0f} s]", flush=True)
            if args.exact_cache:
                with open(args.exact_cache, "w") as f:
                    json.dump(ex_all, f, default=float)
        ex = [have[w] for w in omegas]
        print(f"\n### {case} {inputs or '(Fig. 4 defaults)'}: S in mm, (ns) = not steady after {CYCLES} "
              f"cycles; min f_n at omega = {OMEGA_FN:g} over the last cycle; lift-off (f_n = 0) in the last "
              f"cycle, at every step from omega = {EVERY_STEP_FROM:g} up, else 200 samples\n")
        head = ["recipe", "dt"] + [f"{w:g}" for w in omegas] + ["max abs dS", "within", "steady", "sign",
                                                                  "min f_n @8 [N]", "lift-off @8",
                                                                  "lift-off at omega"]
        print(_row(head))
        print(_row(["---"] * len(head)))
        print(_row(["exact", "–"] + [_S(b) for b in ex] + ["–"] * 3 + ["–",
                   f"{min(b['fn_min'] for b in ex if b['omega'] == OMEGA_FN):.3f}" if OMEGA_FN in omegas else "–", "–",
                   "none" if min(b["fn_min"] for b in ex) > 0 else "fn < 0"]))
        for rec in args.recipes:
            for dt in args.dt:
                t0 = time.perf_counter()
                tw = twin(rec, inputs, omegas, dt, args.nthread)
                v = verdict(tw, ex)
                res.setdefault("twin", {}).setdefault(case, {}).setdefault(rec, {})[f"{dt:g}"] = \
                    dict(points=tw, verdict=v, wall_s=time.perf_counter() - t0)
                fn8 = [a for a in tw if a["omega"] == OMEGA_FN]
                print(_row([rec, f"{dt:g}"] + [_S(a) for a in tw]
                           + [f"{1e3 * v['max_abs_dS']:.2f}", "yes" if v["within"] else "**no**",
                              "yes" if v["steady"] else "**no**", "yes" if v["sign"] else "**no**",
                              f"{fn8[0]['fn_min']:.3f}" if fn8 else "–",
                              f"{100 * fn8[0]['liftoff']:.1f} %" if fn8 else "–",
                              ", ".join(f"{w:g}" for w in v["liftoff_omegas"]) or "none"]), flush=True)
        print("\ntwin - exact (mm):")
        for rec in args.recipes:
            for dt in args.dt:
                tw = res["twin"][case][rec][f"{dt:g}"]["points"]
                print(_row([rec, f"{dt:g}"] + [f"{1e3 * (a['S'] - b['S']):+.2f}" for a, b in zip(tw, ex)]))
        print("target (mm): " + " ".join(f"{1e3 * target(b['S']):.2f}" for b in ex))


def rolling_offset(r: float, **inputs) -> float:
    """The stride a foot sphere of radius r adds by rolling on its contact point while it sticks.

    A sticking sphere's centre (the leg tip) moves by r * dalpha_i, alpha_i the leg's angle to
    the floor (link 1 turns by +alpha1 about +y, link 2 by -alpha2).  With ideal switching foot 2
    sticks while the feet spread and foot 1 while they close: S = D_max - D_min +
    r (dalpha2 over the spreading - dalpha1 over the closing), summed over the phases.
    """
    c = Crawler(omega=1.0, **inputs)
    t = np.linspace(0.0, c.period, 4001)
    q, _, _ = c.inputs(t)
    l0, l = c.p.l0, c.p.l
    th = theta_on_floor(q[:, 0], q[:, 1], l0, l)
    x1, _, x2, _ = feet(0.0, 0.0, th, q[:, 0], q[:, 1], l0, l)
    dD = np.diff(x2 - x1)
    a1, a2 = np.diff(q[:, 0] - th), np.diff(q[:, 1] + th)
    spread = dD > 0
    return float(r * (a2[spread].sum() - a1[~spread].sum()))


def part_radius(args, res):
    """The omega = 0.3 offset against the foot radius (point feet in the exact model)."""
    out = res.setdefault("radius", {})
    for mu in (0.172, 0.398):
        ex = exact(dict(mu=mu), [0.3])[0]
        radii = [1e-4, 5e-4, 1e-3, 2e-3]
        tw = batch.run_points([Crawler(omega=0.3, mu=mu, foot_radius=r) for r in radii], cycles=CYCLES,
                              stop_when_steady=True, nthread=args.nthread)
        ideal = ideal_stride(Crawler(omega=0.3).inputs, 0.187, 0.17)
        print(f"\nomega = 0.3, mu = {mu}: exact S = {1e3 * ex['S']:.2f} mm, ideal (point feet) {1e3 * ideal:.2f} mm")
        print(_row(["foot radius [mm]", "twin S [mm]", "twin - exact [mm]", "rolling offset r (dalpha) [mm]",
                    "twin - exact - rolling [mm]"]))
        print(_row(["---"] * 5))
        for r, run in zip(radii, tw):
            S = run.robot.summarize(run)["S"]
            roll = rolling_offset(r, mu=mu)
            out[f"{mu}/{r:g}"] = dict(S=S, exact=ex["S"], rolling=roll)
            print(_row([f"{1e3 * r:g}", f"{1e3 * S:.2f}", f"{1e3 * (S - ex['S']):+.2f}", f"{1e3 * roll:+.2f}",
                        f"{1e3 * (S - ex['S'] - roll):+.2f}"]), flush=True)


def part_servo(args, res):
    """mu = 0.398, omega = 8, 9, 12: the servo that prescribes the joint angles, stiffer and stiffer."""
    out = res.setdefault("servo", {})
    cls = lambda **kw: _every_step(Crawler(**kw))  # noqa: E731
    for w in (8.0, 9.0, 12.0):
        ex = exact(dict(mu=0.398), [w])[0]
        kps = [400.0, 1600.0, 6400.0, 25600.0]
        pts = [cls(omega=w, mu=0.398, timestep=2e-4)]
        pts += [cls(omega=w, mu=0.398, kp=kp, kv=1.2 * math.sqrt(kp / 400.0), timestep=5e-5) for kp in kps]
        runs = batch.run_points(pts, cycles=CYCLES, stop_when_steady=True, nthread=args.nthread)
        print(f"\nmu = 0.398, omega = {w:g}: exact S = {1e3 * ex['S']:.2f} mm, min f_n {ex['fn_min']:.3f} N;"
              " servo kv = 1.2 sqrt(kp/400) (same damping ratio)")
        print(_row(["kp [N m/rad]", "kv [N m s/rad]", "dt [s]", "max tracking error [deg]", "twin S [mm]",
                    "twin - exact [mm]", "min f_n [N]", "lift-off"]))
        print(_row(["---"] * 8))
        for c, run in zip(pts, runs):
            s = c.summarize(run)
            fn = min(s["foot1_fn_min"], s["foot2_fn_min"])
            lift = max(s["foot1_liftoff"], s["foot2_liftoff"])
            out[f"{w:g}/{c.cfg['kp']:g}/{c.cfg['timestep']:g}"] = dict(
                S=s["S"], exact=ex["S"], tracking_deg=s["tracking_error_deg"], fn_min=fn, exact_fn_min=ex["fn_min"],
                liftoff=lift, steady=s["steady"])
            print(_row([f"{c.cfg['kp']:g}", f"{c.cfg['kv']:.3g}", f"{c.cfg['timestep']:g}",
                        f"{s['tracking_error_deg']:.4f}", _S(s), f"{1e3 * (s['S'] - ex['S']):+.2f}",
                        f"{fn:.3f}", f"{100 * lift:.1f} %"]), flush=True)


def part_timing(args, res):
    """steps/s (one thread) over the Fig. 4 sweep at dt = 2e-4, previous recipe vs the default."""
    out = res.setdefault("timing", {})
    print("\n" + _row(["recipe", "sweep wall [s]", "steps", "steps/s (1 thread)", "points steady"]))
    print(_row(["---"] * 5))
    for rec in (PREVIOUS, DEFAULT):
        cls = Previous if rec == PREVIOUS else Crawler
        best = None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            runs = batch.run_points([cls(omega=w) for w in OMEGAS], cycles=CYCLES, stop_when_steady=True, nthread=1)
            wall = time.perf_counter() - t0
            best = wall if best is None else min(best, wall)
        steps = sum(r.cycles * r.robot.steps_per_cycle for r in runs)
        steady = sum(bool(r.steady and r.steady.steady) for r in runs)
        out[rec] = dict(wall_s=best, steps=steps, steps_per_s=steps / best, steady=steady)
        print(_row([rec, f"{best:.1f}", steps, f"{steps / best:.0f}", f"{steady}/{len(runs)}"]), flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", nargs="+", default=["recipes"], choices=["recipes", "radius", "servo", "timing"])
    ap.add_argument("--recipes", nargs="+", default=list(RECIPES), choices=list(RECIPES), metavar="RECIPE")
    ap.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    ap.add_argument("--dt", nargs="+", type=float, default=DTS)
    ap.add_argument("--omegas", nargs="+", type=float, help="only these of each case's omegas")
    ap.add_argument("--nthread", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=2, help="timing repeats (best of)")
    ap.add_argument("--json", help="write every number here")
    ap.add_argument("--exact-cache", help="JSON file keeping the exact model's results between runs")
    args = ap.parse_args(argv)
    res: dict = {}
    t0 = time.perf_counter()
    for part in args.part:
        dict(recipes=part_recipes, radius=part_radius, servo=part_servo, timing=part_timing)[part](args, res)
    print(f"\nwall {time.perf_counter() - t0:.0f} s")
    return finish(res, args.json)


if __name__ == "__main__":
    sys.exit(main())
