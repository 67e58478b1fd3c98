"""The snake's row definitions (envs/core/report/definition.py): each row's quantity, target, tolerance, reference and
kind, declared once (the table rows by family, one per printed entry); the rows in claims.py are bound to them when
the report runs.  A changed definition gets a new id and the old one moves to SUPERSEDED with its last verdict;
REGISTERED holds every definition's hash and kind (tests/test_report_definitions.py).  PREVIOUS: the counts of the
report version before this one; UNCOVERED: validation rows no twin mutation flips, and why."""
from __future__ import annotations

from ...core.report.definition import Definition
from ...core.report.verdict import CALIBRATION, CONSISTENCY, VALIDATION, WITHHELD_KIND, Tol
from .tables import TABLE1, TABLE2

EQS = "the project's eqs. 11-14 (no simulation)"
SIGN = Tol(0, 0, "a sign")
TABLE1_TOL = {"alpha_max": Tol(0.05, 0, "half a unit of the printed 0.1 deg"),
              "f_max": Tol(0.0151, 0, "1.5 units of the printed 2nd decimal (rounding of the value and of alpha_max)"),
              "d_unit": Tol(0.0151, 0, "1.5 units of the printed 2nd decimal")}
TABLE2_TOL = {"f": Tol(0.0015, 0, "1.5 units of the printed 3rd decimal"),
              "d_unit": Tol(0.0015, 0, "1.5 units of the printed 3rd decimal"),
              "d": Tol(0.5, 0, "half a mm (printed 0.1 mm; l rounding)"),
              "dx": Tol(0, 0.03, "3 %: the fit's residual scale"),
              "d-dx": Tol(5, 0.1, "10 % + 5 mm: a difference of two 3 %-accurate lengths"),
              "loss": Tol(2, 0, "the printed whole % (0.5) plus the fit's residual")}
RATIO_TOL = Tol(0, 0, "a range: 'obviously' read as 20 %")
LINK_TOL = Tol(0, 0, "a sign: the displacement lost per 10 periods, d - Delta x, smaller with the shorter link at "
                     "every n (the paper's loss function f is in units of l)")
TABLE2_QUANTITY = {"f": "f (eq. 11)", "d_unit": "d_unit (eq. 12)", "d": "d = 10 l d_unit [mm]",
                   "dx": "measured Delta x over 10 periods [mm] (the twin)", "d-dx": "d - Delta x [mm] (twin: its own d)",
                   "loss": "loss (d - Delta x)/d [%] (the twin)"}


