// The viewer of any sliding-block puzzle (/puzzles): a catalogue puzzle or any grid pasted
// in, played move by move with the server's verdict on every move (/api/puzzles/next),
// undo, hints and an optimal solution played back (/api/puzzles/solve), all by the one game
// (components/game.js over grid text); a link opens the cluster of the position shown as a
// graph in the explorer.

import { drawReadouts } from '../../components/page-parts.js';
import { createAnswers } from '../../lib/answers.js';
import { ApiError, api } from '../../lib/api.js';
import { $, elementsById } from '../../lib/dom.js';
import { plural } from '../../lib/format.js';
import { colourOf, span } from '../../lib/grid-text.js';
import { createGame } from '../../components/game.js';
import { familyOf, gridAnswer, gridPositions } from '../../components/game-grid.js';
import { difficultyLine, drawDifficulty } from '../../components/difficulty-line.js';
import { bindHelpMode, readHelpMode } from '../../components/help-mode.js';
import { createBoard, piecesOfGrid, wallsOfGrid } from '../../components/piece-board.js';
import { climbLadder, drawCatalogue, drawLadder } from './puzzle-ladder.js';

drawReadouts($('readout'), [
  { id: 'remaining', label: 'to go at best', value: '…' },
  { id: 'moves-made', label: 'your moves', value: '0' },
  { id: 'hints-used', label: 'hints', value: '0',
    title: 'Hints asked in this game: how far, which piece, the move' },
  { id: 'verdict', label: 'last move', value: '–' },
]);

const ui = elementsById(`
  name:puzzle-name board:puzzle-board goal-board announce remaining moves-made verdict progress
  message moves undo:undo-button redo:redo-button restart:restart-button hint:hint-button
  hints-used help-mode record-button easier:easier-button harder:harder-button ladder-order
  speed speed-value random-form random-low random-high solve:solve-button form:load-form
  start:start-input goal:goal-input distinct:distinct-input metric:metric-input
  rules:rules-input error catalogue graph-link print-link edit-link
`);

const difficulty = difficultyLine('puzzle-difficulty', ui.progress);

const BASE_STEP_MS = 2250; // a playback step at speed 1×; 5× (450 ms) by default
const MOVE_MS = 180; // a move made by key or from the list slides this long
const VERDICT_WORD = { better: 'closer', same: 'no closer', worse: 'farther' };

const state = {
  spec: null, // the query parameters that loaded the puzzle
  rules: null, // {goal, metric, rules} of the loaded puzzle, as the server read them
  title: '',
  loading: 0, // a counter: answers to an older load are dropped
  ladderFrom: {}, // the search result row the puzzle came from, if any (the ladder's)
};
const titles = new Map(); // catalogue name -> title

// The puzzle as loaded (its catalogue name or text, goal, metric, rules) and the position:
// the server keeps the puzzle's own pieces (a distinct piece stays distinct).
const query = (grid) => ({ ...state.spec, position: grid });
// In the spoiler-free mode (help-mode.js) a move is listed without its verdict or moves left.
const judging = () => readHelpMode() === 'verdicts';
const say = (text) => { ui.announce.textContent = text; };
const tell = (text) => { ui.message.textContent = text; };

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = !text;
}

const answers = createAnswers((grid) => api('/api/puzzles/next', query(grid)).then(gridAnswer));
const goalPicture = createBoard(ui.goalBoard, { picture: true });

function moveText(move) {
  const far = move.direction.includes(',') || move.distance === 1 ? ''
    : ` ${move.distance} cells`;
  const verdict = move.verdict && judging() ? `, ${VERDICT_WORD[move.verdict]}` : '';
  const togo = move.min_steps === null || move.min_steps === undefined || !judging() ? ''
    : ` (${move.min_steps} to go)`;
  return `${move.piece} ${move.direction.replaceAll(',', ' then ')}${far}${verdict}${togo}`;
}

function drawMoves(next) {
  // A move chosen from the list by keyboard keeps the focus in the list.
  const hadFocus = ui.moves.contains(document.activeElement);
  ui.moves.replaceChildren();
  for (const move of next.moves) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `move ${judging() ? move.verdict ?? 'unknown' : 'unjudged'}`;
    button.textContent = moveText(move);
    button.addEventListener('click', () => game.move(move.to, { move }));
    item.append(button);
    ui.moves.append(item);
  }
  if (!next.moves.length) {
    const item = document.createElement('li');
    item.textContent = 'No piece can move.';
    ui.moves.append(item);
  }
  if (hadFocus) ui.moves.querySelector('button')?.focus({ preventScroll: true });
}

function progressText(answer, at) {
  const made = plural(at, 'move');
  if (answer.solved) return at > 0 ? `Solved in ${made}!` : 'This position is solved.';
  if (answer.minSteps === null) return answer.raw.goal ? `${made} · no solution from here` : made;
  return `${made} · ${answer.minSteps} to go at best`;
}

