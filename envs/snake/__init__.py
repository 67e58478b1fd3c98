"""snake: robot, experiments and fidelity claims."""
