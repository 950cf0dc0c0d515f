// The puzzle editor (/puzzles/editor): a board drawn with the mouse, a finger or as text,
// answered live by the server (/api/puzzles/solve and /api/puzzles/group), carried whole in
// the URL's hash (the viewer's parameters, so "Play it" opens the same puzzle at /puzzles)
// and downloaded as the TOML file `huarong puzzle` reads.

import '../../components/page-parts.js';
import { ApiError, api } from '../../lib/api.js';
import { elementsById } from '../../lib/dom.js';
import {
  SIDES, emptyGrid, erased, gridOf, goalFor, goalPlaced, lettersOf, linesOf, nameOf,
  pathTo, rectangle, resized, shapeAt, textOf, tomlOf, withPiece, withWalls,
} from './editor-grid.js';
import { createBoard, piecesOfGrid } from '../../components/piece-board.js';
import { colourOf, pieceLabel, span } from '../../lib/grid-text.js';

const ui = {
  ...elementsById(`
  board:editor-board tool-help answer cluster share-link copy:copy-button play:play-link
  download:download-button clear:clear-button share-status title:title-input rows:rows-input
  columns:columns-input metric:metric-input rules:rules-input distinct:distinct-input
  board-text goal-text text-error
  `),
  tools: document.querySelectorAll('input[name=tool]'),
};

const ANSWER_DELAY_MS = 300; // a drawing still changing is not asked about
const DEFAULT_TITLE = 'My puzzle';

const state = {
  board: emptyGrid(4, 4),
  goal: emptyGrid(4, 4),
  tool: 'block',
  goalLetter: null, // the goal tool's chosen piece, whose goal is placed next
  drag: null, // {id, from, at, path, clearing}: the pointer drawing now
  asked: 0, // a counter: an answer to an older drawing is dropped
  timer: null,
};

const board = createBoard(ui.board, { picture: true });
ui.board.setAttribute('role', 'img');

const familyOf = (rules) => (rules === 'length' ? 'rush-hour' : 'blocks');
const distinctLetters = () => ui.distinct.value.replace(/[^A-Za-z]/g, '');

// ---- drawing ------------------------------------------------------------------------------

function describe(grid, goal) {
  const pieces = piecesOfGrid(textOf(grid));
  const walls = grid.flat().filter((glyph) => glyph === '#').length;
  const aims = piecesOfGrid(textOf(goal)).map(({ letter, cells }) => `piece ${letter} to rows `
    + `${span(cells.map(([r]) => r))}, columns ${span(cells.map(([, c]) => c))}`);
  return `Board of ${grid.length} rows by ${grid[0].length} columns: `
    + `${pieces.length} piece${pieces.length === 1 ? '' : 's'}, `
    + `${walls} wall${walls === 1 ? '' : 's'}; goal: ${aims.join('; ') || 'none'}`;
}

function render(shown = state) {
  const goal = piecesOfGrid(textOf(shown.goal)).map(({ letter, cells }) => ({ letter, cells }));
  const aimed = new Set(goal.map(({ letter }) => letter));
  board.draw({
    rows: shown.board.length,
    columns: shown.board[0].length,
    family: familyOf(ui.rules.value),
    walls: shown.board.flatMap((row, r) => row.flatMap((glyph, c) => (glyph === '#'
      ? [[r, c]] : []))),
    goal,
    rules: ui.rules.value,
    pieces: piecesOfGrid(textOf(shown.board)).map(({ letter, cells }) => ({
      letter, cells, text: letter, label: pieceLabel(letter, cells),
      colour: colourOf(letter, aimed.has(letter)),
      classes: letter === state.goalLetter ? ['ed-chosen'] : [],
    })),
  });
  ui.board.setAttribute('aria-label', describe(shown.board, shown.goal));
}

const TOOL_HELP = {
  block: 'Drag over cells to draw a rectangular piece; drawing over a piece replaces it.',
  shape: 'Drag through cells one by one to draw a piece of any shape.',
  wall: 'Drag over cells to make walls; start on a wall to clear walls.',
  erase: 'Drag over pieces and walls to erase them.',
};

function showToolHelp() {
  if (state.tool !== 'goal') ui.toolHelp.textContent = TOOL_HELP[state.tool];
  else if (!state.goalLetter) ui.toolHelp.textContent = 'Click the piece that must reach a place.';
  else {
    ui.toolHelp.textContent = `Click or drag where piece ${state.goalLetter} must end (its `
      + 'top-left cell under the pointer); Escape to choose another piece.';
  }
}

// ---- the pointer --------------------------------------------------------------------------

// The cell under the pointer, clamped to the board while a drag goes on; null off the board
// at the press.
function cellAt(event, clamp) {
  const box = ui.board.getBoundingClientRect();
  const rows = state.board.length;
  const columns = state.board[0].length;
  const r = Math.floor(((event.clientY - box.top) / box.height) * rows);
  const c = Math.floor(((event.clientX - box.left) / box.width) * columns);
  if (clamp) {
    return [Math.min(Math.max(r, 0), rows - 1), Math.min(Math.max(c, 0), columns - 1)];
  }
  return r >= 0 && c >= 0 && r < rows && c < columns ? [r, c] : null;
}

