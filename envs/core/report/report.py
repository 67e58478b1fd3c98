"""Fidelity report: one row per claim of the four papers, twin against paper (rows and verdicts:
envs/core/report/verdict.py).

`generate(out_dir, reduced=False)` runs the experiments (envs/<robot>/paper/experiments.py) on small
grids in a scratch directory (`Context.run` returns each one's typed `Result`, which the claims
read), builds the rows and writes

  <out_dir>/fidelity_report.md          (reduced: fidelity_report_reduced.md)
  <out_dir>/fidelity_report.json        (reduced: fidelity_report_reduced.json; the fields every verdict read)
  <out_dir>/fidelity/*.png              (reduced: fidelity_reduced/*.png)

Each claim group is a function `claims_<robot>_<topic>(ctx) -> list[Row]` in envs/<robot>/paper/claims.py
(its paper package exports it as CLAIMS; the manifest, envs/registry.py, hands them in);
the paper's values are data (`PAPER`, with their figure/table) so the report says where each came from.
Numbers are printed with `SIG` significant digits; `parse_report` reads a report back
(tests/test_fidelity_report.py compares a regenerated reduced report with the committed one).
"""
from __future__ import annotations

import dataclasses
import json
import pathlib
import re
import shutil
import tempfile
import time

from omegaconf import OmegaConf

from ..runs.config import Experiment, experiment
from ..runs.experiment import runner
from ..model.schema import param

from .definition import Superseded, bind
from .verdict import (AGREE, CALIBRATION, CONSISTENCY, DISAGREE, GRAPH_ONLY, JUDGED, KINDS, KINEMATIC,  # noqa: F401
                                NO_DATA, NO_VERDICT, SIG, SUPERSEDED, VALIDATION, VERDICTS, WITHHELD, WITHHELD_KIND,
                                Range, Row, Tol, decode, fmt, judge, rejudge)

VERSION = "v4"           # the report's definitions version (each robot's PREVIOUS holds the counts of the one before)
REL_TOL = 2e-5           # reproducibility tolerance: two units in the 6th significant digit
ABS_TOL = 1e-12


def pct(x) -> str:
    return f"{fmt(100 * x)} %"


def experiment_config(experiment: str, overrides: dict | None = None, sweep: dict | None = None, choices=()):
    """The composed config of `experiment=<name>` (hydra.compose, as scripts/run.py builds it).

    overrides: dotted keys -> values (replacing, not merging); sweep: replaces `sweep` entirely;
    choices: config-group options as on the command line (e.g. "robot/foot=coulomb").
    """
    from omegaconf import open_dict

    from ..runs.config import compose

    cfg = compose([f"experiment={experiment}", *choices])
    with open_dict(cfg):
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
        self.flags: list = []            # (run, file, point, error) of failed or unhealthy points

    def g(self, full, reduced):
        """Pick the grid of the mode."""
        return reduced if self.reduced else full

    def run(self, experiment: str, tag: str | None = None, overrides=None, sweep=None, choices=()):
        """Run `experiment`'s runner into work/<tag>; returns (its Result, out dir).  Claims read the
        Result's typed summary and tables (`Result.table`); the out dir is for plots and health flags."""
        from ..runs.experiment import compute
        cfg = experiment_config(experiment, overrides, sweep, choices)
        out = self.work / (tag or experiment)
        if out.exists() and not self.resume:
            shutil.rmtree(out)
        out.mkdir(parents=True, exist_ok=True)   # resume: the sweep runners reuse the points stored in results.sqlite
        t0 = time.perf_counter()
        result = compute(cfg, out)
        self.timings[tag or experiment] = time.perf_counter() - t0
        self.log(f"  {tag or experiment}: {self.timings[tag or experiment]:.1f} s")
        self.flags += [(tag or experiment, *f) for f in health_flags(out)]
        summary = result.summary
        if isinstance(summary, dict) and summary.get("error") and not (out / "results.sqlite").exists():
            self.flags.append((tag or experiment, "summary.json", "", summary["error"]))
        return result, out

    def plot(self, src: pathlib.Path, name: str, caption: str):
        if src.exists():
            self.plots.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, self.plots / name)
            self.plot_files.append((name, caption))


