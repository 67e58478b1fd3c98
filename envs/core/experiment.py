"""Experiment runners: `runner(cfg, out) -> summary dict`, named by `experiment.runner`."""
from __future__ import annotations

import pathlib

from omegaconf import OmegaConf

import envs


def robot_params(cfg) -> dict:
    """The robot's parameters from the config (without its name)."""
    p = OmegaConf.to_container(cfg.robot, resolve=True)
    p.pop("name", None)
    return p


def sweep_lists(cfg) -> dict:
    s = cfg.get("sweep")
    return OmegaConf.to_container(s, resolve=True) if s else {}


def run_kw(cfg) -> dict:
    r = OmegaConf.to_container(cfg.run, resolve=True)
    return dict(cycles=int(r["cycles"]), min_cycles=int(r["min_cycles"]),
                stop_when_steady=bool(r["stop_when_steady"]), nthread=r["nthread"], chunk=int(r["chunk"]))


def robot_cls(cfg):
    return envs.robot_class(cfg.robot.name)


def validate_sweep_keys(cfg, cls) -> None:
    for k in sweep_lists(cfg):
        if k not in cls.defaults:
            raise envs.ConfigError(f"sweep.{k}", sweep_lists(cfg)[k], f"a parameter of {cls.name}: {sorted(cls.defaults)}")


def out_dir(out) -> pathlib.Path:
    return pathlib.Path(out)


def pyplot():
    """matplotlib.pyplot on the non-interactive Agg backend (experiments only write PNGs)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def save_figure(fig, path, dpi: int = 120) -> None:
    """Lay out, write (PNG) and close a figure."""
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    pyplot().close(fig)
