// Huarong Pass viewer: draws a layout from its common code, replays the optimal solution from
// /api/solve with pieces sliding cell by cell (through corners), and lets a person play by
// dragging pieces or moving them from the keyboard, with undo, redo, restart and hints, while
// /api/next tells how many steps remain at best.

const COLS = 4;
const ROWS = 5;
const CELLS = COLS * ROWS;
const GOAL_ADDRESS = 13;
const CODE_ITEMS = 16;
const START_CODE = '1A9BF0C00';
const BASE_STEP_MS = 1600;
const PAUSE_FRACTION = 0.3;

// [width, height] in cells
const SHAPE = { cao: [2, 2], vertical: [1, 2], horizontal: [2, 1], soldier: [1, 1] };
// The 2-bit items of the common code (docs §3); 0 is an empty cell.
const KIND_OF_ITEM = [null, 'horizontal', 'vertical', 'soldier'];
// klotski.online writes one digit per cell.
const ONLINE_DIGIT = { cao: '4', vertical: '2', horizontal: '3', soldier: '1' };
const FACE = { cao: '曹操', vertical: '将', horizontal: '将', soldier: '兵' };
const KIND_NAME = { cao: '2×2', vertical: 'vertical piece', horizontal: 'horizontal piece',
  soldier: '1×1' };
const SOLVED_KEY = 'huarong.solved';
const LEVELS_PER_PAGE = 10;
const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

const $ = (id) => document.getElementById(id);
const ui = {
  board: $('board'), frame: $('frame'), celebration: $('celebration'),
  currentCode: $('current-code'), layoutName: $('layout-name'), announce: $('announce'),
  remaining: $('remaining'), movesMade: $('moves-made'), progress: $('progress'),
  undo: $('undo-button'), redo: $('redo-button'), restart: $('restart-button'),
  hint: $('hint-button'), copyLink: $('copy-link'), solve: $('solve-button'),
  play: $('play-button'), back: $('step-back'), forward: $('step-forward'),
  counter: $('step-counter'), speed: $('speed'), speedValue: $('speed-value'),
  message: $('message'), loadForm: $('load-form'), codeInput: $('code-input'),
  error: $('error'), editButton: $('edit-button'), editor: $('editor'),
  palette: $('palette'), editStatus: $('edit-status'), editClear: $('edit-clear'),
  editDone: $('edit-done'), editCancel: $('edit-cancel'), classics: $('classics'),
  levels: $('levels'), levelsNote: $('levels-note'), levelsForm: $('levels-form'),
  levelsSteps: $('levels-steps'), levelsPager: $('levels-pager'), levelsPrev: $('levels-prev'),
  levelsNext: $('levels-next'), levelsRange: $('levels-range'),
};

const state = {
  history: [], // codes from the loaded layout, one step apart; the board shows history[at]
  at: 0,
  pieces: [],
  solution: null, // {path: [codes], moves: [{from, to, kind}], base: history index of path[0]}
  solving: false,
  playing: false,
  editing: false,
  editPieces: [],
  editKind: 'cao',
  editCode: null,
  editRequest: 0,
  levelsOffset: 0,
};
const nextInfo = new Map(); // code -> promise of /api/next
const knownSteps = new Map(); // code -> minimum steps, learnt from its parent's /api/next
const classicNames = new Map(); // code -> {name, name_en}
let sprites = []; // {kind, address, el}: the piece elements on the board
let cells = []; // the board's gridcell elements by address
let drag = null;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

const currentCode = () => state.history[state.at] ?? null;

// ---- geometry ---------------------------------------------------------------------------

const rowOf = (address) => Math.floor(address / COLS);
const colOf = (address) => address % COLS;

function cellsOf(kind, address) {
  const [width, height] = SHAPE[kind];
  const cells = [];
  for (let dy = 0; dy < height; dy++) {
    for (let dx = 0; dx < width; dx++) cells.push(address + dy * COLS + dx);
  }
  return cells;
}

function occupancy(pieces, except = null) {
  const taken = new Array(CELLS).fill(false);
  for (const piece of pieces) {
    if (piece === except) continue;
    for (const cell of cellsOf(piece.kind, piece.address)) taken[cell] = true;
  }
  return taken;
}