def health_flags(out: pathlib.Path) -> list[tuple]:
    """(file, point, error) of every stored row of a run directory whose `error` is filled."""
    from ..runs.store import DB_NAME, Store
    if not (out / DB_NAME).exists():
        return []
    flags = []
    with Store(out) as db:
        for (file,) in db.con.execute("SELECT file FROM results_files ORDER BY file").fetchall():
            key = json.loads(db.con.execute("SELECT key_columns FROM results_files WHERE file=?",
                                            (file,)).fetchone()[0])
            for stored in db.rows(file).values():
                row = stored.values()
                if row.get("error"):
                    point = ", ".join(f"{c}={row[c]:g}" if isinstance(row[c], float) else f"{c}={row[c]}"
                                      for c in key if row.get(c) is not None)
                    flags.append((file, point, row["error"]))
    return sorted(flags)


def by_value(rows, key, val, tol=1e-9):
    return [r for r in rows if abs(float(r[key]) - float(val)) < tol]


def keyed(rows, key: str, col: str, scale: float = 1.0) -> dict:
    """{row[key]: row[col] * scale} of typed result rows (Result.table), e.g. omega -> S."""
    return {float(r[key]): float(r[col]) * scale for r in rows}


COLUMNS = ("id", "kind", "claim", "source", "paper", "twin", "reference", "unit", "tolerance", "error", "verdict",
           "reason", "history")


def claim_modules(registry=None) -> dict:
    """robot -> its claims (envs/<robot>/paper/__init__.py CLAIMS: envs/<robot>/paper/claims.py), for every
    robot that has them, in the robots' order; registry: name -> gaittwin.core.registry.Entry (default: the
    manifest installed by the package, envs/registry.py)."""
    from ..registry import entries
    return {name: e.claims for name, e in entries(registry).items() if e.claims is not None}


def claim_groups(registry=None) -> list:
    """(robot, title, claims function) of every claim group, robot by robot."""
    return [(name, title, fn) for name, mod in claim_modules(registry).items() for title, fn in mod.CLAIMS]


def definitions(registry=None) -> dict:
    """id -> Definition of every robot's live rows (envs/<robot>/paper/claims_definitions.py DEFINITIONS)."""
    return {d.id: d for mod in claim_modules(registry).values() for d in mod.DEFINITIONS}


def superseded(registry=None) -> list:
    """Every robot's Superseded definitions (shown with their last verdict, never recomputed)."""
    return [s for mod in claim_modules(registry).values() for s in mod.SUPERSEDED]


def superseded_row(s: Superseded, reduced: bool) -> Row:
    """The report row of a superseded definition: its last verdict (this mode's report, else the full one's) in
    the history column; verdict `superseded`, counted nowhere."""
    last = s.last.get("reduced" if reduced else "full") or s.last["full"]
    d = s.definition
    r = Row(s.id, d.quantity, s.source, s.paper, twin=last.twin, kind=GRAPH_ONLY, unit=s.unit, reason=s.why,
            reference=d.reference or None)
    r.kind, r.verdict, r.error, r.definition = d.kind, SUPERSEDED, last.error, s
    r.tol = d.tolerance if isinstance(d.tolerance, Tol) else None
    r.history = (f"superseded by {s.by}; last verdict: {last.verdict} ({last.where}); definition "
                 f"{d.hash}" + (f"; replaces {d.replaces}" if d.replaces else ""))
    return r


def with_superseded(rows: list, old: list, reduced: bool) -> list:
    """rows with each superseded definition right after the row that replaced it (chains: B7.3, B7.2, B7)."""
    out = list(rows)
    placed = True
    while placed:
        placed = False
        ids = [r.id for r in out]
        for s in old:
            if s.id not in ids and s.by in ids:
                out.insert(ids.index(s.by) + 1, superseded_row(s, reduced))
                placed = True
                break
    return out


def previous_counts(registry=None, reduced: bool = False) -> tuple:
    """(the previous version's name, robot -> its counts) from each robot's PREVIOUS."""
    mods = claim_modules(registry)
    versions = {m.PREVIOUS["version"] for m in mods.values()}
    return ", ".join(sorted(versions)), {name: m.PREVIOUS["reduced" if reduced else "full"] for name, m in mods.items()}