// The puzzle as it would be were the drag to end here.
function dragged() {
  const { from, at, path, clearing } = state.drag;
  const edits = {
    block: () => ({ board: withPiece(state.board, rectangle(from, at)) }),
    shape: () => ({ board: withPiece(state.board, path) }),
    wall: () => ({ board: (clearing ? erased : withWalls)(state.board, path) }),
    erase: () => ({ board: erased(state.board, path) }),
    goal: () => {
      const cells = shapeAt(state.board, state.goalLetter, at);
      return { goal: cells ? goalPlaced(state.goal, state.goalLetter, cells) : state.goal };
    },
  };
  const { board: drawn = state.board, goal = state.goal } = edits[state.tool]();
  return { board: drawn, goal: goalFor(goal, drawn) };
}

function press(event) {
  if (event.button !== 0 || state.drag) return;
  const cell = cellAt(event, false);
  if (!cell) return;
  event.preventDefault();
  if (state.tool === 'goal' && !state.goalLetter) {
    const glyph = state.board[cell[0]][cell[1]];
    if (glyph !== '.' && glyph !== '#') state.goalLetter = glyph;
    showToolHelp();
    render();
    return;
  }
  ui.board.setPointerCapture(event.pointerId);
  state.drag = {
    id: event.pointerId, from: cell, at: cell, path: [cell],
    clearing: state.board[cell[0]][cell[1]] === '#',
  };
  render(dragged());
}

function drag(event) {
  if (state.drag?.id !== event.pointerId) return;
  const cell = cellAt(event, true);
  const { at, path } = state.drag;
  if (cell[0] === at[0] && cell[1] === at[1]) return;
  const known = new Set(path.map(String));
  path.push(...pathTo(at, cell).filter((step) => !known.has(String(step))));
  state.drag.at = cell;
  render(dragged());
}

function release(event) {
  if (state.drag?.id !== event.pointerId) return;
  const placedGoal = state.tool === 'goal';
  if (placedGoal && !shapeAt(state.board, state.goalLetter, state.drag.at)) {
    state.drag = null;
    ui.toolHelp.textContent = `Piece ${state.goalLetter} would leave the board there: `
      + 'click another cell.';
    render();
    return;
  }
  Object.assign(state, dragged());
  state.drag = null;
  if (placedGoal) {
    state.goalLetter = null;
    showToolHelp();
  }
  changed();
}

function cancel(event) {
  if (state.drag?.id !== event.pointerId) return;
  state.drag = null;
  render();
}

// ---- the server's answer ------------------------------------------------------------------

const Stale = Symbol('a newer drawing was asked about');
// A heavy answer comes back 202 "working" (api.js asks again): said as such while it lasts.
async function settled(path, params, current) {
  const body = await api(path, params, {
    onWorking: () => {
      if (!current()) throw Stale;
      ui.answer.textContent = 'working…';
    },
  });
  if (!current()) throw Stale;
  return body;
}

function puzzleParams() {
  const params = {
    start: textOf(state.board), metric: ui.metric.value, rules: ui.rules.value,
  };
  if (lettersOf(state.goal).size) params.goal = textOf(state.goal);
  const distinct = distinctLetters();
  if (distinct) params.distinct = distinct;
  return params;
}

const plural = (count, word) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

function solutionText(found) {
  if (found.status === 'rejected') return found.reason.message;
  if (!found.value) return 'No goal yet: choose one with the Goal tool.';
  return found.value.solvable ? `Solvable in ${plural(found.value.length, 'move')}`
    : 'No solution';
}

function clusterText(found, solution) {
  if (found.status === 'rejected') {
    return found.reason.message === solution ? '' : found.reason.message;
  }
  const { states, solved } = found.value;
  return `Cluster of ${plural(states, 'position')}, ${solved.toLocaleString('en')} solved`;
}

async function answer(asked) {
  const params = puzzleParams();
  const current = () => asked === state.asked;
  const [solution, cluster] = await Promise.allSettled([
    params.goal ? settled('/api/puzzles/solve', params, current) : null,
    settled('/api/puzzles/group', params, current),
  ]);
  if (!current()) return;
  for (const found of [solution, cluster]) {
    if (found.status === 'rejected' && !(found.reason instanceof ApiError)) throw found.reason;
  }
  ui.answer.textContent = solutionText(solution);
  ui.cluster.textContent = clusterText(cluster, ui.answer.textContent);
  ui.answer.dataset.start = params.start;
}

// The answer shown is always the drawing's: cleared at once, asked once the drawing rests.
function askLater() {
  state.asked += 1;
  clearTimeout(state.timer);
  delete ui.answer.dataset.start;
  ui.cluster.textContent = '';
  if (!lettersOf(state.board).size) {
    ui.answer.textContent = 'Draw a piece to begin.';
    return;
  }
  ui.answer.textContent = '…';
  const asked = state.asked;
  state.timer = setTimeout(() => answer(asked), ANSWER_DELAY_MS);
}

// ---- the link, the text and the file ------------------------------------------------------

