"""The snake's observable channels (envs/core/model/channels.py): the whole robot's centre of mass in its
plane of motion (x forward, z up; what a camera tracking the links gives) and the N - 1 servo angles."""
from ..core.model.channels import CycleChannel, declare, sensor_channel


def channels_of(robot) -> list:
    return [sensor_channel("com_x", "m", "com", "centre of mass x", relative=True),
            sensor_channel("com_z", "m", "com", "centre of mass height", col=2, relative=True),
            *[sensor_channel(f"phi{k}", "rad", f"phi{k}", f"joint angle phi{k}") for k in range(1, robot.p.N)]]


CYCLE = (CycleChannel("dx", "m", "Delta x over 10 periods (Table 2)"),
         CycleChannel("loss", "1", "(d - Delta x) / d (Table 2's loss column, a fraction)"),
         CycleChannel("V", "m/s", "mean speed"))

declare("snake", channels_of, CYCLE)
