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

from envs.core.config import Experiment, experiment
from envs.core.schema import param

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


def experiment_config(experiment: str, overrides: dict | None = None, sweep: dict | None = None):
    """The composed config of `experiment=<name>` (hydra.compose, as scripts/run.py builds it).

    overrides: dotted keys -> values (replacing, not merging); sweep: replaces `sweep` entirely.
    """
    from omegaconf import open_dict

    from envs.core.config import compose

    cfg = compose([f"experiment={experiment}"])
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

    def run(self, experiment: str, tag: str | None = None, overrides=None, sweep=None):
        """Run `experiment`'s runner into work/<tag>; returns (summary, out dir)."""
        from envs.core.experiment import run as run_experiment
        cfg = experiment_config(experiment, overrides, sweep)
        out = self.work / (tag or experiment)
        if out.exists() and not self.resume:
            shutil.rmtree(out)
        out.mkdir(parents=True, exist_ok=True)   # resume: the sweep runners reuse the points stored in results.sqlite
        t0 = time.perf_counter()
        summary = run_experiment(cfg, out)
        self.timings[tag or experiment] = time.perf_counter() - t0
        self.log(f"  {tag or experiment}: {self.timings[tag or experiment]:.1f} s")
        self.flags += [(tag or experiment, *f) for f in health_flags(out)]
        if isinstance(summary, dict) and summary.get("error") and not (out / "results.sqlite").exists():
            self.flags.append((tag or experiment, "summary.json", "", summary["error"]))
        return summary, out

    def plot(self, src: pathlib.Path, name: str, caption: str):
        if src.exists():
            self.plots.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, self.plots / name)
            self.plot_files.append((name, caption))


def read_csv(path) -> list[dict]:
    """The rows of a results file, as they are: points whose `error` is filled (failed, or over the
    robot's health limits) are listed by the report's "Health flags" section (Context.flags)."""
    from envs.core import sweep
    return sweep.read_csv(path) if pathlib.Path(path).exists() else []


def health_flags(out: pathlib.Path) -> list[tuple]:
    """(file, point, error) of every stored row of a run directory whose `error` is filled."""
    import json

    from envs.core.store import DB_NAME, Store
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


COLUMNS = ("id", "claim", "source", "paper", "twin", "reference", "unit", "error", "verdict", "reason")


def claim_modules() -> dict:
    """robot -> its `envs/<robot>/claims.py` module, for every robot package that has one."""
    import importlib

    import envs

    mods = {}
    for name in envs.ROBOTS:
        try:
            mods[name] = importlib.import_module(f"envs.{name}.claims")
        except ModuleNotFoundError:
            continue
    return mods


def claim_groups() -> list:
    """(robot, title, claims function) of every claim group, robot by robot."""
    return [(name, title, fn) for name, mod in claim_modules().items() for title, fn in mod.CLAIMS]


def paper_values() -> dict:
    """id -> (source, the paper's value as stated) of every robot's claims."""
    return {k: v for mod in claim_modules().values() for k, v in getattr(mod, "PAPER", {}).items()}


# ---- report ----------------------------------------------------------------------------------------
def _cell(x) -> str:
    return fmt(x).replace("|", "/").replace("\n", " ")


def render(groups, reduced: bool, plots_rel: str, plot_files, timings, wall, resumed=False, flags=()) -> str:
    rows = [r for _, _, rs in groups for r in rs]
    counts = {v: sum(r.verdict == v for r in rows) for v in VERDICTS}
    name = "fidelity_report_reduced.md" if reduced else "fidelity_report.md"
    L = [f"# Fidelity report{' (reduced grids)' if reduced else ''}", "",
         f"Generated by `python scripts/fidelity_report.py{' --reduced' if reduced else ''}` "
         f"(or `python scripts/run.py experiment=fidelity_report{' experiment.reduced=true' if reduced else ''}`); "
         f"code: `envs/core/report.py`, claims in `envs/<robot>/claims.py`. File: `docs/{name}`.", ""]
    if reduced:
        L += ["Reduced grids and fewer cycles: this report is CI's reproducibility check "
              "(`tests/test_fidelity_report.py`). Its values are coarser than the full report's "
              "(`docs/fidelity_report.md`), and verdicts on coarse grids can differ from it.", ""]
    L += ["One row per quantitative claim of the four papers. *paper*: the value as printed (or the statement, "
          "where the paper gives a plot only; `withheld`: the value is withheld from the paper copy). *twin*: the "
          "MuJoCo twin. *reference*: the exact/kinematic reference where the project has one (crawler: the paper's "
          "exact hybrid model, `envs/crawler/hybrid.py`; BOLT: closed-form loop kinematics; snake: eqs. 11-14). "
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
        for robot, title, fn in claim_groups():
            if only and not any(o in fn.__name__ for o in only):
                continue
            log(f"{fn.__name__}")
            groups.append((robot, title, fn(ctx)))
    finally:
        if tmp is not None:
            tmp.cleanup()
    wall = time.perf_counter() - t0
    path = out_dir / ("fidelity_report_reduced.md" if reduced else "fidelity_report.md")
    path.write_text(render(groups, reduced, plots_rel, ctx.plot_files, ctx.timings, wall, resumed=ctx.resume,
                           flags=ctx.flags))
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
@experiment
@dataclasses.dataclass
class FidelityReport(Experiment):
    name: str = "fidelity_report"
    runner: str = "envs.core.report.runner"
    reduced: bool = param(False, note="true: CI's reduced grids")


def runner(cfg, out) -> dict:
    """`f(cfg, out)`: the report into the run directory (experiment.reduced: the CI grids)."""
    reduced = bool(cfg.experiment.reduced)
    out = pathlib.Path(out)
    path = generate(out, reduced=reduced, work=out / "work")
    shutil.rmtree(out / "work", ignore_errors=True)
    rows = parse_report(path.read_text())
    counts = {v: sum(r["verdict"] == v for r in rows.values()) for v in VERDICTS}
    return dict(report=str(path), claims=len(rows), **{k.replace(" ", "_"): v for k, v in counts.items()})
