// Judging moves while a person plays: each legal move of the selected piece marked on the board
// with its verdict (one step closer to a goal, as far as before, one step farther), the same
// told to screen readers, a spoiler-free "moves left" mode that shows only the steps left, and
// the steps lost against the optimum so far.

import { hintsFor } from '../../lib/api.js';
import { readHelpMode } from '../../components/help-mode.js';
import { cellAt, sprites } from './klotski-board.js';
import { currentCode, state, ui } from './klotski-page.js';
import { COLS, ROWS, SHAPE, colOf, pieceLabel, rowOf } from '../../lib/klotski-rules.js';

// a verdict's words and sign, so colour is never the only cue
const SHOWN = {
  better: ['▲', 'better'], same: ['●', 'same'], worse: ['▼', 'worse'], none: ['·', 'no goal'],
};

let selected = null; // the element of the selected piece

// The server's verdict for a child of /api/next, else the same judged from the minimum steps
// (servers before verdicts send none): null when no goal can be reached.
export function verdictOf(child, here) {
  if (child.verdict !== undefined) return child.verdict;
  if (child.min_steps === null || child.min_steps === undefined || here === null) return null;
  if (child.min_steps < here) return 'better';
  return child.min_steps > here ? 'worse' : 'same';
}

// The steps lost against the optimum: moves made plus the fewest steps still needed, less the
// fewest the starting layout needed (a step away from the goal loses two, one aside one).
export function showLost(remaining) {
  const lost = remaining === null || remaining === undefined || state.optimum === undefined
    ? null : state.at + remaining - state.optimum;
  ui.stepsLost.textContent = lost === null ? '—' : String(lost);
}

// Where a piece's top-left at address puts its centre, in % of the board.
function centre(kind, address) {
  const [width, height] = SHAPE[kind];
  return [((colOf(address) + width / 2) * 100) / COLS, ((rowOf(address) + height / 2) * 100) / ROWS];
}

const place = (kind, address) => pieceLabel(kind, address).split(', ').slice(1).join(', ');

function target(sprite, child, verdict) {
  const [sign, word] = SHOWN[verdict ?? 'none'];
  const steps = child.min_steps === null ? 'no goal reachable' : `${child.min_steps} left`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'target';
  button.tabIndex = -1;
  button.dataset.verdict = verdict ?? 'none';
  button.dataset.address = String(child.move.to);
  button.dataset.code = child.code;
  button.setAttribute('aria-label', `Move ${pieceLabel(sprite.kind, sprite.address)} to `
    + `${place(sprite.kind, child.move.to)}: ${word}, ${steps}`);
  const mark = document.createElement('span');
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = sign;
  button.append(mark, ` ${word}`);
  const [left, top] = centre(sprite.kind, child.move.to);
  button.style.left = `${left}%`;
  button.style.top = `${top}%`;
  return button;
}

function clearTargets() {
  ui.board.querySelectorAll('.target').forEach((old) => old.remove());
  ui.pieceMoves.textContent = '';
}

// Marks the moves of the selected piece (the focused one, or the last one touched) with their
// verdicts, and describes them to a screen reader; nothing in the "moves left" mode.
export function showTargets() {
  const sprite = sprites.find((s) => s.el === selected);
  const code = currentCode();
  if (!sprite || !code || readHelpMode() !== 'verdicts' || state.editing || state.playing) {
    clearTargets();
    return;
  }
  hintsFor(code).then((next) => {
    if (currentCode() !== code || sprites.find((s) => s.el === selected) !== sprite) return;
    clearTargets();
    if (readHelpMode() !== 'verdicts' || state.editing || state.playing) return;
    const moves = next.children.filter((child) => child.move.kind === sprite.kind
      && child.move.from === sprite.address);
    const words = [];
    for (const child of moves) {
      const verdict = verdictOf(child, next.min_steps);
      cellAt(child.move.to).append(target(sprite, child, verdict));
      words.push(`to ${place(sprite.kind, child.move.to)} ${SHOWN[verdict ?? 'none'][1]}`);
    }
    ui.pieceMoves.textContent = words.length ? `Its moves: ${words.join('; ')}.`
      : 'It cannot move.';
  }, () => clearTargets());
}

// The selected piece is described to a screen reader by the list of its judged moves.
export function select(element) {
  if (selected && selected !== element) selected.removeAttribute('aria-describedby');
  selected = element;
  selected?.setAttribute('aria-describedby', 'piece-moves');
  showTargets();
}

export const selectedPiece = () => sprites.find((s) => s.el === selected) ?? null;

// The verdict of the step from before to the board now, for the announcement after a move.
export async function verdictOfStep(before) {
  if (readHelpMode() !== 'verdicts' || !before) return null;
  const next = await hintsFor(before);
  const child = next.children.find((c) => c.code === currentCode());
  return child ? verdictOf(child, next.min_steps) : null;
}
