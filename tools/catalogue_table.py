"""Regenerate ``docs/puzzle-catalogue.md``, the catalogue's page, from the catalogue files.

Every length and cluster size on the page is computed here by the engine
(:func:`huarong.puzzles.solve` and :func:`huarong.puzzles.cluster_summary`); the catalogue
files store layouts, goals and sources only.  Run from the repository root after changing
the catalogue or the engine:

    PYTHONPATH=src python tools/catalogue_table.py [-o docs/puzzle-catalogue.md]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from huarong.fileio import write_text_atomically
from huarong.puzzles import CatalogueEntry, catalogue, cluster_summary, solve
from huarong.puzzles.notation import FAMILIES

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "puzzle-catalogue.md"
URL = re.compile(r"https?://[^\s,;()]+[^\s,;().:]")
COMMAND = "PYTHONPATH=src python tools/catalogue_table.py"

INTRO = f"""# The puzzle catalogue

Named sliding-block puzzles, one TOML file each in `src/huarong/puzzles/catalogue/` (the file
name is the puzzle's name), each with the source that published its layout: the West's 4x5
classics, Rush Hour's hardest starts, N. Bickford's 4x4 records and the viewer's Klotski
classics.  `huarong.puzzles.load_puzzle` and the `huarong puzzle` commands take a puzzle by
its name.

The files hold layouts, goals and sources, never an answer: every length on this page is
computed by the engine.  The page is the output of

```
{COMMAND}
```

which, for each entry, solves the puzzle (`huarong.puzzles.solve`: the length of an optimal
solution in the puzzle's metric) and searches its cluster (`huarong.puzzles.cluster_summary`:
the number of states reachable from the start, and the length from the cluster's hardest
state to a goal; that state need not meet a source's own rules for a start, such as Bickford's
piece `A` in the upper-left corner).  `tests/test_puzzle_catalogue.py` checks the computed
lengths against the figures the sources publish, each in the metric its source counts in.

A board is grid text, its rows joined by `/`: `.` an empty cell, `#` a wall, one letter per
piece.  A goal names the cells that pieces must cover, a letter standing for any piece of its
shape (except pieces marked distinct).  Metrics: `step` moves one piece anywhere it can reach
(Klotski's step, the West's rectilinear move), `slide` one piece any distance in one direction
(the straight-line move), `unit` one piece one cell.  Rules: `free` (every piece moves in all
four directions) or `length` (Rush Hour: a car moves only along its length).

## Notes on the entries

- **Century** starts with its middle vertical piece already shifted, so Winning Ways' 100
  moves (which count the half-unit move that centres it) are 99 here, and Century and a Half's
  150 are 149: the sources' solution pages give both counts.
- **Century and a Half** and **New Century** have full target layouts: Century's start turned
  upside down, and SuperCentury's start turned half a turn.
- **Century's cluster** of 81,340 states, the engine finds, also holds the starts of
  SuperCentury, New Century and four Klotski classics (峰回路转, 近在咫尺, 守口如瓶,
  插翅难飞): its hardest start takes 138 steps, as SuperCentury and 峰回路转 do.
- **Rush Hour**: the hardest start of Fogleman's database (walls allowed) is counted in moves
  (slide metric), Collette, Raskin and Servais's hardest start in steps (unit metric); the
  latter takes 49 moves in Fogleman's count, which the test checks too.
- **Pennant** and **Dad's Puzzle** are one tray under two names (Hardy 1909, Hayward 1926);
  both move the 2x2 from the upper left to the lower left.
- **Bickford's 4x4 records** are the hardest "simple simple simple" puzzles of his 2012
  exhaustive search, one per number of pieces: piece `A` starts in the upper-left corner and
  must reach the lower-right corner; `A` is distinct, other pieces of one shape are not.  His
  blog's table gives 19 moves for 4 pieces, while his search's results file, which gives the
  layout, records 22 for it, as the engine finds.
- **The design search's records** (`design-...`) are the hardest starts `huarong puzzle
  design` found for boards nobody has enumerated; each source is the command that finds it
  again ([design records](design-records.md)).
- **The Klotski classics** are the viewer's named layouts, written by their common codes.
"""


def grid_cell(text: str | None) -> str:
    """A grid (lines or ``/``-joined rows) as one inline code span; ``-`` when there is none."""
    if not text:
        return "-"
    rows = [row.strip() for row in text.replace("/", "\n").splitlines() if row.strip()]
    return "`" + "/".join(rows) + "`"


def source_links(source: str) -> str:
    """The source's URLs as short links named by their hosts."""
    links = [f"[{urlparse(url).netloc.removeprefix('www.')}]({url})"
             for url in URL.findall(source)]
    return ", ".join(links) or "citation"


def entry_row(entry: CatalogueEntry) -> tuple[str, str]:
    """The table row of one catalogue entry and its line in the list of sources."""
    puzzle = entry.puzzle
    solution = solve(puzzle)
    summary = cluster_summary(puzzle)
    length = "no solution" if solution is None else str(solution.length)
    hardest = "-" if summary.hardest_length is None else str(summary.hardest_length)
    row = (f"| `{entry.name}` | {entry.title} | {grid_cell(puzzle.grid)} | "
           f"{grid_cell(puzzle.goal)} | {puzzle.rules} | {puzzle.metric} | {length} | "
           f"{summary.states:,} | {hardest} | {source_links(entry.source)} |")
    citation = URL.sub(lambda match: f"<{match.group(0)}>", entry.source)
    return row, f"- `{entry.name}`: {citation}"


def order(entry: CatalogueEntry) -> tuple[int, str, int]:
    """The table's order: the West's classics, Rush Hour, Bickford's records by number of
    pieces, the design search's records, then the Klotski classics (their sources are
    fayaa.com's table)."""
    number = re.search(r"\d+$", entry.name)
    return (FAMILIES.index(entry.family), re.sub(r"\d+$", "", entry.name),
            int(number.group(0)) if number else 0)


def page() -> str:
    """The whole page, every figure computed now."""
    rows, citations = [], []
    for entry in sorted(catalogue(), key=order):
        began = time.perf_counter()
        row, citation = entry_row(entry)
        rows.append(row)
        citations.append(citation)
        print(f"{entry.name}: {time.perf_counter() - began:.1f} s", file=sys.stderr)
    header = ("| name | title | board | goal | rules | metric | length | cluster states | "
              "hardest in cluster | source |\n"
              "|---|---|---|---|---|---|---:|---:|---:|---|")
    return (f"{INTRO}\n## The catalogue\n\n{header}\n" + "\n".join(rows)
            + "\n\n## Sources\n\n" + "\n".join(citations) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    options = parser.parse_args()
    write_text_atomically(options.output, page())


if __name__ == "__main__":
    main()
