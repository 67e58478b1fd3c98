"""The MinIAQ-II paper's quantitative claims (Askari & Ozcan), twin against paper.

Each claim group is a function `claims_<topic>(ctx) -> list[Row]`; the paper's values are
data (`PAPER`: id -> (source, value as stated)); each row's definition is declared in claims_definitions.py.  `CLAIMS` lists the groups for the report
(envs/core/report/report.py).
"""
from __future__ import annotations

import math

import numpy as np

from ...core.report.report import CALIBRATION, CONSISTENCY, GRAPH_ONLY, Context, Range, Row, Tol, fmt
from .claims_definitions import DEFINITIONS, PREVIOUS, REGISTERED, SUPERSEDED, UNCOVERED  # noqa: F401
from .claims_optimize import CLAIMS as OPTIMIZE_CLAIMS

PAPER = {
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
    "M12": ("Sec. I", "12 cm long, 6 cm wide"),
    "M13": ("Sec. IV, Fig. 5(b)", "experiment: pitch asymmetric (CoG shift from assembly); simulation symmetric"),
    "M14": ("Sec. V, Fig. 9", "per-leg push (green) / drag (red) bars of one cycle"),
    "M15": ("Sec. IV, Fig. 5(b)", "simulation: symmetric periodicity of pitch when right and left legs alternate"),
    "M16": ("Sec. V, Fig. 8", "the actual gait has a periodic trend per each stride"),
}

OMITTED = [
    ("Sec. I", "leg phases controlled down to a phase error of about 20 deg", "a property of the hardware's phase "
     "controller (ref. [7]); the twin's motor servos hold the commanded phases, so it has no counterpart"),
]


