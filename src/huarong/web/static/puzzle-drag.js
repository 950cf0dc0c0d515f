// Dragging a piece of the puzzles viewer with a mouse, a pen or a finger (pointer events): the
// piece follows the pointer to the nearest place it can move to (along its line for a slide,
// round corners for a step, one cell for a unit move), and lands there when released; a
// release where it started moves nothing.

export function draggable(board, { landings, land }) {
  let drag = null;

  function shift(offset) {
    for (const el of board.querySelectorAll(`.pcell[data-piece="${drag.letter}"]`)) {
      el.classList.add('dragging');
      el.style.transform = `translate(${offset[1] * drag.size}px, ${offset[0] * drag.size}px)`;
    }
  }

  function release() {
    for (const el of board.querySelectorAll('.pcell.dragging')) {
      el.classList.remove('dragging');
      el.style.transform = '';
    }
    drag = null;
  }

  board.addEventListener('pointerdown', async (event) => {
    const cell = event.target.closest('.pcell.filled');
    if (!cell || event.button > 0) return;
    const letter = cell.dataset.piece;
    const taken = { letter, x: event.clientX, y: event.clientY, offset: [0, 0], options: null,
      size: cell.getBoundingClientRect().width };
    drag = taken;
    board.setPointerCapture(event.pointerId);
    const options = await landings(letter);
    if (drag === taken) drag.options = options;
  });

  board.addEventListener('pointermove', (event) => {
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
    shift(nearest);
  });

  board.addEventListener('pointerup', () => {
    if (!drag) return;
    const { offset, options } = drag;
    const chosen = options?.find((option) => option.offset[0] === offset[0]
      && option.offset[1] === offset[1]);
    release();
    if (chosen) land(chosen.move);
  });
  board.addEventListener('pointercancel', release);
}
