#!/usr/bin/env python
"""Every crawler experiment with the MuJoCo twin (`engine=mujoco`) and the exact hybrid model
(`engine=hybrid`), side by side: writes outputs/crawler_twin_vs_exact/crawler_twin_vs_exact.md (the committed copy: docs/notes/2026-11-28-crawler-twin-vs-exact.md).

Each experiment runs through gaittwin.core.runs.config.compose + gaittwin.core.runs.experiment.run (the code of
`scripts/run.py experiment=<name> engine=<e>`), on the grids in GRIDS (reduced where stated, for
CPU time); the table is built from the experiments' summary.json (and their CSVs).  Run
directories go under --out and are resumable (the sweep store): a rerun only simulates what is
missing.

  nice python -m gaittwin.crawler.paper.studies.crawler_twin_vs_exact [--out outputs/crawler_twin_vs_exact]
        [--only fig4,fig6,...] [--doc outputs/crawler_twin_vs_exact/crawler_twin_vs_exact.md] [--nthread N]
        [--mechanisms] [--bench]     # also the "what still differs" checks, the twin's steps/s
  --only "" --mechanisms: only the checks; --reuse: tables from finished runs (no simulation).

Targets, stated before comparing: a stride S (or S_mu) within max(1.5 mm, 3 % of exact); an optimal
phase within one grid step (Fig. 6) or on the same grid value (Figs. 8/9, an irregular grid); a sign
crossing within the shift that 1.5 mm of S produces on the exact curve's slope there (|dS/dx| from the two
grid points around the crossing), and the same number of crossings; a preferred mass ratio: the same grid value.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import pathlib
import sys
import time

from ....core.model.paths import CHECKOUT as ROOT   # outputs/, docs/: beside the package in a checkout
from ....core.runs import config as C
from ....core.runs import experiment as X

ENGINES = ("mujoco", "hybrid")
FIG6_PSI = [0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150]
FIG8_PSI = [16, 56, 72, 112]
# name -> (experiment, overrides, grid as stated in the doc)
GRIDS = {
    "fig4": ("crawler_frequency_sweep", ["experiment.overlay=null", "run.cycles=40"],
             "18 omegas 0.3-16 rad/s (the default), up to 40 cycles"),
    "fig5": ("crawler_slip_pattern", ["experiment.engines={engine}"],
             "omega 0.3, 5.1, 16 (the default), up to 40 cycles, the last steady cycle; twin modes from |x_i'| > 1 % of "
             "omega (max D - min D) / 2"),
    "fig6": ("crawler_psi_omega_map", [], "omega 0.3, 1, 2, 3.2, 5.1, 8, 12, 16 x psi 0-150 deg step 15 (the default)"),
    "fig7": ("crawler_direction_reversal", [],
             "(a) phi0 = 145 deg, mu = 0.172, omega 0.5-16 (14 points); (b) omega = 9, mu = 0.398, "
             "phi0 100-150 deg step 5 (the default)"),
    "fig89": ("crawler_friction_robustness", [f"sweep.psi_deg=[{','.join(map(str, FIG8_PSI))}]"],
              f"omega 0.3, 16 x psi {FIG8_PSI} deg (reduced from 14 psi for CPU time: the paper's psi* and psi_mu* regions and the omega = 16 optimum of the full grid), the default friction set (ratio sampling: mu1/mu2 in {0.9, 1, 1.1}, mu1 mu2 = mu^2)"),
    "fig1112": ("crawler_mass_distribution", ["experiment.mass_ratio=[0.5]"],
                "omega 0.3, 3.2, 8, 16 x m1/m2 0.5, 0.67, 1, 1.5, 2 at (m1+m2)/(2 m0) = 0.5 (the Fig. 12 section; "
                "reduced from 4 mass ratios)"),
    "timescaling": ("crawler_time_scaling", ["experiment.n_trials=12"],
                    "omega 3.2, 8, 16; alpha = 0 baseline psi 0-120 step 20, 12 TPE trials (reduced from 24), seed 0"),
    "feedback": ("crawler_feedback", [], "omega 8, K_v 10, K_P 80, K_D 100, Phi [90, 130] deg, 20 cycles (the default)"),
}


def run_one(key, engine, out, nthread, extra=(), reuse=False):
    """Run one experiment with one engine into out/<key>_<engine>; (run dir, wall s).  reuse: read a
    finished run's summary.json instead (its wall time is kept in wall_s.json)."""
    name, over, _ = GRIDS[key]
    d = out / f"{key}_{engine}"
    if reuse and (d / "summary.json").exists() and (d / "wall_s.json").exists():
        return d, json.loads((d / "wall_s.json").read_text())
    d.mkdir(parents=True, exist_ok=True)
    cfg = C.compose([f"experiment={name}", f"engine={engine}", "run.progress=false",
                     *([f"run.nthread={nthread}"] if nthread else []), *(o.format(engine=engine) for o in over), *extra])
    t0 = time.perf_counter()
    X.run(cfg, d)
    wall = time.perf_counter() - t0
    (d / "wall_s.json").write_text(json.dumps(wall))
    return d, wall


