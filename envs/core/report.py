"""Fidelity report: one row per quantitative claim of the four papers, twin against paper.

`generate(out_dir, reduced=False)` runs the experiment runners (envs/experiments/*) on
small grids in a scratch directory, builds the rows and writes

  <out_dir>/fidelity_report.md          (reduced: fidelity_report_reduced.md)
  <out_dir>/fidelity/*.png              (reduced: fidelity_reduced/*.png)

Each claim group is a function `claims_<robot>_<topic>(ctx) -> list[Row]`; the paper's
values are data (`PAPER`, with their figure/table) so the report says where each came from.
Numbers are printed with `SIG` significant digits; `parse_report` reads a report back
(tests/test_fidelity_report.py compares a regenerated reduced report with the committed one).
"""
from __future__ import annotations

import dataclasses
import math
import pathlib
import re
import shutil
import tempfile
import time

import numpy as np
from omegaconf import OmegaConf

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIG_DIR = ROOT / "configs"
SIG = 6                  # significant digits of every printed number
REL_TOL = 2e-5           # reproducibility tolerance: two units in the 6th significant digit
ABS_TOL = 1e-12

AGREE, PARTLY, DISAGREE, NO_NUMBER, WITHHELD = "agrees", "partly", "disagrees", "no paper number", "withheld"
VERDICTS = (AGREE, PARTLY, DISAGREE, NO_NUMBER, WITHHELD)


# ---- rows ------------------------------------------------------------------------------------
@dataclasses.dataclass
class Row:
    id: str
    claim: str
    source: str
    paper: str                 # the paper's value as printed, "withheld", or its statement (graph only)
    twin: object               # number, or text with numbers
    reference: object = None   # exact / kinematic reference where the project has one
    unit: str = ""
    error: object = None       # number or text
    verdict: str = ""
    reason: str = ""


def fmt(x) -> str:
    """Numbers with SIG significant digits; text as is; None as '–'."""
    if x is None:
        return "–"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if not math.isfinite(x):
            return "nan"
        if abs(x) < 1e-10:          # floating-point noise (e.g. a relative error of exactly equal values)
            return "0"
        return f"{x:.{SIG}g}"
    if isinstance(x, (list, tuple)):
        return ", ".join(fmt(v) for v in x) if len(x) else "none"
    return str(x)


def rel_err(twin, ref) -> float:
    return (twin - ref) / abs(ref) if ref else math.nan


def pct(x) -> str:
    return f"{fmt(100 * x)} %"


def band(err, agree, partly) -> str:
    """Verdict from |err| against two thresholds."""
    if not np.isfinite(err):
        return DISAGREE
    return AGREE if abs(err) <= agree else PARTLY if abs(err) <= partly else DISAGREE


# ---- the papers' values (data, with their source) -------------------------------------------
# id: (source, paper value as stated)
PAPER = {
    # crawler: Gamus, Gat & Or
    "C1": ("Sec. IV, Fig. 4(a), Fig. 5(a)", "S almost ideal in range 1 (no number)"),
    "C2": ("Sec. IV, Fig. 4(a), Fig. 5(b)", "S almost cancelled at omega = 5.1 rad/s"),
    "C3": ("Sec. IV, Fig. 4(a), Fig. 5(c)", "S grows slightly in range 3 (no number)"),
    "C4": ("Sec. IV, Fig. 4(b)", "V rises rapidly in range 3 (no number)"),
    "C5": ("Sec. V, Fig. 4(b)", "multiple local extrema of V (>= 2)"),
    "C6": ("Sec. V-VI, Fig. 4(a)", "experiment ~ 0.5 x simulation at low omega; S_mu matches it"),
    "C7": ("Sec. IV, Fig. 6", "psi* -> 0 deg at low omega"),
    "C8": ("Sec. IV, Fig. 6", "psi* ~ 120 deg at high omega"),
    "C9": ("Sec. IV, Fig. 7(a)", "direction reversal (sign change of S) vs omega at phi0 = 145 deg"),
    "C10": ("Sec. IV, Fig. 7(b)", "direction reversal vs phi0 at omega = 9 rad/s"),
    "C11": ("Sec. VI, Fig. 8", "psi* = 16 deg at omega = 0.3"),
    "C12": ("Sec. VI, Fig. 8", "S_mu 50 % below S at psi = 16 deg"),
    "C13": ("Sec. VI, Fig. 8", "psi_mu* = 56 deg at omega = 0.3"),
    "C14": ("Sec. VI, Fig. 8", "S_mu 24 % below S at psi = 56 deg"),
    "C15": ("Sec. VI, Fig. 8/9", "S and S_mu close at high omega (no number)"),
    "C16": ("Sec. VI, Fig. 9", "S_mu at psi_mu* significantly above S_mu at psi* at low omega (no number)"),
    "C17": ("Sec. VII, Fig. 12", "omega <~ 1: any asymmetry m1/m2 != 1 decreases S significantly"),
    "C18": ("Sec. VII, Fig. 12", "mid-range omega: heavier front link (m1 > m2) preferred"),
    "C19": ("Sec. VII, Fig. 12", "high omega: heavier rear link (m2 > m1) preferred"),
    "C20": ("Sec. VIII, App., Fig. 13/14", "withheld"),
    "C21": ("Sec. VIII, App., Fig. 13/14", "withheld"),
    # BOLT: Liu & Ben-Tzvi
    "B1": ("Sec. 3.2, 6.2, Fig. 5(b), 15(b)", "= kinematic design (no number)"),
    "B2": ("Sec. 3.2, 6.2, Fig. 5(b), 15(b)", "= kinematic design (no number)"),
    "B3": ("Sec. 6.2, Fig. 15(b)", "foot tracks the designed path closely (no number)"),
    "B4": ("Sec. 5.2, Fig. 11", "constraint errors -> 0, held through transitions"),
    "B5": ("Sec. 2.2", "one crank revolution = one stride"),
    "B6": ("Sec. 5.2", 1.3),
    "B7": ("Sec. 6.1, 6.2, Fig. 17", 3.2),
    "B8": ("Sec. 6.2, Fig. 16", "withheld"),
    "B9": ("Sec. 5.1", 1350.0),
    # MinIAQ-II: Askari & Ozcan
    "M1": ("Sec. I", 23.0),
    "M2": ("Sec. I", 45.0),
    "M3": ("Sec. IV, Fig. 5(a)", "graph only (no number)"),
    "M4": ("Sec. IV, Fig. 5(b)", "graph only (no number)"),
    "M5": ("Sec. IV, Fig. 6", "graph only (no number)"),
    "M6": ("Sec. IV, Fig. 7", "graph only (no number)"),
    "M7": ("Sec. IV, Fig. 7", "nearly linear yaw(t): constant turning speed"),
    "M8": ("Sec. IV, Fig. 7", "'nearly' in-place turn"),
    "M9": ("Sec. V, Fig. 9", "three legs on the floor almost over the entire cycle (ideal trot: two)"),
    "M10": ("Sec. V, Fig. 9", "hind legs dragged (red) a lot of the time"),
    "M11": ("Sec. V, Fig. 8", "12.5 stride cycles in 5 s at 2.5 Hz; periodic actual gait"),
}


