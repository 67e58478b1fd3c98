"""Frozen row definitions of the fidelity report.

A row's definition is one declared record (`Definition`): the quantity the twin's value is, the paper
target it is compared with, the tolerance (a `Tol`, or the rule that gives it from the run's grid), the
reference model, and the row's kind.  Its `hash` covers what the verdict means (quantity, target,
tolerance, reference); each robot registers the hashes of its rows (`REGISTERED` in
envs/<robot>/paper/claims_definitions.py) and tests/test_report_definitions.py fails when a definition
changes without a record:

- a changed definition gets a new row id; the old definition stays in the report as a `Superseded`
  row with its last verdict and why it was replaced (the report's *history* column);
- a changed kind keeps the id (the quantity and tolerance are the same) and says so in `relabel`
  (the kind before, the report version, why).

The report binds every row it builds to its definition (`bind`): a row without one, or whose kind or
fixed tolerance differs from it, stops the report.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json

from .verdict import KINDS, Tol


@dataclasses.dataclass(frozen=True)
class Relabel:
    """A kind changed in a report version, the definition otherwise the same."""
    before: str
    version: str
    why: str


@dataclasses.dataclass(frozen=True)
class Definition:
    id: str
    kind: str
    quantity: str                   # what the twin's value is
    target: str                     # the paper's value or statement as the verdict reads it
    tolerance: object               # a Tol (fixed), or the rule in words (from the run's grid)
    reference: str = ""             # the reference model the row also compares with ("" none)
    uses: str = ""                  # what the reference model adds to the paper as printed (named in the row's reason)
    relabel: Relabel | None = None
    replaces: str = ""              # the id of the superseded definition this one replaces

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} not in {KINDS}")

    def meaning(self) -> dict:
        """The fields the hash covers (what a verdict of this row means)."""
        tol = self.tolerance
        return dict(quantity=self.quantity, target=self.target, reference=self.reference,
                    tolerance=(dict(abs=tol.abs, rel=tol.rel, why=tol.why, **(
                        {} if tol.combine == "sum" else {"combine": tol.combine})) if isinstance(tol, Tol) else str(tol)))

    @property
    def hash(self) -> str:
        return hashlib.sha256(json.dumps(self.meaning(), sort_keys=True).encode()).hexdigest()[:10]

    def history(self) -> str:
        """The report's history cell of a live row."""
        parts = [f"definition {self.hash}"]
        if self.replaces:
            parts.append(f"replaces {self.replaces}")
        if self.relabel:
            parts.append(f"kind {self.relabel.before} -> {self.kind} ({self.relabel.version}): {self.relabel.why}")
        return "; ".join(parts)


@dataclasses.dataclass(frozen=True)
class Last:
    """A superseded row's last verdict in one report mode, as that report printed it."""
    verdict: str
    twin: str
    error: str
    where: str                      # the report file and commit it is read from


@dataclasses.dataclass(frozen=True)
class Superseded:
    """A definition no longer computed: shown with its last verdict and why it was replaced."""
    definition: Definition
    by: str                         # the id that replaces it
    why: str
    source: str
    paper: str
    unit: str
    last: dict                      # "full" / "reduced" -> Last

    @property
    def id(self) -> str:
        return self.definition.id


def bind(rows: list, definitions: dict) -> list:
    """Attach each row's definition (row.definition, row.history); a row without one, or whose kind or fixed
    tolerance is not its definition's, raises ValueError (the report stops: a definition changed unrecorded)."""
    for r in rows:
        d = definitions.get(r.id)
        if d is None:
            raise ValueError(f"row {r.id}: no declared definition (envs/<robot>/paper/claims_definitions.py)")
        if r.kind != d.kind:
            raise ValueError(f"row {r.id}: kind {r.kind!r}, its definition says {d.kind!r}")
        if isinstance(d.tolerance, Tol) and r.tol != d.tolerance:
            raise ValueError(f"row {r.id}: tolerance {r.tol}, its definition says {d.tolerance}")
        if d.uses:
            r.reason = "; ".join(x for x in (r.reason, f"reference model: {d.uses}") if x)
        r.definition, r.history = d, d.history()
    return rows


def registered(definitions, superseded) -> dict:
    """id -> [hash, kind] of every live and superseded definition (what REGISTERED must hold)."""
    out = {d.id: [d.hash, d.kind] for d in definitions}
    out.update({s.id: [s.definition.hash, s.definition.kind] for s in superseded})
    return out