def tol_S(exact_m):
    return max(1.5e-3, 0.03 * abs(exact_m))


def row(q, tw, ex, unit, target, ok, note=""):
    return dict(q=q, twin=tw, exact=ex, unit=unit, target=target, ok=ok, note=note)


def s_rows(label, tw_m, ex_m):
    """An S comparison (values in m, shown in mm)."""
    if tw_m is None or ex_m is None or not (math.isfinite(tw_m) and math.isfinite(ex_m)):
        return row(label, tw_m, ex_m, "mm", "max(1.5 mm, 3 %)", False, "missing")
    t = tol_S(ex_m)
    return row(label, tw_m * 1e3, ex_m * 1e3, "mm", f"{t * 1e3:.2f}", abs(tw_m - ex_m) <= t)


def crossing_target(xs, Ss_mm, xc):
    """The crossing shift 1.5 mm of S produces on the exact curve's slope at xc."""
    for (x0, s0), (x1, s1) in zip(zip(xs, Ss_mm), zip(xs[1:], Ss_mm[1:])):
        if x0 <= xc <= x1 and x1 > x0:
            slope = abs((s1 - s0) / (x1 - x0))
            return 1.5 / slope if slope > 0 else math.inf
    return math.nan


def load(d):
    return json.loads((d / "summary.json").read_text())


def rows_csv(p):
    return list(csv.DictReader(open(p)))


# ---- per experiment: rows of the table from both summaries ----------------------------------------
def cmp_fig4(s, dirs=None):
    return [s_rows(f"S(omega = {w}) ", s["mujoco"]["S_by_omega"].get(w), s["hybrid"]["S_by_omega"].get(w))
            for w in s["hybrid"]["S_by_omega"]] + [
        row("all points steady", s["mujoco"]["all_steady"], s["hybrid"]["all_steady"], "", "same",
            s["mujoco"]["all_steady"] or not s["hybrid"]["all_steady"])]


def cmp_fig5(s, dirs=None):
    """Mode fractions per omega, foot and mode (reported), and the paper's statements (checked: the same verdict)."""
    out = []
    ft, fe = s["mujoco"]["fractions"]["mujoco"], s["hybrid"]["fractions"]["hybrid"]
    for w in fe:
        for foot in ("foot1", "foot2"):
            for k in ("stick", "slip_forward", "slip_backward", "liftoff"):
                out.append(row(f"omega = {w}, {foot}, {k} (fraction of the cycle)", ft[w][foot][k], fe[w][foot][k],
                               "", "(reported)", None))
    diff = max(abs(ft[w][f][k] - fe[w][f][k]) for w in fe for f in fe[w] for k in fe[w][f])
    out.append(row("max |twin - exact| fraction", diff, None, "", "(reported)", None))
    for w in fe:
        for k in ("both_slip", "both_forward"):
            out.append(row(f"omega = {w}, {k.replace('_', ' ')} (fraction of the cycle)",
                           s["mujoco"]["pairs"]["mujoco"][w][k], s["hybrid"]["pairs"]["hybrid"][w][k], "", "(reported)", None))
    for ct, ce in zip(s["mujoco"]["claims"]["mujoco"], s["hybrid"]["claims"]["hybrid"]):
        out.append(row(f"paper, omega = {ce['omega']:g}: {ce['statement']} [{ce['tolerance']}]", ct["holds"], ce["holds"],
                       "", "same verdict", ct["holds"] == ce["holds"]))
    return out


