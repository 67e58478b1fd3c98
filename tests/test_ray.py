"""Sweeps through Ray (run.launcher=ray, extra .[ray]): a local two-worker cluster on loopback
gives results identical to the single-process run, and the results file stays resumable."""
import os

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"     # before ray is imported: loopback only
ray = pytest.importorskip("ray")

from gaittwin.core.engines import ray_runner  # noqa: E402
from gaittwin.core.runs import sweep as sw  # noqa: E402
from gaittwin.crawler.robot import Crawler  # noqa: E402
from tests.util import run_script  # noqa: E402

OMEGA = {"omega": [2.0, 4.0, 6.0, 9.0], "psi_deg": [20.0, 60.0]}
KW = dict(run_kw=dict(cycles=3, nthread=1), extra_columns=("S", "V", "steady"), progress=False)


@pytest.fixture(scope="module")
def cluster():
    ray_runner.init(num_cpus=2)                  # two workers, bound to 127.0.0.1
    assert ray.cluster_resources()["CPU"] == 2
    assert {n["NodeManagerAddress"] for n in ray.nodes()} == {"127.0.0.1"}
    yield
    ray.shutdown()


def test_ray_sweep_equals_single_process_and_resumes(cluster, tmp_path):
    local, st = sw.run_sweep(Crawler, {}, OMEGA, tmp_path / "local", **KW)
    assert st["computed"] == 8
    launch = dict(launcher="ray", points_per_task=1)
    viaray, st = sw.run_sweep(Crawler, {}, OMEGA, tmp_path / "ray", launch=launch, **KW)
    assert st["computed"] == 8 and st["steps"] > 0
    ref = (tmp_path / "local" / "results.csv").read_text()
    assert (tmp_path / "ray" / "results.csv").read_text() == ref       # byte-identical, point order
    assert viaray == local
    # a killed Ray sweep (one row written) resumes through Ray to the same file
    # (the store, not a bare results.csv, is what a run resumes from: one point stored first)
    sw.run_sweep(Crawler, {}, {k: v[:1] for k, v in OMEGA.items()}, tmp_path / "part", **KW)
    _, st = sw.run_sweep(Crawler, {}, OMEGA, tmp_path / "part", launch=dict(launcher="ray", points_per_task=3), **KW)
    assert st["computed"] == 7
    assert (tmp_path / "part" / "results.csv").read_text() == ref


def test_readme_ray_route_cli(tmp_path):
    """The README's command: scripts/run.py ... run.launcher=ray (a local Ray, one worker a core)."""
    args = ["scripts/run.py", "experiment=snake_alpha_sweep", "sweep.alpha_deg=[20,30]", "run.cycles=2",
            "robot.timestep=0.000125", "run.progress=false"]
    a = run_script(*args, "run.launcher=ray", f"hydra.run.dir={tmp_path / 'ray'}")
    assert a.returncode == 0, a.stderr[-2000:]
    b = run_script(*args, f"hydra.run.dir={tmp_path / 'local'}")
    assert b.returncode == 0, b.stderr[-2000:]
    assert (tmp_path / "ray" / "results.csv").read_text() == (tmp_path / "local" / "results.csv").read_text()
