"""The engine: one layout at a time.  The :class:`~huarong.engine.layout.Layout` value type and
its notations, steps, optimal solving, the layer model of a layout's group, hints, shortest
paths between layouts and the classic named layouts.  It knows nothing of the database."""
