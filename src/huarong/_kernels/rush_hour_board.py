"""Fogleman's 6x6 Rush Hour board as the kernels and their wrappers see it: its size, the red
car's row and its column when solved, and what one column may hold.  Plain constants, no
numba: the wrappers read them without loading the kernels."""

SIDE = 6
CELLS = SIDE * SIDE
PRIMARY_ROW = 2
"""The red car's row."""
RED_CAR = "A"
"""The red car's letter on a board."""
TARGET = SIDE - 2
"""The red car's column when solved."""

COLUMN_OPTIONS = ((), (2,), (3,), (2, 2), (2, 3), (3, 2))
"""What one column can hold: the lengths of its vertical vehicles, top to bottom."""
