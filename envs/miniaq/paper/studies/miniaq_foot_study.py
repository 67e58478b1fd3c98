#!/usr/bin/env python
"""MinIAQ-II foot study: which foot lets the twin's feet rest where the paper model's do.

Candidates (each a physical setting, applied to the default point through MjSpec) x timestep x
friction (mu_d 0.3 and 0.4, the paper's mu_d and mu_s) x case (trot; turn, the left side
reversed), each judged against engine=paper at the same inputs on all of these together:

  time on >= 3 legs, hind duty (mean of hl, hr), hind touch-downs per cycle, speed, roll amplitude,
  yaw rate (turn)

Target (stated before comparing): |time on >= 3 legs - paper| <= 0.15, |hind duty - paper|
<= 0.15, speed within 10 %, roll amplitude within 20 %, turning yaw rate within 20 %.

"On the ground" (stated before measuring): the instantaneous normal force above CONTACT_FORCE_MIN
(1e-4 N), the twin's metric, is the support metric.  Also reported, filtered: the normal force averaged
over a centred window of WINDOW_DEG = 20 deg of crank phase (T/18 = 22 ms at 2.5 Hz), the resolution of
the paper's phase loop (Sec. II: each leg held to about 20 deg), above the same threshold.  The window
is long against the servo (its slow pole kp/kv = 250 rad/s, 4 ms) and short against a stance (T/2).

  python -m gaittwin.miniaq.paper.studies.miniaq_foot_study                         # screen: every candidate, dt 1e-4, trot + turn, mu 0.3
  python -m gaittwin.miniaq.paper.studies.miniaq_foot_study --candidates linear pad --dt 1e-4 5e-5 2.5e-5 1.25e-5 --mu 0.3 0.4  # dt study
  python -m gaittwin.miniaq.paper.studies.miniaq_foot_study --candidates pad:stiffness=300,contact=2   # any foot=pad setting
  python -m gaittwin.miniaq.paper.studies.miniaq_foot_study --cases trot --candidates pad --dt 2.5e-5 --set theta1_deg=190  # the band
  python -m gaittwin.miniaq.paper.studies.miniaq_foot_study --candidates hc_point pad:hc_contact=1,hc_limit=1 --dt 1e-4 2.5e-5  # Hunt-Crossley by impedance
  options: --cycles N (default 6: 1 settling + 5 measured), --json FILE
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import mujoco
import numpy as np

from ....core.engines import batch
from ....core.model import metrics
from ....core.model.errors import ConfigError
from .. import model as paper
from ...foot import critical_solref, hunt_crossley_point
from ... import robot as miniaq_robot
from ...robot import CONTACT_FORCE_MIN, LEGS, MiniAQ

miniaq_robot.PAD_TIMESTEP_MAX = 1.0     # the study measures foot=pad beyond its converged timesteps too

WINDOW_DEG = 20.0
CASES = {"trot": dict(), "turn": dict(direction_left=-1)}
TARGET = dict(support_ge3=0.15, hind_duty=0.15, speed=0.10, roll=0.20, yaw=0.20)

# candidate -> (MiniAQ parameters, foot edit applied to the spec, or None)
#   foot=pad: the twin's pad (envs/miniaq/foot.py; its parameters pad_* and contact_damping_ratio);
#        edit hc_damping: its contact keeps the Hunt-Crossley damping C(delta0) instead (the linear map).
#   margin: the foot's contact margin/gap (m): the constraint is in the solver when the foot is
#        within margin of the floor, force only below margin - gap.
#   critical: direct solref (-k, -b) with the secant k and b = critical x 2 sqrt(k m_foot) on the foot's mass.
#   split: the leg mass split (crank, coupler, rocker) instead of 10/60/30 %.
PAD_C = dict(foot="pad")
PAD_A = dict(foot="pad", pad_travel=2e-5, pad_preload=0.0, pad_stiffness=5.6e3, pad_damping_ratio=2.0)
PAD_H = dict(foot="pad", pad_travel=1e-3, pad_preload=0.0, pad_stiffness=100.0)
CANDIDATES = {
    "linear": (dict(contact_law="linear"), None),
    "pad": (PAD_C, None),
    "power": (dict(contact_law="power"), None),
    "critical1": (dict(), dict(critical=1.0)),
    "critical2": (dict(), dict(critical=2.0)),
    "margin5": (dict(), dict(margin=5e-6, gap=0.0)),
    "margin20g": (dict(), dict(margin=20e-6, gap=20e-6)),
    "condim1": (dict(), dict(condim=1)),
    "condim6": (dict(), dict(condim=6)),
    "impratio1": (dict(impratio=1.0), None),
    "impratio100": (dict(impratio=100.0), None),
    "split_light_coupler": (dict(), dict(split=(0.3, 0.3, 0.4))),
    "kv+20": (dict(kv=0.0024), None),
    "kv-20": (dict(kv=0.0016), None),
    "pad_a": (PAD_A, dict(hc_damping=True)),
    "pad_c": (PAD_C, dict(hc_damping=True)),
    "pad_h": (PAD_H, dict(hc_damping=True)),
    "pad_c_crit4": (dict(PAD_C, contact_damping_ratio=4.0), None),
    "hc_point": (dict(), dict(hc_contact=1.0)),
    "hc_point_d0": (dict(), dict(hc_contact=1.0, hc_depth=9.9e-6)),   # matched at delta0, the linear map's point
    "hc_point_3um": (dict(), dict(hc_contact=1.0, hc_depth=3e-6)),
    "hc_point_ed": (dict(), dict(hc_contact=1.0, hc_elastic_drop=1.0)),   # stiffness matched at the drop's depth
}
# the study's candidates are measured against the linear map (contact_law=linear): each that sets no law of its
# own keeps it; "hc_point" is the default (contact_law=hunt_crossley)
CANDIDATES = {k: (v[0] if "contact_law" in v[0] or "foot" in v[0] or k.startswith("hc_")
                  else dict(v[0], contact_law="linear"),
                  v[1]) for k, v in CANDIDATES.items()}
# hc_limit / hc_contact: the pad's slide limit / the foot-floor contact given the paper's Hunt-Crossley law by a
# depth-rising impedance (envs/miniaq/foot.py: hunt_crossley_point, the robot's hc_depth and hc_drop_speed)


class Foot(MiniAQ):
    """The twin with one foot candidate's spec edit applied."""

    edit: dict = {}

    def model_key(self) -> tuple:
        return super().model_key() + (json.dumps(self.edit, sort_keys=True),)

    def spec(self) -> mujoco.MjSpec:
        spec = super().spec()
        e, p = self.edit, self.p
        if not e:
            return spec
        if "split" in e:
            for leg in LEGS:
                for n, fm in zip(("crank", "coupler", "rocker"), e["split"]):
                    b = spec.body(f"{leg}_{n}")
                    s = fm * p.m_leg / b.mass
                    b.mass, b.inertia = fm * p.m_leg, [v * s for v in b.inertia]
        for leg in LEGS:
            g = spec.geom(f"{leg}_foot")
            if "margin" in e:
                g.margin, g.gap = e["margin"], e["gap"]
            if "condim" in e:
                g.condim = spec.geom("floor").condim = e["condim"]
                if e["condim"] == 6:
                    g.friction = [g.friction[0], 0.0, 1e-5]
        m0 = spec.compile()
        for leg in LEGS:
            A = float(m0.body_invweight0[m0.body(f"{leg}_{'pad' if self.cfg['foot'] == 'pad' else 'coupler'}").id, 0])
            c = self.contact(A)
            if "critical" in e:
                c = dict(c, solref=critical_solref(c["stiffness"], e["critical"], p.impedance, A))
            spec.geom(f"{leg}_foot").solref = list(c["solref"])
            if "frictionloss" in e:   # dry (rate-independent) friction in the pad's slide, N
                spec.joint(f"{leg}_pad").frictionloss = e["frictionloss"]
            if "stop" in e:       # the pad's stops in force units: k = stop x the contact's secant, critical on m/2
                jid = m0.joint(f"{leg}_pad").id
                Aj = float(m0.dof_invweight0[m0.jnt_dofadr[jid]])
                ks = e["stop"] * c["stiffness"]
                bs = e.get("stop_zeta", 1.0) * 2 * math.sqrt(ks * p.m / 2)
                imp = float(m0.jnt_solimp[jid, 0])
                spec.joint(f"{leg}_pad").solref_limit = [-ks * (1 - imp) * Aj, -bs * (1 - imp) * Aj]
            hc = lambda a: hunt_crossley_point(p, a, e.get("hc_depth"), bool(e.get("hc_elastic_drop")))  # noqa: E731
            if "hc_contact" in e:
                c = hc(A)
                spec.geom(f"{leg}_foot").solref, spec.geom(f"{leg}_foot").solimp = list(c["solref"]), list(c["solimp"])
            if "hc_limit" in e:
                jid = m0.joint(f"{leg}_pad").id
                c = hc(float(m0.dof_invweight0[m0.jnt_dofadr[jid]]))
                spec.joint(f"{leg}_pad").solref_limit, spec.joint(f"{leg}_pad").solimp_limit = list(c["solref"]), list(c["solimp"])
        return spec