# ---- configs and runners -----------------------------------------------------------------------
def make_cfg(experiment: str, overrides: dict | None = None, sweep: dict | None = None):
    """The composed config of `experiment=<name>` (as scripts/run.py would build it), without Hydra.

    overrides: dotted keys -> values (replacing, not merging); sweep: replaces `sweep` entirely.
    """
    base = OmegaConf.load(CONFIG_DIR / "config.yaml")
    for k in ("defaults", "hydra"):
        base.pop(k, None)
    exp = OmegaConf.load(CONFIG_DIR / "experiment" / f"{experiment}.yaml")
    robot = "crawler"
    for d in exp.get("defaults", []) or []:
        if OmegaConf.is_dict(d):
            for k, v in d.items():
                if str(k).endswith("/robot"):
                    robot = str(v)
    exp.pop("defaults", None)
    cfg = OmegaConf.merge(base, {"robot": OmegaConf.load(CONFIG_DIR / "robot" / f"{robot}.yaml")}, exp)
    if sweep is not None:
        cfg.sweep = sweep
    for k, v in (overrides or {}).items():
        OmegaConf.update(cfg, k, v, merge=False, force_add=True)
    cfg.run.progress = False
    return cfg


class Context:
    """What a claim function needs: the mode, a scratch dir, where plots go."""

    def __init__(self, reduced: bool, work: pathlib.Path, plots: pathlib.Path, log=print, resume: bool = False):
        self.reduced, self.work, self.plots, self.log, self.resume = reduced, work, plots, log, resume
        self.timings: dict = {}
        self.plot_files: list = []

    def g(self, full, reduced):
        """Pick the grid of the mode."""
        return reduced if self.reduced else full

    def run(self, experiment: str, tag: str | None = None, overrides=None, sweep=None):
        """Run `experiment`'s runner into work/<tag>; returns (summary, out dir)."""
        import hydra.utils
        cfg = make_cfg(experiment, overrides, sweep)
        out = self.work / (tag or experiment)
        if out.exists() and not self.resume:
            shutil.rmtree(out)
        out.mkdir(parents=True, exist_ok=True)   # resume: the sweep runners skip the points already in results*.csv
        t0 = time.perf_counter()
        summary = hydra.utils.get_method(cfg.experiment.runner)(cfg, out)
        self.timings[tag or experiment] = time.perf_counter() - t0
        self.log(f"  {tag or experiment}: {self.timings[tag or experiment]:.1f} s")
        return summary, out

    def plot(self, src: pathlib.Path, name: str, caption: str):
        if src.exists():
            self.plots.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, self.plots / name)
            self.plot_files.append((name, caption))


def _csv(path) -> list[dict]:
    from envs.core.sweep import ResultsFile
    return ResultsFile(path, [], []).rows() if pathlib.Path(path).exists() else []


def _by(rows, key, val, tol=1e-9):
    return [r for r in rows if abs(float(r[key]) - float(val)) < tol]


# ---- crawler ---------------------------------------------------------------------------------
def claims_crawler_frequency(ctx: Context) -> list[Row]:
    """Fig. 4 and 5: S(omega), V(omega), twin vs the exact hybrid model and the ideal stride."""
    from envs.crawler.robot import Crawler, ideal_stride
    omegas = ctx.g([0.3, 0.5, 1.0, 1.5, 2.0, 2.5, 3.2, 4.0, 5.1, 6.0, 7.0, 8.0, 10.0, 12.0, 14.0, 16.0],
                   [0.3, 2.0, 5.1, 8.0, 16.0])
    s, out = ctx.run("crawler_frequency_sweep", "crawler_fig4",
                     {"run.cycles": ctx.g(40, 20), "run.min_cycles": 3}, {"omega": omegas})
    ctx.plot(out / "S_V_vs_omega.png", "crawler_fig4_S_V.png", "Crawler Fig. 4: S and V vs omega, twin and hybrid model")
    tw = {float(r["omega"]): float(r["S"]) for r in _csv(out / "results.csv")}
    hy = {float(r["omega"]): float(r["S"]) for r in _csv(out / "results_hybrid.csv")}
    r0 = Crawler()
    ideal = ideal_stride(r0.inputs, float(r0.p["l0"]), float(r0.p["l"]))
    mm = 1e3
    rows = []
    e = rel_err(tw[0.3], ideal)
    rows.append(Row("C1", "omega = 0.3 rad/s (range 1): S equals the quasi-static ideal stride",
                    *PAPER["C1"], twin=tw[0.3] * mm,
                    reference=f"ideal {fmt(ideal * mm)}; hybrid {fmt(hy[0.3] * mm)}", unit="mm",
                    error=f"{pct(e)} vs ideal", verdict=band(e, 0.03, 0.1),
                    reason="" if abs(e) <= 0.03 else "stick creep of MuJoCo's soft friction"))
    frac = tw[5.1] / tw[0.3]
    rows.append(Row("C2", "S at omega = 5.1 rad/s as a fraction of S(0.3)", *PAPER["C2"],
                    twin=f"{fmt(tw[5.1] * mm)} mm = {pct(frac)}",
                    reference=f"hybrid {fmt(hy[5.1] * mm)} mm = {pct(hy[5.1] / hy[0.3])}",
                    error=f"{pct(frac)} of S(0.3)", verdict=band(frac, 0.05, 0.15),
                    reason="near-cancellation reproduced; sign of the small residual differs from the hybrid model "
                           "(soft contact, brief lift-off)" if abs(frac) <= 0.05 and tw[5.1] * hy[5.1] < 0 else ""))
    dS = tw[16.0] - tw[8.0]
    ok = dS > 0
    rows.append(Row("C3", "S(16) - S(8): S grows slightly in range 3", *PAPER["C3"], twin=dS * mm,
                    reference=f"hybrid {fmt((hy[16.0] - hy[8.0]) * mm)}", unit="mm",
                    error=None, verdict=AGREE if ok else DISAGREE,
                    reason="" if ok else "range 3 is a small difference of large opposing slips (timestep-sensitive)"))
    V = lambda d, w: d[w] * w / (2 * math.pi)
    rows.append(Row("C4", "V(16) / V(8): V rises rapidly in range 3", *PAPER["C4"],
                    twin=f"{fmt(V(tw, 16.0) * mm)} / {fmt(V(tw, 8.0) * mm)} mm/s",
                    reference=f"hybrid {fmt(V(hy, 16.0) * mm)} / {fmt(V(hy, 8.0) * mm)} mm/s",
                    error=None, verdict=AGREE if V(tw, 16.0) > max(V(tw, 8.0), 0) else DISAGREE,
                    reason="" if V(tw, 16.0) > max(V(tw, 8.0), 0) else "see C3"))
    ws = sorted(tw)

    def extrema(d):
        v = np.array([V(d, w) for w in ws])
        return int(np.sum((v[1:-1] - v[:-2]) * (v[2:] - v[1:-1]) < 0))
    n_t, n_h = extrema(tw), extrema(hy)
    rows.append(Row("C5", f"number of interior local extrema of V(omega) on the {len(ws)}-point grid", *PAPER["C5"],
                    twin=n_t, reference=f"hybrid {n_h}", error=None,
                    verdict=AGREE if n_t >= 2 else DISAGREE,
                    reason="" if n_t >= 2 else "grid too coarse to resolve the extrema"))
    return rows


