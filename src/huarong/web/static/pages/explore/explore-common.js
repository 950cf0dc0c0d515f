// What the explorer's pages share: the links between the pages and into the viewer, the one
// place errors are shown, and the note on figures the database lacks.

import { $ } from '../../lib/dom.js';

export const playHref = (code) => `/#${code}`;
export const classHref = (name) => `#/class/${name}`;
export const groupHref = (code) => `#/group/${code}`;

export function showError(text) {
  const box = $('explore-error');
  box.textContent = text;
  box.hidden = !text;
}

// The figures the database lacks, and the command that computes them.
export function missingNote(answer, what) {
  if (!answer.database) {
    return `${what} need the database: build it with “huarong db build”, then reload.`;
  }
  const missing = answer.figures_missing ?? [];
  if (!missing.length) return '';
  const names = missing.length > 6 ? `${missing.slice(0, 6).join(', ')}, …` : missing.join(', ');
  return `Farthest steps are not in the database yet for ${missing.length} `
    + `class${missing.length === 1 ? '' : 'es'} (${names}): run “${answer.fill_command}” `
    + 'to compute them.';
}
