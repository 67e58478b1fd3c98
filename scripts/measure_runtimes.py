#!/usr/bin/env python
"""Measure every experiment's wall time at its defaults and store it for `gaittwin list`.

  python scripts/measure_runtimes.py [--only NAME ...] [--timeout S] [--out configs/runtimes.yaml]

Each experiment runs as `scripts/run.py experiment=NAME` into a fresh temporary run directory (so
nothing is reused), one after the other; the wall time, the 1-minute load average before it and the
exit code are merged into the table (an entry is replaced only when measured again), which is
rewritten after every experiment.  The `<robot>_identify` experiments need data: the robot's
`<robot>_trajectory` at its defaults is written first (not timed) and passed as experiment.data
(BOLT's fit also needs its nominal m_5: NEEDS); the fidelity report runs as scripts/fidelity_report.py.
An experiment stopped at --timeout is stored as a lower bound (`at_least: true`).
"""
from __future__ import annotations

import argparse
import datetime
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from gaittwin.cli import RUNTIMES_FILE, experiment_names  # noqa: E402


# what an experiment needs beyond its defaults to run at all (the fit's nominal point of a parameter
# whose default is a set's value)
NEEDS = {"bolt_identify": ["robot.m_5=0.9754"]}
# measured through its own script: `scripts/run.py experiment=fidelity_report` fails in Hydra
# ("GlobalHydra is already initialized": the report composes configs inside the Hydra app)
OWN_SCRIPT = {"fidelity_report": "fidelity_report.py"}


def machine() -> str:
    """`2 CPU cores (Intel(R) Xeon(R) Processor), shared`: the CPU model from /proc/cpuinfo where there is one."""
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} CPU cores ({cpu}), shared"


def measure(name: str, tmp: pathlib.Path, timeout: float) -> dict:
    args = [f"experiment={name}", f"hydra.run.dir={tmp / name}", *NEEDS.get(name, [])]
    if name.endswith("_identify"):
        robot = name[: -len("_identify")]
        data = tmp / f"{robot}_data"
        subprocess.run([sys.executable, str(ROOT / "scripts" / "run.py"), f"experiment={robot}_trajectory",
                        f"hydra.run.dir={data}"], cwd=ROOT, capture_output=True, check=True)
        args.append(f"experiment.data={data / 'trajectory.csv'}")
    cmd = [str(ROOT / "scripts" / "run.py"), *args]
    if name in OWN_SCRIPT:
        cmd = [str(ROOT / "scripts" / OWN_SCRIPT[name]), "--out", str(tmp / name)]
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    try:
        rc = subprocess.run([sys.executable, *cmd], cwd=ROOT,
                            capture_output=True, timeout=timeout).returncode
        at_least = False
    except subprocess.TimeoutExpired:
        rc, at_least = None, True
    wall = time.perf_counter() - t0
    return dict(seconds=round(wall, 1), load=round(load, 1), at_least=at_least, exit_code=rc)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", help="these experiments (default: every one)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds an experiment may run (then: a lower bound)")
    ap.add_argument("--out", default=str(RUNTIMES_FILE))
    args = ap.parse_args(argv)
    names = args.only or experiment_names()
    unknown = sorted(set(names) - set(experiment_names()))
    if unknown:
        print(f"error: --only: {unknown} are not experiments; allowed: {experiment_names()}", file=sys.stderr)
        return 2
    out = pathlib.Path(args.out)
    table = yaml.safe_load(out.read_text()) if out.exists() else {}
    table.setdefault("experiments", {})
    with tempfile.TemporaryDirectory(prefix="gaittwin_runtimes_") as tmp:
        for name in names:
            m = dict(measure(name, pathlib.Path(tmp), args.timeout),
                     date=datetime.date.today().isoformat(), machine=machine())
            table["experiments"][name] = m
            print(f"{name:<30} {'>=' if m['at_least'] else ''}{m['seconds']:.0f} s  (load {m['load']}, "
                  f"exit {m['exit_code']})", flush=True)
            text = yaml.safe_dump(table, sort_keys=True)
            out.write_text("# Measured wall time of each experiment at its defaults (scripts/measure_runtimes.py;\n"
                           "# read by `gaittwin list`).  load: the 1-minute load average when it started.\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
