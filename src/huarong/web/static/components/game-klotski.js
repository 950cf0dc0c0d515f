// The game's adapter for Klotski's common codes (lib/klotski-rules.js): the lacquered pieces
// drawn on the board, each element carrying its kind and address, the 2x2's goal outlined
// above the gate; where a piece can go (found here, by the rules, with no answer needed);
// /api/next's answers in the game's terms; and a step that goes on moving the piece the last
// step moved (one piece slid any distance is one step).

import {
  COLS, FACE, KIND_NAME, LETTER, ROWS, cellsOf, colOf, decode, encode, moveBetween,
  pieceLabel, reachable, routeTo, rowOf,
} from '../lib/klotski-rules.js';

const GOAL_ADDRESS = 13; // the 2x2's top-left cell when it stands at the gate
const cellsAt = (kind, address) => cellsOf(kind, address).map((cell) => [rowOf(cell), colOf(cell)]);
const GOAL = [{ letter: LETTER.cao, cells: cellsAt('cao', GOAL_ADDRESS) }];
const cornerOf = (address) => [rowOf(address), colOf(address)];

// Draws pieces ({kind, address}), the moved one (if any) sliding through via (top-left
// corners) over duration ms; every piece that did not move keeps its element.
export function drawKlotski(board, pieces, { via = [], duration = 0 } = {}) {
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
      via,
    })),
  }, { duration });
  elements.forEach((el, index) => {
    el.dataset.kind = pieces[index].kind;
    el.dataset.address = String(pieces[index].address);
  });
  return elements;
}

// The server's verdict for a child of /api/next, else the same judged from the minimum steps
// (servers before verdicts send none): null when no goal can be reached.
export function verdictOf(child, here) {
  if (child.verdict !== undefined) return child.verdict;
  if (child.min_steps === null || child.min_steps === undefined || here === null) return null;
  if (child.min_steps < here) return 'better';
  return child.min_steps > here ? 'worse' : 'same';
}

// /api/next's answer for a code, in the game's terms (lib/answers.js).
export function klotskiAnswer(next) {
  const moves = next.children.map((child) => ({
    to: child.code, verdict: verdictOf(child, next.min_steps), minSteps: child.min_steps,
    move: child.move,
  }));
  return {
    minSteps: next.min_steps,
    solved: next.min_steps === 0,
    moves,
    best: moves.find((move) => move.to === next.best?.[0]) ?? null,
    raw: next,
  };
}

// The piece an element draws, in the pieces of code.
function pieceOf(code, el) {
  const pieces = decode(code);
  const piece = pieces.find((p) => p.kind === el.dataset.kind
    && p.address === Number(el.dataset.address));
  return { pieces, piece };
}

function landings(code, el) {
  const { pieces, piece } = pieceOf(code, el);
  if (!piece) return [];
  const [row, column] = cornerOf(piece.address);
  return [...reachable(pieces, piece).keys()].filter((to) => to !== piece.address)
    .map((to) => ({
      offset: [rowOf(to) - row, colOf(to) - column],
      to: encode(pieces.map((p) => (p === piece ? { ...p, address: to } : p))),
    }));
}

export const klotskiPositions = {
  draw(board, code, { before = null, duration = 0 }) {
    const pieces = decode(code);
    const move = before && duration ? moveBetween(before, code) : null;
    let via = [];
    if (move) {
      const earlier = decode(before);
      const piece = earlier.find((p) => p.kind === move.kind && p.address === move.from);
      via = (routeTo(reachable(earlier, piece), move.to) ?? []).slice(1, -1).map(cornerOf);
    }
    drawKlotski(board, pieces, { via, duration: move ? duration : 0 });
  },
  landings,
  keyLanding: (code, el, [dr, dc]) => landings(code, el)
    .find(({ offset }) => offset[0] === dr && offset[1] === dc) ?? null,
  // Whether the move before -> to slides on the piece that the step earlier -> before moved.
  continues(earlier, before, to) {
    const last = moveBetween(earlier, before);
    const now = moveBetween(before, to);
    return Boolean(last && now && last.kind === now.kind && last.to === now.from);
  },
  recordOf(from, to) {
    const move = moveBetween(from, to);
    return { piece: move ? KIND_NAME[move.kind] ?? move.kind : null };
  },
  hintedPiece(board, code, best) {
    const move = moveBetween(code, best.to);
    return move ? board.element.querySelector(
      `.piece[data-kind="${move.kind}"][data-address="${move.from}"]`) : null;
  },
};
