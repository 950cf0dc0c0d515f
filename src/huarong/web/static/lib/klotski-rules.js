// The rules of the board, with no page attached: its geometry, which cells a piece covers,
// where it can slide, and the common code (docs §3) both ways.

export const COLS = 4;
export const ROWS = 5;
export const CELLS = COLS * ROWS;
const GOAL_ADDRESS = 13;
const CODE_ITEMS = 16;

// [width, height] in cells
export const SHAPE = { cao: [2, 2], vertical: [1, 2], horizontal: [2, 1], soldier: [1, 1] };
// The 2-bit items of the common code (docs §3); 0 is an empty cell.
const KIND_OF_ITEM = [null, 'horizontal', 'vertical', 'soldier'];
// klotski.online writes one digit per cell.
const ONLINE_DIGIT = { cao: '4', vertical: '2', horizontal: '3', soldier: '1' };
export const FACE = { cao: '曹操', vertical: '将', horizontal: '将', soldier: '兵' };
// The letter of each kind in grid text (Layout.grid's: C the 2x2, V, H, S).
export const LETTER = { cao: 'C', vertical: 'V', horizontal: 'H', soldier: 'S' };
export const KIND_NAME = { cao: '2×2', vertical: 'vertical piece', horizontal: 'horizontal piece',
  soldier: '1×1' };

// ---- geometry ---------------------------------------------------------------------------

export const rowOf = (address) => Math.floor(address / COLS);
export const colOf = (address) => address % COLS;

export function cellsOf(kind, address) {
  const [width, height] = SHAPE[kind];
  const cells = [];
  for (let dy = 0; dy < height; dy++) {
    for (let dx = 0; dx < width; dx++) cells.push(address + dy * COLS + dx);
  }
  return cells;
}

// The layout as grid text, rows joined by '/' ("VCCV/VCCV/VHHV/VSSV/S..S").
export function gridOf(pieces) {
  const glyphs = new Array(CELLS).fill('.');
  for (const piece of pieces) {
    for (const cell of cellsOf(piece.kind, piece.address)) glyphs[cell] = LETTER[piece.kind];
  }
  const rows = [];
  for (let row = 0; row < ROWS; row++) {
    rows.push(glyphs.slice(row * COLS, (row + 1) * COLS).join(''));
  }
  return rows.join('/');
}

export function occupancy(pieces, except = null) {
  const taken = new Array(CELLS).fill(false);
  for (const piece of pieces) {
    if (piece === except) continue;
    for (const cell of cellsOf(piece.kind, piece.address)) taken[cell] = true;
  }
  return taken;
}

export function fits(kind, row, col, taken) {
  const [width, height] = SHAPE[kind];
  if (row < 0 || col < 0 || row + height > ROWS || col + width > COLS) return false;
  return cellsOf(kind, row * COLS + col).every((cell) => !taken[cell]);
}

// Every top-left address the piece can slide to through empty cells, each mapped to the
// address it was reached from, so a route can be traced back (one step = any such slide).
export function reachable(pieces, piece) {
  const taken = occupancy(pieces, piece);
  const cameFrom = new Map([[piece.address, null]]);
  const queue = [piece.address];
  while (queue.length) {
    const address = queue.shift();
    for (const [dr, dc] of [[0, -1], [-1, 0], [0, 1], [1, 0]]) {
      const row = rowOf(address) + dr;
      const col = colOf(address) + dc;
      const target = row * COLS + col;
      if (fits(piece.kind, row, col, taken) && !cameFrom.has(target)) {
        cameFrom.set(target, address);
        queue.push(target);
      }
    }
  }
  return cameFrom;
}

export function routeTo(cameFrom, target) {
  if (!cameFrom.has(target)) return null;
  const route = [];
  for (let at = target; at !== null; at = cameFrom.get(at)) route.unshift(at);
  return route;
}

// ---- notations ----------------------------------------------------------------------------

export function decode(code) {
  const value = BigInt(`0x${code}`);
  const pieces = [{ kind: 'cao', address: Number(value >> 32n) }];
  const taken = occupancy(pieces);
  let item = 0;
  for (let address = 0; address < CELLS && item < CODE_ITEMS; address++) {
    if (taken[address]) continue;
    const kind = KIND_OF_ITEM[Number((value >> BigInt(30 - 2 * item)) & 3n)];
    item++;
    if (!kind) continue;
    pieces.push({ kind, address });
    for (const cell of cellsOf(kind, address)) taken[cell] = true;
  }
  return pieces;
}

export function onlineId(pieces) {
  const digits = new Array(CELLS).fill('0');
  for (const piece of pieces) {
    for (const cell of cellsOf(piece.kind, piece.address)) digits[cell] = ONLINE_DIGIT[piece.kind];
  }
  return digits.join('');
}

// The common code of pieces (the inverse of decode): the 2x2's address, then one 2-bit item
// per cell not yet covered, in address order, 0 for an empty cell.
export function encode(pieces) {
  const cao = pieces.find((p) => p.kind === 'cao');
  const taken = occupancy([cao]);
  const at = new Map(pieces.filter((p) => p !== cao).map((p) => [p.address, p]));
  let value = BigInt(cao.address) << 32n;
  let item = 0;
  for (let address = 0; address < CELLS && item < CODE_ITEMS; address++) {
    if (taken[address]) continue;
    const piece = at.get(address);
    const bits = piece ? KIND_OF_ITEM.indexOf(piece.kind) : 0;
    value |= BigInt(bits) << BigInt(30 - 2 * item);
    item++;
    if (piece) for (const cell of cellsOf(piece.kind, address)) taken[cell] = true;
  }
  return value.toString(16).toUpperCase().padStart(9, '0');
}

// The one piece that moves between two layouts a step apart: {kind, from, to}.
export function moveBetween(code, next) {
  const key = (p) => `${p.kind}@${p.address}`;
  const after = new Set(decode(next).map(key));
  const before = decode(code);
  const gone = before.find((p) => !after.has(key(p)));
  const kept = new Set(before.map(key));
  const arrived = decode(next).find((p) => !kept.has(key(p)));
  return gone && arrived ? { kind: gone.kind, from: gone.address, to: arrived.address } : null;
}

export const isGoal = (pieces) => pieces.some(
  (p) => p.kind === 'cao' && p.address === GOAL_ADDRESS);

function span(first, count, one, many) {
  return count === 1 ? `${one} ${first + 1}` : `${many} ${first + 1}-${first + count}`;
}

// "曹操 2×2, rows 1-2, columns 2-3"
export function pieceLabel(kind, address) {
  const [width, height] = SHAPE[kind];
  return `${FACE[kind]} ${width}×${height}, ${span(rowOf(address), height, 'row', 'rows')}, `
    + `${span(colOf(address), width, 'column', 'columns')}`;
}