def paper_values(registry=None) -> dict:
    """id -> (source, the paper's value as stated) of every robot's claims."""
    return {k: v for mod in claim_modules(registry).values() for k, v in getattr(mod, "PAPER", {}).items()}


# ---- report ----------------------------------------------------------------------------------------
def _cell(x) -> str:
    return fmt(x).replace("|", "/").replace("\n", " ")


def _value(r: Row, c: str):
    if c == "tolerance":
        if r.tol is not None:
            return str(r.tol)
        d = r.definition.definition if isinstance(r.definition, Superseded) else r.definition
        return None if d is None or isinstance(d.tolerance, Tol) else d.tolerance
    return getattr(r, c, None)


def omitted(registry=None) -> list:
    """(robot, source, statement, why it is not a row) of every robot's OMITTED list."""
    return [(name, *o) for name, mod in claim_modules(registry).items() for o in getattr(mod, "OMITTED", ())]


def counts(rs) -> dict:
    """The counts a version records: validation rows by verdict, every kind, superseded rows."""
    live = [r for r in rs if r.verdict != SUPERSEDED]
    vs = [r for r in live if r.kind == VALIDATION]
    return {**{v: sum(r.verdict == v for r in vs) for v in (AGREE, DISAGREE, NO_DATA)},
            **{k: sum(r.kind == k for r in live) for k in KINDS}, SUPERSEDED: sum(r.verdict == SUPERSEDED for r in rs)}


def _delta(now: int, before) -> str:
    if before is None:
        return str(now)
    return f"{now} ({now - before:+d})" if now != before else f"{now} (=)"


def summary_tables(groups, rows, previous) -> list:
    """The validation counts and the rows by kind, each count with its change since the previous version."""
    version, prev = previous or ("", {})
    robots = list(dict.fromkeys(g[0] for g in groups))
    by_robot = {rb: [r for g in groups if g[0] == rb for r in g[2]] for rb in robots}
    total = {k: sum(prev[rb].get(k, 0) for rb in robots) for k in (*KINDS, AGREE, DISAGREE, NO_DATA, SUPERSEDED)} \
        if prev and all(rb in prev for rb in robots) else None

    def before(rb, k):
        if rb == "all":
            return total.get(k) if total else None
        return prev[rb].get(k, 0) if prev and rb in prev else None       # a count a version does not list: 0
    L = ["", *([f"Each count: this report's (its change since {version}).", ""] if version else []),
         f"| robot | validation claims | {AGREE} | {DISAGREE} | {NO_DATA} |", "|---|---|---|---|---|"]
    for rb, rs in [*by_robot.items(), ("all", rows)]:
        c = counts(rs)
        L.append(f"| {rb} | " + " | ".join(_delta(c[k], before(rb, k)) for k in (VALIDATION, AGREE, DISAGREE, NO_DATA))
                 + " |")
    L += ["", "Rows by kind (kinematic, calibration and consistency rows carry verdicts too, not counted above; "
          "superseded: old definitions with their last verdict):", "",
          "| robot | " + " | ".join((*KINDS, SUPERSEDED)) + " |", "|---|" + "---|" * (len(KINDS) + 1)]
    for rb, rs in [*by_robot.items(), ("all", rows)]:
        c = counts(rs)
        L.append(f"| {rb} | " + " | ".join(_delta(c[k], before(rb, k)) for k in (*KINDS, SUPERSEDED)) + " |")
    changed = [r for r in rows if r.verdict != SUPERSEDED and r.definition is not None and (
        (r.definition.relabel and r.definition.relabel.version == VERSION) or r.definition.replaces)]
    if changed:
        L += ["", f"Definitions changed in {VERSION} (the *history* column has the reasons):", ""]
        for r in changed:
            d = r.definition
            L.append(f"- {r.id}: " + "; ".join(x for x in (
                f"kind {d.relabel.before} -> {d.kind}" if d.relabel and d.relabel.version == VERSION else "",
                f"replaces {d.replaces}" if d.replaces else "") if x))
    return L


