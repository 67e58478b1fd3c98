"""The BOLT paper's quantitative claims (Liu & Ben-Tzvi), twin against paper and closed-form kinematics.

Each claim group is a function `claims_<topic>(ctx) -> list[Row]`; the paper's values are
data (`PAPER`: id -> (source, value as stated)); each row's definition is declared in claims_definitions.py.  `CLAIMS` lists the groups for the report
(envs/core/report/report.py).
"""
from __future__ import annotations

from .claims_coulomb import PAPER as COULOMB_PAPER
from .claims_coulomb import claims_bolt_coulomb
from .claims_definitions import DEFINITIONS, PREVIOUS, REGISTERED, SUPERSEDED, UNCOVERED  # noqa: F401
from .claims_optimize import CLAIMS as OPTIMIZE_CLAIMS
from .claims_printed import claims_bolt_printed
from .claims_design import PAPER as DESIGN_PAPER
from .claims_design import claims_bolt_design
from .claims_speed import speed_rows
from ...core.report.report import CONSISTENCY, WITHHELD_KIND, Context, Range, Row, Tol, fmt

PAPER = {
    "B1": ("Sec. 3.2, 6.2, Fig. 5(b), 15(b)", "= kinematic design (no number)"),
    "B2": ("Sec. 3.2, 6.2, Fig. 5(b), 15(b)", "= kinematic design (no number)"),
    "B3": ("Sec. 6.2, Fig. 15(b)", "foot tracks the designed path closely (no number)"),
    "B4": ("Sec. 5.2, Fig. 11", "constraint errors -> 0, held through transitions"),
    "B5": ("Sec. 2.2", "one crank revolution = one stride"),
    "B6": ("Sec. 5.2", 1.3),
    "B7": ("Sec. 6.1, 6.2, Fig. 17", "3.2 m/s treadmill (in-place belt) speed"),
    "B8": ("Sec. 6.2, Fig. 16", "withheld"),
    "B9": ("Sec. 5.1", 1350.0),
    "B10": ("Sec. 2.1", 6.1),
    "B11": ("Table 1, eq. 5", "l_leg = l_AE + l_EF, l_f, l_c, l_s, l_t within the design bounds"),
}
PAPER.update(DESIGN_PAPER)       # B12-B16: next to their claims
PAPER.update(COULOMB_PAPER)      # B6c/B6d: the Coulomb foot against the paper's own model


OMITTED = [
    ("Sec. 2.1", "leg 'roughly ... 0.53 m in height'", "'roughly', and the paper does not say between which points; "
     "the twin's geometry is Table 2's optimized link lengths (B11 checks them against Table 1)"),
    ("Sec. 2.1", "die spring, 65 kN/m, and a rubber foot pad", "model inputs, not outputs: the twin's default is a rigid "
     "tibia (option spring_stiffness = 65000 N/m adds the die spring, models/bolt/README.md)"),
    ("Sec. 3 eq. 4, Sec. 5.1 eq. 20", "angle of attack (alpha in the design objective; the set point alpha_m^des = 0 "
     "deg, models/bolt/README.md)", "a controller input, not an output: the twin's constant-speed crank has no "
     "impact-phase set point, so there is no twin value to compare (B6's reason names it among the assumptions)"),
    ("Sec. 5.2, Fig. 12", "x increases monotonically, y and the crank angle reach limit cycles", "plots only; the twin's "
     "counterparts are bolt_running's plots (B4-B6 quantify the run)"),
    ("Sec. 5.2, Fig. 14", "ranges of the dependent angles match the optimization's", "plots only, no ranges printed"),
    ("Sec. 6.2, Fig. 16", "the simulation runs faster than the experiment", "rests on the withheld stride times (B8)"),
]


