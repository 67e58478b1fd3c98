"""BOLT's dm_control Physics: named accessors in the paper's symbols (envs/bolt/robot.py `Bolt.physics`)."""
from __future__ import annotations

import numpy as np
from dm_control import mujoco as dm_mujoco


class Physics(dm_mujoco.Physics):
    """BOLT physics with named accessors (paper symbols)."""

    def dependent_angles(self) -> np.ndarray:
        """z = [q_2, q_3, q_4, q_5] (rad)."""
        return np.array([self.named.data.qpos[f"q_{i}"][0] for i in range(2, 6)])

    def body_position(self) -> np.ndarray:
        """[x_b, y_b] of {B}'s origin (the crank centre P) in the world (m)."""
        return self.named.data.sensordata["body_pos"][[0, 2]].copy()

    def loop_gaps(self) -> np.ndarray:
        """[|B_hfe - B_femur|, |G_kfe - G_tibia|] (m)."""
        s = self.named.data.sensordata
        return np.array([np.linalg.norm(s["B_hfe"] - s["B_femur"]), np.linalg.norm(s["G_kfe"] - s["G_tibia"])])
