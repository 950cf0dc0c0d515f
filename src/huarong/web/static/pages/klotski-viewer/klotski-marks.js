// Judging moves while a person plays: each move of the selected piece marked on the board
// with its verdict (one step closer to a goal, as far as before, one step farther), the same
// told to screen readers, a spoiler-free "moves left" mode that shows only the steps left, and
// the steps lost against the optimum so far.

import { readHelpMode } from '../../components/help-mode.js';
import {
  COLS, ROWS, SHAPE, colOf, pieceLabel, rowOf,
} from '../../lib/klotski-rules.js';
import { state, ui } from './klotski-page.js';

// a verdict's words and sign, so colour is never the only cue
const SHOWN = {
  better: ['▲', 'better'], same: ['●', 'same'], worse: ['▼', 'worse'], none: ['·', 'no goal'],
};

let selected = null; // the element of the selected piece

// The steps lost against the optimum: moves made plus the fewest steps still needed, less the
// fewest the starting layout needed (a step away from the goal loses two, one aside one).
export function showLost(remaining, movesMade) {
  const lost = remaining === null || remaining === undefined || state.optimum === undefined
    ? null : movesMade + remaining - state.optimum;
  ui.stepsLost.textContent = lost === null ? '—' : String(lost);
}

// Where a piece's top-left at address puts its centre, in % of the board.
function centre(kind, address) {
  const [width, height] = SHAPE[kind];
  return [((colOf(address) + width / 2) * 100) / COLS, ((rowOf(address) + height / 2) * 100) / ROWS];
}

const place = (kind, address) => pieceLabel(kind, address).split(', ').slice(1).join(', ');

function target(kind, from, child, verdict) {
  const [sign, word] = SHOWN[verdict ?? 'none'];
  const steps = child.min_steps === null ? 'no goal reachable' : `${child.min_steps} left`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'target';
  button.tabIndex = -1;
  button.dataset.verdict = verdict ?? 'none';
  button.dataset.address = String(child.move.to);
  button.dataset.code = child.code;
  button.setAttribute('aria-label', `Move ${pieceLabel(kind, from)} to `
    + `${place(kind, child.move.to)}: ${word}, ${steps}`);
  const mark = document.createElement('span');
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = sign;
  button.append(mark, ` ${word}`);
  const [left, top] = centre(kind, child.move.to);
  button.style.left = `${left}%`;
  button.style.top = `${top}%`;
  return button;
}

function clearTargets() {
  ui.board.querySelectorAll('.target').forEach((old) => old.remove());
  ui.pieceMoves.textContent = '';
}

const shown = (game) => selected?.isConnected && readHelpMode() === 'verdicts'
  && !state.editing && !game.state.playing;

// Marks the moves of the selected piece (the focused one, or the last one touched) with their
// verdicts, and describes them to a screen reader; nothing in the "moves left" mode.
export function showTargets(game, answers) {
  const code = game.position();
  const piece = selected;
  if (!code || !shown(game)) {
    clearTargets();
    return;
  }
  const { kind } = piece.dataset;
  const from = Number(piece.dataset.address);
  answers.get(code).then((answer) => {
    if (game.position() !== code || selected !== piece) return;
    clearTargets();
    if (!shown(game) || Number(piece.dataset.address) !== from) return;
    const words = [];
    for (const { move, verdict } of answer.moves) {
      if (move.kind !== kind || move.from !== from) continue;
      const child = answer.raw.children.find((each) => each.move === move);
      game.board.cell(rowOf(move.to), colOf(move.to)).append(target(kind, from, child, verdict));
      words.push(`to ${place(kind, move.to)} ${SHOWN[verdict ?? 'none'][1]}`);
    }
    ui.pieceMoves.textContent = words.length ? `Its moves: ${words.join('; ')}.`
      : 'It cannot move.';
  }, () => clearTargets());
}

// The selected piece is described to a screen reader by the list of its judged moves.
export function select(element, game, answers) {
  if (selected && selected !== element) selected.removeAttribute('aria-describedby');
  selected = element;
  selected?.setAttribute('aria-describedby', 'piece-moves');
  showTargets(game, answers);
}
