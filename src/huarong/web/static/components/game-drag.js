// The one drag of a piece, with a mouse, a pen or a finger (pointer events): a press grabs
// the piece whose cell is under the pointer (by the cells it covers, so a wall or an empty
// cell inside a piece's box grabs nothing), the piece follows the pointer to the landing
// under it (elsewhere it waits where it started), and a release on a landing makes that move;
// a release where it started moves nothing.

// board: a board of piece-board.js. landings(el) gives, or resolves to, the piece's moves as
// [{offset: [rows, columns], ...}]; land(landing) makes one; allowed() says whether a drag may
// start now; presses on elements matching ignore are left to the page.
export function bindDrag(board, { landings, land, allowed = () => true, ignore = null }) {
  const { element } = board;
  let drag = null;

  function cellUnder(event) {
    const box = element.getBoundingClientRect();
    return [Math.floor(((event.clientY - box.top) / box.height) * board.rows()),
      Math.floor(((event.clientX - box.left) / box.width) * board.columns())];
  }

  function release() {
    drag?.el.classList.remove('dragging');
    drag = null;
  }

  element.addEventListener('pointerdown', async (event) => {
    if (event.button > 0 || drag || (ignore && event.target.closest(ignore)) || !allowed()) return;
    const el = board.pieceAt(...cellUnder(event));
    if (!el) return;
    event.preventDefault();
    el.focus({ preventScroll: true });
    const box = element.getBoundingClientRect();
    const [top, left] = board.cornerOf(el);
    const taken = {
      el, top, left, x: event.clientX, y: event.clientY, offset: [0, 0], options: null,
      height: box.height / board.rows(), width: box.width / board.columns(),
    };
    drag = taken;
    element.setPointerCapture(event.pointerId);
    const options = await landings(el);
    if (drag === taken) drag.options = options;
  });

  element.addEventListener('pointermove', (event) => {
    if (!drag?.options) return;
    const wanted = [Math.round((event.clientY - drag.y) / drag.height),
      Math.round((event.clientX - drag.x) / drag.width)];
    const landing = drag.options.find(({ offset }) => offset[0] === wanted[0]
      && offset[1] === wanted[1]);
    const offset = landing ? wanted : [0, 0];
    drag.el.classList.add('dragging');
    if (offset[0] === drag.offset[0] && offset[1] === drag.offset[1]) return;
    drag.offset = offset;
    board.position(drag.el, drag.top + offset[0], drag.left + offset[1]);
  });

  element.addEventListener('pointerup', () => {
    if (!drag) return;
    const { el, top, left, offset, options } = drag;
    const chosen = options?.find((option) => option.offset[0] === offset[0]
      && option.offset[1] === offset[1] && (offset[0] || offset[1]));
    release();
    if (chosen) land(chosen);
    else board.position(el, top, left);
  });

  element.addEventListener('pointercancel', () => {
    if (drag) board.position(drag.el, drag.top, drag.left);
    release();
  });
}
