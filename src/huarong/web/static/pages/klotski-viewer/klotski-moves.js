// Playing by hand: dragging a piece with the mouse or a finger, or moving the focused piece
// with the arrow keys.

import { boardPiece, position } from './klotski-board.js';
import {
  advance, announceMove, enqueue, noteMove, queued, stepMs, stepTo,
} from './klotski-game.js';
import { announce, currentCode, say, state, ui } from './klotski-page.js';
import { select } from './klotski-marks.js';
import {
  COLS, ROWS, colOf, encode, fits, moveBetween, occupancy, pieceLabel, reachable, rowOf,
} from '../../lib/klotski-rules.js';

export const ARROWS = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};
let drag = null;

export function startDrag(event) {
  const el = event.target.closest('.piece');
  // a drag starts from the board as drawn, so not while a slide is still under way
  if (!el || state.editing || state.playing || drag || queued > 0) return;
  const found = boardPiece(el);
  if (!found) return;
  event.preventDefault();
  el.focus({ preventScroll: true });
  select(el);
  el.setPointerCapture(event.pointerId);
  el.classList.add('dragging');
  const box = ui.board.getBoundingClientRect();
  drag = {
    ...found, reach: reachable(state.pieces, found.piece), target: found.piece.address,
    x: event.clientX, y: event.clientY, cellWidth: box.width / COLS, cellHeight: box.height / ROWS,
  };
}

// The piece follows the pointer to the cell under it when it can slide there; elsewhere it
// waits where it started, and a drop there does nothing.
export function moveDrag(event) {
  if (!drag) return;
  const row = Math.round(rowOf(drag.piece.address) + (event.clientY - drag.y) / drag.cellHeight);
  const col = Math.round(colOf(drag.piece.address) + (event.clientX - drag.x) / drag.cellWidth);
  const inside = row >= 0 && row < ROWS && col >= 0 && col < COLS;
  const address = inside ? row * COLS + col : null;
  const target = address !== null && drag.reach.has(address) ? address : drag.piece.address;
  if (target !== drag.target) {
    drag.target = target;
    position(drag.sprite, target);
  }
}

export function endDrag() {
  if (!drag) return;
  const { sprite, piece, target } = drag;
  drag = null;
  sprite.el.classList.remove('dragging');
  position(sprite, piece.address);
  if (target === piece.address) return;
  enqueue(() => movePiece(piece, target, 0));
}

// A hand move. Moving the piece the last step moved extends that step (a step slides one
// piece any distance), so the count stays comparable with the optimum; moving it back where
// the step started takes the step back.
async function movePiece(piece, to, duration) {
  const code = encode(state.pieces.map((p) => (p === piece ? { ...p, address: to } : p)));
  const before = currentCode();
  state.playing = false;
  say('');
  noteMove('player', before, code);
  const last = state.at > 0 ? moveBetween(state.history[state.at - 1], before) : null;
  if (!last || last.kind !== piece.kind || last.to !== piece.address) {
    announceMove(await advance(code, duration), before);
    return;
  }
  const origin = state.history[state.at - 1];
  state.history = state.history.slice(0, code === origin ? state.at : state.at + 1);
  if (code !== origin) state.history[state.at] = code;
  const move = await stepTo(code === origin ? state.at - 1 : state.at, duration);
  announceMove(move, before);
}

// A click on one of the selected piece's marked moves makes that move.
export function moveTo(sprite, to) {
  const found = boardPiece(sprite.el);
  if (!found || state.editing || state.playing || queued > 0) return;
  enqueue(() => movePiece(found.piece, to, stepMs() * 0.4));
}

export function keyMove(el, key) {
  const found = boardPiece(el);
  if (!found || state.editing || queued > 0) return;
  const [dr, dc] = ARROWS[key];
  const { piece } = found;
  const row = rowOf(piece.address) + dr;
  const col = colOf(piece.address) + dc;
  if (!fits(piece.kind, row, col, occupancy(state.pieces, piece))) {
    announce(`${pieceLabel(piece.kind, piece.address)} cannot move that way.`);
    return;
  }
  enqueue(() => movePiece(piece, row * COLS + col, stepMs() * 0.4));
}
