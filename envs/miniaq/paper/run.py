"""A run of MinIAQ-II's paper model (envs/miniaq/paper/model.py): its samples (`PaperRun`, readable like
the twin's `batch.Run` through `sensor(name)`), the twin's sensors computed from the sampled states,
and the twin's summary columns from such a run.  paper.py re-exports these names."""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...core.model import energy
from ..paper_laws import euler_to_quat
from ..robot import CONTACT_FORCE_MIN, LEGS, MiniAQ

@dataclasses.dataclass
class PaperRun:
    """Samples of one paper-engine run, readable like the twin's `batch.Run` (`sensor(name)`)."""

    robot: MiniAQ
    params: object                # the run's gaittwin.miniaq.paper.model.Params
    t: np.ndarray                 # (samples,)
    X: np.ndarray                 # (samples, 12)
    sensors: dict                 # twin sensor name -> (samples, dim)
    extra: dict                   # Lp, FN (samples, 4)
    cycle_values: np.ndarray
    steady: object = None
    error: str | None = None
    wall_s: float = float("nan")    # the integration (solve_ivp), not the output sampling
    cpu_s: float = float("nan")     # its process CPU time (robust to a shared, loaded machine)
    nfev: int = 0
    method: str = ""

    def sensor(self, name: str) -> np.ndarray:
        return self.sensors[name]

    @property
    def cycles(self) -> int:
        return len(self.cycle_values)

    # health, as the twin's batch.Run reports it (the same limits: MiniAQ.max_penetration)
    max_loop_gap = None                 # kinematic legs: no loop closure to check

    @property
    def max_penetration(self) -> float:
        """Deepest penetration of a foot sphere's bottom over the samples (m)."""
        Lp = self.extra.get("Lp")
        return float(max(0.0, np.max(Lp))) if Lp is not None and np.size(Lp) else 0.0

    @property
    def unhealthy(self) -> str | None:
        return None if self.error else self.robot.health_error(self.max_penetration)

    @property
    def problem(self) -> str | None:
        return self.error or self.unhealthy


def sample_sensors(model, t, X) -> tuple[dict, dict]:
    """The twin's sensors (names, shapes, frames; see MiniAQ's MJCF) at the sampled states."""
    t = np.asarray(t, float)
    X = np.asarray(X, float)
    n = len(t)
    feet = [model.evaluate(ti, xi, detail=True)[1] for ti, xi in zip(t, X)]
    R = np.array([f["R"] for f in feet]).reshape(n, 3, 3)
    s = {"torso_pos": X[:, 0:3], "torso_quat": euler_to_quat(X[:, 3:6]),
         "torso_vel": np.einsum("nij,nj->ni", R, X[:, 6:9])}
    th, thd = model.crank(t)
    nan3 = np.full((n, 3), np.nan)                             # no loop (massless kinematic legs)
    extra = {k: np.zeros((n, 4)) for k in ("Lp", "FN", "Vp", "v_t", "mu")}
    for j, leg in enumerate(LEGS):
        rec = [f["feet"][j] for f in feet]
        rE = np.array([r["rE"] for r in rec])
        s[f"{leg}_foot_pos"] = X[:, 0:3] + np.einsum("nij,nj->ni", R, rE)
        s[f"{leg}_foot_vel"] = np.array([r["vI"] for r in rec])
        s[f"{leg}_touch"] = np.array([r["FN"] for r in rec])[:, None]
        # the twin's contact sensor: the force the foot exerts on the floor, world frame
        s[f"{leg}_contact"] = -np.array([r["FI"] for r in rec])
        s[f"{leg}_C_coupler"] = nan3
        s[f"{leg}_C_rocker"] = nan3
        s[f"{leg}_crank_pos"] = th[j][:, None]
        s[f"{leg}_crank_vel"] = np.array(thd[j])[:, None]
        s[f"{leg}_motor_torque"] = np.array([r["tau"] for r in rec])[:, None]
        extra["Lp"][:, j] = [r["Lp"] for r in rec]
        extra["FN"][:, j] = [r["FN"] for r in rec]
        extra["Vp"][:, j] = [r["vI"][2] for r in rec]
        extra["v_t"][:, j] = [r["v_t"] for r in rec]
        extra["mu"][:, j] = [r["mu"] for r in rec]
    return s, extra


def summarize(run: PaperRun) -> dict:
    """The twin's summary columns (`MiniAQ.summarize`, same metric code) from a paper-engine run.

    max_loop_gap is NaN (no loops: kinematic legs); crank_lag_max_deg is 0 (ideal motors);
    motor_torque_max is the torque an ideal motor needs to hold the massless leg's speed.
    Extra columns: fn_min (N, < 0 where eq. 15 pulls), <leg>_pull_fraction (fraction of the
    steady window with the foot penetrating but the normal force below the contact threshold),
    wall_s, cpu_s (integration), nfev, method, engine.  The energy columns (envs/core/model/energy.py)
    are NaN (as max_loop_gap) and cost_of_transport_note says why: the paper's motors are ideal speed sources
    and this engine does not integrate their work (not computed, never zero).
    """
    r = run.robot
    s = r.summarize(run)
    spc = r.samples_per_cycle
    n = len(run.t)
    if n >= spc + 2:
        steady = slice(spc, n)
        Lp, FN = run.extra["Lp"][steady], run.extra["FN"][steady]
        s["fn_min"] = float(FN.min())
        for j, leg in enumerate(LEGS):
            s[f"{leg}_pull_fraction"] = float(np.mean((Lp[:, j] > 0) & (FN[:, j] <= CONTACT_FORCE_MIN)))
    s.update({k: math.nan for k in energy.METRICS},
             cost_of_transport_note="not computed: the paper model's motors are ideal speed sources")
    s.update(wall_s=run.wall_s, cpu_s=run.cpu_s, nfev=run.nfev, method=run.method, engine="paper")
    return s
