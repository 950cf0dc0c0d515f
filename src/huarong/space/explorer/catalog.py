"""The 203 jiang-bing-style classes, their groups and the records of the space, from the
database when one is built, otherwise from the enumeration (:mod:`huarong.space.cases`),
which knows the classes, the groups and minimum steps but none of the layer figures.

Answers are plain dicts and lists, ready for JSON.  Results that scan the database are kept
until the database file changes (``huarong db layers`` fills figures while a server runs).
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from huarong.engine.layout import Layout

FILL_COMMAND = "huarong db layers --all"
BUILD_COMMAND = "huarong db build"
CLASS_PATTERN = r"^[0-7]-(?:[0-9]|1[0-4])-[0-7]$"
"""How a class is named: ``jiang-bing-style``."""
RECORD_ROWS = 20
"""Rows of each record list (the 138-step layouts are listed whole, up to 100)."""
LONGEST_ROWS = 100


class UnknownClassError(ValueError):
    """A well-formed class name that names no class (answered 404)."""


class MissingFromDatabaseError(LookupError):
    """A layout or group the database lacks (a partial or damaged database; answered 404)."""


class PageError(ValueError):
    """A page past the last of a class's groups (answered 404)."""


@dataclass(frozen=True, order=True)
class ClassKey:
    jiang: int
    bing: int
    style: int

    @property
    def name(self) -> str:
        return f"{self.jiang}-{self.bing}-{self.style}"

    @property
    def sql(self) -> str:
        return f"jiang = {self.jiang} AND bing = {self.bing} AND style = {self.style}"


def all_classes() -> list[ClassKey]:
    """The 203 classes (docs §4): at most 7 two-cell pieces, of which ``style`` horizontal,
    and 14 cells for them and the soldiers; seven vertical pieces do not fit."""
    return [ClassKey(jiang, bing, style) for jiang in range(8)
            for bing in range(15 - 2 * jiang) for style in range(jiang + 1)
            if (jiang, bing, style) != (7, 0, 0)]


def parse_class(name: str) -> ClassKey:
    """The class named ``jiang-bing-style``; ValueError for a malformed name,
    :class:`UnknownClassError` for one that names no class."""
    if not re.fullmatch(CLASS_PATTERN, name):
        raise ValueError(f"class {name!r} is not of the form jiang-bing-style (5-4-1)")
    jiang, bing, style = (int(part) for part in name.split("-"))
    key = ClassKey(jiang, bing, style)
    if key not in all_classes():
        raise UnknownClassError(f"class {name!r} does not exist: a layout has at most 7 "
                                "two-cell pieces (style of them horizontal, never all 7 "
                                "vertical) and 14 cells for them and the soldiers")
    return key


@dataclass(frozen=True)
class GroupRef:
    """Where a group sits in the space: its class, ``group_num``, size and seed."""

    key: ClassKey
    group_num: int
    size: int
    seed: int


T = TypeVar("T")