def claims_crawler_psi_map(ctx: Context) -> list[Row]:
    """Fig. 6: psi*(omega) at the low and high ends, twin and hybrid."""
    cyc = {"run.cycles": 40, "run.min_cycles": 3}
    if ctx.reduced:        # two small runs: a bracket around each optimum; 2 cycles at omega = 0.3
        omegas, step = [0.3, 16.0], 15
        s0, _ = ctx.run("crawler_psi_omega_map", "crawler_fig6_lo", {"run.cycles": 2, "run.min_cycles": 2},
                        {"omega": [0.3], "psi_deg": [0, 15, 30, 45]})
        s, out = ctx.run("crawler_psi_omega_map", "crawler_fig6_hi", cyc, {"omega": [16.0], "psi_deg": [60, 90, 120, 150]})
        tw = {0.3: s0["psi_star"]["0.3"], 16.0: s["psi_star"]["16"]}
        hy = {}
    else:
        omegas = [0.3, 1.0, 3.2, 8.0, 16.0]
        psis = [0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150]
        step = psis[1] - psis[0]
        s, out = ctx.run("crawler_psi_omega_map", "crawler_fig6", cyc, {"omega": omegas, "psi_deg": psis})
        h, _ = ctx.run("crawler_psi_omega_map", "crawler_fig6_hybrid", {**cyc, "engine": "hybrid"},
                       {"omega": omegas, "psi_deg": psis})
        tw = {float(k): v for k, v in s["psi_star"].items()}
        hy = {float(k): v for k, v in h["psi_star"].items()}
    ctx.plot(out / "psi_omega_map.png", "crawler_fig6_psi_omega.png", "Crawler Fig. 6: S over (psi, omega), twin")
    lo, hi = min(omegas), max(omegas)
    e_lo = tw[lo] - 0.0
    ref_lo = f"hybrid {fmt(hy[lo])}" if hy else "hybrid: full report"
    rows = [Row("C7", f"psi*(omega = {fmt(lo)}) (parabola through the grid optimum, psi step {step} deg)",
                *PAPER["C7"], twin=tw[lo], reference=ref_lo, unit="deg", error=f"{fmt(e_lo)} deg",
                verdict=AGREE if abs(e_lo) <= step / 2 else PARTLY if abs(e_lo) <= 30 else DISAGREE,
                reason="omega = 0.3 is the lowest frequency of Fig. 6: there the paper's own Fig. 8 puts the "
                       "S optimum at 16 deg; psi* -> 0 is the quasi-static limit omega -> 0"
                       if abs(e_lo) > step / 2 else "")]
    e_hi = tw[hi] - 120.0
    extra = "; ".join(f"omega {fmt(w)}: {fmt(tw[w])}" for w in omegas if w >= 8)
    rows.append(Row("C8", f"psi*(omega) at high omega (psi step {step} deg)", *PAPER["C8"],
                    twin=f"{extra}",
                    reference=("hybrid " + "; ".join(f"omega {fmt(w)}: {fmt(hy[w])}" for w in omegas if w >= 8))
                    if hy else "hybrid: full report",
                    unit="deg", error=f"{fmt(e_hi)} deg at omega {fmt(hi)}",
                    verdict=AGREE if abs(e_hi) <= max(step, 10) else PARTLY if abs(e_hi) <= 30 else DISAGREE,
                    reason="" if abs(e_hi) <= max(step, 10) else "the optimum is flat near 110-120 deg"))
    return rows


def claims_crawler_reversal(ctx: Context) -> list[Row]:
    """Fig. 7: direction reversal with omega (phi0 = 145 deg) and with phi0 (omega = 9)."""
    a_om = ctx.g([0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0], [2.0, 5.0, 16.0])
    b_phi = ctx.g([100, 105, 110, 115, 120, 125, 130, 135, 140, 145, 150], [110, 130, 150])
    ov = {"experiment.a.omega": a_om, "experiment.b.phi0_deg": b_phi, "run.cycles": 40}
    s, out = ctx.run("crawler_direction_reversal", "crawler_fig7", ov)
    ctx.plot(out / "direction_reversal.png", "crawler_fig7_reversal.png", "Crawler Fig. 7: direction reversal, twin")
    h, _ = ctx.run("crawler_direction_reversal", "crawler_fig7_hybrid", {**ov, "engine": "hybrid"})
    rows = []
    for cid, key, unit, what in (("C9", "reversal_omega", "rad/s", "omega where S changes sign, phi0 = 145 deg, mu = 0.172"),
                                 ("C10", "reversal_phi0_deg", "deg", "phi0 where S changes sign, omega = 9 rad/s, mu = 0.398")):
        t, r = s[key], h[key]
        ok = len(t) >= 1
        rows.append(Row(cid, what, *PAPER[cid], twin=list(t) if t else "no sign change",
                        reference=f"hybrid {fmt(list(r))}", unit=unit,
                        error=f"first crossing {fmt(t[0] - r[0])} {unit} vs hybrid" if t and r else None,
                        verdict=AGREE if ok else DISAGREE,
                        reason=("reversal reproduced; the paper gives the crossing only graphically" +
                                ("; the first crossing differs from the hybrid model's by more than 5 % because S "
                                 "is only a few mm either side of it, where soft and rigid contact differ most"
                                 if t and r and abs(t[0] - r[0]) > 0.05 * abs(r[0]) else "")) if ok
                        else "no sign change on this grid"))
    return rows


