"""bolt: robot, experiments and fidelity claims."""
