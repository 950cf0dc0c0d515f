// Huarong Pass viewer: draws a layout from its common code, replays the optimal solution from
// /api/solve with pieces sliding cell by cell (through corners), and lets a person play by
// dragging pieces while /api/next tells how many steps remain at best.

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
// The 2-bit items of the common code (SPEC §3); 0 is an empty cell.
const KIND_OF_ITEM = [null, 'horizontal', 'vertical', 'soldier'];
// klotski.online writes one digit per cell.
const ONLINE_DIGIT = { cao: '4', vertical: '2', horizontal: '3', soldier: '1' };
const FACE = { cao: '曹操', vertical: '将', horizontal: '将', soldier: '兵' };
const KIND_NAME = { cao: '2×2', vertical: 'vertical piece', horizontal: 'horizontal piece',
  soldier: '1×1' };

const $ = (id) => document.getElementById(id);
const ui = {
  board: $('board'), celebration: $('celebration'), currentCode: $('current-code'),
  remaining: $('remaining'), movesMade: $('moves-made'), solve: $('solve-button'),
  play: $('play-button'), back: $('step-back'), forward: $('step-forward'),
  counter: $('step-counter'), speed: $('speed'), speedValue: $('speed-value'),
  message: $('message'), loadForm: $('load-form'), codeInput: $('code-input'),
  error: $('error'), editButton: $('edit-button'), editor: $('editor'),
  palette: $('palette'), editStatus: $('edit-status'), editClear: $('edit-clear'),
  editDone: $('edit-done'), editCancel: $('edit-cancel'), classics: $('classics'),
};

const state = {
  code: null,
  pieces: [],
  solution: null, // {path: [codes], moves: [{from, to, kind}]}
  step: 0,
  playing: false,
  next: null, // promise of /api/next for state.code
  movesMade: 0,
  editing: false,
  editPieces: [],
  editKind: 'cao',
  editCode: null,
  editRequest: 0,
};
let sprites = []; // {kind, address, el}: the piece elements on the board
let drag = null;

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

const isGoal = (pieces) => pieces.some((p) => p.kind === 'cao' && p.address === GOAL_ADDRESS);

// ---- server -------------------------------------------------------------------------------

class ApiError extends Error {}

async function api(path, params) {
  const response = await fetch(`${path}?${new URLSearchParams(params)}`);
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const detail = Array.isArray(body?.detail) ? body.detail.map((d) => d.msg).join('; ') : null;
    throw new ApiError(body?.error ?? detail ?? `${response.status} ${response.statusText}`);
  }
  return body;
}

// ---- drawing ------------------------------------------------------------------------------

function createSprite(kind) {
  const el = document.createElement('div');
  el.className = `piece ${kind}`;
  el.dataset.kind = kind;
  const face = document.createElement('span');
  face.className = 'face';
  face.textContent = FACE[kind];
  el.append(face);
  ui.board.append(el);
  return { kind, address: -1, el };
}

function place(sprite, address) {
  sprite.address = address;
  sprite.el.dataset.address = String(address);
  sprite.el.style.left = `${(colOf(address) * 100) / COLS}%`;
  sprite.el.style.top = `${(rowOf(address) * 100) / ROWS}%`;
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
  if (!solved) return;
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

function showRemaining(steps) {
  ui.remaining.textContent = steps === null || steps === undefined ? 'no solution' : String(steps);
}

function refreshControls() {
  const total = state.solution ? state.solution.moves.length : 0;
  ui.counter.textContent = `${state.step} / ${total}`;
  ui.play.disabled = !state.solution || total === 0;
  ui.back.disabled = !state.solution || state.step === 0;
  ui.forward.disabled = !state.solution || state.step === total;
  if (state.playing) ui.play.textContent = '❚❚ Pause';
  else if (state.solution && total > 0 && state.step === total) ui.play.textContent = '↺ Replay';
  else ui.play.textContent = '▶ Play';
  ui.movesMade.textContent = String(state.movesMade);
  for (const item of ui.classics.querySelectorAll('[data-code]')) {
    item.classList.toggle('active', item.dataset.code === state.code);
  }
}

function say(text) {
  ui.message.textContent = text;
}

// ---- showing layouts ------------------------------------------------------------------------

// remaining: the known minimum steps left, or undefined to ask /api/next.
function show(code, remaining) {
  state.code = code;
  state.pieces = decode(code);
  render(state.pieces);
  ui.currentCode.textContent = code;
  celebrate(isGoal(state.pieces));
  if (location.hash.slice(1) !== code) history.replaceState(null, '', `#${code}`);
  state.next = api('/api/next', { code }).then((next) => {
    if (state.code === code && !state.solution) showRemaining(next.min_steps);
    return next;
  }).catch((error) => {
    say(error.message);
    return null;
  });
  if (remaining === undefined) ui.remaining.textContent = '…';
  else showRemaining(remaining);
  refreshControls();
}

function dropSolution() {
  state.solution = null;
  state.step = 0;
  state.playing = false;
}

// Every change to the board runs through this queue, so slides never overlap.
let queue = Promise.resolve();
let queued = 0;
function enqueue(task) {
  queued += 1;
  queue = queue.then(task).catch((error) => say(error.message)).finally(() => { queued -= 1; });
  return queue;
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
  await enqueue(() => {
    stopEditing();
    dropSolution();
    state.movesMade = 0;
    say('');
    show(layout.code);
  });
  return true;
}

function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = false;
}