function fits(kind, row, col, taken) {
  const [width, height] = SHAPE[kind];
  if (row < 0 || col < 0 || row + height > ROWS || col + width > COLS) return false;
  return cellsOf(kind, row * COLS + col).every((cell) => !taken[cell]);
}

// Every top-left address the piece can slide to through empty cells, each mapped to the
// address it was reached from, so a route can be traced back (one step = any such slide).
function reachable(pieces, piece) {
  const taken = occupancy(pieces, piece);
  const cameFrom = new Map([[piece.address, null]]);
  const queue = [piece.address];
  while (queue.length) {
    const address = queue.shift();
    for (const [dr, dc] of [[0, -1], [-1, 0], [0, 1], [1, 0]]) {
      const row = rowOf(address) + dr;
      const col = colOf(address) + dc;
      const target = row * COLS + col;
      if (fits(piece.kind, row, col, taken) && !cameFrom.has(target)) {
        cameFrom.set(target, address);
        queue.push(target);
      }
    }
  }
  return cameFrom;
}

function routeTo(cameFrom, target) {
  if (!cameFrom.has(target)) return null;
  const route = [];
  for (let at = target; at !== null; at = cameFrom.get(at)) route.unshift(at);
  return route;
}

// ---- notations ----------------------------------------------------------------------------

function decode(code) {
  const value = BigInt(`0x${code}`);
  const pieces = [{ kind: 'cao', address: Number(value >> 32n) }];
  const taken = occupancy(pieces);
  let item = 0;
  for (let address = 0; address < CELLS && item < CODE_ITEMS; address++) {
    if (taken[address]) continue;
    const kind = KIND_OF_ITEM[Number((value >> BigInt(30 - 2 * item)) & 3n)];
    item++;
    if (!kind) continue;
    pieces.push({ kind, address });
    for (const cell of cellsOf(kind, address)) taken[cell] = true;
  }
  return pieces;
}

function onlineId(pieces) {
  const digits = new Array(CELLS).fill('0');
  for (const piece of pieces) {
    for (const cell of cellsOf(piece.kind, piece.address)) digits[cell] = ONLINE_DIGIT[piece.kind];
  }
  return digits.join('');
}

// The common code of pieces (the inverse of decode): the 2x2's address, then one 2-bit item
// per cell not yet covered, in address order, 0 for an empty cell.
function encode(pieces) {
  const cao = pieces.find((p) => p.kind === 'cao');
  const taken = occupancy([cao]);
  const at = new Map(pieces.filter((p) => p !== cao).map((p) => [p.address, p]));
  let value = BigInt(cao.address) << 32n;
  let item = 0;
  for (let address = 0; address < CELLS && item < CODE_ITEMS; address++) {
    if (taken[address]) continue;
    const piece = at.get(address);
    const bits = piece ? KIND_OF_ITEM.indexOf(piece.kind) : 0;
    value |= BigInt(bits) << BigInt(30 - 2 * item);
    item++;
    if (piece) for (const cell of cellsOf(piece.kind, address)) taken[cell] = true;
  }
  return value.toString(16).toUpperCase().padStart(9, '0');
}

// The one piece that moves between two layouts a step apart: {kind, from, to}.
function moveBetween(code, next) {
  const key = (p) => `${p.kind}@${p.address}`;
  const after = new Set(decode(next).map(key));
  const before = decode(code);
  const gone = before.find((p) => !after.has(key(p)));
  const kept = new Set(before.map(key));
  const arrived = decode(next).find((p) => !kept.has(key(p)));
  return gone && arrived ? { kind: gone.kind, from: gone.address, to: arrived.address } : null;
}

const isGoal = (pieces) => pieces.some((p) => p.kind === 'cao' && p.address === GOAL_ADDRESS);

function span(first, count, one, many) {
  return count === 1 ? `${one} ${first + 1}` : `${many} ${first + 1}-${first + count}`;
}

// "曹操 2×2, rows 1-2, columns 2-3"
function pieceLabel(kind, address) {
  const [width, height] = SHAPE[kind];
  return `${FACE[kind]} ${width}×${height}, ${span(rowOf(address), height, 'row', 'rows')}, `
    + `${span(colOf(address), width, 'column', 'columns')}`;
}

// ---- server -------------------------------------------------------------------------------

class ApiError extends Error {}