def claims_crawler_friction(ctx: Context) -> list[Row]:
    """Fig. 8/9 (eqs. 6-7): S_mu at omega = 0.3 and 16, optimal phases and their losses; Sec. V ratio."""
    psis = ctx.g([0, 16, 20, 32, 56, 72], [20, 56])
    psis_h = ctx.g([0, 16, 32, 56, 72], None)
    psis_hi = ctx.g([0, 30, 60, 90, 120, 150], [60, 120])
    ov = {"run.cycles": ctx.g(20, 2), "run.min_cycles": ctx.g(3, 2)}
    s_lo, out_lo = ctx.run("crawler_friction_robustness", "crawler_fig8_w0.3", ov, {"omega": [0.3], "psi_deg": psis})
    s_hi, out_hi = ctx.run("crawler_friction_robustness", "crawler_fig8_w16", {"run.cycles": ctx.g(40, 15)},
                           {"omega": [16.0], "psi_deg": psis_hi})
    ctx.plot(out_lo / "friction_robustness.png", "crawler_fig8_w0.3.png", "Crawler Fig. 8: S, S_mu vs psi at omega = 0.3, twin")
    h_lo = None
    if not ctx.reduced:
        h_lo, _ = ctx.run("crawler_friction_robustness", "crawler_fig8_w0.3_hybrid", {**ov, "engine": "hybrid"},
                          {"omega": [0.3], "psi_deg": psis_h})
    o = s_lo["optima"][0]
    oh = h_lo["optima"][0] if h_lo else None
    href = lambda k, f=fmt: f"hybrid {f(oh[k])} (psi grid {fmt(psis_h)})" if oh else "hybrid: full report"
    grid = f"psi grid {fmt(psis)} deg"
    rows = [
        Row("C11", f"omega = 0.3: psi maximising nominal S ({grid})", *PAPER["C11"], twin=o["psi_star_deg"],
            reference=href("psi_star_deg"), unit="deg", error=f"{fmt(o['psi_star_deg'] - 16)} deg",
            verdict=AGREE if abs(o["psi_star_deg"] - 16) <= 8 else PARTLY if abs(o["psi_star_deg"] - 16) <= 20 else DISAGREE,
            reason=""),
        Row("C12", "omega = 0.3: 1 - S_mu/S at psi* (eq. 6, mu_i in [0.9, 1.1] mu)", *PAPER["C12"],
            twin=pct(o["loss_at_psi_star"]), reference=href("loss_at_psi_star", pct),
            error=f"{fmt(100 * o['loss_at_psi_star'] - 50)} %-points",
            verdict=band(100 * o["loss_at_psi_star"] - 50, 5, 15), reason=""),
    ]
    dpm = o["psi_mu_star_deg"] - 56
    rob = _csv(out_lo / "robustness.csv")
    smu = {float(r["psi_deg"]): float(r["S_mu"]) * 1e3 for r in rob}
    flat = (f"S_mu(56) = {fmt(smu[56.0])} mm, S_mu({fmt(o['psi_mu_star_deg'])}) = "
            f"{fmt(smu[float(o['psi_mu_star_deg'])])} mm" if 56.0 in smu else "")
    if abs(dpm) <= 8:
        r13 = ""
    elif oh and oh["psi_mu_star_deg"] == o["psi_mu_star_deg"]:
        r13 = ("twin and exact hybrid model agree, so not a MuJoCo contact effect (" + flat +
               "); eq. 7's min/max depends on how (mu1, mu2) are sampled: here a 3 x 3 grid of "
               "[0.9, 1, 1.1] mu (the paper does not state its sampling)")
    else:
        r13 = ("S_mu(psi): " + flat + "; it depends on which (mu1, mu2) corner slips first, where the "
               "twin's soft friction and the hybrid model's rigid Coulomb law can differ (hybrid: full report)")
    rows.append(Row("C13", f"omega = 0.3: psi maximising S_mu ({grid})", *PAPER["C13"], twin=o["psi_mu_star_deg"],
                    reference=href("psi_mu_star_deg"), unit="deg", error=f"{fmt(dpm)} deg",
                    verdict=AGREE if abs(dpm) <= 8 else PARTLY if abs(dpm) <= 24 else DISAGREE, reason=r13))
    l2 = 100 * o["loss_at_psi_mu_star"]
    rows.append(Row("C14", "omega = 0.3: 1 - S_mu/S at psi_mu*", *PAPER["C14"], twin=pct(o["loss_at_psi_mu_star"]),
                    reference=href("loss_at_psi_mu_star", pct), error=f"{fmt(l2 - 24)} %-points",
                    verdict=band(l2 - 24, 5, 15), reason="" if abs(l2 - 24) <= 5 else "follows C13"))
    oh16 = s_hi["optima"][0]
    l16 = oh16["loss_at_psi_star"]
    rows.append(Row("C15", f"omega = 16: 1 - S_mu/S at psi* = {fmt(oh16['psi_star_deg'])} deg", *PAPER["C15"],
                    twin=pct(l16), reference=None, error=None,
                    verdict=AGREE if abs(l16) <= 0.15 else PARTLY if abs(l16) <= 0.3 else DISAGREE,
                    reason=f"vs {pct(o['loss_at_psi_star'])} at omega = 0.3"))
    gain = o["S_mu_at_psi_mu_star"] / o["S_mu_at_psi_star"] if o["S_mu_at_psi_star"] else math.nan
    rows.append(Row("C16", "omega = 0.3: S_mu(psi_mu*) / S_mu(psi*)", *PAPER["C16"], twin=gain,
                    reference=href("S_mu_at_psi_mu_star", lambda v: fmt(v / oh["S_mu_at_psi_star"])),
                    error=None, verdict=AGREE if gain >= 1.1 else PARTLY if gain > 1.0 else DISAGREE,
                    reason="" if gain >= 1.1 else "psi* and psi_mu* coincide on this grid"
                    if o["psi_star_deg"] == o["psi_mu_star_deg"] else "small S_mu gain on this grid"))
    r20 = _by(rob, "psi_deg", 20)
    if r20:
        ratio = float(r20[0]["S_mu"]) / float(r20[0]["S"])
        rows.insert(0, Row("C6", "omega = 0.3, psi = 20 deg: S_mu / S (the model's prediction of the experiment)",
                           *PAPER["C6"], twin=ratio, reference="paper: experiment / simulation ~ 0.5",
                           error=f"{fmt(ratio - 0.5)}", verdict=band(ratio - 0.5, 0.1, 0.2), reason=""))
    return rows


def claims_crawler_mass(ctx: Context) -> list[Row]:
    """Fig. 12: S vs m1/m2 at (m1 + m2)/(2 m0) = 0.5, per omega; twin and hybrid."""
    omegas = ctx.g([0.3, 3.2, 5.1, 8.0, 16.0], [0.3, 3.2, 16.0])
    asym = ctx.g([0.5, 0.67, 1.0, 1.5, 2.0], [0.5, 1.0, 2.0])
    ov = {"experiment.mass_ratio": [0.5], "experiment.m1_over_m2": asym, "run.cycles": ctx.g(40, 20), "run.min_cycles": 3}
    lo = {**ov, "run.cycles": ctx.g(40, 2), "run.min_cycles": ctx.g(3, 2)}     # omega = 0.3: slow, steady early
    tw, hy = [], []
    for tag, o, ws in (("lo", lo, [w for w in omegas if w < 1]), ("hi", ov, [w for w in omegas if w >= 1])):
        s, out = ctx.run("crawler_mass_distribution", f"crawler_fig12_{tag}", o, {"omega": ws})
        h, outh = ctx.run("crawler_mass_distribution", f"crawler_fig12_{tag}_hybrid", {**o, "engine": "hybrid"}, {"omega": ws})
        tw += _csv(out / "results.csv")
        hy += _csv(outh / "results.csv")
    ctx.plot(out / "mass_distribution.png", "crawler_fig12_mass.png", "Crawler Fig. 11/12: S vs mass asymmetry, twin (omega >= 1)")

    def section(rows, w):
        rs = sorted(_by(rows, "omega", w), key=lambda r: float(r["m1_over_m2"]))
        return [float(r["m1_over_m2"]) for r in rs], [float(r["S"]) for r in rs]

    def best(rows, w):
        a, S = section(rows, w)
        return a[int(np.nanargmax(S))], max(S)

    rows = []
    a, S = section(tw, 0.3)
    S1 = S[a.index(1.0)]
    worst = max(v for x, v in zip(a, S) if x != 1.0) / S1
    ah, Sh = section(hy, 0.3)
    worst_h = max(v for x, v in zip(ah, Sh) if x != 1.0) / Sh[ah.index(1.0)]
    rows.append(Row("C17", f"omega = 0.3: max over m1/m2 in {fmt([x for x in a if x != 1.0])} of S / S(m1 = m2)",
                    *PAPER["C17"], twin=worst, reference=f"hybrid {fmt(worst_h)}", error=None,
                    verdict=AGREE if worst < 0.8 else PARTLY if worst < 0.95 else DISAGREE, reason=""))
    mids = [w for w in omegas if 1 < w < 10]
    highs = [w for w in omegas if w >= 10]
    for cid, ws, want in (("C18", mids, lambda b: b > 1), ("C19", highs, lambda b: b < 1)):
        bt = [best(tw, w) for w in ws]
        bh = [best(hy, w) for w in ws]
        ok = [want(b[0]) for b in bt]
        same = [a[0] for a in bt] == [b[0] for b in bh]
        rows.append(Row(cid, "S-maximising m1/m2 (grid " + fmt(asym) + ") at omega " + fmt(ws),
                        *PAPER[cid], twin="; ".join(f"omega {fmt(w)}: {fmt(b[0])} (S {fmt(b[1] * 1e3)} mm)" for w, b in zip(ws, bt)),
                        reference="hybrid " + "; ".join(f"omega {fmt(w)}: {fmt(b[0])}" for w, b in zip(ws, bh)),
                        error=None, verdict=AGREE if all(ok) else PARTLY if any(ok) else DISAGREE,
                        reason="" if all(ok) else
                        ("twin and exact hybrid model agree, so not a MuJoCo contact effect: " if same else
                         "twin and hybrid model differ; ") +
                        "both prefer the heavier link 2 (m1/m2 < 1) here; link 1 leads at psi = 20 deg (the robot "
                        "moves towards foot 1), so link 2 is the rear one; the paper does not define front/rear in "
                        "the text (if its 'front' is link 2, C19 flips instead)"))
    return rows


