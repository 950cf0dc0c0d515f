// The viewer of any sliding-block puzzle (/puzzles): a catalogue puzzle or any grid pasted
// in, played move by move with the server's verdict on every move (/api/puzzles/next),
// undo, hints and an optimal solution played back (/api/puzzles/solve); a link opens the
// cluster of the position shown as a graph in the explorer.

import { ApiError, api } from '../../lib/api.js';
import { bindHelpMode, readHelpMode } from '../../components/help-mode.js';
import { createLadder } from '../../components/hint-ladder.js';
import { createRecord } from '../../components/play-record.js';
import { draggable } from './puzzle-drag.js';
import { rowsBeside } from '../../lib/search-rows.js';
import {
  colourOf, displacement, pieceCells, pieceLabel, rowsOf, span,
} from '../../lib/grid-text.js';
import { createBoard, piecesOfGrid, wallsOfGrid } from '../../components/piece-board.js';

const $ = (id) => document.getElementById(id);
const ui = {
  name: $('puzzle-name'), board: $('puzzle-board'), goalBoard: $('goal-board'),
  announce: $('announce'), remaining: $('remaining'), movesMade: $('moves-made'),
  verdict: $('verdict'), progress: $('progress'), message: $('message'), moves: $('moves'),
  undo: $('undo-button'), redo: $('redo-button'), restart: $('restart-button'),
  hint: $('hint-button'), hintsUsed: $('hints-used'), helpMode: $('help-mode'),
  recordButton: $('record-button'), easier: $('easier-button'), harder: $('harder-button'),
  speed: $('speed'), speedValue: $('speed-value'), randomForm: $('random-form'), randomLow: $('random-low'), randomHigh: $('random-high'),
  solve: $('solve-button'),
  form: $('load-form'),
  start: $('start-input'), goal: $('goal-input'), distinct: $('distinct-input'),
  metric: $('metric-input'),
  rules: $('rules-input'), error: $('error'), catalogue: $('catalogue'),
  graphLink: $('graph-link'), printLink: $('print-link'), editLink: $('edit-link'),
};

const BASE_STEP_MS = 2250; // a playback step at speed 1×; 5× (450 ms) by default
const MOVE_MS = 180; // a move made by hand slides this long
const KEYS = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right',
};
const VERDICT_WORD = { better: 'closer', same: 'no closer', worse: 'farther' };

const state = {
  spec: null, // the query parameters that loaded the puzzle
  rules: null, // {goal, metric, rules} of the loaded puzzle, as the server read them
  title: '',
  history: [], // grids from the loaded start, one move apart; the board shows history[at]
  at: 0,
  lastVerdict: null,
  playing: null, // the timer of a solution being played back
  loading: 0, // a counter: answers to an older load are dropped
};

const answers = new Map(); // grid -> promise of /api/puzzles/next
const hints = createLadder();
const record = createRecord();

// ---- drawing ------------------------------------------------------------------------------

const board = createBoard(ui.board);
const goalPicture = createBoard(ui.goalBoard, { picture: true });

const familyOf = (rules) => (rules === 'length' ? 'rush-hour' : 'blocks');

function goalPieces() {
  const goal = state.rules?.goal;
  return goal ? piecesOfGrid(goal).map(({ letter, cells }) => ({ letter, cells })) : [];
}

// The corners a step turns on its way (a move 'up,left' passes above where it started), as
// the top-left corners the moved piece's element passes through.
function corners(move, before) {
  const parts = move.direction.split(',');
  if (parts.length < 2) return [];
  const cells = pieceCells(before).get(move.piece);
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return parts.slice(0, -1).map((_, index) => displacement({
    direction: parts.slice(0, index + 1).join(','), distance: 1,
  })).map(([dr, dc]) => [top + dr, left + dc]);
}

// The moved piece may land with a new letter (pieces of one shape are interchangeable): it is
// the piece whose first cell is where the move takes the first cell of the piece that moved.
function landedLetter(move, before) {
  const [dr, dc] = displacement(move);
  const [r, c] = pieceCells(before).get(move.piece)[0];
  return rowsOf(move.to)[r + dr]?.[c + dc];
}

