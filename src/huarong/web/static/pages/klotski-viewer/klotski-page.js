// The Klotski viewer's elements, the page's own state (the game's is the game's: see
// klotski-game.js), what the server has told about codes, and the page's three voices.

import { $ } from '../../lib/dom.js';
import { drawReadouts } from '../../components/page-parts.js';

drawReadouts($('readout'), [
  { id: 'remaining', label: 'steps to go', value: '…' },
  { id: 'moves-made', label: 'your moves', value: '0' },
  { id: 'hints-used', label: 'hints', value: '0',
    title: 'Hints asked in this game: how far, which piece, the step' },
  { id: 'steps-lost', label: 'steps lost', value: '0',
    title: 'Your moves plus the fewest steps still needed, less the fewest from the start' },
]);

export const ui = {
  board: $('board'), frame: $('frame'), celebration: $('celebration'),
  currentCode: $('current-code'), layoutName: $('layout-name'), announce: $('announce'),
  remaining: $('remaining'), movesMade: $('moves-made'), progress: $('progress'),
  undo: $('undo-button'), redo: $('redo-button'), restart: $('restart-button'),
  hint: $('hint-button'), hintsUsed: $('hints-used'), copyLink: $('copy-link'),
  recordButton: $('record-button'), printLink: $('print-link'),
  solve: $('solve-button'),
  play: $('play-button'), back: $('step-back'), forward: $('step-forward'),
  counter: $('step-counter'), speed: $('speed'), speedValue: $('speed-value'),
  message: $('message'), loadForm: $('load-form'), codeInput: $('code-input'),
  error: $('error'), editButton: $('edit-button'), editor: $('editor'),
  palette: $('palette'), editStatus: $('edit-status'), editClear: $('edit-clear'),
  editDone: $('edit-done'), editCancel: $('edit-cancel'), classics: $('classics'),
  levels: $('levels'), levelsNote: $('levels-note'), levelsForm: $('levels-form'),
  levelsSteps: $('levels-steps'), levelsPager: $('levels-pager'), levelsPrev: $('levels-prev'),
  levelsNext: $('levels-next'), levelsRange: $('levels-range'), shortCode: $('short-code'),
  groupLink: $('group-link'), stepsLost: $('steps-lost'), pieceMoves: $('piece-moves'),
  helpMode: $('help-mode'),
};

export const state = {
  optimum: undefined, // the fewest steps from the game's first layout, once known
  editing: false,
  editPieces: [],
  editKind: 'cao',
  editCode: null,
  editRequest: 0,
  levelsOffset: 0,
  gradedStart: null, // the first layout whose difficulty line is drawn
};
export const classicNames = new Map(); // code -> {name, name_en}
export const knownSteps = new Map(); // code -> minimum steps, learnt from its parent's answer
// code -> the klotski engine's 5-character short code, from any answer that carries one
// (servers before short codes send none, and the viewer then shows none)
export const shortCodes = new Map();
export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

export function learnShortCode(layout) {
  if (layout && typeof layout.short_code === 'string') {
    shortCodes.set(layout.code, layout.short_code);
  }
}

export function say(text) {
  ui.message.textContent = text;
}

export function announce(text) {
  ui.announce.textContent = text;
}

export function showError(text) {
  ui.error.textContent = text;
  ui.error.hidden = false;
}
