// Building a layout cell by cell: the server checks each version and names it.

import { api } from '../../lib/api.js';
import {
  COLS, KIND_NAME, ROWS, cellsOf, decode, fits, occupancy, onlineId,
} from '../../lib/klotski-rules.js';
import { drawKlotski } from '../../components/game-klotski.js';
import {
  celebrate, closeEditor, game, revealBoard, showCodeLinks, startGame,
} from './klotski-game.js';
import {
  classicNames, learnShortCode, state, ui,
} from './klotski-page.js';

export function startEditing() {
  game.pause();
  game.enqueue(() => {
    state.editing = true;
    state.editPieces = decode(game.position());
    ui.editor.hidden = false;
    ui.editButton.textContent = 'Editing…';
    ui.editButton.disabled = true;
    ui.board.classList.add('editing');
    celebrate(false);
    redrawEditor();
  });
}

export function editCell(event) {
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
  showCodeLinks(code);
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

export function redrawEditor() {
  drawKlotski(game.board, state.editPieces);
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
    learnShortCode(layout);
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

// Leaves the editor for the game's board as it was.
export function stopEditing() {
  game.enqueue(() => {
    if (!state.editing) return;
    closeEditor();
    game.show();
  });
}

export function finishEditing() {
  const code = state.editCode;
  if (!code) return;
  game.enqueue(() => {
    closeEditor();
    startGame(code);
    revealBoard();
  });
}
