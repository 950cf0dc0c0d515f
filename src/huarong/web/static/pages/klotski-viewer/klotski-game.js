// The game: every board the player reached, one step apart, the readouts drawn from it, the
// queue that keeps slides from overlapping, and loading a layout by any of its names.

import { ApiError, api, hintsFor, knownSteps, learnShortCode, shortCodes } from '../../lib/api.js';
import { celebrate, place, render, sprites } from './klotski-board.js';
import { createLadder } from '../../components/hint-ladder.js';
import { createRecord, verdictBetween } from '../../components/play-record.js';
import {
  announce, classicNames, currentCode, reducedMotion, say, showError, state, ui,
} from './klotski-page.js';
import {
  COLS, KIND_NAME, ROWS, colOf, decode, encode, isGoal, moveBetween, pieceLabel, reachable,
  routeTo, rowOf,
} from '../../lib/klotski-rules.js';
import { showLost, showTargets, verdictOfStep } from './klotski-marks.js';

const SOLVED_KEY = 'huarong.solved';
const BASE_STEP_MS = 1600;
export const PAUSE_FRACTION = 0.3;

// ---- readouts -----------------------------------------------------------------------------

const hints = createLadder(); // this game's graded hints
export const record = createRecord(); // this game's moves, hints and times

// A move into the record: ``by`` the player, a hint or the solution; its verdict and the
// steps left after it, ``known`` (a solution's step: no request) or once the server has told
// them (usually at once: they are cached).
export function noteMove(by, from, to, known = null) {
  const move = moveBetween(from, to);
  const event = record.note('move', {
    by, piece: move ? KIND_NAME[move.kind] ?? move.kind : null, from, to, verdict: null,
    moves_left: null, ...known,
  });
  if (known) return;
  Promise.all([hintsFor(from), hintsFor(to)]).then(([before, after]) => {
    event.moves_left = after.min_steps;
    event.verdict = verdictBetween(before.min_steps, after.min_steps);
  }).catch(() => {});
}

// The solution step the board is at, or -1 when the board has left the solution.
export function solutionStep() {
  const { solution } = state;
  if (!solution) return -1;
  const step = state.at - solution.base;
  return step >= 0 && step < solution.path.length && solution.path[step] === currentCode()
    ? step : -1;
}

function solvedCodes() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) ?? '[]'));
  } catch {
    return new Set();
  }
}

function rememberSolved(code) {
  const solved = solvedCodes();
  if (solved.has(code)) return;
  solved.add(code);
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved]));
  } catch {
    // storage full or refused (private mode): the tick just does not persist
  }
}

function progressText(remaining) {
  const moves = state.at;
  const optimum = state.optimum;
  const made = `${moves} move${moves === 1 ? '' : 's'}`;
  if (isGoal(state.pieces) && moves > 0) {
    return optimum === undefined ? `Solved in ${made}` : `Solved in ${made} (optimum ${optimum})`;
  }
  if (remaining === undefined) return made;
  if (remaining === null) return `${made} · no solution from here`;
  return `${made} · ${remaining} to go at best`;
}

// Redraws every readout from the state; asks /api/next only when the board is off the
// solution (playback knows the remaining steps from the solution itself).
export function refresh() {
  const code = currentCode();
  for (const el of ui.board.querySelectorAll('.hinted')) el.classList.remove('hinted');
  const step = solutionStep();
  if (state.solution && step < 0) dropSolution();
  const total = state.solution ? state.solution.moves.length : 0;
  ui.counter.textContent = `${Math.max(step, 0)} / ${total}`;
  ui.play.disabled = !state.solution || total === 0;
  ui.back.disabled = !state.solution || step <= 0;
  ui.forward.disabled = !state.solution || step === total;
  if (state.playing) ui.play.textContent = '❚❚ Pause';
  else if (state.solution && total > 0 && step === total) ui.play.textContent = '↺ Replay';
  else ui.play.textContent = '▶ Play';
  ui.undo.disabled = state.at === 0;
  ui.redo.disabled = state.at >= state.history.length - 1;
  ui.restart.disabled = state.at === 0;
  ui.movesMade.textContent = String(state.at);
  ui.currentCode.textContent = code ?? '';
  showCodeLinks(code);
  const classic = classicNames.get(code) ?? classicNames.get(state.history[0]);
  ui.layoutName.textContent = classic ? `${classic.name} · ${classic.name_en}` : '';
  const solved = solvedCodes();
  for (const item of document.querySelectorAll('.classic[data-code]')) {
    item.classList.toggle('active', item.dataset.code === state.history[0]);
    item.classList.toggle('solved', solved.has(item.dataset.code));
  }
  let remaining;
  if (state.solution) {
    remaining = total - step;
  } else if (code) {
    remaining = knownSteps.get(code);
    hintsFor(code).then((next) => {
      if (currentCode() !== code || state.solution || state.editing) return;
      showCodeLinks(code);
      ui.remaining.textContent = next.min_steps === null ? 'no solution' : String(next.min_steps);
      ui.progress.textContent = progressText(next.min_steps);
      showLost(next.min_steps);
    }).catch((error) => say(error.message));
  }
  if (remaining === null) ui.remaining.textContent = 'no solution';
  else ui.remaining.textContent = remaining === undefined ? '…' : String(remaining);
  ui.progress.textContent = progressText(remaining);
  showLost(remaining);
  showTargets();
}

