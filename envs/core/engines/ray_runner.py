"""Sweeps across processes and machines through Ray (`run.launcher=ray`, extra `.[ray]`).

The driver (scripts/run.py) keeps the one resumable results file; the points still to compute
are sent in chunks of `run.ray_points` to Ray tasks.  Each task rebuilds its robots from their
config parameters, runs them on the shared batch runner (`batch.run_points`, the same code as a
local run, so every number, health value and point identity is identical) and returns only the
results values; the driver commits each row to the run's store (envs/core/runs/store.py) as chunks
come back, so a killed sweep resumes like a local one.

  run.ray_address: null   start a local Ray on this machine (loopback only), one worker a core
  run.ray_address: auto   join the cluster this machine is part of (`ray start --head` / `--address`)
Every node needs the same checkout installed (`bash scripts/setup.sh`; `pip install -e ".[ray]"`).
"""
from __future__ import annotations

import math
import os

from ..model.errors import ConfigError


def _ray():
    try:
        import ray
    except ImportError:
        raise ConfigError("run.launcher", "ray", "local, or install the extra: pip install -e \".[ray]\"",
                          "ray is not installed") from None
    return ray


def init(address=None, num_cpus=None):
    """Connect to Ray once: a cluster at `address`, or a local one bound to loopback."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if not address:
        # a one-machine cluster: Ray's single-node mode binds every service to 127.0.0.1 (otherwise
        # it replaces 127.0.0.1 by the machine's outward address); read by ray when first imported
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray = _ray()
    if ray.is_initialized():
        return ray
    kw = dict(include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    if address:
        ray.init(address=address, **kw)
    else:
        from .batch import available_cores
        ray.init(address="local", num_cpus=num_cpus or available_cores(), _node_ip_address="127.0.0.1", **kw)
    return ray


def _chunk_task(robot_name, cfgs, run_kw):
    """On a Ray worker: run these points on the batch runner; (values, error, steps) per point
    (values: metrics and health, as a local run gives them: gaittwin.core.engines.batch.batch_values)."""
    from . import batch
    from ..model.robot import robot_class

    cls = robot_class(robot_name)
    robots = [cls(**c) for c in cfgs]
    runs = batch.run_points(robots, cls, **run_kw)
    return [(*batch.batch_values(r, run), run.cycles * r.steps_per_cycle) for r, run in zip(robots, runs)]


def engine(run_kw: dict, *, address=None, points_per_task=None):
    """A run_rows engine (see gaittwin.core.runs.sweep.run_rows) that fans chunks of points out to Ray tasks."""

    def simulate(robots, add) -> int:
        ray = init(address)
        nthread = max(1, int(run_kw.get("nthread") or 1))     # threads of one task (and CPUs it asks for)
        kw = {**run_kw, "nthread": nthread}
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = points_per_task or max(1, math.ceil(len(robots) / (4 * max(1, cpus // nthread))))
        # longest points first, as locally: the tail of the sweep is short chunks filling free workers
        order = sorted(range(len(robots)), key=lambda j: -robots[j].steps_per_cycle * robots[j].period)
        chunks = [order[i:i + size] for i in range(0, len(order), size)]
        task = ray.remote(num_cpus=nthread)(_chunk_task)
        name = robots[0].name
        pending = {task.remote(name, [robots[j].cfg for j in c], kw): c for c in chunks}
        steps = 0
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    c = pending.pop(ref)
                    for j, (summary, error, n) in zip(c, ray.get(ref)):
                        steps += n
                        add(j, summary, error)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
        return steps
    return simulate