def map_row(label, dirs, keys, fname="results.csv"):
    """max |S_twin - S_exact| over every point of a results file (matched on `keys`), and how many are outside."""
    tw = {tuple(r[k] for k in keys): float(r["S"]) for r in rows_csv(dirs["mujoco"] / fname) if not r["error"]}
    worst, bad, n = (0.0, None), 0, 0
    for r in rows_csv(dirs["hybrid"] / fname):
        key = tuple(r[k] for k in keys)
        if r["error"] or key not in tw:
            bad += 1
            continue
        e, d = float(r["S"]), abs(tw[key] - float(r["S"]))
        n += 1
        bad += d > tol_S(e)
        worst = max(worst, (d, key))
    where = ", ".join(f"{k} {v}" for k, v in zip(keys, worst[1] or ()))
    return row(f"{label}: max |S_twin - S_exact| over {n} points", worst[0] * 1e3, None, "mm", "max(1.5 mm, 3 %) each",
               bad == 0, f"at {where}; {bad} outside")


def cmp_fig6(s, dirs=None):
    out = [map_row("whole map", dirs, ("omega", "psi_deg"))] if dirs else []
    for w, pe in s["hybrid"]["psi_star"].items():
        pt = s["mujoco"]["psi_star"].get(w)
        out.append(row(f"psi*(omega = {w})", pt, pe, "deg", "one grid step (15)",
                       pt is not None and abs(pt - pe) <= 15 + 1e-9))
        out.append(s_rows(f"S at psi*, omega = {w}", s["mujoco"]["S_star_mm"][w] * 1e-3, s["hybrid"]["S_star_mm"][w] * 1e-3))
    return out


def _crossings(s, kx, ks, label, unit):
    ct, ce = s["mujoco"][kx], s["hybrid"][kx]
    ex = s["hybrid"][ks]
    xs = sorted(float(k) for k in ex)
    Ss = [ex[f"{x:g}"] for x in xs]
    out = [row(f"{label}: number of sign crossings", len(ct), len(ce), "", "equal", len(ct) == len(ce))]
    for j, xe in enumerate(ce):
        xt = ct[j] if j < len(ct) else None
        tgt = crossing_target(xs, Ss, xe)
        out.append(row(f"{label}: crossing {j + 1}", xt, xe, unit, f"{tgt:.2f}",
                       xt is not None and abs(xt - xe) <= tgt))
    tw = s["mujoco"][ks]
    dS = [(abs(tw[k] - ex[k]), k) for k in ex if k in tw]
    bad = [k for k in ex if k in tw and abs(tw[k] - ex[k]) > tol_S(ex[k] * 1e-3) * 1e3]
    out.append(row(f"{label}: max |S_twin - S_exact| over the grid", max(dS)[0], None, "mm",
                   "max(1.5 mm, 3 %) each", not bad, f"at {max(dS)[1]}; outside: {', '.join(bad) or 'none'}"))
    return out


def cmp_fig7(s, dirs=None):
    return (_crossings(s, "reversal_omega", "S_vs_omega_mm", "Fig. 7a S(omega), phi0 = 145", "rad/s")
            + _crossings(s, "reversal_phi0_deg", "S_vs_phi0_mm", "Fig. 7b S(phi0), omega = 9, mu = 0.398", "deg"))


