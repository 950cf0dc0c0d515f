"""How hard a start is for a person: features of its cluster (:mod:`.features`), a small
linear model fitted on the NYU Ma lab's Rush Hour study (:mod:`.model`, :mod:`.study`), and
the grade it gives.  ``docs/difficulty.md`` defines every feature and reports the fit."""