// Redraws the readouts, the links and the list of moves from the game.
async function refresh() {
  const grid = game.position();
  if (!grid) return;
  const loading = state.loading;
  const { history, verdict, playing } = game.state;
  ui.graphLink.href = `/explore#/puzzle?${new URLSearchParams(query(grid))}`;
  ui.printLink.href = `/api/puzzles/card?${new URLSearchParams({ ...query(grid), format: 'pdf' })}`;
  // The editor draws grid text: the position as the server wrote it, never a catalogue name.
  const edited = { start: grid, ...state.rules, distinct: state.spec.distinct };
  ui.editLink.href = `/puzzles/editor#${new URLSearchParams(
    Object.entries(edited).filter(([, value]) => value))}`;
  ui.movesMade.textContent = String(history.at);
  ui.hintsUsed.textContent = String(game.hintsUsed());
  ui.undo.disabled = !game.canUndo();
  ui.redo.disabled = !game.canRedo();
  ui.restart.disabled = history.at === 0;
  ui.verdict.textContent = verdict && judging() ? VERDICT_WORD[verdict] : '–';
  ui.solve.textContent = playing ? 'Stop' : 'Solve';
  ui.remaining.textContent = '…';
  let answer;
  try {
    answer = await answers.get(grid);
  } catch (error) {
    if (loading === state.loading) tell(error.message);
    return;
  }
  if (loading !== state.loading || grid !== game.position()) return;
  ui.remaining.textContent = answer.minSteps === null ? '–' : String(answer.minSteps);
  ui.hint.disabled = !answer.best;
  ui.solve.disabled = answer.minSteps === null || answer.solved;
  ui.progress.textContent = progressText(answer, history.at);
  ui.board.classList.toggle('won', answer.solved);
  drawMoves(answer.raw);
}

async function sayMove({ by, from, to, verdict }) {
  if (by !== 'player' && by !== 'hint') return;
  tell('');
  const played = (await answers.get(from)).raw.moves.find((move) => move.to === to);
  if (played) {
    say(`${played.piece} moved ${played.direction.replaceAll(',', ' then ')}`
      + `${verdict && judging() ? `: ${VERDICT_WORD[verdict]}` : ''}.`);
  }
}

function sayHint({ rung, answer, best }) {
  if (answer.minSteps === null) tell('No hint: no goal can be reached from here.');
  else if (answer.solved) tell('Already solved.');
  else if (rung === 'distance') tell(`Solvable in ${plural(answer.minSteps, 'move')} from here.`);
  else if (rung === 'piece' && best) tell(`Move piece ${best.move.piece}.`);
}

const game = createGame(ui.board, {
  adapter: gridPositions(() => state.rules ?? {}),
  answers,
  solve: (grid) => api('/api/puzzles/solve', query(grid)).then((solution) => ({
    ...solution,
    path: [grid, ...solution.moves.map((move) => move.grid)],
    moves: solution.moves.map((move) => ({ ...move, to: move.grid })),
  })),
  stepMs: () => BASE_STEP_MS / Number(ui.speed.value),
  slideShare: 0.6,
  handMs: () => MOVE_MS,
  on: {
    change: refresh,
    moved: sayMove,
    hint: sayHint,
    solved: (solution) => {
      if (solution.solvable) tell(`An optimal solution: ${solution.length} moves.`);
    },
    blocked: (el, direction) => say(`${el.dataset.piece} cannot move ${direction}.`),
    error: (error) => tell(error.message),
  },
});

function drawGoal() {
  const goal = state.rules?.goal;
  if (!goal) {
    goalPicture.draw({ rows: 0, columns: 0 });
    ui.goalBoard.setAttribute('aria-label', 'No goal: every position is free play');
    return;
  }
  const shapes = piecesOfGrid(goal);
  goalPicture.draw({
    rows: goal.split('/').length,
    columns: goal.split('/')[0].length,
    family: familyOf(state.rules.rules),
    walls: wallsOfGrid(goal),
    pieces: shapes.map(({ letter, cells }) => ({
      letter, cells, colour: colourOf(letter, true), classes: ['pb-goal-piece'],
    })),
  });
  const described = shapes.map(
    ({ letter, cells }) => `a piece shaped as ${letter} at rows ${span(cells.map(([r]) => r))}, `
      + `columns ${span(cells.map(([, c]) => c))}`);
  ui.goalBoard.setAttribute('aria-label', `Goal: ${described.join('; ')}`);
}