def cmp_fig89(s, dirs=None):
    out = [map_row("every (omega, psi, mu1, mu2)", dirs, ("omega", "psi_deg", "mu1", "mu2"))] if dirs else []
    ot = {o["omega"]: o for o in s["mujoco"]["optima"]}
    for oe in s["hybrid"]["optima"]:
        w, o = oe["omega"], ot.get(oe["omega"], {})
        for k, lab in (("psi_star_deg", "psi*"), ("psi_mu_star_deg", "psi_mu*")):
            out.append(row(f"{lab}(omega = {w:g})", o.get(k), oe[k], "deg", "same grid value",
                           o.get(k) is not None and abs(o[k] - oe[k]) <= 1e-9))
        for k, lab in (("S_at_psi_star", "S at psi*"), ("S_mu_at_psi_mu_star", "S_mu at psi_mu*")):
            out.append(s_rows(f"{lab}, omega = {w:g}", o.get(k), oe[k]))
        for k, lab in (("loss_at_psi_star", "loss 1 - S_mu/S at psi*"), ("loss_at_psi_mu_star", "loss at psi_mu*")):
            t, e = o.get(k), oe[k]
            out.append(row(f"{lab}, omega = {w:g}", None if t is None else 100 * t, 100 * e, "%", "(derived)", None))
    return out


def cmp_fig1112(s, dirs):
    out = []
    rt = {(r["omega"], r["m1_over_m2"]): float(r["S"]) for r in rows_csv(dirs["mujoco"] / "results.csv") if not r["error"]}
    for r in rows_csv(dirs["hybrid"] / "results.csv"):
        k = (r["omega"], r["m1_over_m2"])
        out.append(s_rows(f"S(omega = {r['omega']}, m1/m2 = {r['m1_over_m2']})", rt.get(k),
                          float(r["S"]) if not r["error"] else None))
    for w, be in s["hybrid"]["best"].items():
        bt = s["mujoco"]["best"].get(w, {})
        out.append(row(f"preferred m1/m2 at omega = {w}", bt.get("m1_over_m2"), be["m1_over_m2"], "", "same grid value",
                       bt.get("m1_over_m2") == be["m1_over_m2"]))
    return out


def cmp_timescaling(s, dirs=None):
    out = []
    bt = {b["omega"]: b for b in s["mujoco"]["best"]}
    for be in s["hybrid"]["best"]:
        w, b = be["omega"], bt.get(be["omega"], {})
        out.append(s_rows(f"alpha = 0 baseline S (best psi), omega = {w:g}", b.get("value_base"), be["value_base"]))
        out.append(s_rows(f"best time-scaled S found, omega = {w:g}", b.get("value_best"), be["value_best"]))
        out.append(row(f"gain best/baseline, omega = {w:g}", b.get("gain"), be["gain"], "x", "(search; see note)", None,
                       f"twin (alpha, Upsilon, psi) = ({b.get('alpha', math.nan):.2f}, {b.get('upsilon_deg', math.nan):.0f}, "
                       f"{b.get('psi_deg', math.nan):.0f}); exact ({be['alpha']:.2f}, {be['upsilon_deg']:.0f}, {be['psi_deg']:.0f})"))
    return out


def cmp_feedback(s, dirs=None):
    return [s_rows("open loop S (mean of the last 2 steps)", s["mujoco"]["S_open"], s["hybrid"]["S_open"]),
            s_rows("feedback S (mean of the last 2 steps)", s["mujoco"]["S_feedback"], s["hybrid"]["S_feedback"]),
            row("feedback S, last 4 steps", " ".join(f"{x * 1e3:.1f}" for x in s["mujoco"]["S_feedback_seq"][-4:]),
                " ".join(f"{x * 1e3:.1f}" for x in s["hybrid"]["S_feedback_seq"][-4:]), "mm", "(sequence)", None)]


def cross_eval(s, out_dir, nthread):
    """Time scaling: both engines at the exact model's best time-scaled inputs (same inputs, unlike the searches)."""
    pts = []
    for be in s["hybrid"]["best"]:
        pts.append(dict(omega=be["omega"], alpha=be["alpha"], upsilon_deg=be["upsilon_deg"], psi_deg=be["psi_deg"]))
    rows = []
    for p in pts:
        vals = {}
        for e in ENGINES:
            d = out_dir / f"timescaling_cross_{e}_{p['omega']:g}"
            d.mkdir(parents=True, exist_ok=True)
            cfg = C.compose(["experiment=crawler_frequency_sweep", f"engine={e}", "experiment.overlay=null",
                             "run.progress=false", "run.cycles=40", f"sweep.omega=[{p['omega']}]",
                             *([f"run.nthread={nthread}"] if nthread else []),
                             *(f"robot.{k}={round(v, 6)}" for k, v in p.items() if k != "omega")])
            sm = X.run(cfg, d)
            vals[e] = next(iter(sm["S_by_omega"].values()), None)
        rows.append(s_rows(f"S at the exact model's best time-scaled inputs, omega = {p['omega']:g}",
                           vals["mujoco"], vals["hybrid"]))
    return rows