def _defs() -> list:
    out = []
    for n in sorted(TABLE1):
        for i, q in enumerate(("alpha_max", "f_max", "d_unit")):
            out.append(Definition(f"S1.{n}.{q}", CONSISTENCY, f"n = {n}: {q} (eq. 14 / 11 / 12 at alpha_max)",
                                  f"Table 1's printed {TABLE1[n][i]}", TABLE1_TOL[q], EQS))
    out += [Definition("S3.error", CONSISTENCY, "n = 6, alpha = 30 deg: max X_error and min Y_error of P_(n+1) over a "
                       "step (eq. 10 on the eq. 8 construction), in l", "0.21 l, -0.3 l",
                       Tol(0.005, 0, "half a unit of the printed 2nd decimal"), EQS),
            Definition("S3.return", CONSISTENCY, "n = 6, alpha = 30 deg: X_error, Y_error at the end of the step", "0, 0",
                       Tol(1e-9, 0, "floating point: the step closes exactly"), EQS),
            Definition("S4.shape", CONSISTENCY, "n = 6, alpha in (0, alpha_max]: R^2 of f = a alpha and of d_unit = c "
                       "alpha^2 (both through the origin)", "[0.98, 1] each", Tol(0, 0, "ranges: 0.98 stated in the claim"),
                       EQS)]
    for (n, al), (pf, pdu, pdx, pd, pl) in sorted(TABLE2.items()):
        printed = {"f": pf, "d_unit": pdu, "d": pd, "dx": pdx, "d-dx": None if pdx is None else round(pd - pdx, 1),
                   "loss": pl}
        for q in ("f", "d_unit", "d", "dx", "d-dx", "loss"):
            twin = q in ("dx", "d-dx", "loss")
            kind = CONSISTENCY if not twin else CALIBRATION if pdx is not None else WITHHELD_KIND
            out.append(Definition(f"S2.{n}.{al}.{q}", kind, f"n = {n}, alpha = {al} deg: {TABLE2_QUANTITY[q]}",
                                  "withheld" if printed[q] is None else f"Table 2's printed {printed[q]}",
                                  TABLE2_TOL[q], "" if twin else EQS))
    for n in sorted({n for n, _ in TABLE2}):
        known = all(TABLE2[k][4] is not None for k in TABLE2 if k[0] == n)
        out.append(Definition(f"S2.{n}.trend", CALIBRATION if known else VALIDATION, f"n = {n}: loss(largest alpha) - "
                              "loss(smallest alpha) [%-points] (Sec. 4: the influence of f on Delta x weakens as alpha "
                              "increases)", "<= 0", SIGN))
        if not known:
            out += [Definition(f"S2.{n}.dx_order", VALIDATION, f"n = {n}: successive differences of Delta x [mm] with "
                               "alpha ordered by d_unit (Sec. 4: Delta x increases with d_unit)", "> 0 each", SIGN),
                    Definition(f"S2.{n}.loss_order", VALIDATION, f"n = {n}: successive differences of d - Delta x [mm] "
                               "with alpha ordered by f (Sec. 4: d - Delta x increases with f)", "> 0 each", SIGN)]
    ns = sorted({n for n, _ in TABLE2})
    out += [Definition(f"S2.n{b}vs{a}.dx", VALIDATION, f"Delta x(n = {b}) / Delta x(n = {a}) at each alpha of both "
                       "(Sec. 4: n 'can obviously increase' Delta x)", ">= 1.2 each", RATIO_TOL) for a, b in zip(ns, ns[1:])]
    out.append(Definition("S5.l", VALIDATION, "alpha = 45 deg, per n: (d - Delta x) with l = 0.75 x 84 mm minus with "
                          "l = 84 mm", "<= 0 each", LINK_TOL))
    out += [Definition("S-opt-active", CONSISTENCY, "servo-rate margin of the fastest gait / the servo rate limit, per n "
                       "(snake_optimize)", "the fastest gait runs the servos at their rate limit (an assumption)",
                       Tol(0, 0, "a range: [0, 10 %] of the limit")),
            Definition("S-opt-n", VALIDATION, "optimal V(n + 1) - V(n) within the servo rate, per n (snake_optimize)",
                       ">= 0 each (Abstract: more links lead to greater velocity)", Tol(0, 0, "a sign"))]
    return out


DEFINITIONS = _defs()

SUPERSEDED = []