def claims_miniaq(ctx: Context) -> list[Row]:
    """Trot (Figs. 5, 6, 8, 9) and in-place turning (Fig. 7) at 2.5 Hz; body size and mass."""
    from ..robot import MiniAQ, foot_path
    dur = ctx.g(5.0, 2.0)
    tr_res, out_tr = ctx.run("miniaq_trot", "miniaq_trot", {"experiment.duration": dur})
    ctx.plot(out_tr / "gait_diagram.png", "miniaq_gait_diagram.png", "MinIAQ-II Figs. 8/9: gait diagram, twin")
    ctx.plot(out_tr / "body_motion.png", "miniaq_body_motion.png", "MinIAQ-II Figs. 5/6: roll, pitch, trajectory, twin")
    tn_res, out_tn = ctx.run("miniaq_turn", "miniaq_turn", {"experiment.duration": dur})
    tr, tn = tr_res.summary, tn_res.summary
    ctx.plot(out_tn / "yaw.png", "miniaq_yaw.png", "MinIAQ-II Fig. 7: yaw during in-place turning, twin")
    r = MiniAQ()
    m = r.model()
    mass = float(m.body_subtreemass[0]) * 1e3
    p = r.p
    fpth = foot_path(p)
    A_z = p.pivot_z + p.l1 * math.sin(p.theta1)
    height = (A_z - fpth["z_min"]) * 1e3
    inp = "a model input (body 22.2 g + 4 legs x 0.2 g)"
    rows = [Row("M1", "robot mass", *PAPER["M1"], kind=CONSISTENCY, value=mass, target=23.0,
                tol=Tol(0.5, 0, "half a unit of the printed 23 g"), unit="g", reason=inp),
            Row("M2", "height, lowest foot point to rocker pivot A", *PAPER["M2"], kind=CALIBRATION, value=height,
                target=45.0, tol=Tol(0.5, 0, "half a unit of the printed 4.5 cm"),
                reference="kinematic (designed four-bar, assumed l1 = 18 mm, theta1 = 130 deg)", unit="mm",
                reason="calibration: the ground link l1, theta1 are assumptions (not in Table I), chosen to give the "
                       "4.5 cm height")]
    win = f"trot 2.5 Hz, cycles 2..{fmt(tr['cycles'])} of {fmt(dur)} s"
    rows += [
        Row("M3", f"roll amplitude (half peak-to-peak), {win}", *PAPER["M3"], kind=GRAPH_ONLY,
            value=tr["roll_amplitude_deg"], unit="deg", reason="the paper gives roll only as a plot"),
        Row("M4", f"pitch amplitude (half peak-to-peak), {win}", *PAPER["M4"], kind=GRAPH_ONLY,
            value=tr["pitch_amplitude_deg"], unit="deg", reason="the paper gives pitch only as a plot"),
        Row("M5", f"forward speed of the centroid, {win}", *PAPER["M5"], kind=GRAPH_ONLY, value=tr["speed"] * 1e3,
            reference=f"lateral drift {fmt(tr['drift_y'] * 1e3)} mm/s", unit="mm/s",
            reason="the paper gives the trajectory only as a plot"),
        Row("M6", "yaw rate, in-place turning (left motors reversed), 2.5 Hz", *PAPER["M6"], kind=GRAPH_ONLY,
            value=tn["yaw_rate_deg_s"], unit="deg/s", reason="the paper gives yaw only as a plot"),
    ]
    ts = tn_res.table("timeseries.csv")
    t = np.array([d["t"] for d in ts], float)
    y = np.array([d["yaw_deg"] for d in ts], float)
    c = np.polyfit(t, y, 1)
    r2 = 1 - np.sum((y - np.polyval(c, t)) ** 2) / np.sum((y - y.mean()) ** 2)
    rows.append(Row("M7", "R^2 of a straight-line fit to yaw(t), in-place turning (proxy for 'nearly linear': >= 0.98)",
                    *PAPER["M7"], value=float(r2), target=Range(0.98, 1.0), tol=Tol(0, 0, "a range")))
    disp = tn["centroid_displacement"] * 1e3
    why8 = ""
    if disp > 44.0:     # outside the range: what the paper's own model does over the same turn (engine=paper)
        pm, _ = ctx.run("miniaq_turn", "miniaq_turn_paper", {"experiment.duration": dur, "engine": "paper"})
        dp = pm.summary["centroid_displacement"] * 1e3
        why8 = (f"the paper's own model (engine=paper) drifts {fmt(dp)} mm over the same {fmt(dur)} s of turning "
                f"({'also outside' if dp > 44.0 else 'inside'} the range); 'half the body' is this report's reading "
                "of 'nearly', not the paper's number")
    rows.append(Row("M8", f"centroid displacement after {fmt(dur)} s of turning (proxy for 'nearly in place': at most "
                          "half the body length)", *PAPER["M8"], value=disp, target=Range(0, 44.0),
                    tol=Tol(0, 0, "a range: half the 88 mm body"),
                    reference=f"centroid path {fmt(tn['centroid_path_length'] * 1e3)} mm", unit="mm", reason=why8))
    sf = tr["support_fraction"]
    three = float(sf[3]) + float(sf[4])
    rows.append(Row("M9", "fraction of the stride with >= 3 feet on the floor, trot (proxy for 'almost the entire "
                          "cycle': >= 0.8)", *PAPER["M9"], kind=CALIBRATION, value=three, target=Range(0.8, 1.0), tol=Tol(0, 0, "a range"),
                    twin=f"{fmt(three)} (3: {fmt(float(sf[3]))}, 4: {fmt(float(sf[4]))}, 2: {fmt(float(sf[2]))}, "
                         f"< 2: {fmt(tr['support_fraction_below_2'])})",
                    reference="intended trot: 0 (2 feet always)",
                    reason="default contact: the paper's Hunt-Crossley law (eq. 15) through MuJoCo's impedance "
                    "(robot.contact_law=hunt_crossley; the point foot with the old linear contact gave 0.06-0.08). "
                    "Holds against the paper model over theta1 130-170 deg, not at 190 deg (0.60-0.62 against "
                    "0.90-0.91; models/miniaq/README.md 'Default contact')" if three >= 0.8 else
                    "the twin stays close to the intended two-foot support. Measured one difference at a time "
                    "(models/miniaq/README.md): not the contact law, friction, leg mass or motor servo; the paper's "
                    "massless kinematic hind foot rests lightly on the floor through its swing, the twin's "
                    "hind foot (a leg with mass on compliant joints) chatters there, about 11 touchdowns a cycle. "
                    "The option robot.foot=pad (a light foot on a damped slide, timestep 2.5e-5) gives 0.74-0.80 "
                    "against the paper model's 0.85-0.86 and holds over theta1 130-170 deg, not at 190 deg "
                    "(0.48-0.59 against 0.90-0.91): not the default (README, Foot study)"))
    dr = tr["drag_fraction"]
    hind, front = (dr["hl"] + dr["hr"]) / 2, (dr["fl"] + dr["fr"]) / 2
    rows.append(Row("M10", "hind legs' fraction of contact time with backward (dragging) friction (proxy for 'a lot "
                           "of the time': >= 0.3 and above the front legs')", *PAPER["M10"], value=hind,
                    target=Range(max(0.3, front), 1.0), tol=Tol(0, 0, "a range"),
                    twin=f"hind {fmt(hind)}, front {fmt(front)}",
                    reason="" if hind > front and hind >= 0.3 else
                    "friction is Coulomb with true stiction (one mu), not the paper's pseudo-Coulomb model"))
    rows += periodicity_rows(tr_res.table("timeseries.csv"), 1.0 / p.f, win)
    duty = tr["duty_factor"]
    rows.append(Row("M11", "duty factor per leg (fl, fr, hl, hr), intended 0.5", *PAPER["M11"], kind=GRAPH_ONLY,
                    value=[float(duty[k]) for k in ("fl", "fr", "hl", "hr")], reference="intended 0.5 each",
                    reason="the paper shows the diagram only"))
    from .geometry_map import leg_geometry
    geo = leg_geometry(r)
    size = [geo["length"] * 1e3, geo["width"] * 1e3]
    rows.append(Row("M12", "length (hind-most to front-most leg point over a cycle) and width (between the leg "
                           "planes)", *PAPER["M12"], kind=CONSISTENCY, value=size, target=[120.0, 60.0],
                    tol=Tol(5, 0, "half a unit of the printed cm"), unit="mm",
                    reason="model inputs (pivot_x, pivot_y and the assumed ground link; envs/miniaq/paper/geometry_map.py)"))
    rows.append(Row("M13", f"mean pitch, {win} (the simulation's symmetric pitch; the experiment's asymmetry is "
                           "an assembly defect)", *PAPER["M13"], kind=GRAPH_ONLY, value=tr.get("pitch_mean_deg"),
                    unit="deg", reason="the paper gives pitch only as a plot; a twin without the CoG shift should be "
                                       "symmetric like the paper's simulation"))
    rows.append(Row("M14", "drag fraction per leg (fl, fr, hl, hr)", *PAPER["M14"], kind=GRAPH_ONLY,
                    value=[float(dr[k]) for k in ("fl", "fr", "hl", "hr")], reason="the paper shows the diagram only"))
    return rows


