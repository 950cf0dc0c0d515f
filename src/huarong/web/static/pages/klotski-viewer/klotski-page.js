// The Klotski viewer's elements, the page's own state (the game's is the game's: see
// klotski-game.js), what the server has told about codes, and the page's three voices.

import { $, elementsById } from '../../lib/dom.js';
import { drawReadouts } from '../../components/page-parts.js';

drawReadouts($('readout'), [
  { id: 'remaining', label: 'steps to go', value: '…' },
  { id: 'moves-made', label: 'your moves', value: '0' },
  { id: 'hints-used', label: 'hints', value: '0',
    title: 'Hints asked in this game: how far, which piece, the step' },
  { id: 'steps-lost', label: 'steps lost', value: '0',
    title: 'Your moves plus the fewest steps still needed, less the fewest from the start' },
]);

export const ui = elementsById(`
  board frame celebration current-code layout-name announce remaining moves-made progress
  undo:undo-button redo:redo-button restart:restart-button hint:hint-button hints-used
  copy-link record-button print-link solve:solve-button play:play-button back:step-back
  forward:step-forward counter:step-counter speed speed-value message load-form code-input
  error edit-button editor palette edit-status edit-clear edit-done edit-cancel classics levels
  levels-note levels-form levels-steps levels-pager levels-prev levels-next levels-range
  short-code group-link steps-lost piece-moves help-mode
`);

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
