"""The MinIAQ-II paper's quantitative claims (Askari & Ozcan), twin against paper.

Each claim group is a function `claims_<topic>(ctx) -> list[Row]`; the paper's values are
data (`PAPER`: id -> (source, value as stated)).  `CLAIMS` lists the groups for the report
(envs/core/report.py).
"""
from __future__ import annotations

import math

import numpy as np

from envs.core.report import (AGREE, DISAGREE, NO_NUMBER, PARTLY, Context, Row, band, fmt,
                              pct, rel_err)

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
}


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
                    "the twin stays close to the intended two-foot support. Measured one difference at a time "
                    "(models/miniaq/README.md): not the contact law, friction, leg mass or motor servo; the paper's "
                    "massless kinematic hind foot rests lightly on the floor through its swing, the twin's "
                    "hind foot (a leg with mass on compliant joints) chatters there, about 11 touchdowns a cycle"))
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
    ('MinIAQ-II (Askari & Ozcan)', claims_miniaq),
]