// The server's one-line reasons, as a sentence: "parameter 'code': bad code 'X'" reads
// "Bad code 'X'."
function sentence(text) {
  const plain = text.replace(/^parameter '[^']*': /, '').trim();
  const capital = plain.charAt(0).toUpperCase() + plain.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

async function api(path, params) {
  let response;
  try {
    response = await fetch(`${path}?${new URLSearchParams(params)}`);
  } catch {
    throw new ApiError('The server cannot be reached: is huarong serve still running?');
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const reason = body?.error ?? `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(sentence(reason));
  }
  return body;
}

function hintsFor(code) {
  if (!nextInfo.has(code)) {
    const request = api('/api/next', { code });
    request.then((next) => {
      for (const child of next.children) knownSteps.set(child.code, child.min_steps);
    }, () => nextInfo.delete(code));
    nextInfo.set(code, request);
  }
  return nextInfo.get(code);
}

// ---- drawing ------------------------------------------------------------------------------

// The board is an ARIA grid of 5 rows of 4 cells; each piece lives in the cell of its
// top-left corner and is drawn over the board by absolute position (rows and cells are not
// positioned, so the board is the pieces' containing block).
function buildGrid() {
  cells = [];
  for (let row = 0; row < ROWS; row++) {
    const line = document.createElement('div');
    line.setAttribute('role', 'row');
    line.setAttribute('aria-rowindex', String(row + 1));
    line.className = 'board-row';
    for (let col = 0; col < COLS; col++) {
      const cell = document.createElement('div');
      cell.setAttribute('role', 'gridcell');
      cell.setAttribute('aria-colindex', String(col + 1));
      cell.className = 'board-cell';
      line.append(cell);
      cells.push(cell);
    }
    ui.board.append(line);
  }
}

function createSprite(kind) {
  const el = document.createElement('div');
  el.className = `piece ${kind}`;
  el.dataset.kind = kind;
  el.tabIndex = 0;
  el.setAttribute('role', 'button');
  const face = document.createElement('span');
  face.className = 'face';
  face.setAttribute('aria-hidden', 'true');
  face.textContent = FACE[kind];
  el.append(face);
  return { kind, address: -1, el };
}

// Draws the sprite at an address without moving it in the grid (while it is dragged).
function position(sprite, address) {
  sprite.el.style.left = `${(colOf(address) * 100) / COLS}%`;
  sprite.el.style.top = `${(rowOf(address) * 100) / ROWS}%`;
}

function place(sprite, address) {
  sprite.address = address;
  sprite.el.dataset.address = String(address);
  sprite.el.setAttribute('aria-label', pieceLabel(sprite.kind, address));
  position(sprite, address);
  if (sprite.el.parentElement !== cells[address]) {
    const focused = document.activeElement === sprite.el;
    cells[address].append(sprite.el);
    if (focused) sprite.el.focus({ preventScroll: true });
  }
}

// Keeps the element of every piece that did not move, so a slide animates the right block.
function render(pieces) {
  const spare = [...sprites];
  const kept = [];
  const unmatched = [];
  for (const piece of pieces) {
    const index = spare.findIndex((s) => s.kind === piece.kind && s.address === piece.address);
    if (index >= 0) kept.push(spare.splice(index, 1)[0]);
    else unmatched.push(piece);
  }
  for (const piece of unmatched) {
    const index = spare.findIndex((s) => s.kind === piece.kind);
    const sprite = index >= 0 ? spare.splice(index, 1)[0] : createSprite(piece.kind);
    place(sprite, piece.address);
    kept.push(sprite);
  }
  for (const sprite of spare) sprite.el.remove();
  sprites = kept;
}

function celebrate(solved) {
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

function miniBoard(code) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 4 5');
  svg.setAttribute('class', 'mini');
  svg.setAttribute('aria-hidden', 'true');
  for (const piece of decode(code)) {
    const [width, height] = SHAPE[piece.kind];
    const rect = document.createElementNS(ns, 'rect');
    rect.setAttribute('x', String(colOf(piece.address) + 0.07));
    rect.setAttribute('y', String(rowOf(piece.address) + 0.07));
    rect.setAttribute('width', String(width - 0.14));
    rect.setAttribute('height', String(height - 0.14));
    rect.setAttribute('rx', '0.15');
    rect.setAttribute('class', piece.kind);
    svg.append(rect);
  }
  return svg;
}

// ---- readouts -----------------------------------------------------------------------------

// The solution step the board is at, or -1 when the board has left the solution.
function solutionStep() {
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
function refresh() {
  const code = currentCode();
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
      ui.remaining.textContent = next.min_steps === null ? 'no solution' : String(next.min_steps);
      ui.progress.textContent = progressText(next.min_steps);
    }).catch((error) => say(error.message));
  }
  if (remaining === null) ui.remaining.textContent = 'no solution';
  else ui.remaining.textContent = remaining === undefined ? '…' : String(remaining);
  ui.progress.textContent = progressText(remaining);
}

function say(text) {
  ui.message.textContent = text;
}

function announce(text) {
  ui.announce.textContent = text;
}

// ---- history: every board the player reached, one step apart -----------------------------

// Draws history[at] at once, no animation.
function showCurrent() {
  const code = currentCode();
  state.pieces = decode(code);
  render(state.pieces);
  const goal = isGoal(state.pieces);
  celebrate(goal);
  if (goal && state.at > 0) rememberSolved(state.history[0]);
  refresh();
}

function dropSolution() {
  state.solution = null;
  state.playing = false;
}

// A new game from code: the address names it (without adding a browser history entry).
function startGame(code) {
  stopEditing();
  dropSolution();
  state.history = [code];
  state.at = 0;
  state.optimum = undefined;
  if (decodeURIComponent(location.hash.slice(1)) !== code) {
    history.replaceState(null, '', `#${code}`);
  }
  hintsFor(code).then((next) => {
    if (state.history[0] !== code) return;
    state.optimum = next.min_steps ?? undefined;
    if (!state.solution) refresh();
  }).catch(() => {});
  say('');
  showCurrent();
}

const stepMs = () => BASE_STEP_MS / Number(ui.speed.value);
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

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
async function stepTo(index, duration = stepMs() * (1 - PAUSE_FRACTION)) {
  const move = moveBetween(encode(state.pieces), state.history[index]);
  if (move) await slide(state.pieces, move.from, move.to, move.kind, duration);
  state.at = index;
  showCurrent();
  return move;
}

// Plays one step to code: the redo list is kept when the step is its next entry.
async function advance(code, duration = undefined) {
  if (state.history[state.at + 1] !== code) {
    state.history = [...state.history.slice(0, state.at + 1), code];
  }
  return stepTo(state.at + 1, duration);
}

// Tells a screen reader what moved and how far the goal is, once that is known.
async function announceMove(move) {
  if (!move) return;
  const code = currentCode();
  const step = solutionStep();
  let remaining = step >= 0 ? state.solution.moves.length - step : undefined;
  if (remaining === undefined) {
    remaining = await hintsFor(code).then((next) => next.min_steps, () => undefined);
  }
  if (currentCode() === code) {
    announce(`Moved ${pieceLabel(move.kind, move.to)}. ${progressText(remaining)}`);
  }
}

// Every change to the board runs through this queue, so slides never overlap.
let queue = Promise.resolve();
let queued = 0;
function enqueue(task) {
  queued += 1;
  queue = queue.then(task).catch((error) => say(error.message)).finally(() => { queued -= 1; });
  return queue;
}

function undo() {
  state.playing = false;
  enqueue(async () => {
    if (state.at > 0) announceMove(await stepTo(state.at - 1));
  });
}

function redo() {
  state.playing = false;
  enqueue(async () => {
    if (state.at < state.history.length - 1) announceMove(await stepTo(state.at + 1));
  });
}

function restart() {
  state.playing = false;
  enqueue(() => {
    if (state.editing || state.at === 0) return;
    state.at = 0;
    showCurrent();
    announce(`Back to the start. ${ui.progress.textContent}`);
  });
}

function hint() {
  state.playing = false;
  enqueue(async () => {
    if (state.editing) return;
    const code = currentCode();
    const next = await hintsFor(code);
    if (currentCode() !== code) return;
    if (next.min_steps === null) {
      say('No hint: the 2×2 can never reach the exit from this layout.');
    } else if (next.min_steps === 0) {
      say('Already solved.');
    } else {
      say('');
      announceMove(await advance(next.best[0]));
    }
  });
}

// Resolves to whether the text named a layout (else the API's reason is shown).
async function loadLayout(text) {
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
  state.playing = false;
  await enqueue(() => startGame(layout.code));
  return true;
}

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = false;
}