def claims_crawler_feedback(ctx: Context) -> list[Row]:
    """Fig. 13/14: eq. 19 feedback vs open loop at omega = 8 (paper values withheld)."""
    ov = {"experiment.cycles": ctx.g(20, 6)}
    s, out = ctx.run("crawler_feedback", "crawler_fig13", ov)
    ctx.plot(out / "feedback.png", "crawler_fig13_feedback.png", "Crawler Fig. 13/14: feedback vs open loop, twin")
    h, _ = ctx.run("crawler_feedback", "crawler_fig13_hybrid", {**ov, "engine": "hybrid"})
    mm = 1e3
    return [
        Row("C20", "omega = 8: mean S of the last 2 steps, open loop (prescribed angles)", *PAPER["C20"],
            twin=s["S_open"] * mm, reference=f"hybrid {fmt(h['S_open'] * mm)}", unit="mm",
            error=f"{fmt((s['S_open'] - h['S_open']) * mm)} mm vs hybrid", verdict=WITHHELD,
            reason="paper value withheld; twin vs hybrid only"),
        Row("C21", "omega = 8: mean S of the last 2 steps with the eq. 19 feedback (K_v 10, K_P 80, K_D 100, Phi [90, 130] deg)",
            *PAPER["C21"], twin=s["S_feedback"] * mm, reference=f"hybrid {fmt(h['S_feedback'] * mm)}", unit="mm",
            error=f"{fmt((s['S_feedback'] - h['S_feedback']) * mm)} mm vs hybrid", verdict=WITHHELD,
            reason="paper value withheld; the improvement over open loop is reproduced by twin and hybrid"
            if s["S_feedback"] > s["S_open"] and h["S_feedback"] > h["S_open"] else "paper value withheld"),
    ]


# ---- snake -----------------------------------------------------------------------------------------
def claims_snake_table1(ctx: Context) -> list[Row]:
    """Table 1: alpha_max, f_max, d_unit at alpha_max per n (eqs. 11-14); kinematic, no simulation."""
    from envs.snake.experiments import TABLE1
    from envs.snake.robot import alpha_max, d_unit, energy_loss
    ns = ctx.g(sorted(TABLE1), sorted(TABLE1))
    rows = []
    for n in ns:
        a = alpha_max(n)
        pa, pf, pd = TABLE1[n]
        for q, twin, paper, tol, unit in (("alpha_max", math.degrees(a), pa, 0.05, "deg"),
                                          ("f_max", energy_loss(n, a), pf, 0.0151, ""),
                                          ("d_unit", d_unit(n, a), pd, 0.0151, "")):
            err = twin - paper
            ok = abs(err) <= tol
            reason = ""
            if not ok and q == "d_unit":
                reason = ("eq. 12 at alpha_max gives more than printed for n >= 7; alpha rounding does not explain "
                          "it (paper inconsistency; twin follows the equations)")
            elif not ok:
                reason = "beyond print rounding"
            rows.append(Row(f"S1.{n}.{q}", f"n = {n}: {q} (eq. 14 / 11 / 12 at alpha_max)", "Table 1", fmt(paper),
                            twin=twin, reference="kinematic (eqs.)", unit=unit, error=err,
                            verdict=AGREE if ok else PARTLY if abs(err) <= 0.15 else DISAGREE, reason=reason))
    return rows


def claims_snake_table2(ctx: Context) -> list[Row]:
    """Table 2: f, d_unit, d (kinematic) and Delta x, loss (twin, 10 periods) per (n, alpha)."""
    from envs.snake.experiments import TABLE2
    cyc = ctx.g(10, 1)
    s, out = ctx.run("snake_table2", "snake_table2", {"run.cycles": cyc, "run.nthread": None})
    ctx.plot(out / "table2.png", "snake_table2.png", "Snake Table 2: Delta x and loss, twin vs paper")
    rows = []
    for r in _csv(out / "results.csv"):
        n, al = int(r["n"]), int(round(float(r["alpha_deg"])))
        pf, pdu, pdx, pd, pl = TABLE2[(n, al)]
        tag = f"n = {n}, alpha = {al} deg"
        for q, twin, paper, tol, unit, ref in (("f", r["f"], pf, 0.0015, "", "kinematic (eq. 11)"),
                                               ("d_unit", r["d_unit"], pdu, 0.0015, "", "kinematic (eq. 12)"),
                                               ("d", r["d"] * 1e3, pd, 0.5, "mm", "kinematic 10 l d_unit")):
            err = twin - paper
            ok = abs(err) <= tol
            reason = ""
            if not ok and n == 4 and al == 45:
                reason = ("paper misprint: eq. 12 gives d_unit 0.986 (theta^0 = 54.3, 22.5 deg); the printed d = "
                          "803.0 mm = 840 mm x 0.956 follows the misprint")
            rows.append(Row(f"S2.{n}.{al}.{q}", f"{tag}: {q}", "Table 2", fmt(paper), twin=twin, reference=ref,
                            unit=unit, error=err, verdict=AGREE if ok else DISAGREE, reason=reason))
        dx, loss = r["dx"] * 1e3, r["loss"]
        per = f"10 x mean of {int(r['cycles'])} simulated period(s)"
        if pdx is None:
            rows.append(Row(f"S2.{n}.{al}.dx", f"{tag}: measured Delta x over 10 periods ({per})", "Table 2", WITHHELD,
                            twin=dx, reference=f"d = {fmt(r['d'] * 1e3)}", unit="mm", error=None, verdict=WITHHELD,
                            reason="prediction (mu, T_step calibrated on the n = 4 rows)"))
            rows.append(Row(f"S2.{n}.{al}.loss", f"{tag}: loss (d - Delta x)/d", "Table 2", WITHHELD,
                            twin=pct(loss), reference=None, error=None, verdict=WITHHELD, reason="prediction"))
        else:
            e = rel_err(dx, pdx)
            rows.append(Row(f"S2.{n}.{al}.dx", f"{tag}: measured Delta x over 10 periods ({per})", "Table 2", fmt(pdx),
                            twin=dx, reference=f"d = {fmt(r['d'] * 1e3)}", unit="mm", error=pct(e),
                            verdict=band(e, 0.03, 0.1),
                            reason="floor mu = 0.3 and step time 0.55 s fitted to these three rows (2 parameters, 3 numbers)"))
            el = 100 * loss - pl
            rows.append(Row(f"S2.{n}.{al}.loss", f"{tag}: loss (d - Delta x)/d", "Table 2", f"{pl} %", twin=pct(loss),
                            reference=None, error=f"{fmt(el)} %-points", verdict=band(el, 2.0, 5.0),
                            reason="fitted (see dx); twin loss uses its own d (eq. 12), so the (4, 45) misprint does not enter"))
    return rows


