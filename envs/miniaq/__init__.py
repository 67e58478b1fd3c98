"""miniaq: robot, experiments and fidelity claims."""