async function load(params, title) {
  game.pause();
  showError('');
  state.loading += 1;
  const loading = state.loading;
  // Where a search result's row came from (its file and place), for the ladder only.
  const { search, row, min_length: minLength, ...spec } = params;
  let opening;
  try {
    opening = await api('/api/puzzles/next', spec);
  } catch (error) {
    if (loading === state.loading) {
      showError(error instanceof ApiError ? error.message : String(error));
    }
    return;
  }
  if (loading !== state.loading) return;
  state.spec = spec;
  state.rules = { goal: opening.goal, metric: opening.metric, rules: opening.rules };
  state.title = title;
  game.record.start({
    title, puzzle: params, start: opening.start, goal: opening.goal, metric: opening.metric,
    rules: opening.rules, min_steps: opening.min_steps,
  });
  answers.clear();
  answers.put(opening.start, gridAnswer(opening));
  if (opening.min_steps !== null && !params.position) {
    ui.randomLow.value = String(Math.ceil(opening.min_steps / 2));
    ui.randomHigh.value = String(opening.min_steps);
  }
  state.ladderFrom = { search, row, min_length: minLength };
  drawLadder(ui, spec.start, state.ladderFrom, () => state.spec?.start === spec.start);
  drawDifficulty(difficulty, spec, () => state.spec === spec);
  ui.name.textContent = `${title} · ${opening.rows}×${opening.columns}, ${opening.rules} rules, `
    + `${opening.metric} metric`;
  history.replaceState(null, '', `#${new URLSearchParams(params)}`);
  drawGoal();
  tell('');
  game.enqueue(() => game.start(opening.start));
}

// A catalogue puzzle by its name, the form emptied of any board of its own.
function open(name) {
  ui.start.value = name;
  for (const input of [ui.goal, ui.distinct, ui.metric, ui.rules]) input.value = '';
  load({ start: name }, titles.get(name) ?? name);
}

function formParams() {
  const params = { start: ui.start.value.trim().split(/\s*\n\s*/).join('/') };
  const goal = ui.goal.value.trim();
  if (goal) params.goal = goal.split(/\s*\n\s*/).join('/');
  const distinct = ui.distinct.value.replace(/\s+/g, '');
  if (distinct) params.distinct = distinct;
  if (ui.metric.value) params.metric = ui.metric.value;
  if (ui.rules.value) params.rules = ui.rules.value;
  return params;
}

function loadFromHash() {
  const params = Object.fromEntries(new URLSearchParams(location.hash.slice(1)));
  if (!params.start) return false;
  ui.start.value = params.start;
  ui.goal.value = params.goal ?? '';
  ui.distinct.value = params.distinct ?? '';
  ui.metric.value = params.metric ?? '';
  ui.rules.value = params.rules ?? '';
  load(params, titles.get(params.start) ?? params.start);
  return true;
}

// A random position of this cluster whose fewest moves lie in the range, as a new start.
async function randomStart(event) {
  event.preventDefault();
  const [low, high] = [Number(ui.randomLow.value), Number(ui.randomHigh.value)];
  let found;
  try {
    found = await api('/api/puzzles/random', { ...query(game.position()), low, high });
  } catch (error) {
    tell(error.message);
    return;
  }
  load({ ...state.spec, position: found.start }, `${state.title}, a start of `
    + `${found.min_steps} moves`);
}

// ---- events -------------------------------------------------------------------------------

ui.form.addEventListener('submit', (event) => {
  event.preventDefault();
  const params = formParams();
  if (!params.start) {
    showError('Write a board, a Rush Hour string, a Klotski code or a catalogue name.');
    return;
  }
  load(params, params.start);
});
ui.undo.addEventListener('click', () => game.undo());
ui.redo.addEventListener('click', () => game.redo());
ui.restart.addEventListener('click', () => game.restart());
ui.hint.addEventListener('click', () => game.hint());
ui.speed.addEventListener('input', () => { ui.speedValue.textContent = `${ui.speed.value}×`; });
ui.easier.addEventListener('click', () => climbLadder(ui.easier, open));
ui.harder.addEventListener('click', () => climbLadder(ui.harder, open));
ui.ladderOrder.addEventListener('change', () => {
  const shown = state.spec?.start;
  if (shown) drawLadder(ui, shown, state.ladderFrom, () => state.spec?.start === shown);
});
ui.randomForm.addEventListener('submit', randomStart);
ui.recordButton.addEventListener('click', () => game.record.download(
  `${(state.spec?.start ?? 'puzzle').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40)}-record.json`));
bindHelpMode(ui.helpMode, () => { if (game.position()) refresh(); });
ui.solve.addEventListener('click', () => {
  if (game.state.playing) game.pause();
  else game.solve().catch((error) => tell(error.message));
});

document.addEventListener('keydown', (event) => {
  const typing = event.target.closest?.('input, textarea, select');
  if (event.defaultPrevented || typing || event.altKey || event.metaKey) return;
  const key = event.key.toLowerCase();
  if (event.ctrlKey && key === 'z' && !event.shiftKey) game.undo();
  else if (event.ctrlKey && (key === 'y' || (key === 'z' && event.shiftKey))) game.redo();
  else if (!event.ctrlKey && key === 'h') game.hint();
  else if (!event.ctrlKey && key === 'r') game.restart();
  else return;
  event.preventDefault();
});
window.addEventListener('hashchange', loadFromHash);

let entries = [];
try {
  entries = await drawCatalogue(ui.catalogue, (entry) => open(entry.name));
} catch (error) {
  showError(error.message);
}
for (const entry of entries) titles.set(entry.name, entry.title);
const opening = entries.find((entry) => entry.name === 'century') ?? entries[0];
if (!loadFromHash() && opening) open(opening.name);
