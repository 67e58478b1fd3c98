"""`gaittwin`: one command for the project (pyproject [project.scripts]).

  gaittwin list                 robots and experiments, one line each, with a measured run time
  gaittwin params ROBOT         every parameter: name, unit, default, allowed range, meaning, provenance
  gaittwin export RUNDIR        every point the run directory's store holds (results_all.csv, ...)
  gaittwin run [overrides]      scripts/run.py (an experiment; Hydra overrides)
  gaittwin view [...]           scripts/view.py (interactive viewer)
  gaittwin render [...]         scripts/render.py (MP4 video)

Every command runs in this process (`run`, `view`, `render`: gaittwin.app.*; the scripts in
scripts/ are thin wrappers over the same functions); `python -m gaittwin.cli ...` is the same command
without the entry point installed.
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys

from .core.model.paths import CONFIGS, MODELS, experiment_files

COMMANDS = ("run", "view", "render")           # gaittwin.app.<command>.main(argv)

# Measured wall time of each experiment at its defaults, with the machine and load it was measured
# on: configs/runtimes.yaml, written by scripts/measure_runtimes.py (a test checks every experiment has one).
RUNTIMES_FILE = CONFIGS / "runtimes.yaml"


def runtimes() -> dict:
    """name -> {seconds, load, at_least, exit_code, date, machine} (configs/runtimes.yaml)."""
    import yaml
    if not RUNTIMES_FILE.exists():
        return {}
    return dict((yaml.safe_load(RUNTIMES_FILE.read_text()) or {}).get("experiments") or {})


def experiment_names() -> list[str]:
    """Every experiment `scripts/run.py experiment=NAME` runs (configs/experiment/**/*.yaml)."""
    return sorted(experiment_files())


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        return command(argv[0], argv[1:])
    ap = argparse.ArgumentParser(prog="gaittwin", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", metavar="{list,params,export,run,view,render}")
    sub.add_parser("list", help="robots and experiments, one line each, with run-time estimates")
    p = sub.add_parser("params", help="a robot's parameters: unit, default, bounds, meaning, provenance")
    p.add_argument("robot")
    p = sub.add_parser("export", help="every stored point of a run directory: <file>_all.csv per results file "
                       "(its results.csv holds only the last run's grid)")
    p.add_argument("rundir")
    p.add_argument("--out", help="folder to write into (default: the run directory)")
    for name in COMMANDS:
        sub.add_parser(name, help=f"{name} (gaittwin {name} --help)", add_help=False)
    args = ap.parse_args(argv)
    if args.command == "list":
        print(listing())
        return 0
    if args.command == "params":
        from . import registry
        if args.robot not in registry.ROBOTS:
            print(f"error: robot={args.robot!r}: allowed: one of {sorted(registry.ROBOTS)}", file=sys.stderr)
            return 2
        print(params_table(args.robot))
        return 0
    if args.command == "export":
        return export(args.rundir, args.out)
    ap.print_help()
    return 2


def command(name: str, args) -> int:
    """gaittwin.app.<name>.main(args) in this process; its exit code."""
    from .app import render, run, view
    prog = sys.argv[0]
    sys.argv = [f"gaittwin {name}", *args]         # Hydra's and argparse's program name
    try:
        return {"run": run, "view": view, "render": render}[name].main(list(args)) or 0
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv[0] = prog


def export(rundir, out=None) -> int:
    """Write every stored row of each results file of `rundir`'s store (every grid any run asked for,
    in the order finished) as <stem>_all.csv into `out` (default: the run directory)."""
    import sqlite3

    from .core.model.errors import StoreError
    from .core.runs.store import DB_NAME, Store

    run = pathlib.Path(rundir)
    if not (run / DB_NAME).is_file():
        print(f"error: {run}: no results store ({DB_NAME}) in this directory", file=sys.stderr)
        return 2
    dest = pathlib.Path(out) if out else run
    try:
        dest.mkdir(parents=True, exist_ok=True)
        with Store(run) as db:
            for f in db.files():
                path = dest / f"{pathlib.Path(f).stem}_all.csv"
                rows, moved = db.export_all(f, path)        # a file there that is not its last export: moved aside
                print(f"{path}: {len(rows)} rows" + (f" (the file there was moved to {moved})" if moved else ""))
    except (StoreError, OSError, sqlite3.Error) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


# ---- list ----------------------------------------------------------------------------------
def robots() -> list[tuple[str, str]]:
    """(name, the first line of its robot module's docstring) of every robot of the manifest (by name)."""
    from . import registry
    out = []
    for name in sorted(registry.ROBOTS):
        doc = sys.modules[registry.ROBOTS[name].robot.__module__].__doc__ or ""
        out.append((name, doc.strip().splitlines()[0] if doc.strip() else ""))
    return out


def experiments() -> list[dict]:
    """Each configs/experiment/**/*.yaml: name, robot, the first sentence of its header comment (not its first
    line, which ended mid-sentence), run time."""
    import itertools

    from .core.runs import config
    out, times = [], runtimes()
    for f in experiment_files().values():
        head = itertools.takewhile(lambda ln: ln.startswith("#"), f.read_text().splitlines())
        header = " ".join(ln[1:].strip() for ln in head if "@package" not in ln)
        line = _first_sentence(header)
        line = line[:1].upper() + line[1:]
        out.append(dict(name=f.stem, robot=config.experiment_robot(f.stem) or "-", line=_short(line, 100),
                        runtime=times.get(f.stem)))
    return out


def _duration(m) -> str:
    """`~80 s (load 9)`; a run stopped unfinished: `>15 min`; none: `not measured`."""
    if not m:
        return "not measured"
    s = float(m["seconds"])
    t = f"{s:.0f} s" if s < 120 else f"{s / 60:.0f} min"
    return f"{'>' if m.get('at_least') else '~'}{t} (load {m['load']:.0f})"


def machines(times) -> str:
    """Each machine once, with its measurement dates ('2 CPU cores (...), shared, 2026-11-26, 2026-11-27')."""
    dates: dict = {}
    for m in times.values():
        dates.setdefault(m["machine"], set()).add(str(m["date"]))
    return "; ".join(f"{k}, {', '.join(sorted(v))}" for k, v in sorted(dates.items())) or "-"


def listing() -> str:
    lines = ["robots (gaittwin params ROBOT: every parameter):"]
    lines += [f"  {n:<8} {d}" for n, d in robots()]
    lines += ["", "experiments (gaittwin run experiment=NAME; wall time at defaults, measured on "
                  f"{machines(runtimes())}, at the 1-minute load average shown):"]
    for e in experiments():
        lines.append(f"  {e['name']:<28} {e['robot']:<8} {_duration(e['runtime']):>17}  {e['line']}")
    return "\n".join(lines)


# ---- params --------------------------------------------------------------------------------
def params_rows(robot: str) -> list[dict]:
    """name, unit, default, allowed, meaning, provenance of every parameter of `robot`."""
    import gaittwin
    from .core.model import schema
    cls = gaittwin.robot_class(robot)
    sections = _comments(cls.Params)
    prov = _provenance(robot)
    rows = []
    for name, f in schema.fields(cls.Params).items():
        if name == "name":
            continue
        meaning = "; ".join(x for x in (sections.get(name, ""), f.spec.note) if x)
        rows.append(dict(name=name, unit=f.spec.unit or "-", default=_fmt(f.default), allowed=f.spec.text(f.optional) if not f.spec.note else f.spec.text(f.optional).replace(f" ({f.spec.note})", ""),
                         meaning=meaning or "-", provenance=prov.get(_base(name), f"models/{robot}/README.md")))
    return rows


def params_table(robot: str) -> str:
    """One block a parameter: name [unit] = default, allowed range; its meaning; its provenance."""
    out = [f"{robot}: robot.NAME=VALUE (angles in degrees, *_deg; everything else SI)"]
    for r in params_rows(robot):
        unit = f" [{r['unit']}]" if r["unit"] != "-" else ""
        out += [f"{r['name']}{unit} = {r['default']}    allowed: {r['allowed']}",
                f"    {r['meaning']}", f"    provenance: {r['provenance']}"]
    return "\n".join(out)


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def _base(name: str) -> str:
    return name[:-4] if name.endswith("_deg") else name


def _comments(params_cls) -> dict:
    """field name -> the comment block above it in its dataclass (its section: '# inputs, eq. 5')."""
    import inspect
    try:
        src = inspect.getsource(params_cls)
    except (OSError, TypeError):
        return {}
    out, block, after_field = {}, [], True
    for ln in src.splitlines()[1:]:
        s = ln.strip()
        if s.startswith("#"):
            if after_field:                 # a new comment block starts a new section
                block, after_field = [], False
            block.append(s[1:].strip())
            continue
        m = re.match(r"(\w+)\s*:", s)
        if m:
            after_field = True
            if block:                       # the block's first sentence, whole (not its first line)
                out[m.group(1)] = _first_sentence(" ".join(block))
    return out


def _first_sentence(text: str) -> str:
    """Up to the first '. ' or '; ' before a capital letter outside parentheses ('Sec. II' inside stays)."""
    for m in re.finditer(r"[.;]\s+(?=[A-Z])", text):
        if text.count("(", 0, m.start()) == text.count(")", 0, m.start()):
            return text[:m.start()]
    return text.rstrip(".")


def _provenance(robot: str) -> dict:
    """parameter (SI name) -> 'models/<robot>/README.md:LINE (first cell)': the first row naming it
    (a word or `code`) of the README's provenance and assumption tables (headers 'paper parameter',
    'choice', ...); a row whose first cell names it wins over one that names it elsewhere."""
    path = MODELS / robot / "README.md"
    if not path.exists():
        return {}
    first, anywhere, header, prev = {}, {}, "", ""
    for i, ln in enumerate(path.read_text().splitlines(), start=1):
        is_row = ln.startswith("|")
        if is_row and not prev.startswith("|"):
            header = ln.split("|")[1].strip().lower()
        prev = ln
        if not is_row or set(ln) <= set("|-: ") or not re.search(r"parameter|choice|assumption", header):
            continue
        cells = [c.strip() for c in ln.split("|")[1:-1]]
        where = f"models/{robot}/README.md:{i} ({_short(cells[0])})"
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", cells[0]):
            first.setdefault(word, where)
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", " ".join(cells[1:])):
            anywhere.setdefault(word, where)
    return {**anywhere, **first}


def _short(s: str, n: int = 40) -> str:
    s = s.replace("`", "")
    return s if len(s) <= n else s[: n - 3] + "..."


if __name__ == "__main__":
    sys.exit(main())
