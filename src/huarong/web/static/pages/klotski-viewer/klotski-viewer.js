// Huarong Pass viewer: draws a layout from its common code, replays the optimal solution from
// /api/solve with pieces sliding cell by cell (through corners), and lets a person play by
// dragging pieces or moving them from the keyboard, with undo, redo, restart and hints, while
// /api/next tells how many steps remain at best (横刀立马 opens it). This module wires the
// page's controls to the game (klotski-game.js) and opens the first layout.

import { bindHelpMode } from '../../components/help-mode.js';
import { first } from '../../components/game-history.js';
import { drawKlotski } from '../../components/game-klotski.js';
import {
  editCell, finishEditing, redrawEditor, startEditing, stopEditing,
} from './klotski-editor.js';
import {
  answers, game, loadLayout, revealBoard, solve,
} from './klotski-game.js';
import { loadClassics, showLevels, wireLevels } from './klotski-lists.js';
import { select, showTargets } from './klotski-marks.js';
import { say, showError, state, ui } from './klotski-page.js';

const START_CODE = '1A9BF0C00';

ui.loadForm.addEventListener('submit', (event) => {
  event.preventDefault();
  loadLayout(ui.codeInput.value).then((loaded) => { if (loaded) revealBoard(); });
});
ui.solve.addEventListener('click', () => solve().catch((error) => say(error.message)));
ui.play.addEventListener('click', () => game.togglePlay());
ui.back.addEventListener('click', () => game.stepSolution(-1));
ui.forward.addEventListener('click', () => game.stepSolution(1));
ui.undo.addEventListener('click', () => game.undo());
ui.redo.addEventListener('click', () => game.redo());
ui.restart.addEventListener('click', () => game.restart());
ui.hint.addEventListener('click', () => game.hint());
ui.recordButton.addEventListener('click', () => game.record.download(
  `klotski-${first(game.state.history) ?? 'game'}-record.json`));
ui.copyLink.addEventListener('click', async () => {
  const link = `${location.origin}${location.pathname}#${game.position()}`;
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
});
// The focused piece is the selected one, whose moves are marked; it stays selected while focus
// is nowhere in particular (a click on the page, or on one of its marked moves).
ui.board.addEventListener('focusin', (event) => {
  const piece = event.target.closest('.piece');
  if (piece) select(piece, game, answers);
});
ui.board.addEventListener('focusout', (event) => {
  if (event.relatedTarget && !ui.board.contains(event.relatedTarget)) select(null, game, answers);
});
// A click on one of the selected piece's marked moves makes that move.
ui.board.addEventListener('click', (event) => {
  const target = event.target.closest('.target');
  if (target && !game.busy() && !game.state.playing) game.move(target.dataset.code);
});
bindHelpMode(ui.helpMode, () => showTargets(game, answers));
ui.editButton.addEventListener('click', startEditing);
ui.editClear.addEventListener('click', () => {
  state.editPieces = [];
  redrawEditor();
});
ui.editDone.addEventListener('click', finishEditing);
ui.editCancel.addEventListener('click', stopEditing);
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
  if (linked && linked !== first(game.state.history)) {
    ui.codeInput.value = linked;
    loadLayout(linked);
  }
});

const typing = (target) => target instanceof Element
  && target.closest('input:not([type=range]):not([type=button]), textarea, select, '
    + '[contenteditable]');

// Shortcuts work wherever focus is, except while typing; Space is the play key everywhere,
// so it never also presses the focused button. An arrow on a piece is the game's.
document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || typing(event.target) || event.altKey || event.metaKey) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const onSlider = event.target === ui.speed;
  let handled = true;
  if (event.ctrlKey && key === 'z') {
    if (event.shiftKey) game.redo(); else game.undo();
  } else if (event.ctrlKey && key === 'y') {
    game.redo();
  } else if (event.ctrlKey) {
    handled = false;
  } else if (key === ' ') {
    if (!event.repeat) game.togglePlay();
  } else if (key === 'h') {
    game.hint();
  } else if (key === 'r') {
    game.restart();
  } else if (key === 'ArrowRight' && !onSlider) {
    game.stepSolution(1);
  } else if (key === 'ArrowLeft' && !onSlider) {
    game.stepSolution(-1);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
});
document.addEventListener('keyup', (event) => {
  if (event.key === ' ' && !typing(event.target)) event.preventDefault();
});

drawKlotski(game.board, []);
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
