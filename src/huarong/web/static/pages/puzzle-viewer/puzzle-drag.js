// Dragging a piece of the puzzles viewer with a mouse, a pen or a finger (pointer events): the
// piece's element follows the pointer to the nearest place it can move to (along its line for
// a slide, round corners for a step, one cell for a unit move), and lands there when
// released; a release where it started moves nothing.

import { pieceCells, rowsOf } from '../../lib/grid-text.js';

// board: a board of piece-board.js; landings(letter) resolves to the piece's moves as
// [{offset: [rows, columns], move}]; land(move) makes one.
export function draggable(board, { landings, land }) {
  const { element } = board;
  let drag = null;

  function release() {
    drag?.el.classList.remove('dragging');
    drag = null;
  }

  element.addEventListener('pointerdown', async (event) => {
    const el = event.target.closest('.pb-piece');
    if (!el || event.button > 0) return;
    const grid = element.dataset.grid;
    const cells = pieceCells(grid).get(el.dataset.piece);
    const box = element.getBoundingClientRect();
    const taken = {
      el,
      x: event.clientX,
      y: event.clientY,
      top: Math.min(...cells.map(([r]) => r)),
      left: Math.min(...cells.map(([, c]) => c)),
      size: box.width / rowsOf(grid)[0].length,
      offset: [0, 0],
      options: null,
    };
    drag = taken;
    element.setPointerCapture(event.pointerId);
    const options = await landings(el.dataset.piece);
    if (drag === taken) drag.options = options;
  });

  element.addEventListener('pointermove', (event) => {
    if (!drag?.options) return;
    const rows = (event.clientY - drag.y) / drag.size;
    const columns = (event.clientX - drag.x) / drag.size;
    let nearest = [0, 0];
    let distance = Math.hypot(rows, columns);
    for (const { offset } of drag.options) {
      const away = Math.hypot(rows - offset[0], columns - offset[1]);
      if (away < distance) [nearest, distance] = [offset, away];
    }
    drag.offset = nearest;
    drag.el.classList.add('dragging');
    board.position(drag.el, drag.top + nearest[0], drag.left + nearest[1]);
  });

  element.addEventListener('pointerup', () => {
    if (!drag) return;
    const { el, top, left, offset, options } = drag;
    const chosen = options?.find((option) => option.offset[0] === offset[0]
      && option.offset[1] === offset[1] && (offset[0] || offset[1]));
    release();
    if (chosen) land(chosen.move);
    else board.position(el, top, left);
  });
  element.addEventListener('pointercancel', () => {
    if (drag) board.position(drag.el, drag.top, drag.left);
    release();
  });
}
