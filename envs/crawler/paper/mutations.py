"""Twin mutations of the crawler (envs/core/report/mutation.py): each breaks the MuJoCo twin only, not the
exact hybrid model, and the fidelity report must notice (tests/test_fidelity_twin_mutation.py).  `flips`: the
validation rows each one flips on the reduced grids, as measured (row id -> its verdict under the mutation)."""
from __future__ import annotations

from ...core.report.mutation import Mutation, controls_edit, default_contact, scale_friction, spec_edit, swap_bodies_mass

# controls columns: [phi1, phi2] positions, then [phi1, phi2] velocities (Crawler.controls)
SWAP_JOINTS = [1, 0, 3, 2]

MUTATIONS = [
    Mutation("friction_half", "crawler", "both feet's friction coefficient x 0.5 (contact pairs' sliding friction)",
             spec_edit(lambda r, s: scale_friction(s, 0.5)), flips={"C27": "disagrees", "C22": "disagrees"}),
    Mutation("crawler_phase_reversed", "crawler", "input phase reversed: phi1 and phi2 exchanged, i.e. psi -> -psi "
             "(the inputs share A and phi0)", controls_edit(lambda r, f, t: f(t)[:, SWAP_JOINTS]),
             flips={k: "disagrees" for k in ("C3", "C4", "C27", "C8", "C11", "C14.2", "C29", "C28", "C16", "C22")}),
    Mutation("default_contact", "crawler", "MuJoCo's default contact (solref 0.02 s, default solimp, no friction "
             "solref, impratio 1) instead of the contact recipe (models/crawler/README.md)",
             spec_edit(lambda r, s: default_contact(s)),
             flips={"C27": "disagrees", "C31": "disagrees", "C33": "agrees", "C22": "disagrees"}),
    Mutation("masses_swapped", "crawler", "link masses swapped: the centre link's mass and inertia exchanged with "
             "link 1's (m0 0.194 kg <-> m1 0.021 kg)", spec_edit(lambda r, s: swap_bodies_mass(s, "center", "link1")),
             flips={**{k: "disagrees" for k in ("C2", "C3", "C4", "C27", "C5", "C14.2", "C29", "C28", "C16", "C31", "C17",
                                                "C32", "C22")}, "C34": "agrees"}),
]