def coverage_table(rows, mutations, uncovered: dict) -> list:
    """The mutation-coverage section: every live validation row, the mutations that flip its verdict (declared in
    envs/<robot>/paper/mutations.py as measured on the reduced grids; tests/test_fidelity_twin_mutation.py reruns
    them), a flag where a broken twin turns it to agree, or why no mutation reaches it."""
    if not mutations:
        return []
    L = ["## Mutation coverage", "",
         "Each validation row against the twin mutations (`scripts/fidelity_report.py --reduced --mutate NAME`: one "
         "robot's MuJoCo model or inputs broken on purpose, the reference models left alone), as measured on the "
         "reduced grids. *flipped by*: the mutations that change its verdict; *flag*: a broken twin turns a claim "
         "the nominal twin fails to `agrees` (the claim does not discriminate there); *uncovered*: no mutation "
         "flips it, and why.", "",
         "| mutation | robot | what | flips (reduced grids) |", "|---|---|---|---|"]
    L += [f"| {m.name} | {m.robot} | {_cell(m.what)} | " + _cell(
        "not measured on these definitions" if m.flips is None else "none: a blind spot of the report" if not m.flips
        else ", ".join(f"{k} -> {v}" for k, v in m.flips.items())) + " |" for m in mutations]
    L += ["", "| row | verdict | flipped by | flag | uncovered |", "|---|---|---|---|---|"]
    for r in rows:
        if r.kind != VALIDATION or r.verdict == SUPERSEDED:
            continue
        by = [(m.name, m.flips[r.id]) for m in mutations if r.id in (m.flips or {})]
        to_agree = [n for n, v in by if v == AGREE]
        why = uncovered.get(r.id, "" if by else "not flipped by any mutation and no reason recorded")
        L.append(f"| {r.id} | {r.verdict} | {_cell(', '.join(f'{n} (-> {v})' for n, v in by) or 'none')} | "
                 f"{_cell('turned to agree by ' + ', '.join(to_agree) if to_agree else '')} | {_cell(why)} |")
    L.append("")
    return L