// ---- solution playback ----------------------------------------------------------------------

const stepMs = () => BASE_STEP_MS / Number(ui.speed.value);
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function slide(pieces, from, to, kind, duration) {
  const piece = pieces.find((p) => p.kind === kind && p.address === from);
  const sprite = sprites.find((s) => s.kind === kind && s.address === from);
  if (!piece || !sprite) throw new Error(`no ${KIND_NAME[kind]} at address ${from}`);
  const route = routeTo(reachable(pieces, piece), to) ?? [from, to];
  const frames = route.map((address) => ({
    left: `${(colOf(address) * 100) / COLS}%`,
    top: `${(rowOf(address) * 100) / ROWS}%`,
  }));
  place(sprite, to);
  sprite.el.classList.add('moving');
  await sprite.el.animate(frames, { duration, easing: 'cubic-bezier(.5,.05,.3,1)' }).finished;
  sprite.el.classList.remove('moving');
}

async function stepBy(direction) {
  const { solution } = state;
  if (!solution) return;
  const target = state.step + direction;
  if (target < 0 || target > solution.moves.length) return;
  const duration = stepMs() * (1 - PAUSE_FRACTION);
  if (direction > 0) {
    const move = solution.moves[state.step];
    await slide(state.pieces, move.from, move.to, move.kind, duration);
  } else {
    const move = solution.moves[target];
    await slide(state.pieces, move.to, move.from, move.kind, duration);
  }
  state.step = target;
  show(solution.path[target], solution.moves.length - target);
}

async function playLoop() {
  const total = state.solution.moves.length;
  if (state.step === total) {
    state.step = 0;
    show(state.solution.path[0], total);
    await sleep(stepMs());
  }
  state.playing = true;
  refreshControls();
  while (state.playing && state.step < total) {
    await stepBy(1);
    if (state.playing && state.step < total) await sleep(stepMs() * PAUSE_FRACTION);
  }
  state.playing = false;
  refreshControls();
}

async function solve() {
  if (state.editing || !state.code) return;
  state.playing = false;
  const code = state.code;
  say('Searching for the shortest solution…');
  const result = await api('/api/solve', { code });
  await enqueue(async () => {
    if (state.code !== code) return;
    dropSolution();
    if (!result.solvable) {
      say('No solution: the 2×2 can never reach the exit from this layout.');
      showRemaining(null);
      refreshControls();
      return;
    }
    state.solution = { path: result.path, moves: result.moves };
    showRemaining(result.steps);
    say(result.steps === 0 ? 'Already solved.'
      : `Shortest solution: ${result.steps} steps.`);
    refreshControls();
    if (result.steps > 0) await playLoop();
  });
}

function togglePlay() {
  if (!state.solution) return;
  if (state.playing) {
    state.playing = false;
    refreshControls();
  } else {
    enqueue(playLoop);
  }
}

function stepButton(direction) {
  state.playing = false;
  enqueue(() => stepBy(direction));
}

// ---- playing by dragging ----------------------------------------------------------------------

function startDrag(event) {
  const el = event.target.closest('.piece');
  // a drag starts from the board as drawn, so not while a slide is still under way
  if (!el || state.editing || state.playing || drag || queued > 0) return;
  const sprite = sprites.find((s) => s.el === el);
  const piece = state.pieces.find((p) => p.kind === sprite.kind && p.address === sprite.address);
  if (!piece) return;
  event.preventDefault();
  el.setPointerCapture(event.pointerId);
  el.classList.add('dragging');
  const box = ui.board.getBoundingClientRect();
  drag = {
    sprite, piece, reach: reachable(state.pieces, piece), target: piece.address,
    x: event.clientX, y: event.clientY, cellWidth: box.width / COLS, cellHeight: box.height / ROWS,
  };
}

