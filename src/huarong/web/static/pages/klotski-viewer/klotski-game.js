// The Klotski viewer's game (components/game.js over Klotski's codes) and what the page
// draws from it: the readouts, the celebration at the gate, the ticks of solved classics,
// the words said after each move, hint and solution, and loading a layout by any name.

import { createAnswers } from '../../lib/answers.js';
import { ApiError, api } from '../../lib/api.js';
import { plural } from '../../lib/format.js';
import { decode, isGoal, moveBetween, pieceLabel } from '../../lib/klotski-rules.js';
import { createGame } from '../../components/game.js';
import { klotskiAnswer, klotskiPositions } from '../../components/game-klotski.js';
import { first } from '../../components/game-history.js';
import { difficultyLine, drawDifficulty } from '../../components/difficulty-line.js';
import { readHelpMode } from '../../components/help-mode.js';
import { showLost, showTargets } from './klotski-marks.js';
import {
  announce, classicNames, knownSteps, learnShortCode, reducedMotion, say, shortCodes,
  showError, state, ui,
} from './klotski-page.js';

const SOLVED_KEY = 'huarong.solved';
const difficulty = difficultyLine('layout-difficulty', ui.progress);
const BASE_STEP_MS = 1600;
const NO_WAY_OUT = 'the 2×2 can never reach the exit from this layout.';

export const answers = createAnswers((code) => api('/api/next', { code }).then((next) => {
  learnShortCode(next);
  for (const child of next.children) {
    knownSteps.set(child.code, child.min_steps);
    learnShortCode(child);
  }
  return klotskiAnswer(next);
}));

export const stepMs = () => BASE_STEP_MS / Number(ui.speed.value);

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

function progressText(remaining) {
  const moves = game.state.history.at;
  const made = plural(moves, 'move');
  if (isGoal(decode(game.position())) && moves > 0) {
    return state.optimum === undefined ? `Solved in ${made}`
      : `Solved in ${made} (optimum ${state.optimum})`;
  }
  if (remaining === undefined) return made;
  if (remaining === null) return `${made} · no solution from here`;
  return `${made} · ${remaining} to go at best`;
}

// Beside the board's common code: its short code (once the server has told it) and links to
// its group's graph in the explorer and to its card.
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

function showRemaining(remaining) {
  if (remaining === null) ui.remaining.textContent = 'no solution';
  else ui.remaining.textContent = remaining === undefined ? '…' : String(remaining);
  ui.progress.textContent = progressText(remaining);
  showLost(remaining, game.state.history.at);
}

// Redraws every readout from the game; asks for the answer only when the board is off the
// solution (playback knows the steps left from the solution itself).
export function refresh() {
  const code = game.position();
  if (state.editing || !code) return;
  const { history, solution, playing } = game.state;
  const step = game.solutionStep();
  const total = solution ? solution.path.length - 1 : 0;
  ui.counter.textContent = `${Math.max(step, 0)} / ${total}`;
  ui.play.disabled = !solution || total === 0;
  ui.back.disabled = !solution || step <= 0;
  ui.forward.disabled = !solution || step === total;
  if (playing) ui.play.textContent = '❚❚ Pause';
  else if (solution && total > 0 && step === total) ui.play.textContent = '↺ Replay';
  else ui.play.textContent = '▶ Play';
  ui.undo.disabled = !game.canUndo();
  ui.redo.disabled = !game.canRedo();
  ui.restart.disabled = history.at === 0;
  ui.hint.disabled = false;
  ui.movesMade.textContent = String(history.at);
  ui.hintsUsed.textContent = String(game.hintsUsed());
  ui.currentCode.textContent = code;
  showCodeLinks(code);
  const classic = classicNames.get(code) ?? classicNames.get(first(history));
  ui.layoutName.textContent = classic ? `${classic.name} · ${classic.name_en}` : '';
  const start = first(history);
  if (start !== state.gradedStart) {
    state.gradedStart = start;
    drawDifficulty(difficulty, { start }, () => state.gradedStart === start);
  }
  const goal = isGoal(decode(code));
  if (goal === ui.celebration.hidden) celebrate(goal);
  if (goal && history.at > 0) rememberSolved(first(history));
  const solved = solvedCodes();
  for (const item of document.querySelectorAll('.classic[data-code]')) {
    item.classList.toggle('active', item.dataset.code === first(history));
    item.classList.toggle('solved', solved.has(item.dataset.code));
  }
  if (solution) {
    showRemaining(total - step);
  } else {
    showRemaining(knownSteps.get(code));
    answers.get(code).then((answer) => {
      if (game.position() !== code || game.state.solution || state.editing) return;
      showCodeLinks(code);
      showRemaining(answer.minSteps);
    }).catch((error) => say(error.message));
  }
  showTargets(game, answers);
}

