// Drawing the board: the ARIA grid, one element per piece placed by address, and the
// celebration when the 2x2 reaches the exit.

import {
  COLS, FACE, LETTER, ROWS, colOf, gridOf, pieceLabel, rowOf,
} from './rules.js';
import { reducedMotion, state, ui } from './page.js';

export let sprites = []; // {kind, address, el}: the piece elements on the board
let cells = []; // the board's gridcell elements by address

// The board is an ARIA grid of 5 rows of 4 cells; each piece lives in the cell of its
// top-left corner and is drawn over the board by absolute position (rows and cells are not
// positioned, so the board is the pieces' containing block).
export function buildGrid() {
  cells = [];
  for (let row = 0; row < ROWS; row++) {
    const line = document.createElement('div');
    line.setAttribute('role', 'row');
    line.setAttribute('aria-rowindex', String(row + 1));
    line.className = 'board-row';
    for (let col = 0; col < COLS; col++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-colindex', String(col + 1));
      cell.className = 'board-cell';
      line.append(cell);
      cells.push(cell);
    }
    ui.board.append(line);
  }
}

function createSprite(kind) {
  const el = document.createElement('div');
  el.className = `piece ${kind}`;
  el.dataset.kind = kind;
  el.dataset.piece = LETTER[kind];
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  const face = document.createElement('span');
  face.className = 'face';
  face.setAttribute('aria-hidden', 'true');
  face.textContent = FACE[kind];
  el.append(face);
  return { kind, address: -1, el };
}

// Draws the sprite at an address without moving it in the grid (while it is dragged).
export function position(sprite, address) {
  sprite.el.style.left = `${(colOf(address) * 100) / COLS}%`;
  sprite.el.style.top = `${(rowOf(address) * 100) / ROWS}%`;
}

export function place(sprite, address) {
  sprite.address = address;
  sprite.el.dataset.address = String(address);
  sprite.el.setAttribute('aria-label', pieceLabel(sprite.kind, address));
  position(sprite, address);
  if (sprite.el.parentElement !== cells[address]) {
    const focused = document.activeElement === sprite.el;
    cells[address].append(sprite.el);
    if (focused) sprite.el.focus({ preventScroll: true });
  }
}

// Keeps the element of every piece that did not move, so a slide animates the right block.
export function render(pieces) {
  const spare = [...sprites];
  const kept = [];
  const unmatched = [];
  for (const piece of pieces) {
    const index = spare.findIndex((s) => s.kind === piece.kind && s.address === piece.address);
    if (index >= 0) kept.push(spare.splice(index, 1)[0]);
    else unmatched.push(piece);
  }
  for (const piece of unmatched) {
    const index = spare.findIndex((s) => s.kind === piece.kind);
    const sprite = index >= 0 ? spare.splice(index, 1)[0] : createSprite(piece.kind);
    place(sprite, piece.address);
    kept.push(sprite);
  }
  for (const sprite of spare) sprite.el.remove();
  sprites = kept;
  ui.board.dataset.grid = gridOf(pieces);
}

export const cellAt = (address) => cells[address];

export function celebrate(solved) {
  ui.celebration.hidden = !solved;
  ui.board.classList.toggle('won', solved);
  ui.celebration.querySelectorAll('.confetti').forEach((bit) => bit.remove());
  if (!solved || reducedMotion.matches) return;
  const colours = ['#c0392b', '#e6b34a', '#2e6b5e', '#f4e3c1', '#8e2a1f'];
  for (let i = 0; i < 28; i++) {
    const bit = document.createElement('i');
    bit.className = 'confetti';
    bit.style.left = `${Math.random() * 100}%`;
    bit.style.background = colours[i % colours.length];
    bit.style.animationDelay = `${Math.random() * 0.6}s`;
    bit.style.setProperty('--drift', `${(Math.random() - 0.5) * 80}px`);
    ui.celebration.append(bit);
  }
}

export function boardPiece(el) {
  const sprite = sprites.find((s) => s.el === el);
  const piece = sprite
    && state.pieces.find((p) => p.kind === sprite.kind && p.address === sprite.address);
  return piece ? { sprite, piece } : null;
}