def _filtered(fn, spc):
    w = max(1, int(round(spc * WINDOW_DEG / 360.0)))
    k = np.ones(w) / w
    return np.stack([np.convolve(np.pad(fn[:, j], (w // 2, w - 1 - w // 2), mode="wrap"), k, mode="valid")
                     for j in range(fn.shape[1])], axis=1)


def measures(s, run, spc) -> dict:
    fn = np.stack([run.sensor(f"{leg}_touch")[spc:, 0] for leg in LEGS], axis=1)
    ff = _filtered(fn, spc) > CONTACT_FORCE_MIN
    sf = metrics.support_fractions(ff)
    return dict(support_ge3=s["support_3"] + s["support_4"], hind_duty=(s["hl_duty_factor"] + s["hr_duty_factor"]) / 2,
                hind_td=(s["hl_touchdowns_per_cycle"] + s["hr_touchdowns_per_cycle"]) / 2, speed=s["speed"],
                roll=s["roll_amplitude_deg"], yaw=s["yaw_rate_deg_s"], support_le1=s["support_le1"],
                support_ge3_filt=sf[3] + sf[4], hind_duty_filt=float(ff[:, 2:].mean()),
                flight=float(np.mean(~(fn > CONTACT_FORCE_MIN).any(axis=1))))


def candidate(name) -> tuple:
    """A named candidate, or foot=pad with its parameters: "pad:mass=1e-5,travel=1e-4,preload=0.01,
    stiffness=1e3,damping_ratio=4,contact=1" (any subset; `contact` is contact_damping_ratio); also, as spec
    edits: stop=S (the slide's stops in force units, S x the contact's secant stiffness), stop_zeta (their
    damping over critical on m/2, default 1), frictionloss=F (dry friction in the slide, N), hc_limit=1 / hc_contact=1
    (the slide's limit / the foot contact given the paper's Hunt-Crossley law by a depth-rising impedance;
    hc_depth=R: its operating depth, m, default robot.hc_depth; hc_elastic_drop=1: its stiffness matched at the
    drop's depth instead)."""
    if name in CANDIDATES:
        return CANDIDATES[name]
    if not name.startswith("pad:"):
        raise SystemExit(f"unknown candidate {name!r}: one of {list(CANDIDATES)} or pad:key=value,...")
    kw, edit = dict(foot="pad"), {}
    for item in name[4:].split(","):
        k, v = item.split("=")
        if k in ("stop", "stop_zeta", "frictionloss", "hc_limit", "hc_contact", "hc_depth",
                 "hc_elastic_drop"):
            edit[k] = float(v)
            continue
        kw["contact_damping_ratio" if k == "contact" else f"pad_{k}"] = v if k == "axis" else float(v)
    return kw, edit or None


def run_twin(name, params, cycles):
    params_c, edit = candidate(name)
    cls = type(f"Foot_{name}", (Foot,), dict(edit=edit or {}))
    r = cls(**{**params, **params_c})
    c0 = time.process_time()
    run = batch.run_point(r, cls, cycles=cycles, stop_when_steady=False, nthread=1)
    cpu = time.process_time() - c0
    if run.error:
        return dict(error=str(run.error)[:80])
    out = measures(r.summarize(run), run, r.samples_per_cycle)
    out.update(cpu_per_sim_s=cpu / float(run.t[-1]), max_penetration=float(run.max_penetration))
    return out


def run_paper(params, cycles):
    run = paper.simulate(params, cycles=cycles)
    if run.error:
        raise RuntimeError(run.error)
    return measures(paper.summarize(run), run, run.robot.samples_per_cycle)


def verdict(tw, pp, case) -> tuple:
    """(meets, worst margin ratio): each criterion's error over its tolerance; meets if all <= 1."""
    if "error" in tw:
        return False, math.inf
    r = [abs(tw["support_ge3"] - pp["support_ge3"]) / TARGET["support_ge3"],
         abs(tw["hind_duty"] - pp["hind_duty"]) / TARGET["hind_duty"]]
    if case == "trot":
        r += [abs(tw["speed"] / pp["speed"] - 1) / TARGET["speed"], abs(tw["roll"] / pp["roll"] - 1) / TARGET["roll"]]
    else:
        r += [abs(tw["yaw"] / pp["yaw"] - 1) / TARGET["yaw"]]
    return max(r) <= 1.0, max(r)


COLS = ("support_ge3", "hind_duty", "hind_td", "support_ge3_filt", "hind_duty_filt", "support_le1", "flight")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--candidates", nargs="*", default=list(CANDIDATES),
                    help=f"{list(CANDIDATES)} or pad:mass=..,travel=..,preload=..,stiffness=..,damping_ratio=..,contact=..")
    ap.add_argument("--dt", nargs="*", type=float, default=[1e-4])
    ap.add_argument("--mu", nargs="*", type=float, default=[0.3])
    ap.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    ap.add_argument("--cycles", type=int, default=6)
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE",
                    help="robot parameters for both engines, e.g. theta1_deg=190 (the geometry band)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    extra = {}
    for item in args.set:
        k, _, v = item.partition("=")
        try:
            extra[k] = float(v)
            MiniAQ(**extra)                       # the robot's own check: name and allowed range
        except (ValueError, ConfigError) as e:
            ap.error(f"--set {item}: {e if isinstance(e, ConfigError) else 'KEY=NUMBER expected'}")
    print(f"target: |d support>=3| <= {TARGET['support_ge3']}, |d hind duty| <= {TARGET['hind_duty']}, speed "
          f"{TARGET['speed']:.0%}, roll {TARGET['roll']:.0%}, turn yaw {TARGET['yaw']:.0%}; filtered: F_N mean over "
          f"{WINDOW_DEG:g} deg of crank")
    print("| case | mu | engine / candidate | dt | >=3 legs | hind duty | hind td/cyc | >=3 filt | hind duty filt "
          "| <2 legs | no leg | speed (mm/s) | roll (deg) | yaw (deg/s) | worst err/tol | meets |")
    out = []
    for case in args.cases:
        for mu in args.mu:
            base = dict(CASES[case], mu_d=mu, **extra)
            pp = run_paper(base, args.cycles)
            print(f"| {case} | {mu} | paper | LSODA | " + " | ".join(f"{pp[k]:.2f}" for k in COLS)
                  + f" | {pp['speed'] * 1e3:.0f} | {pp['roll']:.1f} | {pp['yaw']:.1f} | – | – |", flush=True)
            out.append(dict(case=case, mu=mu, engine="paper", **extra, **pp))
            for name in args.candidates:
                for dt in args.dt:
                    tw = run_twin(name, dict(base, timestep=dt), args.cycles)
                    if "error" in tw:
                        print(f"| {case} | {mu} | {name} | {dt:g} | failed: {tw['error']} |", flush=True)
                        out.append(dict(case=case, mu=mu, engine=name, dt=dt, **extra, **tw))
                        continue
                    ok, worst = verdict(tw, pp, case)
                    print(f"| {case} | {mu} | {name} | {dt:g} | " + " | ".join(f"{tw[k]:.2f}" for k in COLS)
                          + f" | {tw['speed'] * 1e3:.0f} | {tw['roll']:.1f} | {tw['yaw']:.1f} | {worst:.2f} | "
                          + ("yes" if ok else "no") + " |", flush=True)
                    out.append(dict(case=case, mu=mu, engine=name, dt=dt, meets=ok, worst=worst, **extra, **tw))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
