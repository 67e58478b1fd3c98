#!/usr/bin/env python
"""Run an experiment: python scripts/run.py experiment=<name> [overrides].

Outputs go to Hydra's run directory (results.csv, summary.json, plots).  Bad
input stops before anything is simulated, with the parameter and its allowed
range, and leaves no run directory behind.
"""
from __future__ import annotations

import logging
import pathlib
import shutil
import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig, OmegaConf

import _cli  # noqa: E402  (puts the project on sys.path; chooses the GL backend before MuJoCo)
import envs  # noqa: E402
from envs.core import experiment  # noqa: E402

log = logging.getLogger("gaittwin")


@hydra.main(config_path="../configs", config_name="config", version_base="1.3")
def main(cfg: DictConfig) -> None:
    out = pathlib.Path(HydraConfig.get().runtime.output_dir)
    had_results = any(out.glob("*.csv"))
    try:
        summary = experiment.run(cfg, out)
    except envs.ConfigError as e:
        if not had_results:
            logging.shutdown()
            shutil.rmtree(out, ignore_errors=True)
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    log.info("wrote %s", out)
    print(f"results in {out}")
    if isinstance(summary, dict):
        brief = {k: v for k, v in summary.items() if not isinstance(v, (dict, list))}
        print(OmegaConf.to_yaml(OmegaConf.create(brief)))


if __name__ == "__main__":
    _cli.check_or_exit(sys.argv[1:])
    main()
