"""The files of ``huarong all`` and ``huarong all-code`` (the original engine's ``--all`` and
``--all-code FILE``): every code, every layout's class and label, and the seeds of each class.

- ``All_Case.txt``: every code, ascending, one a line.
- ``main.csv``: one row per layout, ids from 0 in ascending code order,
  ``id,CODE,jiang,bing,style,group_num,group_index`` (style counts the horizontal two-cell
  pieces).
- ``J-B-S.txt``, one per jiang-bing-style class: the seed of each group of the class (its
  smallest code), in group_num order.

Codes are 9 upper-case hex digits.  Two formats: ``original``, the original engine's files
byte for byte: ``\\n`` between rows and none after the last (the original engine reads a seed
file to its end and would take a final empty line for the last seed again), no header;
``huarong``: every row ends with ``\\n``, and main.csv has a header line and a ``label``
column (``jiang-bing-style-group_num-group_index``).  Every file is written atomically.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

import numpy as np

from huarong.fileio import atomic_writer, file_written_by_others
from huarong.space.build import PhaseProgress, layout_columns

FileFormat = Literal["huarong", "original"]


def hex_digits(codes: np.ndarray) -> np.ndarray:
    """Each code as its 9 upper-case hex digits: an (n, 9) array of ASCII bytes, formatted
    column by column rather than code by code."""
    digits = np.frombuffer(b"0123456789ABCDEF", dtype=np.uint8)
    text = np.empty((codes.shape[0], 9), dtype=np.uint8)
    for position in range(9):
        text[:, position] = digits[(codes >> (4 * (8 - position))) & 15]
    return text


def write_codes(codes: np.ndarray, path: str | os.PathLike[str], *,
                file_format: FileFormat = "huarong") -> None:
    """``All_Case.txt``: the codes one a line; ``original``: no newline after the last."""
    text = np.empty((codes.shape[0], 10), dtype=np.uint8)
    text[:, :9] = hex_digits(codes)
    text[:, 9] = ord("\n")
    lines = text.reshape(-1)
    with atomic_writer(path, "wb") as stream:
        stream.write((lines[:-1] if file_format == "original" else lines).data)


def write_seed_file(seeds: list[int], path: str | os.PathLike[str], *,
                    file_format: FileFormat = "huarong") -> None:
    """A ``J-B-S.txt`` seed file: the codes one a line; ``original``: no final newline."""
    text = "\n".join(f"{code:09X}" for code in seeds)
    with atomic_writer(path, "wb") as stream:
        stream.write((text if file_format == "original" or not seeds else text + "\n").encode())


def write_main_csv(columns: dict[str, np.ndarray], path: str | os.PathLike[str], *,
                   file_format: FileFormat = "huarong") -> None:
    """``main.csv`` from the columns of :func:`huarong.space.build.layout_columns` (DuckDB
    formats the 29 million rows), written beside ``path`` and renamed into place."""
    import duckdb
    import pyarrow as pa

    names = ("id", "code", "jiang", "bing", "style", "group_num", "group_index")
    rows = pa.table({name: columns[name] for name in names})
    original = file_format == "original"
    select = ("id, printf('%09X', code) AS code, jiang AS jiang_num, bing AS bing_num, "
              "style AS style_num, group_num, group_index")
    if not original:
        select += ", concat_ws('-', jiang, bing, style, group_num, group_index) AS label"
    with file_written_by_others(path) as temporary:
        connection = duckdb.connect()
        try:
            connection.execute("SET enable_progress_bar = false")
            connection.register("layout_rows", rows)
            quoted = str(temporary).replace("'", "''")
            connection.execute(f"COPY (SELECT {select} FROM layout_rows ORDER BY id) TO "
                               f"'{quoted}' (FORMAT CSV, HEADER {'false' if original else 'true'})")
        finally:
            connection.close()
        if original:
            _drop_final_newline(temporary)


def _drop_final_newline(path: Path) -> None:
    with path.open("r+b") as stream:
        size = stream.seek(0, os.SEEK_END)
        if size:
            stream.seek(size - 1)
            if stream.read(1) == b"\n":
                stream.truncate(size - 1)


def class_seeds(columns: dict[str, np.ndarray]) -> dict[str, list[int]]:
    """``J-B-S`` -> the seed of each group of the class, in group_num order."""
    first = columns["groups_first_id"]
    seeds: dict[str, list[tuple[int, int]]] = {}
    for jiang, bing, style, num, code in zip(
            columns["jiang"][first].tolist(), columns["bing"][first].tolist(),
            columns["style"][first].tolist(), columns["groups_num"].tolist(),
            columns["code"][first].tolist(), strict=True):
        seeds.setdefault(f"{jiang}-{bing}-{style}", []).append((num, code))
    return {name: [code for _, code in sorted(groups)] for name, groups in seeds.items()}


def write_all_files(directory: str | os.PathLike[str], progress: PhaseProgress | None = None,
                    *, file_format: FileFormat = "huarong") -> list[Path]:
    """``All_Case.txt``, ``main.csv`` and the 203 ``J-B-S.txt`` seed files in
    ``directory``.  Returns the files written."""
    folder = Path(directory)
    columns = layout_columns(progress, min_steps=False)
    seeds = class_seeds(columns)
    total = 2 + len(seeds)
    phase = "writing files"
    report = progress or (lambda phase, done, total: None)
    report(phase, 0, total)
    written = [folder / "All_Case.txt", folder / "main.csv"]
    write_codes(columns["code"], written[0], file_format=file_format)
    report(phase, 1, total)
    write_main_csv(columns, written[1], file_format=file_format)
    report(phase, 2, total)
    for name, codes in seeds.items():
        written.append(folder / f"{name}.txt")
        write_seed_file(codes, written[-1], file_format=file_format)
        report(phase, len(written), total)
    return written
