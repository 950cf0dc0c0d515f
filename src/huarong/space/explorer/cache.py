"""The placement cache on disk: one ``.npz`` file per group (its graph, goal flags and
placement), written atomically, the least recently used removed beyond a byte budget."""

from __future__ import annotations

import contextlib
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from huarong.engine.state_graph import KLOTSKI
from huarong.fileio import atomic_writer
from huarong.graph import StateGraph

FORMAT = "v2"
"""Part of every file name: a change of graph or placement makes new names."""
DEFAULT_MAX_BYTES = 2 << 30
"""The cache's budget: the largest group takes 90 MB, 横刀立马's 0.9 MB."""
_ARRAYS = ("codes", "offsets", "targets", "goal", "positions")


@dataclass(frozen=True, eq=False)
class PlacedGroup:
    """A group's step graph (nodes in code order) and the position of each node (float32
    (n, 2) in [0, 1])."""

    graph: StateGraph
    positions: np.ndarray

    @property
    def seed(self) -> int:
        """The group's smallest code."""
        return int(self.graph.codes[0])


def default_directory(database: Path | None) -> Path:
    """``$HUARONG_EXPLORER_CACHE`` when set; else beside the database (``<db>.explorer``)
    when it exists in a directory this process may write; else the user's cache directory
    (``$XDG_CACHE_HOME/huarong/explorer``, by default under ``~/.cache``)."""
    configured = os.environ.get("HUARONG_EXPLORER_CACHE")
    if configured:
        return Path(configured).expanduser()
    if database is not None and database.is_file() and os.access(database.parent,
                                                                  os.W_OK | os.X_OK):
        return database.with_name(database.name + ".explorer")
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "huarong" / "explorer"


class PlacementCache:
    """Placed groups by seed.  ``reads`` and ``writes`` count the files read and written."""

    def __init__(self, directory: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.directory = directory
        self.max_bytes = max_bytes
        self.reads = 0
        self.writes = 0

    def path(self, seed: int) -> Path:
        return self.directory / f"group-{seed:09X}.{FORMAT}.npz"

    def load(self, seed: int) -> PlacedGroup | None:
        """The cached group of ``seed``, or None; an unreadable file counts as absent and is
        removed."""
        path = self.path(seed)
        try:
            with np.load(path, allow_pickle=False) as stored:
                arrays = {name: stored[name] for name in _ARRAYS}
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            with contextlib.suppress(OSError):
                path.unlink()
            return None
        try:
            placed = PlacedGroup(StateGraph(arrays["codes"], arrays["offsets"],
                                            arrays["targets"], arrays["goal"], KLOTSKI),
                                 arrays["positions"])
        except ValueError:
            return None
        if placed.graph.size == 0 or placed.seed != seed or \
                placed.positions.shape != (placed.graph.size, 2):
            return None
        with contextlib.suppress(OSError):
            os.utime(path)  # recently used: removed last
        self.reads += 1
        return placed

    def store(self, placed: PlacedGroup) -> bool:
        """Write ``placed`` (atomically) and trim the cache to its budget; False when the
        directory cannot be written (the placement is then only not kept)."""
        graph = placed.graph
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with atomic_writer(self.path(placed.seed), "wb") as stream:
                np.savez(stream, codes=graph.codes, offsets=graph.offsets,
                         targets=graph.targets, goal=graph.goal, positions=placed.positions)
        except OSError:
            return False
        self.writes += 1
        self._trim(keep=self.path(placed.seed))
        return True

    def _trim(self, keep: Path) -> None:
        entries = []
        for path in self.directory.glob("group-*.npz"):
            with contextlib.suppress(OSError):
                if not path.name.endswith(f".{FORMAT}.npz"):
                    path.unlink()  # an older format's: never read again
                    continue
                stat = path.stat()
                entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            if path != keep:
                with contextlib.suppress(OSError):
                    path.unlink()
                total -= size
