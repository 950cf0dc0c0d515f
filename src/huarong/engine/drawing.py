"""Pictures of a board: box-drawing text for a terminal (with the piece under each run, so a
front end can colour it) and a standalone SVG."""

from __future__ import annotations

from typing import Final

from huarong.engine.board import COLS, ROWS, Piece, PieceKind, board_of
from huarong.engine.palette import palette

# Box-drawing junctions by their arms (up, right, down, left).
_JUNCTIONS: Final = {
    (0, 0, 0, 0): " ", (1, 0, 1, 0): "│", (0, 1, 0, 1): "─",
    (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└", (1, 0, 0, 1): "┘",
    (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
    (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷",
    (0, 0, 0, 1): "╴",
}


def render_segments(
    pieces: tuple[Piece, ...], square_width: int
) -> list[list[tuple[str, Piece | None]]]:
    if square_width < 1:
        raise ValueError(f"square width {square_width} must be at least 1")
    board = board_of(pieces)
    height = max(1, square_width // 2)

    def owner(row: int, col: int) -> Piece | str | None:
        if 0 <= row < ROWS and 0 <= col < COLS:
            return board[row * COLS + col]
        return "outside"

    def wall_right_of(row: int, col: int) -> bool:
        """A vertical wall between (row, col) and (row, col + 1)."""
        left, right = owner(row, col), owner(row, col + 1)
        return left != right or (left is None and (col == -1 or col == COLS - 1))

    def wall_below(row: int, col: int) -> bool:
        """A horizontal wall between (row, col) and (row + 1, col)."""
        top, bottom = owner(row, col), owner(row + 1, col)
        return top != bottom or (top is None and (row == -1 or row == ROWS - 1))

    lines: list[list[tuple[str, Piece | None]]] = []
    for row in range(-1, ROWS):
        # The line of junctions and horizontal walls below `row`.
        line: list[tuple[str, Piece | None]] = []
        for col in range(-1, COLS):
            arms = (
                int(wall_right_of(row, col)) if row >= 0 else 0,
                int(wall_below(row, col + 1)) if col + 1 < COLS else 0,
                int(wall_right_of(row + 1, col)) if row + 1 < ROWS else 0,
                int(wall_below(row, col)) if col >= 0 else 0,
            )
            line.append((_JUNCTIONS[arms], None))
            if col + 1 < COLS:
                fill = "─" if wall_below(row, col + 1) else " "
                below = owner(row + 1, col + 1)
                line.append((fill * square_width,
                             None if fill != " " or isinstance(below, str) else below))
        lines.append(line)
        if row + 1 >= ROWS:
            break
        for sub in range(height):
            cell_line: list[tuple[str, Piece | None]] = []
            for col in range(-1, COLS):
                wall = "│" if wall_right_of(row + 1, col) else " "
                right = owner(row + 1, col + 1)
                cell_line.append((wall, None if wall != " " or isinstance(right, str)
                                  else right))
                if col + 1 < COLS:
                    piece = board[(row + 1) * COLS + col + 1]
                    text = " " * square_width
                    if piece is not None and sub == height // 2:
                        text = _label(piece, row + 1, col + 1, square_width)
                    cell_line.append((text, piece))
            lines.append(cell_line)
    return lines


def _label(piece: Piece, row: int, col: int, square_width: int) -> str:
    """The piece's glyph, written once, in its top-left cell."""
    if row * COLS + col != piece.address:
        return " " * square_width
    return piece.kind.glyph.center(square_width)[:square_width]


def piece_colours() -> dict[PieceKind, str]:
    """Each Klotski piece kind's colour, from the shared palette."""
    kinds = palette().klotski
    return {PieceKind.CAO: kinds.cao, PieceKind.VERTICAL: kinds.vertical,
            PieceKind.HORIZONTAL: kinds.horizontal, PieceKind.SOLDIER: kinds.soldier}


def render_svg(pieces: tuple[Piece, ...], cell_size: int) -> str:
    if cell_size < 4:
        raise ValueError(f"cell size {cell_size} must be at least 4")
    gap = max(1, cell_size // 15)
    frame = cell_size // 4
    tray, colours = palette().board, piece_colours()
    width, height = COLS * cell_size + 2 * frame, ROWS * cell_size + 2 * frame
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" rx="{frame}" fill="{tray.frame}"/>',
        f'<rect x="{frame}" y="{frame}" width="{COLS * cell_size}" '
        f'height="{ROWS * cell_size}" fill="{tray.floor}"/>',
        f'<rect x="{frame + cell_size}" y="{height - frame}" width="{2 * cell_size}" '
        f'height="{frame}" fill="{tray.floor}"/>',
    ]
    for piece in pieces:
        row, col = divmod(piece.address, COLS)
        x, y = frame + col * cell_size + gap, frame + row * cell_size + gap
        w = piece.kind.width * cell_size - 2 * gap
        h = piece.kind.height * cell_size - 2 * gap
        parts.append(
            f'<rect class="piece {piece.kind.name.lower()}" x="{x}" y="{y}" width="{w}" '
            f'height="{h}" rx="{cell_size // 8}" fill="{colours[piece.kind]}" '
            f'stroke="{tray.line}" stroke-width="{gap}"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