// After picking a layout further down the page (below the board on a phone), bring the
// board back into view.
function revealBoard() {
  const box = ui.frame.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  ui.frame.scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth', block: 'center' });
}

// ---- solution playback ----------------------------------------------------------------------

async function stepBy(direction) {
  const step = solutionStep();
  if (step < 0) return;
  const target = step + direction;
  if (target < 0 || target > state.solution.moves.length) return;
  if (direction > 0) await advance(state.solution.path[target]);
  else await stepTo(state.at - 1);
}

async function playLoop() {
  if (solutionStep() < 0) return;
  const total = state.solution.moves.length;
  if (solutionStep() === total) {
    state.at = state.solution.base;
    showCurrent();
    await sleep(stepMs());
  }
  state.playing = true;
  refresh();
  while (state.playing && solutionStep() >= 0 && solutionStep() < total) {
    await stepBy(1);
    if (state.playing && solutionStep() < total) await sleep(stepMs() * PAUSE_FRACTION);
  }
  state.playing = false;
  refresh();
}

// One request for the whole solution; a second click while it is on its way or playing
// does nothing, and a click with the solution known plays it.
async function solve() {
  if (state.editing || !currentCode() || state.solving) return;
  if (state.solution) {
    if (!state.playing) togglePlay();
    return;
  }
  state.playing = false;
  state.solving = true;
  const code = currentCode();
  say('Searching for the shortest solution…');
  let result;
  try {
    result = await api('/api/solve', { code });
  } finally {
    state.solving = false;
  }
  await enqueue(async () => {
    if (currentCode() !== code || state.editing) return;
    if (!result.solvable) {
      say('No solution: the 2×2 can never reach the exit from this layout.');
      ui.remaining.textContent = 'no solution';
      return;
    }
    state.solution = { path: result.path, moves: result.moves, base: state.at };
    say(result.steps === 0 ? 'Already solved.' : `Shortest solution: ${result.steps} steps.`);
    refresh();
    if (result.steps > 0) await playLoop();
  });
}