REGISTERED = {                  # id -> [definition hash, kind]: change only with a new id or a Relabel
    'S1.4.alpha_max': ['7309cc3a98', 'consistency'], 'S1.4.f_max': ['0b4d96843a', 'consistency'],
    'S1.4.d_unit': ['0b85967789', 'consistency'], 'S1.5.alpha_max': ['94eb2b72e5', 'consistency'],
    'S1.5.f_max': ['2e9ed8adc9', 'consistency'], 'S1.5.d_unit': ['9d463c1a91', 'consistency'],
    'S1.6.alpha_max': ['339352ba2d', 'consistency'], 'S1.6.f_max': ['6d5e8c82f9', 'consistency'],
    'S1.6.d_unit': ['7eff0c2de5', 'consistency'], 'S1.7.alpha_max': ['385c679c35', 'consistency'],
    'S1.7.f_max': ['9b068a77c9', 'consistency'], 'S1.7.d_unit': ['fbd5f8b25b', 'consistency'],
    'S1.8.alpha_max': ['1b14ddb895', 'consistency'], 'S1.8.f_max': ['9642e8778d', 'consistency'],
    'S1.8.d_unit': ['6e4c4f2cdb', 'consistency'], 'S1.9.alpha_max': ['51381a284a', 'consistency'],
    'S1.9.f_max': ['6d166c7e46', 'consistency'], 'S1.9.d_unit': ['19cb47d7d9', 'consistency'],
    'S1.10.alpha_max': ['372e7e76ec', 'consistency'], 'S1.10.f_max': ['fff8d95866', 'consistency'],
    'S1.10.d_unit': ['00ad13a84d', 'consistency'], 'S1.11.alpha_max': ['d421ad624d', 'consistency'],
    'S1.11.f_max': ['313b0c7e0f', 'consistency'], 'S1.11.d_unit': ['ba7da4d0f3', 'consistency'],
    'S3.error': ['0efb4e20d3', 'consistency'], 'S3.return': ['3a731d8e06', 'consistency'],
    'S4.shape': ['35bbc79fc9', 'consistency'], 'S2.4.30.f': ['a09b08b53c', 'consistency'],
    'S2.4.30.d_unit': ['6792a1525b', 'consistency'], 'S2.4.30.d': ['ff3a56adbf', 'consistency'],
    'S2.4.30.dx': ['1e2eb59952', 'calibration'], 'S2.4.30.d-dx': ['e8abb7ee18', 'calibration'],
    'S2.4.30.loss': ['7e0e21f90a', 'calibration'], 'S2.4.45.f': ['a75d95fe4c', 'consistency'],
    'S2.4.45.d_unit': ['678572a918', 'consistency'], 'S2.4.45.d': ['4ea4469a2a', 'consistency'],
    'S2.4.45.dx': ['802b8c568d', 'calibration'], 'S2.4.45.d-dx': ['279a825105', 'calibration'],
    'S2.4.45.loss': ['fa01cb7a68', 'calibration'], 'S2.4.58.f': ['680e292a69', 'consistency'],
    'S2.4.58.d_unit': ['efd943f3c8', 'consistency'], 'S2.4.58.d': ['6c958bff05', 'consistency'],
    'S2.4.58.dx': ['a8f8e28164', 'calibration'], 'S2.4.58.d-dx': ['249854665a', 'calibration'],
    'S2.4.58.loss': ['09133f706a', 'calibration'], 'S2.5.30.f': ['d8f06d41c8', 'consistency'],
    'S2.5.30.d_unit': ['ceb1ed5337', 'consistency'], 'S2.5.30.d': ['d21d4a8efe', 'consistency'],
    'S2.5.30.dx': ['8b34e16c61', 'withheld'], 'S2.5.30.d-dx': ['550a1f331d', 'withheld'],
    'S2.5.30.loss': ['c50d575836', 'withheld'], 'S2.5.45.f': ['0123261db9', 'consistency'],
    'S2.5.45.d_unit': ['16612a426d', 'consistency'], 'S2.5.45.d': ['7b79360f6a', 'consistency'],
    'S2.5.45.dx': ['31448efb68', 'withheld'], 'S2.5.45.d-dx': ['a072674898', 'withheld'],
    'S2.5.45.loss': ['0bf6551bbb', 'withheld'], 'S2.5.58.f': ['155d347039', 'consistency'],
    'S2.5.58.d_unit': ['75ff0d257d', 'consistency'], 'S2.5.58.d': ['c9c5f4d57a', 'consistency'],
    'S2.5.58.dx': ['2d50c0be7a', 'withheld'], 'S2.5.58.d-dx': ['eaa6f48e5a', 'withheld'],
    'S2.5.58.loss': ['faf0ec047e', 'withheld'], 'S2.4.trend': ['1cfdcc1f05', 'calibration'],
    'S2.5.trend': ['7b28a23587', 'validation'], 'S2.5.dx_order': ['2788221021', 'validation'],
    'S2.5.loss_order': ['02550e2066', 'validation'], 'S2.n5vs4.dx': ['44109aa33b', 'validation'],
    'S5.l': ['1b2d54627f', 'validation'], 'S-opt-active': ['012470618a', 'consistency'],
    'S-opt-n': ['6a9dbaa635', 'validation'],
}

PREVIOUS = dict(version="v3 (3aaf9ca)",
                full={"validation": 5, "agrees": 4, "disagrees": 1, "no data yet": 0, "calibration": 10,
                      "consistency": 45, "withheld": 9},
                reduced={"validation": 5, "agrees": 4, "disagrees": 1, "no data yet": 0, "calibration": 10,
                         "consistency": 45, "withheld": 9})

UNCOVERED = {        # measured on the reduced grids (envs/snake/paper/mutations.py): the values move, the statements hold
    "S2.5.dx_order": "Delta x rising with d_unit (Sec. 4) follows the gait's kinematics: it holds under halved friction "
                     "(differences 467, 315 mm) and doubled step time (884, 1060 mm)",
    "S2.n5vs4.dx": "the n = 5 / n = 4 displacement ratios follow eq. 12's d_unit(n): they stay >= 1.2 under halved "
                   "friction (1.93, 1.58, 1.36) and doubled step time (1.80, 1.83, 1.83)",
    "S-opt-n": "an optimisation row added after the mutations were measured: not yet run under a snake mutation",
    "S5.l": "the shorter link loses less displacement under halved friction (-235 mm) and doubled step time (-39 mm) "
            "as in the nominal twin (-72 mm): the loss scales with l",
}
