"""The snake's observable channels (envs/core/trajectory.py): the whole robot's centre of mass in its
plane of motion (x forward, z up; what a camera tracking the links gives) and the N - 1 servo angles."""
from envs.core.trajectory import declare, sensor_channel


def channels_of(robot) -> list:
    return [sensor_channel("com_x", "m", "com", "centre of mass x", relative=True),
            sensor_channel("com_z", "m", "com", "centre of mass height", col=2, relative=True),
            *[sensor_channel(f"phi{k}", "rad", f"phi{k}", f"joint angle phi{k}") for k in range(1, robot.p["N"])]]


declare("snake", channels_of)