// Tells a screen reader what moved and how far the goal is, once that is known; a hand move
// also gets its verdict (in the mode that judges moves).
async function announceMove({ by, from, to, verdict }) {
  if (by === 'restart') {
    announce(`Back to the start. ${ui.progress.textContent}`);
    return;
  }
  const move = from && by !== 'step-back' ? moveBetween(from, to) : null;
  if (!move) return;
  const step = game.solutionStep();
  const remaining = step >= 0 ? game.state.solution.path.length - 1 - step
    : await answers.get(to).then((answer) => answer.minSteps, () => undefined);
  const judged = by === 'player' && readHelpMode() === 'verdicts' ? verdict : null;
  if (game.position() === to) {
    announce(`Moved ${pieceLabel(move.kind, move.to)}${judged ? `: ${judged}` : ''}. `
      + `${progressText(remaining)}`);
  }
}

function sayHint({ rung, answer, best }) {
  if (answer.minSteps === null) {
    say(`No hint: ${NO_WAY_OUT}`);
  } else if (answer.minSteps === 0) {
    say('Already solved.');
  } else if (rung === 'distance') {
    say(`Solvable in ${plural(answer.minSteps, 'step')} from here.`);
  } else if (rung === 'piece') {
    const move = best && moveBetween(game.position(), best.to);
    say(move ? `Move ${pieceLabel(move.kind, move.from)}.` : '');
  } else {
    say('');
  }
}

function saySolution(result) {
  if (!result.solvable) {
    say(`No solution: ${NO_WAY_OUT}`);
    ui.remaining.textContent = 'no solution';
  } else {
    say(result.steps === 0 ? 'Already solved.' : `Shortest solution: ${result.steps} steps.`);
  }
}

export const game = createGame(ui.board, {
  adapter: klotskiPositions,
  answers,
  solve: (code) => api('/api/solve', { code }),
  stepMs,
  slideShare: 0.7,
  handMs: () => stepMs() * 0.4,
  extendStep: true,
  allowed: () => !state.editing,
  ignore: '.target',
  on: {
    change: refresh,
    moved: announceMove,
    hint: sayHint,
    solved: saySolution,
    blocked: (el) => announce(`${pieceLabel(el.dataset.kind, Number(el.dataset.address))} `
      + 'cannot move that way.'),
    error: (error) => say(error.message),
  },
});

// One request for the whole solution, said while it is on its way.
export function solve() {
  const { solution, solving } = game.state;
  if (state.editing || solving) return Promise.resolve();
  if (!solution) say('Searching for the shortest solution…');
  return game.solve();
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

// A new game from code: the address names it (without adding a browser history entry).
export function startGame(code) {
  if (state.editing) closeEditor();
  game.record.start({ title: 'Klotski', start: code, goal: 'the 2×2 at the exit', metric: 'step' });
  state.optimum = undefined;
  if (decodeURIComponent(location.hash.slice(1)) !== code) {
    history.replaceState(null, '', `#${code}`);
  }
  answers.get(code).then((answer) => {
    if (first(game.state.history) !== code) return;
    game.record.learn({ min_steps: answer.minSteps });
    state.optimum = answer.minSteps ?? undefined;
    if (!game.state.solution) refresh();
  }).catch(() => {});
  say('');
  game.start(code);
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
  game.pause();
  await game.enqueue(() => startGame(layout.code));
  return true;
}

// After picking a layout further down the page (below the board on a phone), bring the
// board back into view.
export function revealBoard() {
  const box = ui.frame.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  ui.frame.scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth', block: 'center' });
}
