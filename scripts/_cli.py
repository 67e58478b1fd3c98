"""Shared helpers for the thin scripts: compose the Hydra config, pick the point."""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import envs  # noqa: E402,F401  (chooses the GL backend before MuJoCo is imported)


def compose(overrides):
    from hydra import compose as _compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return _compose(config_name="config", overrides=list(overrides))


def robot_from(cfg):
    """The robot point of a config: robot.* parameters (sweep lists are ignored)."""
    from envs.core.experiment import robot_params

    return envs.robot_class(cfg.robot.name)(**robot_params(cfg))


def robot_or_exit(overrides):
    """The robot point of the composed config; on a bad parameter print the error and exit 2."""
    try:
        return robot_from(compose(overrides))
    except envs.ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
