"""crawler: robot, experiments and fidelity claims."""
