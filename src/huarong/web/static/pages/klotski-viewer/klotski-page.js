// The viewer page's elements and the state every part of it shares.

const $ = (id) => document.getElementById(id);
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
export const classicNames = new Map(); // code -> {name, name_en}
export const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

export const currentCode = () => state.history[state.at] ?? null;

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