# ---- what still differs: each candidate mechanism switched on/off, one knob at a time ------------------
def _fig12_point(omega, asym, ratio=0.5):
    from ..experiments import mass_points
    from ...robot import Crawler
    return dict(omega=omega, **mass_points(Crawler.defaults, ratio, asym))


SERVO = ("servo 64x stiffer (kp 25600, kv 9.6), dt 5e-5", dict(kp=25600.0, kv=9.6, timestep=5e-5))
MECHANISMS = [  # (case, point, [(variant, twin overrides)]): one knob at a time
    ("Fig. 4, omega = 0.3", lambda: dict(omega=0.3),
     [("default", {}), ("foot radius 0.1 mm (less rolling)", dict(foot_radius=1e-4)), ("dt 5e-5", dict(timestep=5e-5))]),
    ("Fig. 7b, omega = 9, mu = 0.398, phi0 = 100", lambda: dict(omega=9.0, mu=0.398, phi0_deg=100.0),
     [("default", {}), ("dt 5e-5", dict(timestep=5e-5)), SERVO, ("foot radius 0.1 mm", dict(foot_radius=1e-4)),
      ("solreffriction 20 ms", dict(contact_friction_timeconst=0.02)),
      ("normal solref 0.2 ms, dt 5e-5", dict(contact_timeconst=2e-4, timestep=5e-5))]),
    ("Fig. 7b, omega = 9, mu = 0.398, phi0 = 110", lambda: dict(omega=9.0, mu=0.398, phi0_deg=110.0),
     [("default", {}), SERVO]),
    ("Fig. 12, omega = 8, (m1+m2)/2m0 = 0.5, m1/m2 = 0.67", lambda: _fig12_point(8.0, 0.67),
     [("default", {}), ("dt 5e-5", dict(timestep=5e-5)), SERVO, ("foot radius 0.1 mm", dict(foot_radius=1e-4)),
      ("solreffriction 20 ms", dict(contact_friction_timeconst=0.02)),
      ("solreffriction 100 ms", dict(contact_friction_timeconst=0.1))]),
    ("Sec. VII, omega = 16, alpha 0.517, Upsilon 311.5, psi 116.6 (exact best)",
     lambda: dict(omega=16.0, alpha=0.517397, upsilon_deg=311.515717, psi_deg=116.639245),
     [("default", {}), ("dt 1e-4", dict(timestep=1e-4)), ("dt 5e-5", dict(timestep=5e-5)),
      ("dt 2.5e-5", dict(timestep=2.5e-5)), ("dt 1.25e-5", dict(timestep=1.25e-5)), SERVO,
      ("foot radius 0.1 mm", dict(foot_radius=1e-4)), ("solreffriction 20 ms", dict(contact_friction_timeconst=0.02)),
      ("solreffriction 20 ms, dt 2.5e-5", dict(contact_friction_timeconst=0.02, timestep=2.5e-5))]),
    ("Sec. VII, omega = 8, alpha -0.857, Upsilon 77.9, psi 71.5 (exact best)",
     lambda: dict(omega=8.0, alpha=-0.857196, upsilon_deg=77.934881, psi_deg=71.479729),
     [("default", {}), ("dt 1e-4", dict(timestep=1e-4)), ("dt 5e-5", dict(timestep=5e-5)),
      ("dt 2.5e-5", dict(timestep=2.5e-5)), SERVO, ("foot radius 0.1 mm", dict(foot_radius=1e-4))]),
]