def shift_mismatch(t, x, shift: float, t0: float) -> float:
    """RMS of x(t + shift) - x(t) over t0 <= t <= t_end - shift, relative to the RMS of x - mean (same window)."""
    t, x = np.asarray(t, float), np.asarray(x, float)
    sel = (t >= t0) & (t <= t[-1] - shift)
    d = np.interp(t[sel] + shift, t, x) - x[sel]
    var = x[sel] - x[sel].mean()
    return float(np.sqrt(np.mean(d ** 2) / np.mean(var ** 2)))


def periodicity_rows(ts, T: float, win: str) -> list[Row]:
    """M15 (pitch repeats every half stride: the two diagonal pairs alternate symmetrically) and M16 (roll and
    pitch repeat every stride), from the trot's timeseries after its first 2 strides."""
    t = [d["t"] for d in ts]
    pitch, roll = [d["pitch_deg"] for d in ts], [d["roll_deg"] for d in ts]
    half = shift_mismatch(t, pitch, T / 2, 2 * T)
    full = [shift_mismatch(t, x, T, 2 * T) for x in (roll, pitch)]
    return [Row("M15", f"pitch(t + T/2) - pitch(t), RMS relative to pitch's own RMS variation, {win} (proxy for "
                       "'symmetric': at most 0.3)", *PAPER["M15"], kind=CONSISTENCY, value=half, target=Range(0.0, 0.3),
                tol=Tol(0, 0, "a range: 'symmetric' read as a half-stride mismatch <= 30 % of the variation"),
                reason="" if half <= 0.3 else "the two half-strides pitch differently (diagonal pairs not symmetric)"),
            Row("M16", f"roll(t + T) - roll(t), pitch(t + T) - pitch(t), RMS relative to each one's RMS variation, "
                       f"{win} (proxy for 'periodic per stride': at most 0.2 each)", *PAPER["M16"], kind=CONSISTENCY,
                value=full,
                target=Range(0.0, 0.2), tol=Tol(0, 0, "a range: stride-to-stride mismatch <= 20 % of the variation"),
                reason="" if max(full) <= 0.2 else "the body motion changes from stride to stride")]


CLAIMS = [
    ('MinIAQ-II (Askari & Ozcan)', claims_miniaq),
] + OPTIMIZE_CLAIMS
