"""What the commands share: compose and check the Hydra config before anything runs, pick the point."""
from __future__ import annotations

import sys

import gaittwin  # noqa: F401  (chooses the GL backend before MuJoCo is imported)
from ..core.runs import config, overrides as ov
from ..core.model.errors import ConfigError


def or_exit(fn, *args):
    """fn(*args); on bad input print the one-line error and exit with code 2."""
    try:
        return fn(*args)
    except ConfigError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def robot_from(overrides):
    """The robot point of the composed, checked config (sweep lists are ignored)."""
    return config.robot_point(config.compose(overrides))


def robot_or_exit(overrides):
    return or_exit(robot_from, overrides)


def checked(argv) -> list[str]:
    """Compose and check every job of a run's command line (each multirun job), before Hydra
    creates any run directory: bad input exits 2 with one line, nothing written.  Returns the
    command line as Hydra must see it (an integral float for an integer parameter, e.g.
    run.max_steps=1e15 as printed, written as that integer)."""
    flags = [a for a in argv if a.startswith("-")]
    if set(flags) - {"-m", "--multirun"}:
        return list(argv)                          # --help, --cfg, ...: Hydra's own business
    overrides = [a for a in argv if not a.startswith("-")]
    jobs = (or_exit(ov.expand_multirun, overrides) if flags
            else [[o for o in overrides if not o.startswith("hydra")]])
    for job in jobs:
        or_exit(lambda j: config.validate(config.compose(j)), job)
    return flags + or_exit(ov.normalize, ov.grouped(overrides), config.schemas())
