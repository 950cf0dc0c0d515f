// The viewer's board: its sprites (the pieces' elements, drawn by klotski-board.js on the
// shared board) and the celebration when the 2x2 reaches the exit.

import { createBoard } from '../../components/piece-board.js';
import { drawKlotski, positionKlotski, settleKlotski } from '../../components/klotski-pieces.js';
import { colOf, rowOf } from '../../lib/klotski-rules.js';
import { reducedMotion, state, ui } from './klotski-page.js';

export let sprites = []; // {kind, address, el}: the piece elements on the board
let board = null;

export function buildGrid() {
  board = createBoard(ui.board);
  render([]);
}

// Draws the sprite at an address without moving it in the grid (while it is dragged).
export function position(sprite, address) {
  positionKlotski(board, sprite.el, address);
}

export function place(sprite, address) {
  sprite.address = address;
  settleKlotski(board, sprite.el, address);
}

export function render(pieces) {
  const elements = drawKlotski(board, pieces);
  sprites = pieces.map(({ kind, address }, index) => ({ kind, address, el: elements[index] }));
}

export const cellAt = (address) => board.cell(rowOf(address), colOf(address));

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