class Catalog:
    """The catalogue over the database at ``database`` when it exists, else over the
    enumeration."""

    def __init__(self, database: Path | None) -> None:
        from huarong.space.database import default_path

        self.path = database if database is not None else default_path()
        self._lock = threading.Lock()
        self._memo: dict[str, tuple[tuple[int, int], Any]] = {}

    @property
    def has_database(self) -> bool:
        return self.path.is_file()

    def _stamp(self) -> tuple[int, int]:
        stat = os.stat(self.path)
        return stat.st_mtime_ns, stat.st_size

    def _remembered(self, name: str, compute: Callable[[], T]) -> T:
        stamp = self._stamp()
        with self._lock:
            if name in self._memo and self._memo[name][0] == stamp:
                result: T = self._memo[name][1]
                return result
        value = compute()
        with self._lock:
            self._memo[name] = (stamp, value)
        return value

    def _rows(self, sql: str) -> list[tuple[Any, ...]]:
        from huarong.space.database import Database

        with Database.open(self.path) as database:
            return database.query(sql).rows

    # ----- classes ---------------------------------------------------------------------
    def classes(self) -> dict[str, Any]:
        """Every class with its counts and figures (null where unknown), the classes whose
        farthest steps are not all computed, and whether a database answered."""
        if self.has_database:
            rows = self._remembered("classes", self._database_classes)
        else:
            rows = _enumeration_classes()
        missing = [row["name"] for row in rows if row["longest_farthest_steps"] is None]
        return {"classes": rows, "figures_missing": missing, "fill_command": FILL_COMMAND,
                "database": self.has_database}

    def _database_classes(self) -> list[dict[str, Any]]:
        figures = {ClassKey(*row[:3]): row[3:] for row in self._rows(
            "SELECT jiang, bing, style, count(*), count(min_steps), max(min_steps), "
            "max(farthest_steps), count(farthest_steps) FROM layouts GROUP BY ALL")}
        groups = {ClassKey(*row[:3]): row[3] for row in self._rows(
            "SELECT jiang, bing, style, count(*) FROM groups GROUP BY ALL")}
        result = []
        for key in all_classes():
            layouts, solvable, longest, farthest, farthest_known = figures.get(
                key, (0, 0, None, None, 0))
            result.append(_class_row(key, layouts, groups.get(key, 0), solvable, longest,
                                     farthest if farthest_known == layouts else None))
        return result

    def class_summary(self, key: ClassKey) -> dict[str, Any]:
        """One class's row, its minimum-steps histogram ([steps, layouts], -1: no
        solution) and its number of groups."""
        row = next(row for row in self.classes()["classes"] if row["name"] == key.name)
        if self.has_database:
            histogram = [list(pair) for pair in self._remembered(
                f"histogram {key.name}", lambda: self._rows(
                    f"SELECT coalesce(min_steps, -1) AS steps, count(*) FROM layouts "
                    f"WHERE {key.sql} GROUP BY steps ORDER BY steps"))]
        else:
            steps, _ = _enumeration_class_steps(key)
            values, counts = np.unique(steps, return_counts=True)
            histogram = [[int(v), int(c)] for v, c in zip(values, counts, strict=True)]
            solvable = [count for value, count in histogram if value >= 0]
            row = {**row, "solvable_layouts": sum(solvable),
                   "longest_min_steps": histogram[-1][0] if solvable else None}
        return {**row, "min_steps_histogram": histogram, "groups_total": row["groups"]}

    def groups(self, key: ClassKey, page: int, per_page: int) -> dict[str, Any]:
        """A page of the class's groups, largest first (``group_num`` order)."""
        total = next(row["groups"] for row in self.classes()["classes"]
                     if row["name"] == key.name)
        first, stop = page * per_page, min((page + 1) * per_page, total)
        if first >= total and page > 0:
            raise PageError(f"page {page} of class {key.name} is past the last "
                            f"({(total - 1) // per_page} at {per_page} groups a page)")
        listed = (self._database_groups(key, first, stop) if self.has_database
                  else _enumeration_groups(key, first, stop))
        return {"name": key.name, "page": page, "per_page": per_page, "groups_total": total,
                "groups": listed}

    def _database_groups(self, key: ClassKey, first: int, stop: int) -> list[dict[str, Any]]:
        where = f"{key.sql} AND group_num >= {first} AND group_num < {stop}"
        steps = {row[0]: row[1:] for row in self._rows(
            f"SELECT group_num, min(min_steps), max(min_steps) FROM layouts WHERE {where} "
            "GROUP BY group_num")}
        return [_group_row(num, size, seed, *steps.get(num, (None, None)))
                for num, size, seed in self._rows(
                    f"SELECT group_num, size, seed FROM groups WHERE {where} "
                    "ORDER BY group_num")]

    # ----- one group -------------------------------------------------------------------
    def locate(self, layout: Layout) -> GroupRef:
        """The group of ``layout``."""
        if not self.has_database:
            return _enumeration_locate(layout)
        from huarong.space.cases import layout_id

        found = self._rows("SELECT jiang, bing, style, group_num, group_size FROM layouts "
                           f"WHERE id = {layout_id(layout)}")
        seeds = found and self._rows(
            f"SELECT seed FROM groups WHERE {ClassKey(*found[0][:3]).sql} "
            f"AND group_num = {found[0][3]}")
        if not seeds:
            raise MissingFromDatabaseError(
                f"the {'group of ' if found else ''}layout {layout.code} is missing from the "
                f"database {self.path}: rebuild it with `{BUILD_COMMAND} --force`")
        jiang, bing, style, group_num, size = found[0]
        return GroupRef(ClassKey(jiang, bing, style), group_num, size, seeds[0][0])

    def farthest_steps(self, group: GroupRef, codes: np.ndarray) -> np.ndarray | None:
        """The farthest steps of the group's layouts (``codes``, ascending), or None unless
        the database holds them all."""
        if not self.has_database or group.key.name in self.classes()["figures_missing"]:
            return None
        from huarong.space.cases import layout_ids
        from huarong.space.database import Database

        ids = layout_ids(codes)
        with Database.open(self.path) as database:
            stream = database.stream(
                f"SELECT farthest_steps FROM layouts WHERE id BETWEEN {ids[0]} AND {ids[-1]} "
                f"AND {group.key.sql} AND group_num = {group.group_num} ORDER BY id")
            parts = [batch.column(0).to_numpy(zero_copy_only=False) for batch in stream.batches]
        # Node order is code order, which is id order.
        values = np.concatenate(parts) if parts else np.empty(0)
        if values.shape[0] != codes.shape[0] or np.isnan(values.astype(np.float64)).any():
            return None
        result: np.ndarray = values.astype(np.int16)
        return result

    # ----- records ---------------------------------------------------------------------
    def records(self) -> dict[str, Any]:
        """The record lists, by SQL on the database (none without one)."""
        if not self.has_database:
            return {"database": False, "figures_missing": [], "fill_command": FILL_COMMAND,
                    "message": f"no database at {self.path}: run `{BUILD_COMMAND}` for the "
                               "records", "records": []}
        return {"database": True, "figures_missing": self.classes()["figures_missing"],
                "fill_command": FILL_COMMAND,
                "records": self._remembered("records", self._database_records)}

    def _database_records(self) -> list[dict[str, Any]]:
        columns = ("hex, jiang, bing, style, min_steps, farthest_steps, solution_count, "
                   "group_size")
        # The smallest code among each class's longest, in one pass: steps high, code low.
        span = 1 << 36
        keys = self._rows(f"SELECT max(min_steps::BIGINT * {span} + ({span - 1} - code)) "
                          "FROM layouts WHERE min_steps IS NOT NULL GROUP BY jiang, bing, style")
        class_codes = sorted(span - 1 - key % span for (key,) in keys)
        in_list = ", ".join(str(code) for code in class_codes) or "NULL"
        lists = [
            ("longest-min", "The longest minimum solutions",
             f"WHERE min_steps = (SELECT max(min_steps) FROM layouts) ORDER BY code "
             f"LIMIT {LONGEST_ROWS}"),
            ("longest-farthest", "The longest farthest steps",
             f"WHERE farthest_steps = (SELECT max(farthest_steps) FROM layouts) ORDER BY code "
             f"LIMIT {LONGEST_ROWS}"),
            ("most-solutions", "The most solutions",
             f"WHERE solution_count IS NOT NULL ORDER BY solution_count DESC, code "
             f"LIMIT {RECORD_ROWS}"),
            ("largest-groups", "The largest groups (each by its smallest layout)",
             f"WHERE group_index = 0 ORDER BY group_size DESC, code LIMIT {RECORD_ROWS}"),
            ("class-longest", "The longest minimum of each class",
             f"WHERE code IN ({in_list}) ORDER BY min_steps DESC, jiang, bing, style"),
        ]
        return [{"id": name, "title": title,
                 "rows": [_record_row(*row) for row in self._rows(
                     f"SELECT {columns} FROM layouts {clause}")]}
                for name, title, clause in lists]