function moveDrag(event) {
  if (!drag) return;
  const row = rowOf(drag.piece.address) + (event.clientY - drag.y) / drag.cellHeight;
  const col = colOf(drag.piece.address) + (event.clientX - drag.x) / drag.cellWidth;
  let best = drag.target;
  let bestDistance = Infinity;
  for (const address of drag.reach.keys()) {
    const distance = (rowOf(address) - row) ** 2 + (colOf(address) - col) ** 2;
    if (distance < bestDistance) [best, bestDistance] = [address, distance];
  }
  if (best !== drag.target) {
    drag.target = best;
    place(drag.sprite, best);
  }
}

function endDrag() {
  if (!drag) return;
  const { sprite, piece, target } = drag;
  drag = null;
  sprite.el.classList.remove('dragging');
  if (target === piece.address) return;
  enqueue(() => commitMove(piece, target, sprite));
}

async function commitMove(piece, to, sprite) {
  const next = await state.next;
  const child = next?.code === state.code
    ? next.children.find((c) => c.move.from === piece.address && c.move.to === to) : undefined;
  if (!child) {
    place(sprite, piece.address);
    say('That piece cannot go there.');
    return;
  }
  dropSolution();
  state.movesMade += 1;
  say('');
  show(child.code, child.min_steps);
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
  ui.editor.hidden = true;
  ui.editButton.textContent = 'Edit';
  ui.editButton.disabled = false;
  ui.board.classList.remove('editing');
  render(state.pieces);
  celebrate(isGoal(state.pieces));
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

function redrawEditor() {
  render(state.editPieces);
  const request = ++state.editRequest;
  state.editCode = null;
  ui.editDone.disabled = true;
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
    state.pieces = decode(code);
    stopEditing();
    state.movesMade = 0;
    say('');
    show(code);
  });
}

// ---- classics -------------------------------------------------------------------------------

async function loadClassics() {
  const classics = await api('/api/classics', {});
  for (const classic of classics) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'classic';
    button.dataset.code = classic.code;
    button.title = `${classic.name} · ${classic.code}`;
    const names = document.createElement('span');
    names.className = 'names';
    names.innerHTML = '<span class="zh"></span><span class="en"></span>';
    names.querySelector('.zh').textContent = classic.name;
    names.querySelector('.en').textContent = classic.name_en ?? '';
    const steps = document.createElement('span');
    steps.className = 'steps';
    steps.textContent = classic.min_steps === null ? '—' : `${classic.min_steps}`;
    button.append(miniBoard(classic.code), names, steps);
    button.addEventListener('click', () => {
      ui.codeInput.value = classic.code;
      loadLayout(classic.code);
    });
    item.append(button);
    ui.classics.append(item);
  }
  refreshControls();
}

// ---- wiring ---------------------------------------------------------------------------------

ui.loadForm.addEventListener('submit', (event) => {
  event.preventDefault();
  loadLayout(ui.codeInput.value);
});
ui.solve.addEventListener('click', () => solve().catch((error) => say(error.message)));
ui.play.addEventListener('click', togglePlay);
ui.back.addEventListener('click', () => stepButton(-1));
ui.forward.addEventListener('click', () => stepButton(1));
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
  for (const other of ui.palette.children) other.classList.toggle('chosen', other === button);
});
document.addEventListener('keydown', (event) => {
  if (event.target.closest('input, button, textarea')) return;
  if (event.key === ' ') {
    event.preventDefault();
    togglePlay();
  } else if (event.key === 'ArrowRight') {
    stepButton(1);
  } else if (event.key === 'ArrowLeft') {
    stepButton(-1);
  }
});

loadClassics().catch((error) => say(`Classic layouts unavailable: ${error.message}`));
// Opens the layout named in the address (#code), or 横刀立马 when there is none or it is bad.
async function start() {
  const linked = decodeURIComponent(location.hash.slice(1));
  if (linked && (await loadLayout(linked))) return;
  const reason = linked ? ui.error.textContent : null;
  await loadLayout(START_CODE);
  if (reason) showError(reason);
}

start().catch((error) => say(error.message));