def mechanisms(cases=MECHANISMS, cycles=40):
    """Markdown rows: the exact S and the twin's S per variant of each case (S in mm), with the
    twin's lift-off (% of the last cycle, 200 samples) and the exact model's minimum normal force."""
    from ....core.engines import batch
    from .. import hybrid as H
    from ...robot import Crawler
    lines = ["| case | variant | twin S [mm] | exact S [mm] | twin - exact [mm] | target [mm] | within | "
             "twin lift-off [% of cycle] | exact min f^y [N] |", "|---|---|---|---|---|---|---|---|---|"]
    for case, point, variants in cases:
        p = point()
        ex = H.summarize(H.simulate(dict(p), cycles=cycles))
        fy = min(ex["foot1_fn_min"], ex["foot2_fn_min"])
        runs = batch.run_points([{**p, **v} for _, v in variants], Crawler, cycles=cycles, stop_when_steady=True)
        for (name, _), r in zip(variants, runs):
            sm = r.robot.summarize(r)
            d = sm["S"] - ex["S"]
            lift = 100 * max(sm["foot1_liftoff"], sm["foot2_liftoff"])
            lines.append(f"| {case} | {name} | {sm['S'] * 1e3:.2f} | {ex['S'] * 1e3:.2f} | {d * 1e3:+.2f} "
                         f"| {tol_S(ex['S']) * 1e3:.2f} | {'yes' if abs(d) <= tol_S(ex['S']) else '**no**'} "
                         f"| {lift:.1f} | {fy:.2f} |")
    return "\n".join(lines)


def bench(omegas=(0.3, 1.0, 2.0, 3.2, 5.1, 8.0, 12.0, 16.0), cycles=40):
    """Twin steps per second on one thread over the Fig. 4 sweep (wall and process CPU time)."""
    import resource

    from ....core.engines import batch
    from ...robot import Crawler

    def cpu():
        u = resource.getrusage(resource.RUSAGE_SELF)
        return u.ru_utime + u.ru_stime
    t0, c0 = time.perf_counter(), cpu()
    runs = batch.run_points([dict(omega=w) for w in omegas], Crawler, cycles=cycles, stop_when_steady=True, nthread=1)
    wall, cpus = time.perf_counter() - t0, cpu() - c0
    steps = sum(r.cycles * r.robot.steps_per_cycle for r in runs)
    return (f"Twin speed (one thread, Fig. 4 sweep: omega {', '.join(f'{w:g}' for w in omegas)}, up to {cycles} cycles, "
            f"stop when steady, dt <= 2e-4 s): {steps:,} steps in {wall:.1f} s wall / {cpus:.1f} s CPU = "
            f"**{steps / wall:,.0f} steps/s wall, {steps / cpus:,.0f} steps per CPU-second** "
            f"(shared 2-core machine; the CPU figure is the load-independent one).")


def splice(doc, tag, text):
    """Replace the text between <!-- tag --> and <!-- /tag --> in doc (append the block if absent)."""
    t = doc.read_text() if doc.exists() else "# Crawler: twin vs exact model\n\n"
    a, b = f"<!-- {tag} -->", f"<!-- /{tag} -->"
    if a in t and b in t:
        t = t.split(a)[0] + a + "\n" + text + "\n" + b + t.split(b, 1)[1]
    else:
        t += f"\n{a}\n{text}\n{b}\n"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(t)


TITLES = {"fig4": "Fig. 4 frequency sweep (`crawler_frequency_sweep`)", "fig5": "Fig. 5 slip pattern (`crawler_slip_pattern`)", "fig6": "Fig. 6 psi*(omega) (`crawler_psi_omega_map`)",
          "fig7": "Fig. 7 direction reversal (`crawler_direction_reversal`)",
          "fig89": "Figs. 8/9 friction robustness (`crawler_friction_robustness`, default sampling)",
          "fig1112": "Figs. 11/12 mass distribution (`crawler_mass_distribution`)",
          "timescaling": "Sec. VII time scaling (`crawler_time_scaling`)", "feedback": "Sec. VIII feedback at omega = 8 (`crawler_feedback`)"}


def fmt(v, unit):
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return (f"{v:.3f}" if not unit else f"{v:.2f}") if math.isfinite(v) else "nan"
    return str(v)