// Beside the board's common code: its short code (once the server has told it) and a link to
// its group's graph in the explorer.
export function showCodeLinks(code) {
  const short = code ? shortCodes.get(code) : undefined;
  ui.shortCode.textContent = short ?? '';
  ui.shortCode.hidden = !short;
  ui.groupLink.hidden = !code;
  if (code) ui.groupLink.href = `/explore#/group/${code}`;
  if (code) {
    ui.printLink.href = `/api/puzzles/card?${new URLSearchParams({ start: code, format: 'pdf' })}`;
  }
}

// ---- history: every board the player reached, one step apart -----------------------------

// Draws history[at] at once, no animation.
export function showCurrent() {
  const code = currentCode();
  state.pieces = decode(code);
  render(state.pieces);
  const goal = isGoal(state.pieces);
  celebrate(goal);
  if (goal && state.at > 0) rememberSolved(state.history[0]);
  refresh();
}

// Closes the editor's panel; the board is redrawn by whoever closes it.
export function closeEditor() {
  state.editing = false;
  state.editRequest += 1;
  ui.editor.hidden = true;
  ui.editButton.textContent = 'Edit';
  ui.editButton.disabled = false;
  ui.board.classList.remove('editing');
}

// Leaves the editor for the game's board as it was.
export function stopEditing() {
  if (!state.editing) return;
  closeEditor();
  showCurrent();
}

export function dropSolution() {
  state.solution = null;
  state.playing = false;
}

// A new game from code: the address names it (without adding a browser history entry).
export function startGame(code) {
  stopEditing();
  dropSolution();
  state.history = [code];
  state.at = 0;
  hints.reset();
  ui.hintsUsed.textContent = '0';
  record.start({ title: 'Klotski', start: code, goal: 'the 2×2 at the exit', metric: 'step' });
  state.optimum = undefined;
  if (decodeURIComponent(location.hash.slice(1)) !== code) {
    history.replaceState(null, '', `#${code}`);
  }
  hintsFor(code).then((next) => {
    if (state.history[0] !== code) return;
    record.learn({ min_steps: next.min_steps });
    state.optimum = next.min_steps ?? undefined;
    if (!state.solution) refresh();
  }).catch(() => {});
  say('');
  showCurrent();
}

export const stepMs = () => BASE_STEP_MS / Number(ui.speed.value);
export const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function slide(pieces, from, to, kind, duration) {
  const piece = pieces.find((p) => p.kind === kind && p.address === from);
  const sprite = sprites.find((s) => s.kind === kind && s.address === from);
  if (!piece || !sprite) throw new Error(`no ${KIND_NAME[kind]} at address ${from}`);
  const route = routeTo(reachable(pieces, piece), to) ?? [from, to];
  place(sprite, to);
  if (reducedMotion.matches) return;
  const frames = route.map((address) => ({
    left: `${(colOf(address) * 100) / COLS}%`,
    top: `${(rowOf(address) * 100) / ROWS}%`,
  }));
  sprite.el.classList.add('moving');
  await sprite.el.animate(frames, { duration, easing: 'cubic-bezier(.5,.05,.3,1)' }).finished;
  sprite.el.classList.remove('moving');
}