def _class_row(key: ClassKey, layouts: int, groups: int, solvable: int | None,
               longest: int | None, farthest: int | None) -> dict[str, Any]:
    return {"name": key.name, "jiang": key.jiang, "bing": key.bing, "style": key.style,
            "layouts": layouts, "groups": groups, "solvable_layouts": solvable,
            "longest_min_steps": longest, "longest_farthest_steps": farthest}


def _group_row(num: int, size: int, seed: int, min_steps: int | None,
               longest: int | None) -> dict[str, Any]:
    return {"group_num": num, "size": size, "seed": f"{seed:09X}", "min_steps": min_steps,
            "longest_min_steps": longest}


def _record_row(code: str, jiang: int, bing: int, style: int, min_steps: int | None,
                farthest: int | None, solutions: int | None, size: int) -> dict[str, Any]:
    return {"code": code, "class": f"{jiang}-{bing}-{style}", "min_steps": min_steps,
            "farthest_steps": farthest, "solution_count": solutions, "group_size": size}


# ----- the enumeration (no database) ----------------------------------------------------
def _group_keys() -> np.ndarray:
    """``Classes.key()`` of every global group's seed."""
    from huarong.space import cases

    first = cases.label_groups().first_ids
    cls = cases.classes()
    key: np.ndarray = cases.Classes(cls.jiang[first], cls.bing[first], cls.style[first]).key()
    return key