# ---- BOLT ------------------------------------------------------------------------------------------
def claims_bolt(ctx: Context) -> list[Row]:
    """Foot path vs closed form, loop closure, running speed, stride time, limits."""
    fp, out_fp = ctx.run("bolt_foot_path", "bolt_foot_path", {"run.nthread": 1})
    ctx.plot(out_fp / "foot_path.png", "bolt_foot_path.png", "BOLT Fig. 5(b): foot path, twin vs closed form")
    rn, out_rn = ctx.run("bolt_running", "bolt_running", {"run.cycles": ctx.g(20, 10)})
    ctx.plot(out_rn / "loop_error.png", "bolt_loop_error.png", "BOLT Fig. 11: loop-closure error while running, twin")
    periods = ctx.g([0.6, 0.5, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.12, 0.1], [0.3, 0.25, 0.15])
    sw_, out_sw = ctx.run("bolt_speed_sweep", "bolt_speed_sweep", {"run.cycles": ctx.g(30, 10)}, {"crank_period": periods})
    ctx.plot(out_sw / "speed_sweep.png", "bolt_speed_sweep.png", "BOLT: speed, stride time, torque, power vs crank rate")
    mm = 1e3
    rows = []
    for cid, k in (("B1", "stride_length"), ("B2", "step_height")):
        t, c = fp[k] * mm, fp[f"{k}_closed_form"] * mm
        rows.append(Row(cid, f"foot path {k.replace('_', ' ')} in {{B}} (crank turned slowly, body fixed)", *PAPER[cid],
                        twin=t, reference=f"closed form {fmt(c)}", unit="mm", error=f"{fmt(t - c)} mm",
                        verdict=AGREE if abs(t - c) <= 1.0 else DISAGREE,
                        reason="paper gives the path only as a figure; the closed form of Appendix A's loops is the reference"))
    rows.append(Row("B3", "max distance of the twin's foot from the closed-form path over a revolution", *PAPER["B3"],
                    twin=fp["max_foot_error"] * mm, reference="0 (closed form)", unit="mm",
                    error=f"{fmt(fp['max_foot_error'] * mm)} mm",
                    verdict=AGREE if fp["max_foot_error"] * mm <= 1 else DISAGREE,
                    reason="soft loop-closure equalities (solref 2 ms)"))
    gap = rn["max_loop_gap"] * mm
    rows.append(Row("B4", f"max loop-closure gap while running ({int(rn['strides'])} strides, crank period "
                          f"{fmt(rn['crank_period'])} s)", *PAPER["B4"], twin=gap,
                    reference=f"{fmt(fp['max_loop_gap'] * mm)} mm (slow revolution, body fixed)", unit="mm",
                    error=f"{fmt(gap)} mm", verdict=AGREE if gap <= 0.1 else PARTLY if gap <= 2 else DISAGREE,
                    reason="MuJoCo closes loops with soft equality constraints: the gap peaks at impacts and decays, "
                           "not exactly zero like the SPF model's"))
    tpr = rn["touchdowns_per_revolution"]
    rows.append(Row("B5", "touch-downs per crank revolution (default crank period)", *PAPER["B5"], twin=tpr,
                    reference=f"stride time {fmt(rn['stride_time'])} s = crank period {fmt(rn['crank_period'])} s",
                    error=None, verdict=AGREE if abs(tpr - 1) < 0.05 else DISAGREE, reason=""))
    res = sorted(_csv(out_sw / "results.csv"), key=lambda r: -float(r["crank_period"]))
    T = np.array([float(r["crank_period"]) for r in res])
    v = np.array([float(r["speed"]) for r in res])
    ok = np.array([bool(r["limits_ok"]) for r in res])
    T13 = math.nan
    for i in range(len(v) - 1):
        if (v[i] - 1.3) * (v[i + 1] - 1.3) <= 0 and v[i] != v[i + 1]:
            T13 = T[i] + (1.3 - v[i]) * (T[i + 1] - T[i]) / (v[i + 1] - v[i])
            break
    e = rel_err(rn["speed"], 1.3)
    rows.append(Row("B6", f"simulated running speed (paper: 16 steps; twin: crank period {fmt(rn['crank_period'])} s)",
                    *PAPER["B6"], twin=rn["speed"], reference=f"twin reaches 1.3 m/s at crank period {fmt(T13)} s (interpolated)",
                    unit="m/s", error=pct(e), verdict=band(e, 0.05, 0.25),
                    reason="the paper does not give its crank rate, PD gains or alpha_m set point; the twin's "
                           "defaults (0.3 s, K_P 300, K_D 2) are assumptions"))
    vmax_ok = float(v[ok].max()) if ok.any() else math.nan
    vmax = float(v.max())
    e = rel_err(vmax_ok, 3.2)
    rows.append(Row("B7", "fastest running speed (paper: treadmill speed, 0.5 to 3.2 m/s)", *PAPER["B7"],
                    twin=f"{fmt(vmax_ok)} within torque/power limits; {fmt(vmax)} overall",
                    reference=f"crank periods {fmt(list(T))} s", unit="m/s", error=pct(e), verdict=band(e, 0.1, 0.3),
                    reason="treadmill speed is not ground speed (the paper says ground speed is lower); the twin has "
                           "a rigid foot without the die spring/rubber pad, a bumper, and assumed PD gains; above "
                           "1.6 m/s the servo lags and the stance power exceeds 1350 W"))
    rows.append(Row("B8", "stride time, simulation and experiment (paper: [withheld] ms, [withheld] ms)", *PAPER["B8"],
                    twin=rn["stride_time"] * mm, reference=f"crank period {fmt(rn['crank_period'] * mm)} ms", unit="ms",
                    error=None, verdict=WITHHELD, reason="paper values withheld"))
    rows.append(Row("B9", "peak crank power in stance (limit), default run", *PAPER["B9"], twin=rn["peak_stance_power"],
                    reference=f"peak abs torque {fmt(rn['peak_torque'])} N m (limit 30)", unit="W",
                    error=f"{pct(rel_err(rn['peak_stance_power'], 1350.0))} of the limit",
                    verdict=AGREE if rn["limits_ok"] else DISAGREE,
                    reason="limit respected" if rn["limits_ok"] else "limit exceeded"))
    return rows


