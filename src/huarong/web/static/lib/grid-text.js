// Positions of any sliding-block puzzle as grid text (rows joined by '/', '.' empty, '#'
// wall, a letter per piece): its pieces' cells, their labels and colours, and where a move
// takes a piece.

const DIRECTIONS = {
  up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1],
};

export function rowsOf(grid) {
  return grid.split('/').map((row) => [...row]);
}

export function pieceCells(grid) {
  const cells = new Map(); // letter -> [[row, col], ...] in reading order
  rowsOf(grid).forEach((row, r) => row.forEach((glyph, c) => {
    if (glyph === '.' || glyph === '#') return;
    if (!cells.has(glyph)) cells.set(glyph, []);
    cells.get(glyph).push([r, c]);
  }));
  return cells;
}

export function span(values) {
  const low = Math.min(...values) + 1;
  const high = Math.max(...values) + 1;
  return low === high ? `${low}` : `${low}-${high}`;
}

export function pieceLabel(letter, cells) {
  return `piece ${letter}, rows ${span(cells.map(([r]) => r))}, `
    + `columns ${span(cells.map(([, c]) => c))}`;
}

// A hue per letter, the same on every board of a game; goal pieces are drawn warm.
export function colourOf(letter, isGoalPiece) {
  const code = letter.charCodeAt(0);
  const hue = isGoalPiece ? 6 : (code * 47) % 300 + 40;
  const light = isGoalPiece ? 38 : 30 + (code % 3) * 6;
  return `hsl(${hue} 45% ${light}%)`;
}

// Where a move takes the piece: the directions of its path added up, times the distance of
// a slide.
export function displacement(move) {
  const parts = move.direction.split(',').map((word) => DIRECTIONS[word.trim()] ?? [0, 0]);
  const times = parts.length === 1 ? move.distance : 1;
  return parts.reduce(([r, c], [dr, dc]) => [r + dr * times, c + dc * times], [0, 0]);
}
