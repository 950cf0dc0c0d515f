"""The explorer of the space (``/explore``, ``huarong draw``): any group's step graph (a
:class:`~huarong.graph.StateGraph`) with the figures of its layouts, its placement
(:mod:`huarong.graph.placement`) cached on disk, the classes and their
groups, and the records of the space."""

from huarong.space.explorer.cache import PlacedGroup, PlacementCache, default_directory
from huarong.space.explorer.catalog import (
    CLASS_PATTERN,
    FILL_COMMAND,
    Catalog,
    ClassKey,
    GroupRef,
    MissingFromDatabaseError,
    PageError,
    UnknownClassError,
    all_classes,
    parse_class,
)
from huarong.space.explorer.picture import COLOURINGS, render_png, render_svg
from huarong.space.explorer.view import Explorer, GroupView

__all__ = [
    "CLASS_PATTERN", "COLOURINGS", "FILL_COMMAND", "Catalog", "ClassKey", "Explorer",
    "GroupRef", "GroupView", "MissingFromDatabaseError", "PageError", "PlacedGroup",
    "PlacementCache", "UnknownClassError", "all_classes", "default_directory", "parse_class",
    "render_png", "render_svg",
]
