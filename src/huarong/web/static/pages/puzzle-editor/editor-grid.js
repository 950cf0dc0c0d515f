// The editor's puzzle as grids of glyphs (puzzle-grid.js's notation, a row an array): what
// each tool makes of the cells it is dragged over, resizing, and the puzzle as a TOML file
// that `huarong puzzle` reads.

export const SIDES = { low: 2, high: 10 };
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const isLetter = (glyph) => glyph !== '.' && glyph !== '#';

export const emptyGrid = (rows, columns) => Array.from({ length: rows },
  () => Array(columns).fill('.'));
export const textOf = (grid) => grid.map((row) => row.join('')).join('/');
export const linesOf = (grid) => grid.map((row) => row.join('')).join('\n');
export const lettersOf = (grid) => new Set(grid.flat().filter(isLetter));

// Grid text, rows joined by '/' or on lines; null unless a rectangle the editor can draw.
export function gridOf(text) {
  const rows = text.split(/[/\n]/).map((row) => row.trim()).filter(Boolean);
  const columns = rows[0]?.length ?? 0;
  const fits = (n) => n >= SIDES.low && n <= SIDES.high;
  if (!fits(rows.length) || !fits(columns) || rows.some((row) => row.length !== columns)) {
    return null;
  }
  return rows.map((row) => [...row]);
}

export function rectangle([r1, c1], [r2, c2]) {
  const cells = [];
  for (let r = Math.min(r1, r2); r <= Math.max(r1, r2); r++) {
    for (let c = Math.min(c1, c2); c <= Math.max(c1, c2); c++) cells.push([r, c]);
  }
  return cells;
}

// The cells from one to the next, side by side, so a quick drag leaves no gap in a shape.
export function pathTo([r, c], [toRow, toColumn]) {
  const cells = [];
  while (r !== toRow || c !== toColumn) {
    if (r !== toRow) r += Math.sign(toRow - r);
    else c += Math.sign(toColumn - c);
    cells.push([r, c]);
  }
  return cells;
}

// A piece is whole or gone: what a tool touches of a piece takes the whole piece away, so
// no piece is ever left in two parts.
function cleared(grid, cells) {
  const touched = new Set(cells.map(([r, c]) => grid[r][c]).filter(isLetter));
  return grid.map((row) => row.map((glyph) => (touched.has(glyph) ? '.' : glyph)));
}

function painted(grid, cells, glyph) {
  const next = cleared(grid, cells);
  for (const [r, c] of cells) next[r][c] = glyph;
  return next;
}

export function withPiece(grid, cells) {
  const taken = lettersOf(grid);
  return painted(grid, cells, [...LETTERS].find((letter) => !taken.has(letter)) ?? '.');
}

export const withWalls = (grid, cells) => painted(grid, cells, '#');
export const erased = (grid, cells) => painted(grid, cells, '.');

export function resized(grid, rows, columns) {
  const outside = new Set(grid.flatMap((row, r) => row.filter(
    (glyph, c) => isLetter(glyph) && (r >= rows || c >= columns))));
  return emptyGrid(rows, columns).map((row, r) => row.map((empty, c) => {
    const glyph = grid[r]?.[c] ?? empty;
    return outside.has(glyph) ? empty : glyph;
  }));
}

// A goal names pieces of the board: a piece erased takes its goal with it.
export function goalFor(goal, board) {
  const present = lettersOf(board);
  return goal.map((row) => row.map((glyph) => (present.has(glyph) ? glyph : '.')));
}

// The cells of the board's piece `letter` moved so its first cell (top row, leftmost) lies
// on `cell`; null where the shape would leave the board.
export function shapeAt(board, letter, [row, column]) {
  const own = board.flatMap((line, r) => line.flatMap((glyph, c) => (glyph === letter
    ? [[r, c]] : [])));
  if (!own.length) return null;
  const [dr, dc] = [row - own[0][0], column - own[0][1]];
  const moved = own.map(([r, c]) => [r + dr, c + dc]);
  const inside = moved.every(([r, c]) => r >= 0 && c >= 0 && r < board.length
    && c < board[0].length);
  return inside ? moved : null;
}

// The goal with `letter`'s piece at `cells` instead of where it was, over any other there.
export function goalPlaced(goal, letter, cells) {
  const covered = new Set(cells.map(([r, c]) => goal[r][c]).filter(isLetter));
  covered.add(letter);
  const next = goal.map((row) => row.map((glyph) => (covered.has(glyph) ? '.' : glyph)));
  for (const [r, c] of cells) next[r][c] = letter;
  return next;
}

// TOML's basic strings escape only the backslash and the quote for any text a grid holds.
const tomlText = (text) => text.replace(/[\\"]/g, (glyph) => `\\${glyph}`);

export function nameOf(title) {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'puzzle';
}

export function tomlOf({ title, board, goal, metric, rules, distinct }) {
  const lines = [
    `name = "${nameOf(title)}"`,
    `title = "${tomlText(title)}"`,
    'source = "Drawn in the huarong puzzle editor"',
    `board = """\n${tomlText(linesOf(board))}\n"""`,
  ];
  if (lettersOf(goal).size) lines.push(`goal = """\n${tomlText(linesOf(goal))}\n"""`);
  lines.push(`rules = "${rules}"`, `metric = "${metric}"`);
  if (distinct) {
    lines.push(`distinct = [${[...distinct].map((letter) => `"${tomlText(letter)}"`).join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}