def claims_bolt(ctx: Context) -> list[Row]:
    """Foot path vs closed form, loop closure, running speed, stride time, limits."""
    fp_res, out_fp = ctx.run("bolt_foot_path", "bolt_foot_path", {"run.nthread": 1})
    ctx.plot(out_fp / "foot_path.png", "bolt_foot_path.png", "BOLT Fig. 5(b): foot path, twin vs closed form")
    rn_res, out_rn = ctx.run("bolt_running", "bolt_running", {"run.cycles": ctx.g(20, 10)})
    fp, rn = fp_res.summary, rn_res.summary
    ctx.plot(out_rn / "loop_error.png", "bolt_loop_error.png", "BOLT Fig. 11: loop-closure error while running, twin")
    periods = ctx.g([0.6, 0.5, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.12, 0.1], [0.3, 0.25, 0.15])
    sw_res, out_sw = ctx.run("bolt_speed_sweep", "bolt_speed_sweep", {"run.cycles": ctx.g(30, 10)}, {"crank_period": periods})
    ctx.plot(out_sw / "speed_sweep.png", "bolt_speed_sweep.png", "BOLT: speed, stride time, torque, power vs crank rate")
    mm = 1e3
    rows = []
    kin = ("the twin against the project's own closed form of Appendix A's loops (a kinematics check; the paper "
           "gives the path only as a figure)")
    for cid, k in (("B1", "stride_length"), ("B2", "step_height")):
        t, c = fp[k] * mm, fp[f"{k}_closed_form"] * mm
        rows.append(Row(cid, f"foot path {k.replace('_', ' ')} in {{B}} (crank turned slowly, body fixed)", *PAPER[cid],
                        kind=CONSISTENCY, value=t, ref=c, tol=Tol(1.0, 0, "1 mm: soft loop closure"),
                        reference=f"closed form {fmt(c)}", unit="mm", reason=kin))
    rows.append(Row("B3", "max distance of the twin's foot from the closed-form path over a revolution", *PAPER["B3"],
                    kind=CONSISTENCY, value=fp["max_foot_error"] * mm, ref=0.0,
                    tol=Tol(1.0, 0, "1 mm: soft loop closure (solref 0.2 ms, scripts/bolt_loop_study.py)"),
                    reference="0 (closed form)", unit="mm", reason=kin))
    gap = rn["max_loop_gap"] * mm
    rows.append(Row("B4", f"max loop-closure gap while running ({int(rn['strides'])} strides, crank period "
                          f"{fmt(rn['crank_period'])} s)", *PAPER["B4"], kind=CONSISTENCY, value=gap, target=0.0,
                    tol=Tol(0.1, 0, "0.1 mm: well below the foot path's 1 mm"),
                    reference=f"{fmt(fp['max_loop_gap'] * mm)} mm (slow revolution, body fixed)", unit="mm",
                    reason="a property of the simulation method (the paper's Fig. 11 shows its solver's constraint "
                           "error), not of the robot; MuJoCo's soft loop equalities peak at impacts and decay"))
    tpr = rn["touchdowns_per_revolution"]
    rows.append(Row("B5", "touch-downs per crank revolution (default crank period)", *PAPER["B5"], value=tpr,
                    target=1.0, tol=Tol(0.05, 0, "one skipped or extra touch-down in 20 revolutions"),
                    reference=f"stride time {fmt(rn['stride_time'])} s = crank period {fmt(rn['crank_period'])} s"))
    rows += speed_rows(ctx, rn, sw_res, PAPER)
    rows.append(Row("B8", "stride time, simulation and experiment (paper: [withheld] ms, [withheld] ms)", *PAPER["B8"],
                    kind=WITHHELD_KIND, value=rn["stride_time"] * mm,
                    reference=f"crank period {fmt(rn['crank_period'] * mm)} ms", unit="ms", reason="paper values withheld"))
    rows.append(Row("B9", "peak crank power in stance, default run (proxy: within the limit)", *PAPER["B9"],
                    kind=CONSISTENCY, value=rn["peak_stance_power"], target=Range(0, 1350.0),
                    tol=Tol(0, 0, "a range: the limit"),
                    reference=f"peak abs torque {fmt(rn['peak_torque'])} N m (limit 30)", unit="W",
                    reason="the twin's own torque/power clamp: a check of the controller, not a fidelity claim"))
    from ..robot import MASS_SETS, MASS_KEYS, Bolt
    m_sim = sum(MASS_SETS["sim"][k] for k in MASS_KEYS)
    rows.append(Row("B10", "total mass of Table 3's links and body (the twin's default mass set 'sim')", *PAPER["B10"],
                    kind=CONSISTENCY, value=m_sim, target=6.1, tol=Tol(0, 0.05, "'approximately 6.1 kg': 5 %"),
                    unit="kg", reason="a model input (Table 3) against Sec. 2.1's weight; the 'hardware' mass set "
                                      "is 6.1 kg by construction"))
    from ..kinematics import TABLE1_BOUNDS, table1_lengths
    lengths = table1_lengths(Bolt().geometry)
    names = sorted(TABLE1_BOUNDS)
    rows.append(Row("B11", "the twin's " + ", ".join(names) + " (Table 2's optimized values; l_leg = l_4 + l_5)",
                    *PAPER["B11"], kind=CONSISTENCY, value=[float(lengths[k]) for k in names],
                    target=[Range(*TABLE1_BOUNDS[k]) for k in names], tol=Tol(0, 0, "a range: Table 1's bounds"),
                    unit="m", reason="model inputs against the paper's design bounds" + (
                        "" if lengths["l_leg"] <= TABLE1_BOUNDS["l_leg"][1] else
                        f"; l_4 + l_5 = {fmt(lengths['l_leg'])} m (Table 2's l_4, l_5 as the twin uses them) is above "
                        "eq. 5's 0.50 m bound: the paper's optimized lengths against its own bound")))
    return rows


CLAIMS = [
    ('BOLT (Liu & Ben-Tzvi)', claims_bolt),
    ('BOLT: Sec. 3.2, Fig. 5 (design)', claims_bolt_design),
    ('BOLT: the Coulomb foot against the paper model', claims_bolt_coulomb),
    ('BOLT: the paper model under its printed running rules (Sec. 5.1)', claims_bolt_printed),
] + OPTIMIZE_CLAIMS
