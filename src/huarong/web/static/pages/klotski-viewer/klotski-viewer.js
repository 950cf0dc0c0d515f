// Huarong Pass viewer: draws a layout from its common code, replays the optimal solution from
// /api/solve with pieces sliding cell by cell (through corners), and lets a person play by
// dragging pieces or moving them from the keyboard, with undo, redo, restart and hints, while
// /api/next tells how many steps remain at best. This module wires the page's controls to the
// modules that do the work and opens the first layout.

import { buildGrid } from './klotski-board.js';
import { editCell, finishEditing, redrawEditor, startEditing } from './klotski-editor.js';
import {
  enqueue, hint, loadLayout, record, redo, restart, revealBoard, stopEditing, undo,
} from './klotski-game.js';
import { loadClassics, showLevels, wireLevels } from './klotski-lists.js';
import { ARROWS, endDrag, keyMove, moveDrag, moveTo, startDrag } from './klotski-moves.js';
import { currentCode, say, showError, state, ui } from './klotski-page.js';
import { solve, stepButton, togglePlay } from './klotski-playback.js';
import { bindHelpMode } from '../../components/help-mode.js';
import { select, selectedPiece, showTargets } from './klotski-marks.js';

const START_CODE = '1A9BF0C00';

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
ui.recordButton.addEventListener('click', () => record.download(
  `klotski-${state.history[0] ?? 'game'}-record.json`));
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
  else if (!event.target.closest('.target')) startDrag(event);
});
// The focused piece is the selected one, whose moves are marked; it stays selected while focus
// is nowhere in particular (a click on the page, or on one of its marked moves).
ui.board.addEventListener('focusin', (event) => {
  const piece = event.target.closest('.piece');
  if (piece) select(piece);
});
ui.board.addEventListener('focusout', (event) => {
  if (event.relatedTarget && !ui.board.contains(event.relatedTarget)) select(null);
});
ui.board.addEventListener('click', (event) => {
  const target = event.target.closest('.target');
  const sprite = selectedPiece();
  if (target && sprite) moveTo(sprite, Number(target.dataset.address));
});
bindHelpMode(ui.helpMode, showTargets);
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
wireLevels();
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