# ---- MinIAQ-II -------------------------------------------------------------------------------------
def claims_miniaq(ctx: Context) -> list[Row]:
    """Trot (Figs. 5, 6, 8, 9) and in-place turning (Fig. 7) at 2.5 Hz; body size and mass."""
    from envs.miniaq.robot import MiniAQ, foot_path
    dur = ctx.g(5.0, 2.0)
    tr, out_tr = ctx.run("miniaq_trot", "miniaq_trot", {"experiment.duration": dur})
    ctx.plot(out_tr / "gait_diagram.png", "miniaq_gait_diagram.png", "MinIAQ-II Figs. 8/9: gait diagram, twin")
    ctx.plot(out_tr / "body_motion.png", "miniaq_body_motion.png", "MinIAQ-II Figs. 5/6: roll, pitch, trajectory, twin")
    tn, out_tn = ctx.run("miniaq_turn", "miniaq_turn", {"experiment.duration": dur})
    ctx.plot(out_tn / "yaw.png", "miniaq_yaw.png", "MinIAQ-II Fig. 7: yaw during in-place turning, twin")
    r = MiniAQ()
    m = r.model()
    mass = float(m.body_subtreemass[0]) * 1e3
    p = r.p
    fpth = foot_path(p)
    A_z = p["pivot_z"] + p["l1"] * math.sin(p["theta1"])
    height = (A_z - fpth["z_min"]) * 1e3
    rows = [Row("M1", "robot mass", *PAPER["M1"], twin=mass, reference=None, unit="g", error=pct(rel_err(mass, 23.0)),
                verdict=band(rel_err(mass, 23.0), 0.01, 0.05), reason="model input (body 22.2 g + 4 legs x 0.2 g)"),
            Row("M2", "height, lowest foot point to rocker pivot A", *PAPER["M2"], twin=height,
                reference="kinematic (designed four-bar, assumed l1 = 18 mm, theta1 = 130 deg)", unit="mm",
                error=pct(rel_err(height, 45.0)), verdict=band(rel_err(height, 45.0), 0.05, 0.15),
                reason="ground link l1, theta1 are assumptions (not in Table I); chosen to give the 4.5 cm height")]
    win = f"trot 2.5 Hz, cycles 2..{fmt(tr['cycles'])} of {fmt(dur)} s"
    rows += [
        Row("M3", f"roll amplitude (half peak-to-peak), {win}", *PAPER["M3"], twin=tr["roll_amplitude_deg"], unit="deg",
            verdict=NO_NUMBER, reason="the paper gives roll only as a plot"),
        Row("M4", f"pitch amplitude (half peak-to-peak), {win}", *PAPER["M4"], twin=tr["pitch_amplitude_deg"], unit="deg",
            verdict=NO_NUMBER, reason="the paper gives pitch only as a plot"),
        Row("M5", f"forward speed of the centroid, {win}", *PAPER["M5"], twin=tr["speed"] * 1e3,
            reference=f"lateral drift {fmt(tr['drift_y'] * 1e3)} mm/s", unit="mm/s", verdict=NO_NUMBER,
            reason="the paper gives the trajectory only as a plot"),
        Row("M6", "yaw rate, in-place turning (left motors reversed), 2.5 Hz", *PAPER["M6"], twin=tn["yaw_rate_deg_s"],
            unit="deg/s", verdict=NO_NUMBER, reason="the paper gives yaw only as a plot"),
    ]
    import csv
    with open(out_tn / "timeseries.csv", newline="") as f:
        ts = [(float(d["t"]), float(d["yaw_deg"])) for d in csv.DictReader(f)]
    t = np.array([a for a, _ in ts])
    y = np.array([b for _, b in ts])
    c = np.polyfit(t, y, 1)
    r2 = 1 - np.sum((y - np.polyval(c, t)) ** 2) / np.sum((y - y.mean()) ** 2)
    rows.append(Row("M7", "R^2 of a straight-line fit to yaw(t), in-place turning", *PAPER["M7"], twin=float(r2),
                    reference=None, error=None, verdict=AGREE if r2 >= 0.98 else PARTLY if r2 >= 0.9 else DISAGREE,
                    reason=""))
    disp = tn["centroid_displacement"] * 1e3
    rows.append(Row("M8", f"centroid displacement after {fmt(dur)} s of turning", *PAPER["M8"], twin=disp,
                    reference=f"body length 88 mm; centroid path {fmt(tn['centroid_path_length'] * 1e3)} mm", unit="mm",
                    error=None, verdict=AGREE if disp <= 44 else PARTLY if disp <= 88 else DISAGREE, reason=""))
    sf = tr["support_fraction"]
    three = float(sf["3"]) + float(sf["4"])
    rows.append(Row("M9", "fraction of the stride with >= 3 feet on the floor (trot)", *PAPER["M9"],
                    twin=f"{fmt(three)} (3: {fmt(float(sf['3']))}, 4: {fmt(float(sf['4']))}, 2: {fmt(float(sf['2']))}, "
                         f"< 2: {fmt(tr['support_fraction_below_2'])})",
                    reference="intended trot: 0 (2 feet always)", error=None,
                    verdict=AGREE if three >= 0.8 else PARTLY if three >= 0.4 else DISAGREE,
                    reason="" if three >= 0.8 else
                    "the twin stays close to the intended two-foot support; candidate causes, not isolated: the "
                    "Hunt-Crossley contact linearised at the trot load (MuJoCo soft contact), one friction "
                    "coefficient with true stiction, and the assumed ground link l1, theta1 that set how long the "
                    "stance arcs overlap"))
    dr = tr["drag_fraction"]
    hind, front = (dr["hl"] + dr["hr"]) / 2, (dr["fl"] + dr["fr"]) / 2
    rows.append(Row("M10", "fraction of contact time with backward (dragging) friction, hind vs front legs", *PAPER["M10"],
                    twin=f"hind {fmt(hind)}, front {fmt(front)}", reference=None, error=None,
                    verdict=AGREE if hind > front and hind >= 0.3 else PARTLY if hind > front else DISAGREE,
                    reason="" if hind > front and hind >= 0.3 else
                    "friction is Coulomb with true stiction (one mu), not the paper's pseudo-Coulomb model"))
    duty = tr["duty_factor"]
    rows.append(Row("M11", "duty factor per leg (fl, fr, hl, hr), intended 0.5", *PAPER["M11"],
                    twin=[float(duty[k]) for k in ("fl", "fr", "hl", "hr")], reference="intended 0.5 each", error=None,
                    verdict=NO_NUMBER, reason="the paper shows the diagram only"))
    return rows


