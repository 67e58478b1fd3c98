"""Shared helpers for the thin scripts: compose and check the Hydra config, pick the point."""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import envs  # noqa: E402  (chooses the GL backend before MuJoCo is imported)
from envs.core import config, overrides as ov  # noqa: E402


def or_exit(fn, *args):
    """fn(*args); on bad input print the one-line error and exit with code 2."""
    try:
        return fn(*args)
    except envs.ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def robot_from(overrides):
    """The robot point of the composed, checked config (sweep lists are ignored)."""
    return config.robot_point(config.compose(overrides))


def robot_or_exit(overrides):
    return or_exit(robot_from, overrides)


def check_or_exit(argv) -> None:
    """Compose and check every job of a run's command line (each multirun job), before Hydra
    creates any run directory: bad input exits 2 with one line, nothing written."""
    flags = [a for a in argv if a.startswith("-")]
    if set(flags) - {"-m", "--multirun"}:
        return                                     # --help, --cfg, ...: Hydra's own business
    overrides = [a for a in argv if not a.startswith("-")]
    jobs = (or_exit(ov.expand_multirun, overrides) if flags
            else [[o for o in overrides if not o.startswith("hydra")]])
    for job in jobs:
        or_exit(lambda j: config.validate(config.compose(j)), job)
    # Hydra composes sys.argv again: give it the overrides as checked (an integral float for an
    # integer parameter, e.g. run.max_steps=1e15 as printed, written as that integer)
    sys.argv[1:] = flags + or_exit(ov.normalize, overrides, config.schemas())


def finish(res, json_path) -> int:
    """A study script's end: its results to --json (if given), exit status 0."""
    if json_path:
        import json
        with open(json_path, "w") as f:
            json.dump(res, f, indent=1, default=float)
    return 0