def render(groups, reduced: bool, plots_rel: str, plot_files, timings, wall, resumed=False, flags=(),
           omitted_claims=(), previous=None, mutations=(), uncovered=None) -> str:
    rows = [r for _, _, rs in groups for r in rs]
    name = "fidelity_report_reduced.md" if reduced else "fidelity_report.md"
    L = [f"# Fidelity report{' (reduced grids)' if reduced else ''}", "",
         f"Generated by `python scripts/fidelity_report.py{' --reduced' if reduced else ''} --out docs` "
         f"(or `python scripts/run.py experiment=fidelity_report{' experiment.reduced=true' if reduced else ''}`); "
         f"code: `envs/core/report/report.py`, verdicts `envs/core/report/verdict.py`, claims in `envs/<robot>/paper/claims.py`. "
         f"File: `docs/{name}` (the fields each verdict read: `docs/{name[:-3]}.json`).", ""]
    if reduced:
        L += ["Reduced grids and fewer cycles: this report is CI's reproducibility check "
              "(`tests/test_fidelity_report.py`). Its values are coarser than the full report's "
              "(`docs/fidelity_report.md`), and verdicts on coarse grids can differ from it.", ""]
    L += ["One row per claim of the four papers. *kind*: `validation` (a dynamic prediction of the twin against a "
          "paper result it was not fitted to and could get wrong; only these are counted), `kinematic` (geometry of "
          "the twin's linkage, no dynamics), `calibration` (data the twin, or a physics choice of it, was fitted "
          "to), `consistency` (the twin or the project's equations against themselves, against a model input, or "
          "true by symmetry or construction: a check, not evidence of fidelity), `graph-only` (the paper gives a plot only: the twin's value, no verdict), `withheld` (the "
          "paper value is withheld from the paper copy). *paper*: the value as printed, or the statement and the "
          "quantitative proxy (a range) that is checked. *reference*: the exact/paper model where the project has "
          "one (crawler: the paper's exact hybrid model, `envs/crawler/paper/hybrid.py`; BOLT: closed-form loop "
          "kinematics and the paper's Sec. 4-5 model, `envs/bolt/paper/model.py` (B6, B6c/B6d); snake: eqs. 11-14). "
          "*tolerance*: stated before comparing, with its justification; a range "
          "has its tolerance in its bounds. *error*: twin minus paper (a range: distance outside it) and twin minus "
          "reference. Verdict (one function, `gaittwin.core.report.verdict.judge`): "
          f"`{AGREE}` only when |error| <= tolerance against the paper and, where given, the reference; otherwise "
          f"`{DISAGREE}`; `{NO_DATA}`: the experiment output the claim reads is not there yet (not counted); "
          f"`{NO_VERDICT}` (graph-only) and `{WITHHELD}`.", "",
          f"Numbers carry {SIG} significant digits; a regenerated report must match the committed one to a "
          f"relative {REL_TOL:g} (deterministic simulations on the same library build).", "",
          f"Row definitions {VERSION}: each row's quantity, target, tolerance, reference and kind are one declared "
          "record (`envs/<robot>/paper/claims_definitions.py`, `gaittwin.core.report.definition`); *history* gives its "
          "hash and what changed. A changed definition gets a new id; the old one stays as a `superseded` row with its "
          "last verdict (counted nowhere). *kind* `kinematic`: geometry of the twin's linkage (no dynamics), not "
          "counted as validation.", "",
          "## Summary (validation rows only)",
          *summary_tables(groups, rows, previous)]
    L += ["", f"Generation time: {wall:.0f} s" + (" (resumed: finished sweep points were reused from an earlier "
                                                  "run, so the times below cover only what was recomputed)."
                                                  if resumed else "."), ""]
    for robot, title, rs in groups:
        L += [f"## {title}", "", "| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for r in rs:
            L.append("| " + " | ".join(_cell(_value(r, c)) for c in COLUMNS) + " |")
        L.append("")
    L += coverage_table(rows, mutations, uncovered or {})
    if omitted_claims:
        L += ["## Claims not quantified", "", "Statements of the papers that are not rows, and why:", ""]
        L += [f"- {robot}, {src}: {what} — {why}" for robot, src, what, why in omitted_claims]
        L.append("")
    L += ["## Health flags", "",
          "Points of the runs above whose simulation failed or exceeded the robot's declared health limits "
          "(`Robot.max_penetration`, `Robot.max_loop_gap`; `error` in their results file).  The claims read "
          "their values as they are: a claim resting on a flagged point is not a clean result.", ""]
    if flags:
        L += ["| run | file | point | error |", "|---|---|---|---|"]
        L += [f"| {run} | {file} | {_cell(point)} | {_cell(err)} |" for run, file, point, err in flags]
    else:
        L += ["None."]
    L.append("")
    if plot_files:
        L += ["## Plots", ""]
        for fn, cap in plot_files:
            L += [f"**{cap}**", "", f"![{cap}]({plots_rel}/{fn})", ""]
    L += ["## Run times (s)", "", "| run | s |", "|---|---|"]
    L += [f"| {k} | {v:.1f} |" for k, v in timings.items()]
    return "\n".join(L) + "\n"


def uncovered(registry=None) -> dict:
    """id -> why no twin mutation can flip it, of every robot's UNCOVERED."""
    return {k: v for mod in claim_modules(registry).values() for k, v in getattr(mod, "UNCOVERED", {}).items()}


def record(r: Row) -> dict:
    """A row's JSON record: the fields its verdict read; a superseded row adds its last verdict and successor."""
    if isinstance(r.definition, Superseded):
        return {**r.record(), "superseded_by": r.definition.by, "history": r.history}
    return r.record()


def generate(out_dir, reduced: bool = False, work=None, log=print, only=None, resume: bool = False,
             registry=None, names=None) -> pathlib.Path:
    """Run every claim group, write the report and its plots; returns the report's path.

    registry: the robots whose claims it runs, name -> gaittwin.core.registry.Entry in the report's order
    (default: the manifest installed by the package, envs/registry.py).

    work: scratch directory for the runners' outputs (default: a temporary one, removed).
    resume: keep what `work` already holds (the sweep runners skip finished points), e.g. after
    an interrupted full run; only with the same code and grids.
    only: restrict to claim-group functions whose name contains one of these strings (debugging).
    names: restrict to the claim-group functions of exactly these names (a mutation's groups).
    """
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    plots_rel = "fidelity_reduced" if reduced else "fidelity"
    stage = pathlib.Path(tempfile.mkdtemp(prefix=".fidelity_stage_", dir=out_dir))   # replaced at the end only
    tmp = None
    if work is None:
        tmp = tempfile.TemporaryDirectory(prefix="fidelity_")
        work = tmp.name
    ctx = Context(reduced, pathlib.Path(work), stage / plots_rel, log, resume=resume and tmp is None)
    t0 = time.perf_counter()
    groups = []
    defs, old = definitions(registry), superseded(registry)
    try:
        for robot, title, fn in claim_groups(registry):
            if (only and not any(o in fn.__name__ for o in only)) or (names is not None and fn.__name__ not in names):
                continue
            log(f"{fn.__name__}")
            groups.append((robot, title, with_superseded(bind(fn(ctx), defs), old, reduced)))
        wall = time.perf_counter() - t0
        name = "fidelity_report_reduced.md" if reduced else "fidelity_report.md"
        from . import mutation
        whole = not only and names is None
        (stage / name).write_text(render(
            groups, reduced, plots_rel, ctx.plot_files, ctx.timings, wall, resumed=ctx.resume, flags=ctx.flags,
            omitted_claims=omitted(registry) if whole else (), previous=previous_counts(registry, reduced) if whole
            else None, mutations=list(mutation.registry(registry).values()) if whole else (),
            uncovered=uncovered(registry)))
        (stage / name).with_suffix(".json").write_text(
            json.dumps([record(r) for _, _, rs in groups for r in rs], indent=0) + "\n")
        path = _replace(stage, out_dir, name, plots_rel)
    finally:
        if tmp is not None:
            tmp.cleanup()
        shutil.rmtree(stage, ignore_errors=True)
    return path


def _replace(stage: pathlib.Path, out_dir: pathlib.Path, name: str, plots_rel: str) -> pathlib.Path:
    """Move a finished report (stage/name, its .json, stage/plots_rel/) over the old one: the figures
    first (renames), then the report, so a report never links a figure that is not there."""
    plots, old = out_dir / plots_rel, stage / "old"
    (stage / plots_rel).mkdir(exist_ok=True)
    if plots.exists():
        plots.rename(old)
    (stage / plots_rel).rename(plots)
    for f in (name, pathlib.Path(name).with_suffix(".json").name):
        (stage / f).replace(out_dir / f)
    return out_dir / name


# ---- reading a report back (tests) -----------------------------------------------------------------
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def parse_report(text: str) -> dict:
    """{id: {column: cell}} of every claim row of a report."""
    rows = {}
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith("| id ") or line.startswith("| robot") or line.startswith("| run"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == len(COLUMNS) - 1:          # a report from before the history column
            cells.append("")
        if len(cells) != len(COLUMNS):
            continue
        rows[cells[0]] = dict(zip(COLUMNS, cells))
    return rows


def split_numbers(cell: str):
    """(text with numbers replaced by '#', [numbers]) of a cell."""
    nums = [float(m) for m in _NUM.findall(cell)]
    return _NUM.sub("#", cell), nums


def cells_match(a: str, b: str, rel=REL_TOL, abs_=ABS_TOL) -> bool:
    if a == b:                      # equal text (e.g. a definition hash like 9642e8778d, which reads as inf)
        return True
    ta, na = split_numbers(a)
    tb, nb = split_numbers(b)
    if ta != tb or len(na) != len(nb):
        return False
    return all(abs(x - y) <= abs_ + rel * max(abs(x), abs(y)) for x, y in zip(na, nb))


# ---- experiment runner (scripts/run.py experiment=fidelity_report) ---------------------------------
@experiment
@dataclasses.dataclass
class FidelityReport(Experiment):
    name: str = "fidelity_report"
    reduced: bool = param(False, note="true: CI's reduced grids")


@runner("fidelity_report")
def fidelity_report(job, out) -> dict:
    """The report into the run directory (experiment.reduced: the CI grids)."""
    reduced = bool(job.experiment.reduced)
    out = pathlib.Path(out)
    path = generate(out, reduced=reduced, work=out / "work")
    shutil.rmtree(out / "work", ignore_errors=True)
    rows = parse_report(path.read_text())
    counts = {v: sum(r["verdict"] == v for r in rows.values() if r["kind"] == VALIDATION) for v in VERDICTS}
    return dict(report=str(path), claims=len(rows), **{k.replace(" ", "_"): v for k, v in counts.items()})