CLAIMS = [
    ("crawler", "Crawler (Gamus, Gat & Or): Fig. 4", claims_crawler_frequency),
    ("crawler", "Crawler: Fig. 6", claims_crawler_psi_map),
    ("crawler", "Crawler: Fig. 7", claims_crawler_reversal),
    ("crawler", "Crawler: Figs. 8/9, Sec. V-VI", claims_crawler_friction),
    ("crawler", "Crawler: Fig. 12", claims_crawler_mass),
    ("crawler", "Crawler: Figs. 13/14", claims_crawler_feedback),
    ("snake", "Snake (Sun, Ma & Wang): Table 1", claims_snake_table1),
    ("snake", "Snake: Table 2", claims_snake_table2),
    ("bolt", "BOLT (Liu & Ben-Tzvi)", claims_bolt),
    ("miniaq", "MinIAQ-II (Askari & Ozcan)", claims_miniaq),
]

COLUMNS = ("id", "claim", "source", "paper", "twin", "reference", "unit", "error", "verdict", "reason")


# ---- report ----------------------------------------------------------------------------------------
def _cell(x) -> str:
    return fmt(x).replace("|", "/").replace("\n", " ")


def render(groups, reduced: bool, plots_rel: str, plot_files, timings, wall, resumed=False) -> str:
    rows = [r for _, _, rs in groups for r in rs]
    counts = {v: sum(r.verdict == v for r in rows) for v in VERDICTS}
    name = "fidelity_report_reduced.md" if reduced else "fidelity_report.md"
    L = [f"# Fidelity report{' (reduced grids)' if reduced else ''}", "",
         f"Generated by `python scripts/fidelity_report.py{' --reduced' if reduced else ''}` "
         f"(or `python scripts/run.py experiment=fidelity_report{' experiment.reduced=true' if reduced else ''}`); "
         f"code: `envs/fidelity.py`. File: `docs/{name}`.", ""]
    if reduced:
        L += ["Reduced grids and fewer cycles: this report is CI's reproducibility check "
              "(`tests/test_fidelity_report.py`). Its values are coarser than the full report's "
              "(`docs/fidelity_report.md`), and verdicts on coarse grids can differ from it.", ""]
    L += ["One row per quantitative claim of the four papers. *paper*: the value as printed (or the statement, "
          "where the paper gives a plot only; `withheld`: the value is withheld from the paper copy). *twin*: the "
          "MuJoCo twin. *reference*: the exact/kinematic reference where the project has one (crawler: the paper's "
          "exact hybrid model, `envs/crawler_hybrid.py`; BOLT: closed-form loop kinematics; snake: eqs. 11-14). "
          "*error*: twin minus paper (or reference, as stated). Verdicts: "
          f"`{AGREE}`, `{PARTLY}`, `{DISAGREE}`, `{NO_NUMBER}` (graph-only claim: the twin's value is reported), "
          f"`{WITHHELD}`.", "",
          f"Numbers carry {SIG} significant digits; a regenerated report must match the committed one to a "
          f"relative {REL_TOL:g} (deterministic simulations on the same library build).", "",
          "## Summary", "",
          "| robot | claims | " + " | ".join(VERDICTS) + " |", "|---|---|" + "---|" * len(VERDICTS)]
    for robot in dict.fromkeys(g[0] for g in groups):
        rs = [r for g in groups if g[0] == robot for r in g[2]]
        L.append(f"| {robot} | {len(rs)} | " + " | ".join(str(sum(r.verdict == v for r in rs)) for v in VERDICTS) + " |")
    L.append(f"| all | {len(rows)} | " + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    L += ["", f"Generation time: {wall:.0f} s" + (" (resumed: finished sweep points were reused from an earlier "
                                                  "run, so the times below cover only what was recomputed)."
                                                  if resumed else "."), ""]
    for robot, title, rs in groups:
        L += [f"## {title}", "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for r in rs:
            L.append("| " + " | ".join(_cell(getattr(r, c)) for c in COLUMNS) + " |")
        L.append("")
    if plot_files:
        L += ["## Plots", ""]
        for fn, cap in plot_files:
            L += [f"**{cap}**", "", f"![{cap}]({plots_rel}/{fn})", ""]
    L += ["## Run times (s)", "", "| run | s |", "|---|---|"]
    L += [f"| {k} | {v:.1f} |" for k, v in timings.items()]
    return "\n".join(L) + "\n"


def generate(out_dir, reduced: bool = False, work=None, log=print, only=None, resume: bool = False) -> pathlib.Path:
    """Run every claim group, write the report and its plots; returns the report's path.

    work: scratch directory for the runners' outputs (default: a temporary one, removed).
    resume: keep what `work` already holds (the sweep runners skip finished points), e.g. after
    an interrupted full run; only with the same code and grids.
    only: restrict to claim-group functions whose name contains one of these strings (debugging).
    """
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    plots_rel = "fidelity_reduced" if reduced else "fidelity"
    plots = out_dir / plots_rel
    if plots.exists():
        shutil.rmtree(plots)
    tmp = None
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="fidelity_")
        work = tmp.name
    ctx = Context(reduced, pathlib.Path(work), plots, log, resume=resume and tmp is None)
    t0 = time.perf_counter()
    groups = []
    try:
        for robot, title, fn in CLAIMS:
            if only and not any(o in fn.__name__ for o in only):
                continue
            log(f"{fn.__name__}")
            groups.append((robot, title, fn(ctx)))
    finally:
        if tmp is not None:
            tmp.cleanup()
    wall = time.perf_counter() - t0
    path = out_dir / ("fidelity_report_reduced.md" if reduced else "fidelity_report.md")
    path.write_text(render(groups, reduced, plots_rel, ctx.plot_files, ctx.timings, wall, resumed=ctx.resume))
    return path


# ---- reading a report back (tests) -----------------------------------------------------------------
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_report(text: str) -> dict:
    """{id: {column: cell}} of every claim row of a report."""
    rows = {}
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| id ") or line.startswith("| robot") or line.startswith("| run"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != len(COLUMNS):
            continue
        rows[cells[0]] = dict(zip(COLUMNS, cells))
    return rows


def split_numbers(cell: str):
    """(text with numbers replaced by '#', [numbers]) of a cell."""
    nums = [float(m) for m in _NUM.findall(cell)]
    return _NUM.sub("#", cell), nums


def cells_match(a: str, b: str, rel=REL_TOL, abs_=ABS_TOL) -> bool:
    ta, na = split_numbers(a)
    tb, nb = split_numbers(b)
    if ta != tb or len(na) != len(nb):
        return False
    return all(abs(x - y) <= abs_ + rel * max(abs(x), abs(y)) for x, y in zip(na, nb))


# ---- experiment runner (scripts/run.py experiment=fidelity_report) ---------------------------------
def runner(cfg, out) -> dict:
    """`f(cfg, out)`: the report into the run directory (experiment.reduced: the CI grids)."""
    reduced = bool(cfg.experiment.get("reduced", False))
    out = pathlib.Path(out)
    path = generate(out, reduced=reduced, work=out / "work")
    shutil.rmtree(out / "work", ignore_errors=True)
    rows = parse_report(path.read_text())
    counts = {v: sum(r["verdict"] == v for r in rows.values()) for v in VERDICTS}
    return dict(report=str(path), claims=len(rows), **{k.replace(" ", "_"): v for k, v in counts.items()})