def table(rows):
    lines = ["| quantity | twin | exact | twin - exact | target | within |", "|---|---|---|---|---|---|"]
    for r in rows:
        diff = ""
        if isinstance(r["twin"], (int, float)) and isinstance(r["exact"], (int, float)) and not isinstance(r["twin"], bool):
            d = r["twin"] - r["exact"]
            diff = f"{d:+d}" if isinstance(d, int) else (f"{d:+.3f}" if not r["unit"] else f"{d:+.2f}")
        unit = f" {r['unit']}" if r["unit"] else ""
        ok = "–" if r["ok"] is None else ("yes" if r["ok"] else "**no**")
        note = f" ({r['note']})" if r["note"] else ""      # cell text: its | escaped below
        lines.append(f"| {(r['q'] + note).replace('|', chr(92) + '|')} | {fmt(r['twin'], unit)} | {fmt(r['exact'], unit)} | {diff}{unit if diff else ''} "
                     f"| {r['target']}{unit if r['target'][:1].isdigit() else ''} | {ok} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "outputs" / "crawler_twin_vs_exact"))
    ap.add_argument("--only", default=",".join(GRIDS))
    ap.add_argument("--doc", default=str(ROOT / "outputs" / "crawler_twin_vs_exact" / "crawler_twin_vs_exact.md"))
    ap.add_argument("--nthread", type=int, default=None)
    ap.add_argument("--extra", action="append", default=[], help="a Hydra override added to every run (smoke tests)")
    ap.add_argument("--json", default=None, help="also write every table row here")
    ap.add_argument("--reuse", action="store_true", help="read finished runs' summary.json instead of rerunning")
    ap.add_argument("--mechanisms", action="store_true", help="also run the 'what still differs' checks")
    ap.add_argument("--bench", action="store_true", help="also time the twin (steps/s, one thread)")
    a = ap.parse_args(argv)
    out = pathlib.Path(a.out)
    keys = [k for k in a.only.split(",") if k]
    bad = [k for k in keys if k not in GRIDS]
    if bad:
        print(f"error: --only {bad}: allowed {list(GRIDS)}", file=sys.stderr)
        return 2
    sections, walls, allrows = [], {}, {}
    overview = ["| experiment | checked rows within target | outside |", "|---|---|---|"]
    for k in keys:
        dirs, summ = {}, {}
        for e in ENGINES:
            dirs[e], walls[(k, e)] = run_one(k, e, out, a.nthread, a.extra, a.reuse)
            summ[e] = load(dirs[e])
            print(f"{k} {e}: {walls[(k, e)]:.1f} s", flush=True)
        fn = globals()[f"cmp_{k}"]
        rows = fn(summ, dirs)
        if k == "timescaling":
            rows += cross_eval(summ, out, a.nthread)
        allrows[k] = rows
        n_ok = sum(1 for r in rows if r["ok"])
        n_chk = sum(1 for r in rows if r["ok"] is not None)
        outside = [r["q"].split(" (")[0] for r in rows if r["ok"] is False]
        overview.append(f"| {TITLES[k]} | {n_ok} of {n_chk} | {'; '.join(outside) or '–'} |".replace("|S", "\\|S")
                        .replace("S_exact|", "S_exact\\|"))
        sections.append(f"### {TITLES[k]}\n\nGrid: {GRIDS[k][2]}.  Wall time (shared 2-core machine): twin "
                        f"{walls[(k, 'mujoco')]:.0f} s, exact {walls[(k, 'hybrid')]:.0f} s.  Within target: "
                        f"{n_ok} of {n_chk} checked rows.\n\n{table(rows)}\n")
        print(table(rows), flush=True)
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(allrows, indent=1, default=str))
    doc = pathlib.Path(a.doc)
    if sections:
        splice(doc, "overview", "\n".join(overview))
        splice(doc, "tables", "\n".join(sections))
    if a.mechanisms:
        text = mechanisms()
        print(text)
        splice(doc, "mechanisms", text)
    if a.bench:
        text = bench()
        print(text)
        splice(doc, "bench", text)
    print(f"wrote {doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
