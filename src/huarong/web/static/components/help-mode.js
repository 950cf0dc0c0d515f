// What the viewers show while a person plays, one choice for every viewer (kept in the
// browser): each move judged (better, same, worse), or the spoiler-free "moves left only".

import { el } from '../lib/dom.js';

const MODE_KEY = 'huarong.help';
export const MODES = ['verdicts', 'moves-left'];
const WORDS = { verdicts: 'each move judged', 'moves-left': 'moves left only' };

export function readHelpMode() {
  try {
    const mode = localStorage.getItem(MODE_KEY);
    return MODES.includes(mode) ? mode : MODES[0];
  } catch {
    return MODES[0];
  }
}

export function saveHelpMode(mode) {
  try {
    localStorage.setItem(MODE_KEY, mode);
  } catch {
    // storage refused (private mode): the choice lasts for this page only
  }
  document.body.dataset.help = mode;
}

// A radio button per mode drawn in ``fieldset``, bound to the choice; ``changed(mode)`` after
// each change.
export function bindHelpMode(fieldset, changed) {
  fieldset.replaceChildren(el('legend', {}, 'While you play, show'), ...MODES.map((mode) => el(
    'label', {}, el('input', { type: 'radio', name: 'help-mode', value: mode }), ` ${WORDS[mode]}`)));
  for (const radio of fieldset.querySelectorAll('input')) {
    radio.checked = radio.value === readHelpMode();
    radio.addEventListener('change', () => {
      saveHelpMode(radio.value);
      changed(radio.value);
    });
  }
  saveHelpMode(readHelpMode());
}