// Moves the board to history[index], one step from where it is, sliding the piece.
export async function stepTo(index, duration = stepMs() * (1 - PAUSE_FRACTION)) {
  const move = moveBetween(encode(state.pieces), state.history[index]);
  if (move) await slide(state.pieces, move.from, move.to, move.kind, duration);
  state.at = index;
  showCurrent();
  return move;
}

// Plays one step to code: the redo list is kept when the step is its next entry.
export async function advance(code, duration = undefined) {
  if (state.history[state.at + 1] !== code) {
    state.history = [...state.history.slice(0, state.at + 1), code];
  }
  return stepTo(state.at + 1, duration);
}

// Tells a screen reader what moved and how far the goal is, once that is known; a hand move
// from the layout before also gets its verdict (in the mode that judges moves).
export async function announceMove(move, before = null) {
  if (!move) return;
  const code = currentCode();
  const step = solutionStep();
  let remaining = step >= 0 ? state.solution.moves.length - step : undefined;
  if (remaining === undefined) {
    remaining = await hintsFor(code).then((next) => next.min_steps, () => undefined);
  }
  const verdict = await verdictOfStep(before).catch(() => null);
  if (currentCode() === code) {
    announce(`Moved ${pieceLabel(move.kind, move.to)}${verdict ? `: ${verdict}` : ''}. `
      + `${progressText(remaining)}`);
  }
}

// Every change to the board runs through this queue, so slides never overlap.
let queue = Promise.resolve();
export let queued = 0;
export function enqueue(task) {
  queued += 1;
  queue = queue.then(task).catch((error) => say(error.message)).finally(() => { queued -= 1; });
  return queue;
}

export function undo() {
  state.playing = false;
  enqueue(async () => {
    if (state.at === 0) return;
    record.note('undo', { to: state.history[state.at - 1] });
    announceMove(await stepTo(state.at - 1));
  });
}

export function redo() {
  state.playing = false;
  enqueue(async () => {
    if (state.at >= state.history.length - 1) return;
    record.note('redo', { to: state.history[state.at + 1] });
    announceMove(await stepTo(state.at + 1));
  });
}

export function restart() {
  state.playing = false;
  enqueue(() => {
    if (state.editing || state.at === 0) return;
    record.note('restart', { to: state.history[0] });
    state.at = 0;
    showCurrent();
    announce(`Back to the start. ${ui.progress.textContent}`);
  });
}

// Graded (hint-ladder.js): how far, then which piece (outlined on the board), then the step.
export function hint() {
  state.playing = false;
  enqueue(async () => {
    if (state.editing) return;
    const code = currentCode();
    const rung = hints.climb(`${state.at}:${code}`);
    ui.hintsUsed.textContent = String(hints.used);
    record.note('hint', { rung, at: code });
    const next = await hintsFor(code);
    if (currentCode() !== code) return;
    if (next.min_steps === null) {
      say('No hint: the 2×2 can never reach the exit from this layout.');
    } else if (next.min_steps === 0) {
      say('Already solved.');
    } else if (rung === 'distance') {
      say(`Solvable in ${next.min_steps} step${next.min_steps === 1 ? '' : 's'} from here.`);
    } else if (rung === 'piece') {
      const move = moveBetween(code, next.best[0]);
      const sprite = move && sprites.find((s) => s.address === move.from && s.kind === move.kind);
      sprite?.el.classList.add('hinted');
      say(move ? `Move ${pieceLabel(move.kind, move.from)}.` : '');
    } else {
      say('');
      noteMove('hint', code, next.best[0]);
      announceMove(await advance(next.best[0]));
    }
  });
}

// Resolves to whether the text named a layout (else the API's reason is shown).
export async function loadLayout(text) {
  ui.error.hidden = true;
  const wanted = text.trim();
  if (!wanted) {
    showError('Enter a common code, a klotski.online id or a grid.');
    return false;
  }
  let layout;
  try {
    layout = await api('/api/layout', { code: wanted });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showError(error.message);
    return false;
  }
  learnShortCode(layout);
  state.playing = false;
  await enqueue(() => startGame(layout.code));
  return true;
}


// After picking a layout further down the page (below the board on a phone), bring the
// board back into view.
export function revealBoard() {
  const box = ui.frame.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  ui.frame.scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth', block: 'center' });
}
