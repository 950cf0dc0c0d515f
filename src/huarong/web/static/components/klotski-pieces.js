// Klotski's pieces ({kind, address}) on the shared board (piece-board.js), for the viewer's
// board and the explorer's: the lacquered tiles, each piece's element carrying its kind and
// address, the 2x2's goal outlined above the gate.

import {
  COLS, FACE, LETTER, ROWS, cellsOf, colOf, pieceLabel, rowOf,
} from '../lib/klotski-rules.js';

const GOAL_ADDRESS = 13; // the 2x2's top-left cell when it stands at the gate
const cellsAt = (kind, address) => cellsOf(kind, address).map((cell) => [rowOf(cell), colOf(cell)]);
const GOAL = [{ letter: LETTER.cao, cells: cellsAt('cao', GOAL_ADDRESS) }];

// Keeps the element of every piece that did not move (so a slide animates the right block)
// and returns the pieces' elements in their order.
export function drawKlotski(board, pieces) {
  const elements = board.draw({
    rows: ROWS,
    columns: COLS,
    family: 'klotski',
    goal: GOAL,
    pieces: pieces.map((piece) => ({
      key: piece.kind,
      letter: LETTER[piece.kind],
      cells: cellsAt(piece.kind, piece.address),
      text: FACE[piece.kind],
      label: pieceLabel(piece.kind, piece.address),
      classes: ['piece', piece.kind],
    })),
  });
  elements.forEach((el, index) => {
    el.dataset.kind = pieces[index].kind;
    el.dataset.address = String(pieces[index].address);
  });
  return elements;
}

// The piece's element now stands at address.
export function settleKlotski(board, el, address) {
  el.dataset.address = String(address);
  el.setAttribute('aria-label', pieceLabel(el.dataset.kind, address));
  board.settle(el, cellsAt(el.dataset.kind, address));
}

// Draws the piece's element at address, leaving it where it stands (a drag under way).
export function positionKlotski(board, el, address) {
  board.position(el, rowOf(address), colOf(address));
}
