"""`gaittwin run`: an experiment, Hydra overrides on the command line.

Outputs go to Hydra's run directory (results.csv exported from the run's store
results.sqlite, summary.json, plots, .hydra/ provenance).  Bad input stops before
anything is simulated, with the parameter and its allowed range (exit code 2): a new
run directory is removed, and an existing one keeps its results and its provenance.
The run directory is checked and claimed first (envs/core/runs/rundir.py): a bad or unwritable
hydra.run.dir, another robot's directory, or one in use by a run with other settings is one
line, exit code 2; a full disk mid-run likewise.
"""
from __future__ import annotations

import contextlib
import logging
import pathlib
import shutil
import sqlite3
import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

from .common import checked
from ..core.runs import experiment, rundir
from ..core.model.errors import ConfigError, StoreError
from ..core.model.paths import CONFIG_MODULE
from ..core.runs.csvio import replace_atomically
from ..core.runs.sweep import finite

log = logging.getLogger("gaittwin")
PROVENANCE = ("config.yaml", "hydra.yaml", "overrides.yaml")


def write_provenance(cfg: DictConfig, out: pathlib.Path) -> dict:
    """Write out/.hydra/ (what Hydra would write); return the files it replaced (name -> bytes)."""
    d = out / ".hydra"
    old = {n: (d / n).read_bytes() for n in PROVENANCE if (d / n).exists()}
    d.mkdir(parents=True, exist_ok=True)
    hc = HydraConfig.get()
    docs = {"config.yaml": cfg,
            "hydra.yaml": OmegaConf.create({"hydra": OmegaConf.to_container(hc, resolve=False)}),
            "overrides.yaml": OmegaConf.create(list(hc.overrides.task))}
    for name, c in docs.items():                  # each replaced whole (tmp, fsync, rename)
        replace_atomically(d / name, lambda f, c=c: OmegaConf.save(c, f))
    return old


def restore_provenance(out: pathlib.Path, old: dict) -> None:
    d = out / ".hydra"
    for n in PROVENANCE:
        if n in old:
            (d / n).write_bytes(old[n])
        elif (d / n).exists():
            (d / n).unlink()


@hydra.main(config_path=f"pkg://{CONFIG_MODULE}", config_name="config", version_base="1.3")
def app(cfg: DictConfig) -> None:
    out = pathlib.Path(HydraConfig.get().runtime.output_dir)
    claim = or_exit(rundir.claim, out, cfg)    # one robot, one run's settings at a time (a lock)
    had_results = any(out.glob("*.csv")) or (out / "results.sqlite").exists()
    old = None
    try:
        old = write_provenance(cfg, out)
        summary = experiment.run(cfg, out)
    except (ConfigError, StoreError, OSError, sqlite3.Error) as e:
        if not had_results and claim.alone():      # never remove a directory another run writes into
            logging.shutdown()
            shutil.rmtree(out, ignore_errors=True)
        elif old is not None:
            with contextlib.suppress(OSError):
                restore_provenance(out, old)
        where = (f"{out / 'results.sqlite'}: " if isinstance(e, sqlite3.Error)
                 else f"{out}: " if isinstance(e, OSError) and not e.filename else "")
        print(f"error: {where}{e}", file=sys.stderr)
        sys.exit(2)
    log.info("wrote %s", out)
    print(f"results in {out}")
    if isinstance(summary, dict):
        brief = {k: v for k, v in summary.items() if not isinstance(v, (dict, list))}
        print(OmegaConf.to_yaml(OmegaConf.create(finite(brief))))


def or_exit(fn, *args):
    try:
        return fn(*args)
    except rundir.RunDirError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)


def main(argv=None) -> int:
    """gaittwin run [overrides]: check the whole command line first, claim the run directory, run."""
    argv = list(sys.argv[1:] if argv is None else argv)
    argv = checked(argv)
    argv = or_exit(rundir.prepare, argv)           # the run directory: resolved, checked, unique
    sys.argv = [sys.argv[0], *argv]
    app()
    return 0