function togglePlay() {
  if (!state.solution) return;
  if (state.playing) {
    state.playing = false;
    refresh();
  } else {
    enqueue(playLoop);
  }
}

function stepButton(direction) {
  state.playing = false;
  enqueue(() => stepBy(direction));
}

// ---- playing by dragging and from the keyboard ----------------------------------------------

function boardPiece(el) {
  const sprite = sprites.find((s) => s.el === el);
  const piece = sprite
    && state.pieces.find((p) => p.kind === sprite.kind && p.address === sprite.address);
  return piece ? { sprite, piece } : null;
}

function startDrag(event) {
  const el = event.target.closest('.piece');
  // a drag starts from the board as drawn, so not while a slide is still under way
  if (!el || state.editing || state.playing || drag || queued > 0) return;
  const found = boardPiece(el);
  if (!found) return;
  event.preventDefault();
  el.setPointerCapture(event.pointerId);
  el.classList.add('dragging');
  const box = ui.board.getBoundingClientRect();
  drag = {
    ...found, reach: reachable(state.pieces, found.piece), target: found.piece.address,
    x: event.clientX, y: event.clientY, cellWidth: box.width / COLS, cellHeight: box.height / ROWS,
  };
}

// The piece follows the pointer to the cell under it when it can slide there; elsewhere it
// waits where it started, and a drop there does nothing.
function moveDrag(event) {
  if (!drag) return;
  const row = Math.round(rowOf(drag.piece.address) + (event.clientY - drag.y) / drag.cellHeight);
  const col = Math.round(colOf(drag.piece.address) + (event.clientX - drag.x) / drag.cellWidth);
  const inside = row >= 0 && row < ROWS && col >= 0 && col < COLS;
  const address = inside ? row * COLS + col : null;
  const target = address !== null && drag.reach.has(address) ? address : drag.piece.address;
  if (target !== drag.target) {
    drag.target = target;
    position(drag.sprite, target);
  }
}

function endDrag() {
  if (!drag) return;
  const { sprite, piece, target } = drag;
  drag = null;
  sprite.el.classList.remove('dragging');
  position(sprite, piece.address);
  if (target === piece.address) return;
  enqueue(() => movePiece(piece, target, 0));
}

