#!/usr/bin/env python
"""Regenerate the fidelity report: python scripts/fidelity_report.py [--reduced] [--out docs].

Writes (default --out: outputs/fidelity_report/; the committed copy only with `--out docs`)
<out>/fidelity_report.md (reduced: fidelity_report_reduced.md), the fields every verdict
read (<out>/fidelity_report.json, reduced: fidelity_report_reduced.json) and its plots
(<out>/fidelity/*.png, reduced: <out>/fidelity_reduced/*.png).  The claims, the paper's values
and the grids live in envs/<robot>/claims.py (machinery: envs/core/report/report.py, verdicts:
envs/core/report/verdict.py).  Full: several minutes on 2 cores; reduced: about five.  The old
report is replaced only when the new one is finished (built in a hidden directory beside it).
Bad arguments, an unwritable --out, a damaged store under --resume: one line, exit code 2.
"""
from __future__ import annotations

import argparse
import pathlib
import shutil
import sqlite3
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from gaittwin.core.report import report as fidelity  # noqa: E402  (importing envs first chooses the GL backend)
from gaittwin.core.runs import rundir  # noqa: E402
from gaittwin.core.model.errors import ConfigError, StoreError  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reduced", action="store_true", help="tiny grids, fewer cycles (CI's reproducibility check)")
    ap.add_argument("--out", default=str(ROOT / "outputs" / "fidelity_report"),
                    help="output directory (default: outputs/fidelity_report/; the committed report: --out docs)")
    ap.add_argument("--work", default=None, help="keep the runners' outputs here (default: a temporary dir)")
    ap.add_argument("--resume", action="store_true",
                    help="with --work: reuse the finished sweep points there (after an interrupted run)")
    ap.add_argument("--only", nargs="*", default=None, help="claim groups whose function name contains these")
    ap.add_argument("--mutate", default=None, metavar="NAME",
                    help="break the twin with mutation NAME (envs/<robot>/mutations.py) and write the affected robot's "
                         "report and the validation rows it flips into <out>/mutation_NAME/ (vs --baseline)")
    ap.add_argument("--baseline", default=None, help="with --mutate: the unmutated run's JSON (default: docs/'s)")
    a = ap.parse_args(argv)
    names = [fn.__name__ for _, _, fn in fidelity.claim_groups()]
    bad = [o for o in a.only or () if not any(o in n for n in names)]
    if bad or a.only == []:
        ap.exit(2, f"error: --only {' '.join(bad)!s}: matches no claim group; allowed: parts of {names}\n")
    for opt, v in (("--out", a.out), ("--work", a.work), ("--baseline", a.baseline)):
        if v is not None and not v.strip():
            ap.exit(2, f"error: {opt}={v!r} is not allowed: allowed is a path (an empty one would mean the current "
                       f"directory)\n")
    if a.resume and not a.work:
        ap.exit(2, "error: --resume needs --work (the directory of the interrupted run)\n")
    if a.resume and not pathlib.Path(a.work).is_dir():
        ap.exit(2, f"error: --resume --work={a.work!r}: no such directory; allowed is the directory of the "
                   f"interrupted run (without --resume a new one is made)\n")
    t0 = time.perf_counter()
    if a.mutate is not None:
        return mutate(ap, a, t0)
    fresh = not pathlib.Path(a.out).exists()
    try:
        rundir.check_dir(pathlib.Path(a.out), "--out")
        if a.work:
            rundir.check_dir(pathlib.Path(a.work), "--work")
        path = fidelity.generate(a.out, reduced=a.reduced, work=a.work, only=a.only, resume=a.resume)
    except (rundir.RunDirError, ConfigError, StoreError, OSError, sqlite3.Error) as e:
        if fresh:                                   # nothing left behind
            shutil.rmtree(a.out, ignore_errors=True)
        ap.exit(2, f"error: {e}\n")
    print(f"wrote {path} in {time.perf_counter() - t0:.0f} s")
    return 0


def mutate(ap, a, t0) -> int:
    """--mutate NAME: a bad name, a missing baseline or an unwritable --out stops before anything runs (exit 2)."""
    from gaittwin.core.report import mutation
    names = sorted(mutation.registry())
    base = pathlib.Path(a.baseline) if a.baseline else None
    if a.mutate not in names:
        print(f"error: --mutate {a.mutate!r}: must be one of {names}", file=sys.stderr)
        return 2
    if a.resume or a.work or a.only:
        print("error: --mutate runs the affected robot's groups in a fresh scratch dir: no --resume/--work/--only",
              file=sys.stderr)
        return 2
    if base is not None and not base.is_file():
        print(f"error: --baseline {base}: no such file (an unmutated report's JSON)", file=sys.stderr)
        return 2
    try:
        rundir.check_dir(pathlib.Path(a.out), "--out")
        path = mutation.run(a.mutate, a.out, reduced=a.reduced, baseline=base)
    except (rundir.RunDirError, ConfigError, StoreError, OSError, sqlite3.Error) as e:
        ap.exit(2, f"error: {e}\n")
    print(f"wrote {path} in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