function writeLink() {
  const puzzle = new URLSearchParams(puzzleParams());
  const link = new URLSearchParams(puzzle);
  if (ui.title.value !== DEFAULT_TITLE) link.set('title', ui.title.value);
  history.replaceState(null, '', `#${link}`);
  ui.shareLink.value = location.href;
  ui.play.href = `/puzzles#${puzzle}`;
}

function showTextError(text) {
  ui.textError.textContent = text;
  ui.textError.hidden = !text;
}

// typed: the text field being typed in, left as it is.
function changed({ typed = null } = {}) {
  if (typed !== ui.boardText) ui.boardText.value = linesOf(state.board);
  if (typed !== ui.goalText) ui.goalText.value = linesOf(state.goal);
  if (!typed) showTextError('');
  ui.rows.value = String(state.board.length);
  ui.columns.value = String(state.board[0].length);
  render();
  writeLink();
  askLater();
}

function readBoardText() {
  const grid = gridOf(ui.boardText.value);
  if (!grid) {
    showTextError(`The board must be a rectangle of ${SIDES.low} to ${SIDES.high} rows and `
      + 'columns, every row as long.');
    return;
  }
  showTextError('');
  state.board = grid;
  state.goal = resized(state.goal, grid.length, grid[0].length);
  changed({ typed: ui.boardText });
}

function readGoalText() {
  const rows = state.board.length;
  const columns = state.board[0].length;
  const grid = ui.goalText.value.trim() ? gridOf(ui.goalText.value) : emptyGrid(rows, columns);
  if (!grid || grid.length !== rows || grid[0].length !== columns) {
    showTextError(`The goal must be a grid as large as the board: ${rows} rows of ${columns}.`);
    return;
  }
  showTextError('');
  state.goal = grid;
  changed({ typed: ui.goalText });
}

function resize() {
  const rows = Number(ui.rows.value);
  const columns = Number(ui.columns.value);
  const fits = (n) => Number.isInteger(n) && n >= SIDES.low && n <= SIDES.high;
  if (!fits(rows) || !fits(columns)) return;
  if (rows === state.board.length && columns === state.board[0].length) return;
  state.board = resized(state.board, rows, columns);
  state.goal = goalFor(resized(state.goal, rows, columns), state.board);
  changed();
}

// What is wrong with the link's puzzle, '' when it is drawn.
function readLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get('start')) return '';
  const grid = gridOf(params.get('start'));
  if (!grid) return 'The link\'s board is not a grid this editor draws.';
  const goal = gridOf(params.get('goal') ?? '');
  state.board = grid;
  state.goal = goal && goal.length === grid.length && goal[0].length === grid[0].length ? goal
    : emptyGrid(grid.length, grid[0].length);
  ui.metric.value = params.get('metric') ?? 'step';
  ui.rules.value = params.get('rules') ?? 'free';
  ui.distinct.value = params.get('distinct') ?? '';
  ui.title.value = params.get('title') ?? DEFAULT_TITLE;
  return '';
}

function openLink() {
  const problem = readLink();
  changed();
  showTextError(problem);
}

async function copyLink() {
  try {
    await navigator.clipboard.writeText(ui.shareLink.value);
    ui.shareStatus.textContent = 'Link copied.';
  } catch {
    ui.shareLink.select();
    ui.shareStatus.textContent = 'The link is selected: copy it with Ctrl+C.';
  }
}

function download() {
  const file = new Blob([tomlOf({
    title: ui.title.value || DEFAULT_TITLE, board: state.board, goal: state.goal,
    metric: ui.metric.value, rules: ui.rules.value, distinct: distinctLetters(),
  })], { type: 'application/toml' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = `${nameOf(ui.title.value)}.toml`;
  link.click();
  URL.revokeObjectURL(link.href);
}

// ---- events -------------------------------------------------------------------------------

ui.board.addEventListener('pointerdown', press);
ui.board.addEventListener('pointermove', drag);
ui.board.addEventListener('pointerup', release);
ui.board.addEventListener('pointercancel', cancel);
for (const radio of ui.tools) {
  radio.addEventListener('change', () => {
    state.tool = radio.value;
    state.goalLetter = null;
    showToolHelp();
    render();
  });
}
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || !state.goalLetter) return;
  state.goalLetter = null;
  showToolHelp();
  render();
});
ui.rows.addEventListener('input', resize);
ui.columns.addEventListener('input', resize);
for (const select of [ui.metric, ui.rules]) select.addEventListener('change', () => changed());
ui.distinct.addEventListener('input', () => changed());
ui.title.addEventListener('input', writeLink);
ui.boardText.addEventListener('input', readBoardText);
ui.goalText.addEventListener('input', readGoalText);
ui.copy.addEventListener('click', copyLink);
ui.download.addEventListener('click', download);
ui.clear.addEventListener('click', () => {
  const rows = state.board.length;
  const columns = state.board[0].length;
  state.board = emptyGrid(rows, columns);
  state.goal = emptyGrid(rows, columns);
  changed();
});
window.addEventListener('hashchange', openLink);

state.tool = [...ui.tools].find((radio) => radio.checked)?.value ?? 'block';
showToolHelp();
openLink();