// A hand move. Moving the piece the last step moved extends that step (a step slides one
// piece any distance), so the count stays comparable with the optimum; moving it back where
// the step started takes the step back.
async function movePiece(piece, to, duration) {
  const code = encode(state.pieces.map((p) => (p === piece ? { ...p, address: to } : p)));
  state.playing = false;
  say('');
  const last = state.at > 0 ? moveBetween(state.history[state.at - 1], currentCode()) : null;
  if (!last || last.kind !== piece.kind || last.to !== piece.address) {
    announceMove(await advance(code, duration));
    return;
  }
  const origin = state.history[state.at - 1];
  state.history = state.history.slice(0, code === origin ? state.at : state.at + 1);
  if (code !== origin) state.history[state.at] = code;
  const move = await stepTo(code === origin ? state.at - 1 : state.at, duration);
  announceMove(move);
}

function keyMove(el, key) {
  const found = boardPiece(el);
  if (!found || state.editing || queued > 0) return;
  const [dr, dc] = ARROWS[key];
  const { piece } = found;
  const row = rowOf(piece.address) + dr;
  const col = colOf(piece.address) + dc;
  if (!fits(piece.kind, row, col, occupancy(state.pieces, piece))) {
    announce(`${pieceLabel(piece.kind, piece.address)} cannot move that way.`);
    return;
  }
  enqueue(() => movePiece(piece, row * COLS + col, stepMs() * 0.4));
}

// ---- editing ----------------------------------------------------------------------------------

function startEditing() {
  state.playing = false;
  enqueue(() => {
    dropSolution();
    state.editing = true;
    state.editPieces = state.pieces.map((p) => ({ ...p }));
    ui.editor.hidden = false;
    ui.editButton.textContent = 'Editing…';
    ui.editButton.disabled = true;
    ui.board.classList.add('editing');
    celebrate(false);
    redrawEditor();
  });
}

function stopEditing() {
  if (!state.editing) return;
  state.editing = false;
  state.editRequest += 1;
  ui.editor.hidden = true;
  ui.editButton.textContent = 'Edit';
  ui.editButton.disabled = false;
  ui.board.classList.remove('editing');
  showCurrent();
}

function editCell(event) {
  if (!state.editing) return;
  const box = ui.board.getBoundingClientRect();
  const col = Math.floor(((event.clientX - box.left) / box.width) * COLS);
  const row = Math.floor(((event.clientY - box.top) / box.height) * ROWS);
  if (row < 0 || row >= ROWS || col < 0 || col >= COLS) return;
  const cell = row * COLS + col;
  const owner = state.editPieces.find((p) => cellsOf(p.kind, p.address).includes(cell));
  if (owner) {
    state.editPieces = state.editPieces.filter((p) => p !== owner);
  } else {
    const kind = state.editKind;
    const others = kind === 'cao'
      ? state.editPieces.filter((p) => p.kind !== 'cao') : state.editPieces;
    if (!fits(kind, row, col, occupancy(others))) {
      ui.editStatus.textContent = `A ${KIND_NAME[kind]} does not fit with its top-left there.`;
      ui.editStatus.className = 'edit-status bad';
      return;
    }
    state.editPieces = [...others, { kind, address: cell }];
  }
  redrawEditor();
}

// While editing, the readouts describe the layout being built, never the one before.
function showEditReadouts(code) {
  ui.currentCode.textContent = code ?? '—';
  ui.remaining.textContent = '—';
  ui.progress.textContent = code ? 'Editing: use this layout to play it.' : 'Editing.';
  ui.layoutName.textContent = classicNames.get(code)
    ? `${classicNames.get(code).name} · ${classicNames.get(code).name_en}` : '';
  ui.movesMade.textContent = '0';
  ui.counter.textContent = '0 / 0';
  for (const button of [ui.undo, ui.redo, ui.restart, ui.hint, ui.play, ui.back, ui.forward]) {
    button.disabled = true;
  }
}