function drawBoard(grid, { duration = 0, move = null, before = null } = {}) {
  const rows = rowsOf(grid);
  const goal = goalPieces();
  const shapes = new Set(goal.map((piece) => piece.letter));
  const landed = move && before ? landedLetter(move, before) : null;
  const pieces = piecesOfGrid(grid).map((piece) => ({
    ...piece,
    label: pieceLabel(piece.letter, piece.cells),
    colour: colourOf(piece.letter, shapes.has(piece.letter)),
    via: piece.letter === landed ? corners(move, before) : [],
  }));
  ui.board.querySelectorAll('.hinted').forEach((el) => el.classList.remove('hinted'));
  board.draw({
    rows: rows.length,
    columns: rows[0].length,
    family: familyOf(state.rules?.rules),
    walls: wallsOfGrid(grid),
    goal,
    rules: state.rules?.rules,
    pieces,
  }, { duration });
  ui.board.setAttribute('aria-label', `Puzzle board, ${rows.length} rows by `
    + `${rows[0].length} columns`);
}

function drawGoal() {
  const goal = state.rules?.goal;
  if (!goal) {
    goalPicture.draw({ rows: 0, columns: 0 });
    ui.goalBoard.setAttribute('aria-label', 'No goal: every position is free play');
    return;
  }
  const rows = rowsOf(goal);
  const shapes = piecesOfGrid(goal);
  goalPicture.draw({
    rows: rows.length,
    columns: rows[0].length,
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

function focusPiece(letter) {
  board.piece(letter)?.focus({ preventScroll: true });
}

function say(text) {
  ui.announce.textContent = text;
}

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = !text;
}

// ---- the server ---------------------------------------------------------------------------

// The puzzle as loaded (its catalogue name or text, goal, metric, rules) and the position:
// the server keeps the puzzle's own pieces (a distinct piece stays distinct).
function query(grid) {
  return { ...state.spec, position: grid };
}

function nextOf(grid) {
  if (!answers.has(grid)) {
    const request = api('/api/puzzles/next', query(grid));
    request.catch(() => answers.delete(grid));
    answers.set(grid, request);
  }
  return answers.get(grid);
}

// ---- the game -----------------------------------------------------------------------------

const current = () => state.history[state.at];

function stopPlaying() {
  if (state.playing !== null) clearTimeout(state.playing);
  state.playing = null;
  ui.solve.textContent = 'Solve';
}

// In the spoiler-free mode (help-mode.js) a move is listed without its verdict or moves left.
const judging = () => readHelpMode() === 'verdicts';

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
    button.addEventListener('click', () => play(move));
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

function progressText(next) {
  const made = `${state.at} move${state.at === 1 ? '' : 's'}`;
  if (next.solved) return state.at > 0 ? `Solved in ${made}!` : 'This position is solved.';
  if (next.min_steps === null) return next.goal ? `${made} · no solution from here` : made;
  return `${made} · ${next.min_steps} to go at best`;
}

// motion: how the last move is drawn ({duration, move, before}: see drawBoard).
async function refresh(motion = {}) {
  const grid = current();
  const loading = state.loading;
  drawBoard(grid, motion);
  ui.graphLink.href = `/explore#/puzzle?${new URLSearchParams(query(grid))}`;
  const card = new URLSearchParams({ ...query(grid), format: 'pdf' });
  ui.printLink.href = `/api/puzzles/card?${card}`;
  // The editor draws grid text: the position as the server wrote it, never a catalogue name.
  const edited = { start: grid, ...state.rules, distinct: state.spec.distinct };
  ui.editLink.href = `/puzzles/editor#${new URLSearchParams(
    Object.entries(edited).filter(([, value]) => value))}`;
  ui.movesMade.textContent = String(state.at);
  ui.undo.disabled = state.at === 0;
  ui.redo.disabled = state.at >= state.history.length - 1;
  ui.restart.disabled = state.at === 0;
  ui.verdict.textContent = state.lastVerdict && judging() ? VERDICT_WORD[state.lastVerdict]
    : '–';
  ui.remaining.textContent = '…';
  let next;
  try {
    next = await nextOf(grid);
  } catch (error) {
    if (loading === state.loading) ui.message.textContent = error.message;
    return;
  }
  if (loading !== state.loading || grid !== current()) return;
  ui.remaining.textContent = next.min_steps === null ? '–' : String(next.min_steps);
  ui.hint.disabled = !next.moves.some((move) => move.verdict === 'better');
  ui.solve.disabled = next.min_steps === null || next.solved;
  ui.progress.textContent = progressText(next);
  ui.board.classList.toggle('won', next.solved);
  drawMoves(next);
}

function reach(grid, verdict) {
  state.history = [...state.history.slice(0, state.at + 1), grid];
  state.at += 1;
  state.lastVerdict = verdict;
  ui.message.textContent = '';
}

function play(move, by = 'player', { dragged = false } = {}) {
  stopPlaying();
  const before = current();
  const letter = move.piece;
  record.note('move', {
    by, piece: letter, direction: move.direction, distance: move.distance, from: before,
    to: move.to, verdict: move.verdict ?? null, moves_left: move.min_steps ?? null,
  });
  reach(move.to, move.verdict);
  say(`${letter} moved ${move.direction.replaceAll(',', ' then ')}`
    + `${move.verdict && judging() ? `: ${VERDICT_WORD[move.verdict]}` : ''}.`);
  // A dragged piece is already where it lands; any other move slides there. The moved
  // piece keeps its element, and so the focus, whatever letter it lands with.
  refresh({ duration: dragged ? 0 : MOVE_MS, move, before });
}

async function keyMove(letter, direction) {
  const next = await nextOf(current());
  const mine = next.moves.filter((move) => move.piece === letter
    && move.direction.split(',')[0] === direction);
  const exact = mine.find((move) => move.direction === direction && move.distance === 1)
    ?? mine.find((move) => move.direction === direction) ?? mine[0];
  if (exact) play(exact);
  else say(`${letter} cannot move ${direction}.`);
}

function undo() {
  stopPlaying();
  if (state.at === 0) return;
  state.at -= 1;
  state.lastVerdict = null;
  record.note('undo', { to: current() });
  refresh();
}

function redo() {
  stopPlaying();
  if (state.at >= state.history.length - 1) return;
  state.at += 1;
  state.lastVerdict = null;
  record.note('redo', { to: current() });
  refresh();
}

function restart() {
  stopPlaying();
  state.at = 0;
  state.lastVerdict = null;
  record.note('restart', { to: current() });
  refresh();
}

// Graded (hint-ladder.js): how far, then which piece (outlined on the board), then the move.
async function hint() {
  const at = current();
  const rung = hints.climb(`${state.at}:${at}`);
  ui.hintsUsed.textContent = String(hints.used);
  record.note('hint', { rung, at });
  const next = await nextOf(at);
  if (at !== current()) return;
  const best = next.moves.find((move) => move.verdict === 'better');
  if (next.min_steps === null) {
    ui.message.textContent = 'No hint: no goal can be reached from here.';
  } else if (next.solved) {
    ui.message.textContent = 'Already solved.';
  } else if (rung === 'distance') {
    ui.message.textContent = `Solvable in ${next.min_steps} `
      + `move${next.min_steps === 1 ? '' : 's'} from here.`;
  } else if (rung === 'piece' && best) {
    for (const cell of ui.board.querySelectorAll(`[data-piece="${best.piece}"]`)) {
      cell.classList.add('hinted');
    }
    ui.message.textContent = `Move piece ${best.piece}.`;
  } else if (best) {
    play(best, 'hint');
  }
}

async function solve() {
  if (state.playing !== null) {
    stopPlaying();
    return;
  }
  const from = current();
  let solution;
  try {
    solution = await api('/api/puzzles/solve', query(from));
  } catch (error) {
    ui.message.textContent = error.message;
    return;
  }
  if (from !== current() || !solution.solvable) return;
  ui.message.textContent = `An optimal solution: ${solution.length} moves.`;
  ui.solve.textContent = 'Stop';
  const step = (index) => {
    if (index >= solution.moves.length) {
      stopPlaying();
      return;
    }
    const before = current();
    const move = { ...solution.moves[index], to: solution.moves[index].grid };
    record.note('move', { by: 'solution', from: before, to: move.to,
      verdict: 'better', moves_left: solution.length - index - 1 });
    reach(move.to, 'better');
    const stepMs = BASE_STEP_MS / Number(ui.speed.value);
    refresh({ duration: stepMs * 0.6, move, before });
    state.playing = setTimeout(() => step(index + 1), stepMs);
  };
  state.playing = setTimeout(() => step(0), 0);
}

async function load(params, title) {
  stopPlaying();
  showError('');
  state.loading += 1;
  const loading = state.loading;
  // Where a search result's row came from (its file and place), for the ladder only.
  const { search, row, min_length: minLength, ...spec } = params;
  let first;
  try {
    first = await api('/api/puzzles/next', spec);
  } catch (error) {
    if (loading === state.loading) {
      showError(error instanceof ApiError ? error.message : String(error));
    }
    return;
  }
  if (loading !== state.loading) return;
  state.spec = spec;
  state.rules = { goal: first.goal, metric: first.metric, rules: first.rules };
  state.title = title;
  state.history = [first.start];
  state.at = 0;
  state.lastVerdict = null;
  hints.reset();
  ui.hintsUsed.textContent = '0';
  record.start({
    title, puzzle: params, start: first.start, goal: first.goal, metric: first.metric,
    rules: first.rules, min_steps: first.min_steps,
  });
  answers.clear();
  answers.set(first.start, Promise.resolve(first));
  if (first.min_steps !== null && !params.position) {
    ui.randomLow.value = String(Math.ceil(first.min_steps / 2));
    ui.randomHigh.value = String(first.min_steps);
  }
  drawLadder(spec.start, { search, row, min_length: minLength });
  ui.name.textContent = `${title} · ${first.rows}×${first.columns}, ${first.rules} rules, `
    + `${first.metric} metric`;
  history.replaceState(null, '', `#${new URLSearchParams(params)}`);
  drawGoal();
  refresh();
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

const titles = new Map(); // catalogue name -> title

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

// The family's next puzzles by fewest moves, for a catalogue puzzle (/api/puzzles/ladder),
// or a search result file's rows beside the one played (the file is hardest first).
async function drawLadder(name, from) {
  for (const button of [ui.easier, ui.harder]) {
    button.disabled = true;
    button.dataset.name = '';
    button.dataset.href = '';
  }
  ui.easier.textContent = 'Easier';
  ui.harder.textContent = 'Harder';
  if (from.search) {
    let beside;
    try {
      beside = await rowsBeside(api, from.search, Number(from.row), from.min_length ?? null);
    } catch {
      return;
    }
    for (const [button, rung, word] of [[ui.easier, beside.easier, 'Easier'],
      [ui.harder, beside.harder, 'Harder']]) {
      if (!rung || state.spec?.start !== name) continue;
      button.disabled = false;
      button.dataset.href = rung.href;
      button.textContent = `${word}: the file's next row (${rung.length ?? 'no solution'})`;
    }
    return;
  }
  if (!/^[a-z0-9-]+$/.test(name ?? '')) return; // a pasted board: no family
  let rungs;
  try {
    rungs = await api('/api/puzzles/ladder', { name });
  } catch {
    return; // a server too small for the family: no ladder, the game goes on
  }
  if (state.spec?.start !== name) return;
  for (const [button, rung, word] of [[ui.easier, rungs.easier, 'Easier'],
    [ui.harder, rungs.harder, 'Harder']]) {
    if (!rung) continue;
    button.disabled = false;
    button.dataset.name = rung.name;
    button.textContent = `${word}: ${rung.title} (${rung.length})`;
  }
}

function climbLadder(button) {
  const { name, href } = button.dataset;
  if (href) {
    location.hash = href.slice(href.indexOf('#') + 1);
    return;
  }
  if (!name) return;
  ui.start.value = name;
  for (const input of [ui.goal, ui.distinct, ui.metric, ui.rules]) input.value = '';
  load({ start: name }, titles.get(name) ?? name);
}

// A random position of this cluster whose fewest moves lie in the range, as a new start.
async function randomStart(event) {
  event.preventDefault();
  const [low, high] = [Number(ui.randomLow.value), Number(ui.randomHigh.value)];
  let found;
  try {
    found = await api('/api/puzzles/random', { ...query(current()), low, high });
  } catch (error) {
    ui.message.textContent = error.message;
    return;
  }
  load({ ...state.spec, position: found.start }, `${state.title}, a start of `
    + `${found.min_steps} moves`);
}

async function drawCatalogue() {
  let entries;
  try {
    entries = await api('/api/puzzles', {});
  } catch (error) {
    showError(error.message);
    return [];
  }
  for (const entry of entries) {
    titles.set(entry.name, entry.title);
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'catalogue-entry';
    button.dataset.name = entry.name;
    button.textContent = entry.title;
    button.title = entry.source;
    button.addEventListener('click', () => {
      ui.start.value = entry.name;
      ui.goal.value = '';
      ui.distinct.value = '';
      ui.metric.value = '';
      ui.rules.value = '';
      load({ start: entry.name }, entry.title);
    });
    const note = document.createElement('span');
    note.className = 'catalogue-note';
    note.textContent = ` ${entry.rows}×${entry.columns}, ${entry.metric}`;
    item.append(button, note);
    ui.catalogue.append(item);
  }
  return entries;
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
ui.undo.addEventListener('click', undo);
ui.redo.addEventListener('click', redo);
ui.restart.addEventListener('click', restart);
ui.hint.addEventListener('click', hint);
ui.speed.addEventListener('input', () => { ui.speedValue.textContent = `${ui.speed.value}×`; });
draggable(board, {
  landings: async (letter) => (await nextOf(current())).moves
    .filter((move) => move.piece === letter)
    .map((move) => ({ offset: displacement(move), move })),
  land: (move) => play(move, 'player', { dragged: true }),
});
ui.easier.addEventListener('click', () => climbLadder(ui.easier));
ui.harder.addEventListener('click', () => climbLadder(ui.harder));
ui.randomForm.addEventListener('submit', randomStart);
ui.recordButton.addEventListener('click', () => record.download(
  `${(state.spec?.start ?? 'puzzle').replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40)}-record.json`));
bindHelpMode(ui.helpMode, () => { if (state.history.length) refresh(); });
ui.solve.addEventListener('click', solve);

ui.board.addEventListener('click', (event) => {
  const letter = event.target.closest('[data-piece]')?.dataset.piece;
  if (letter) focusPiece(letter);
});
ui.board.addEventListener('keydown', (event) => {
  const letter = event.target.dataset?.piece;
  const direction = KEYS[event.key];
  if (!letter || !direction) return;
  event.preventDefault();
  keyMove(letter, direction);
});

document.addEventListener('keydown', (event) => {
  const typing = event.target.closest?.('input, textarea, select');
  if (typing || event.altKey || event.metaKey) return;
  const key = event.key.toLowerCase();
  if (event.ctrlKey && key === 'z' && !event.shiftKey) undo();
  else if (event.ctrlKey && (key === 'y' || (key === 'z' && event.shiftKey))) redo();
  else if (!event.ctrlKey && key === 'h') hint();
  else if (!event.ctrlKey && key === 'r') restart();
  else return;
  event.preventDefault();
});
window.addEventListener('hashchange', loadFromHash);

const entries = await drawCatalogue();
const first = entries.find((entry) => entry.name === 'century') ?? entries[0];
if (!loadFromHash() && first) {
  ui.start.value = first.name;
  load({ start: first.name }, first.title);
}