def _key_number(key: ClassKey) -> int:
    return (key.jiang << 8) | (key.bing << 4) | key.style


@functools.cache
def _enumeration_classes() -> list[dict[str, Any]]:
    from huarong.space import cases

    layouts = cases.classes().style_counts()
    numbers, counts = np.unique(_group_keys(), return_counts=True)
    groups = dict(zip(numbers.tolist(), counts.tolist(), strict=True))
    return [_class_row(key, layouts.get((key.jiang, key.bing, key.style), 0),
                       groups.get(_key_number(key), 0), None, None, None)
            for key in all_classes()]


@functools.lru_cache(maxsize=4)
def _enumeration_class_steps(key: ClassKey) -> tuple[np.ndarray, np.ndarray]:
    """(minimum steps, global group) of every layout of the class."""
    from huarong.space import cases

    codes, steps, _ = cases.min_steps_of_class(key.jiang, key.bing)
    in_style = cases.classes_of(codes).style == key.style
    groups = cases.label_groups().group[cases.layout_ids(codes[in_style])]
    return steps[in_style], groups


def _enumeration_groups(key: ClassKey, first: int, stop: int) -> list[dict[str, Any]]:
    from huarong.space import cases

    labels = cases.label_groups()
    chosen = np.flatnonzero(_group_keys() == _key_number(key))
    chosen = chosen[np.argsort(labels.group_nums[chosen])][first:stop]
    steps, groups = _enumeration_class_steps(key)
    solvable = steps >= 0
    low = np.full(labels.count, np.iinfo(np.int16).max, dtype=np.int32)
    high = np.full(labels.count, -1, dtype=np.int32)
    np.minimum.at(low, groups[solvable], steps[solvable])
    np.maximum.at(high, groups[solvable], steps[solvable])
    codes = cases.all_codes()
    return [_group_row(int(labels.group_nums[g]), int(labels.sizes[g]),
                       int(codes[labels.first_ids[g]]),
                       int(low[g]) if high[g] >= 0 else None,
                       int(high[g]) if high[g] >= 0 else None) for g in chosen.tolist()]


def _enumeration_locate(layout: Layout) -> GroupRef:
    from huarong.space import cases

    labels = cases.label_groups()
    group = int(labels.group[cases.layout_id(layout)])
    seed = Layout(int(cases.all_codes()[labels.first_ids[group]]))
    return GroupRef(ClassKey(seed.jiang_num, seed.bing_num, seed.style_num),
                    int(labels.group_nums[group]), int(labels.sizes[group]), int(seed))