function redrawEditor() {
  render(state.editPieces);
  const request = ++state.editRequest;
  state.editCode = null;
  ui.editDone.disabled = true;
  showEditReadouts(null);
  const caos = state.editPieces.filter((p) => p.kind === 'cao').length;
  const empty = occupancy(state.editPieces).filter((taken) => !taken).length;
  const problem = caos !== 1 ? 'Place the 2×2 曹操 piece.'
    : empty < 2 ? `Leave at least 2 empty cells (${empty} now).` : null;
  if (problem) {
    ui.editStatus.textContent = problem;
    ui.editStatus.className = 'edit-status bad';
    return;
  }
  ui.editStatus.textContent = 'Checking…';
  ui.editStatus.className = 'edit-status';
  api('/api/layout', { code: onlineId(state.editPieces) }).then((layout) => {
    if (request !== state.editRequest) return;
    state.editCode = layout.code;
    ui.editDone.disabled = false;
    showEditReadouts(layout.code);
    ui.editStatus.textContent = `Valid layout ${layout.code} · ${layout.jiang} generals, `
      + `${layout.bing} soldiers${layout.is_solved ? ' · already solved' : ''}`;
    ui.editStatus.className = 'edit-status good';
  }).catch((error) => {
    if (request !== state.editRequest) return;
    ui.editStatus.textContent = error.message;
    ui.editStatus.className = 'edit-status bad';
  });
}

function finishEditing() {
  const code = state.editCode;
  if (!code) return;
  enqueue(() => {
    state.editing = false;
    ui.editor.hidden = true;
    ui.editButton.textContent = 'Edit';
    ui.editButton.disabled = false;
    ui.board.classList.remove('editing');
    startGame(code);
    revealBoard();
  });
}

// ---- classics and levels ----------------------------------------------------------------------

function layoutButton(code, steps, zh, en) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'classic';
  button.dataset.code = code;
  const names = document.createElement('span');
  names.className = 'names';
  names.innerHTML = '<span class="zh"></span><span class="en"></span>';
  names.querySelector('.zh').textContent = zh;
  names.querySelector('.en').textContent = en;
  const count = document.createElement('span');
  count.className = 'steps';
  count.textContent = steps === null ? '—' : `${steps}`;
  count.title = 'minimum steps';
  const tick = document.createElement('span');
  tick.className = 'tick';
  tick.textContent = '✓';
  tick.title = 'solved';
  button.setAttribute('aria-label', `${zh} ${en}, ${steps === null ? 'no solution'
    : `${steps} steps`}`);
  button.append(miniBoard(code), names, count, tick);
  button.addEventListener('click', async () => {
    ui.codeInput.value = code;
    if (await loadLayout(code)) revealBoard();
  });
  const item = document.createElement('li');
  item.append(button);
  return item;
}

async function loadClassics() {
  const classics = await api('/api/classics', {});
  for (const classic of classics) {
    classicNames.set(classic.code, classic);
    ui.classics.append(layoutButton(classic.code, classic.min_steps, classic.name,
      classic.name_en ?? ''));
  }
  if (!state.editing) refresh();
}

async function showLevels(params) {
  let page;
  try {
    page = await api('/api/levels', { limit: LEVELS_PER_PAGE, ...params });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ui.levelsNote.textContent = 'Only the classics for now: build the database with '
      + '“huarong db build” (about a minute), then reload this page to browse all 121,285 '
      + 'standard layouts by difficulty.';
    return;
  }
  state.levelsOffset = page.offset;
  ui.levelsNote.textContent = `All ${page.total.toLocaleString('en')} standard layouts worth `
    + 'playing (one of each mirror pair), easiest first.';
  ui.levelsForm.hidden = false;
  ui.levelsPager.hidden = false;
  ui.levels.replaceChildren(...page.levels.map((level, index) => layoutButton(level.code,
    level.min_steps, `#${(page.offset + index + 1).toLocaleString('en')}`, level.code)));
  const last = page.offset + page.levels.length;
  ui.levelsRange.textContent = `${(page.offset + 1).toLocaleString('en')}–`
    + `${last.toLocaleString('en')}`;
  ui.levelsPrev.disabled = page.offset === 0;
  ui.levelsNext.disabled = last >= page.total;
  if (!state.editing) refresh();
}

// ---- wiring ---------------------------------------------------------------------------------

