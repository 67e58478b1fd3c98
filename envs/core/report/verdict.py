"""Claim rows of the fidelity report and THE function that gives their verdicts.

A row states, before any comparison, its kind (validation, kinematic, calibration, consistency,
graph-only, withheld; its declared definition: envs/core/report/definition.py) and its tolerance (`Tol`: absolute and/or relative, with its justification).  `judge`
compares the twin's value with the paper's target (a number, a `Range` for a qualitative
statement, or a list) and, where the project has one, with a reference model's value: `agrees`
only when both are within the tolerance.  `Row.record()` keeps the fields `judge` read, so a
verdict can be recomputed (and mutated: tests/test_fidelity_mutation.py) without simulating.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

SIG = 6                  # significant digits of every printed number

AGREE, DISAGREE, NO_DATA, NO_VERDICT, WITHHELD, SUPERSEDED = (
    "agrees", "disagrees", "no data yet", "no verdict", "withheld", "superseded")
VERDICTS = (AGREE, DISAGREE, NO_DATA, NO_VERDICT, WITHHELD, SUPERSEDED)
VALIDATION, KINEMATIC, CALIBRATION, CONSISTENCY, GRAPH_ONLY, WITHHELD_KIND = (
    "validation", "kinematic", "calibration", "consistency", "graph-only", "withheld")
KINDS = (VALIDATION, KINEMATIC, CALIBRATION, CONSISTENCY, GRAPH_ONLY, WITHHELD_KIND)
JUDGED = (VALIDATION, KINEMATIC, CALIBRATION, CONSISTENCY)       # kinds whose rows get agrees/disagrees


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


# ---- the one comparison ------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Tol:
    """A tolerance, stated before comparing: |error| <= abs + rel |target| (per element), or with
    combine="max" |error| <= max(abs, rel |target|)."""
    abs: float = 0.0
    rel: float = 0.0
    why: str = ""
    combine: str = "sum"

    def __post_init__(self):
        if self.combine not in ("sum", "max"):
            raise ValueError(f"Tol.combine must be 'sum' or 'max', got {self.combine!r}")

    def of(self, target) -> float:
        if self.combine == "max":
            return max(self.abs, self.rel * abs(target))
        return self.abs + self.rel * abs(target)

    def __str__(self):
        parts = ([fmt(self.abs)] if self.abs else []) + ([f"{fmt(100 * self.rel)} %"] if self.rel else [])
        band = f"max({', '.join(parts)})" if self.combine == "max" and len(parts) == 2 else " + ".join(parts) or "0"
        return f"± {band}" + (f" ({self.why})" if self.why else "")


@dataclasses.dataclass(frozen=True)
class Range:
    """A qualitative statement as an interval: lo <= x <= hi (bounds exact: the tolerance of a
    Range claim is written into its bounds)."""
    lo: float = -math.inf
    hi: float = math.inf

    def __str__(self):
        if math.isinf(self.lo):
            return f"<= {fmt(self.hi)}"
        if math.isinf(self.hi):
            return f">= {fmt(self.lo)}"
        return f"[{fmt(self.lo)}, {fmt(self.hi)}]"


def _vec(x):
    return list(x) if isinstance(x, (list, tuple, np.ndarray)) else [x]


def deviation(value, target, tol: Tol):
    """(signed error of largest |error|/tolerance, ok) of `value` against a number, a Range or a
    list of either (element by element; a length mismatch never agrees)."""
    v, t = _vec(value), _vec(target)
    if len(t) == 1 and len(v) > 1:
        t = t * len(v)
    if len(v) != len(t):
        return f"{len(v)} values vs {len(t)}", False
    if not v:                       # nothing compared: an empty comparison cannot fail, so it never agrees
        return "nothing compared", False
    worst, ok, score = 0.0, True, -1.0
    for x, y in zip(v, t):
        x = float(x)
        if isinstance(y, Range):
            e = 0.0 if y.lo <= x <= y.hi else (x - y.lo if x < y.lo else x - y.hi)
            lim = 0.0
        else:
            e, lim = x - float(y), tol.of(float(y))
        if not math.isfinite(e):
            return e, False
        bad = abs(e) > lim
        ok &= not bad
        s = abs(e) / lim if lim > 0 else (math.inf if e else 0.0)
        if s > score:
            worst, score = e, s
    return worst, ok


def judge(value, target, reference, tol: Tol) -> tuple:
    """THE verdict: (error vs paper, error vs reference, verdict).

    agrees only when the twin's value is within `tol` of the paper's target (a number, a Range, or
    a list) AND, where a reference model's value is given, within `tol` of that reference; value
    None: no data yet.  Nothing else decides a verdict."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None, None, NO_DATA
    if target is None and reference is None:
        raise ValueError("a judged row needs a paper target or a reference")
    if isinstance(value, (list, tuple, np.ndarray)) and len(value) == 0:
        return "nothing compared", None, DISAGREE
    ep, okp = deviation(value, target, tol) if target is not None else (None, True)
    er, okr = deviation(value, reference, tol) if reference is not None else (None, True)
    return ep, er, AGREE if okp and okr else DISAGREE

