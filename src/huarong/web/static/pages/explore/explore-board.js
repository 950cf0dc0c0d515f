// The explorer's playable board: a layout drawn with the viewer's pieces, stepped by dragging
// a piece or by the arrow keys on a focused piece; every step (one piece slid any distance
// through empty cells) is told to onStep, so the group's graph can follow it.

import { drawKlotski, positionKlotski } from '../../components/klotski-pieces.js';
import { createBoard } from '../../components/piece-board.js';
import {
  COLS, ROWS, colOf, decode, encode, fits, occupancy, reachable, rowOf,
} from '../../lib/klotski-rules.js';

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

export class PlayBoard {
  // board: the element the pieces are drawn in; onStep(code) after each step by hand.
  constructor(board, { onStep }) {
    this.board = board;
    this.view = createBoard(board);
    this.onStep = onStep;
    this.code = null;
    this.pieces = [];
    this.drag = null;
    board.addEventListener('pointerdown', (event) => this.startDrag(event));
    board.addEventListener('pointermove', (event) => this.moveDrag(event));
    board.addEventListener('pointerup', () => this.endDrag());
    board.addEventListener('pointercancel', () => this.endDrag());
    board.addEventListener('keydown', (event) => this.key(event));
  }

  // Shows code: the board keeps the element of every piece that did not move, so a step
  // slides the one piece that moved (explore.css animates it) and it keeps focus.
  show(code) {
    this.code = code;
    this.pieces = decode(code);
    drawKlotski(this.view, this.pieces);
    this.board.dataset.code = code;
  }

  position(el, address) {
    positionKlotski(this.view, el, address);
  }

  pieceOf(el) {
    return this.pieces.find((p) => p.kind === el.dataset.kind
      && p.address === Number(el.dataset.address));
  }

  step(piece, to) {
    const code = encode(this.pieces.map((p) => (p === piece ? { ...p, address: to } : p)));
    this.show(code);
    this.onStep(code);
  }

  key(event) {
    const el = event.target.closest('.piece');
    if (!el || !ARROWS[event.key] || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const piece = this.pieceOf(el);
    const [dr, dc] = ARROWS[event.key];
    const row = rowOf(piece.address) + dr;
    const col = colOf(piece.address) + dc;
    if (fits(piece.kind, row, col, occupancy(this.pieces, piece))) this.step(piece, row * COLS + col);
  }

  // A piece follows the pointer to the cells it can slide to; a drop elsewhere does nothing.
  startDrag(event) {
    const el = event.target.closest('.piece');
    if (!el || this.drag) return;
    const piece = this.pieceOf(el);
    el.setPointerCapture(event.pointerId);
    el.classList.add('dragging');
    const box = this.board.getBoundingClientRect();
    this.drag = {
      el, piece, reach: reachable(this.pieces, piece), target: piece.address,
      x: event.clientX, y: event.clientY, width: box.width / COLS, height: box.height / ROWS,
    };
  }

  moveDrag(event) {
    const { drag } = this;
    if (!drag) return;
    const row = Math.round(rowOf(drag.piece.address) + (event.clientY - drag.y) / drag.height);
    const col = Math.round(colOf(drag.piece.address) + (event.clientX - drag.x) / drag.width);
    const inside = row >= 0 && row < ROWS && col >= 0 && col < COLS;
    const target = inside && drag.reach.has(row * COLS + col) ? row * COLS + col
      : drag.piece.address;
    if (target !== drag.target) {
      drag.target = target;
      this.position(drag.el, target);
    }
  }

  endDrag() {
    const { drag } = this;
    if (!drag) return;
    this.drag = null;
    drag.el.classList.remove('dragging');
    if (drag.target === drag.piece.address) {
      this.position(drag.el, drag.piece.address);
    } else {
      this.step(drag.piece, drag.target);
    }
  }
}