ui.loadForm.addEventListener('submit', (event) => {
  event.preventDefault();
  loadLayout(ui.codeInput.value).then((loaded) => { if (loaded) revealBoard(); });
});
ui.solve.addEventListener('click', () => solve().catch((error) => say(error.message)));
ui.play.addEventListener('click', togglePlay);
ui.back.addEventListener('click', () => stepButton(-1));
ui.forward.addEventListener('click', () => stepButton(1));
ui.undo.addEventListener('click', undo);
ui.redo.addEventListener('click', redo);
ui.restart.addEventListener('click', restart);
ui.hint.addEventListener('click', hint);
ui.copyLink.addEventListener('click', async () => {
  const link = `${location.origin}${location.pathname}#${currentCode()}`;
  try {
    await navigator.clipboard.writeText(link);
    say(`Link copied: ${link}`);
  } catch {
    say(`Copy this link: ${link}`);
  }
});
ui.speed.addEventListener('input', () => {
  ui.speedValue.textContent = `${ui.speed.value}×`;
});
ui.board.addEventListener('pointerdown', (event) => {
  if (state.editing) editCell(event);
  else startDrag(event);
});
ui.board.addEventListener('pointermove', moveDrag);
ui.board.addEventListener('pointerup', endDrag);
ui.board.addEventListener('pointercancel', endDrag);
ui.editButton.addEventListener('click', startEditing);
ui.editClear.addEventListener('click', () => {
  state.editPieces = [];
  redrawEditor();
});
ui.editDone.addEventListener('click', finishEditing);
ui.editCancel.addEventListener('click', () => enqueue(stopEditing));
ui.palette.addEventListener('click', (event) => {
  const button = event.target.closest('[data-kind]');
  if (!button) return;
  state.editKind = button.dataset.kind;
  for (const other of ui.palette.children) {
    other.classList.toggle('chosen', other === button);
    other.setAttribute('aria-checked', String(other === button));
  }
});
ui.levelsForm.addEventListener('submit', (event) => {
  event.preventDefault();
  showLevels({ min_steps: Number(ui.levelsSteps.value) || 1 });
});
ui.levelsPrev.addEventListener('click', () => {
  showLevels({ offset: Math.max(0, state.levelsOffset - LEVELS_PER_PAGE) });
});
ui.levelsNext.addEventListener('click', () => {
  showLevels({ offset: state.levelsOffset + LEVELS_PER_PAGE });
});
window.addEventListener('hashchange', () => {
  const linked = decodeURIComponent(location.hash.slice(1));
  if (linked && linked !== state.history[0]) {
    ui.codeInput.value = linked;
    loadLayout(linked);
  }
});

const typing = (target) => target instanceof Element
  && target.closest('input:not([type=range]):not([type=button]), textarea, select, '
    + '[contenteditable]');

// Shortcuts work wherever focus is, except while typing; Space is the play key everywhere,
// so it never also presses the focused button.
document.addEventListener('keydown', (event) => {
  if (typing(event.target) || event.altKey || event.metaKey) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const onPiece = event.target instanceof Element && event.target.closest('.piece');
  const onSlider = event.target === ui.speed;
  let handled = true;
  if (event.ctrlKey && key === 'z') {
    if (event.shiftKey) redo(); else undo();
  } else if (event.ctrlKey && key === 'y') {
    redo();
  } else if (event.ctrlKey) {
    handled = false;
  } else if (key === ' ') {
    if (!event.repeat) togglePlay();
  } else if (key === 'h') {
    hint();
  } else if (key === 'r') {
    restart();
  } else if (onPiece && ARROWS[key]) {
    keyMove(onPiece, key);
  } else if (key === 'ArrowRight' && !onSlider) {
    stepButton(1);
  } else if (key === 'ArrowLeft' && !onSlider) {
    stepButton(-1);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
});
document.addEventListener('keyup', (event) => {
  if (event.key === ' ' && !typing(event.target)) event.preventDefault();
});

buildGrid();
loadClassics().catch((error) => say(`The classic layouts are unavailable. ${error.message}`));
showLevels({}).catch((error) => say(error.message));
// Opens the layout named in the address (#code), or 横刀立马 when there is none or it is bad.
async function start() {
  const linked = decodeURIComponent(location.hash.slice(1));
  if (linked && (await loadLayout(linked))) return;
  const reason = linked ? ui.error.textContent : null;
  await loadLayout(START_CODE);
  if (reason) showError(reason);
}

start().catch((error) => say(error.message));