# ---- rows ------------------------------------------------------------------------------------
@dataclasses.dataclass
class Row:
    id: str
    claim: str
    source: str
    paper: str                 # the paper's value as printed, "withheld", or its statement (graph only)
    twin: object = None        # the twin's value as shown (default: `value`)
    kind: str = VALIDATION
    value: object = None       # the twin number(s) the verdict reads (None: no data yet)
    target: object = None      # the paper's number(s) or Range the verdict reads
    ref: object = None         # the reference model's number(s) the verdict reads
    tol: Tol = None
    reference: object = None   # the reference as shown (default: `ref`)
    unit: str = ""
    reason: str = ""
    error: object = None       # computed: twin - paper; twin - reference
    verdict: str = ""          # computed by `judge` (judged kinds), else the kind's fixed verdict
    history: str = ""          # the definition's hash and changes (set by definition.bind)
    definition: object = None  # its declared Definition (set by definition.bind)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} not in {KINDS}")
        if self.twin is None:
            self.twin = self.value if self.value is not None else "no data yet"
        if self.reference is None and self.ref is not None:
            self.reference = f"ref {fmt(self.ref)}"
        if self.kind in JUDGED:
            if self.tol is None:
                raise ValueError(f"{self.id}: a {self.kind} row states its tolerance")
            if self.kind == VALIDATION and self.target is None:
                raise ValueError(f"{self.id}: a validation row needs a paper target (without one it is consistency)")
            ep, er, self.verdict = judge(self.value, self.target, self.ref, self.tol)
        else:
            self.verdict = NO_VERDICT if self.kind == GRAPH_ONLY else WITHHELD
            if self.value is None:
                self.verdict = NO_DATA
            ep = None
            er = deviation(self.value, self.ref, self.tol or Tol())[0] if (
                self.ref is not None and self.value is not None) else None
        parts = ([f"{fmt(ep)} vs paper"] if ep is not None else []) + (
            [f"{fmt(er)} vs reference"] if er is not None else [])
        self.error = "; ".join(parts) if parts else None

    def record(self) -> dict:
        """The fields the verdict reads (JSON-able), for recomputing and mutating it."""
        return dict(id=self.id, kind=self.kind, value=_enc(self.value), target=_enc(self.target),
                    ref=_enc(self.ref), tol=None if self.tol is None else dict(abs=self.tol.abs, rel=self.tol.rel, **(
                        {} if self.tol.combine == "sum" else {"combine": self.tol.combine})),
                    verdict=self.verdict)


def _enc(x):
    if isinstance(x, Range):
        return {"lo": None if math.isinf(x.lo) else x.lo, "hi": None if math.isinf(x.hi) else x.hi}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_enc(v) for v in x]
    if isinstance(x, (np.floating, np.integer)):
        return x.item()
    return x


def decode(x):
    """Inverse of the record's encoding (Range dicts back to Range)."""
    if isinstance(x, dict):
        return Range(-math.inf if x["lo"] is None else x["lo"], math.inf if x["hi"] is None else x["hi"])
    if isinstance(x, list):
        return [decode(v) for v in x]
    return x


def rejudge(rec: dict, value="keep") -> str:
    """The verdict of a stored record, optionally with another twin value (mutation tests)."""
    v = rec["value"] if isinstance(value, str) and value == "keep" else value
    t = rec["tol"] or {}
    return judge(decode(v), decode(rec["target"]), decode(rec["ref"]),
                 Tol(t.get("abs", 0.0), t.get("rel", 0.0), combine=t.get("combine", "sum")))[2]
