// The puzzle viewer's ways to another puzzle: the catalogue, the family's next puzzles by
// fewest moves or by difficulty for a person (/api/puzzles/ladder) or a search result
// file's rows beside the one played, and a random start of the same cluster whose fewest
// moves lie in a range.

import { api } from '../../lib/api.js';
import { el } from '../../lib/dom.js';
import { rowsBeside } from '../../lib/search-rows.js';

const WORDS = ['Easier', 'Harder'];

// Draws the two rungs of the ladder of name, a catalogue puzzle, or of the file row ``from``
// came from ({search, row, min_length}); stillShown() says whether name is still played.
export async function drawLadder(ui, name, from, stillShown) {
  const buttons = [ui.easier, ui.harder];
  buttons.forEach((button, index) => {
    button.disabled = true;
    button.dataset.name = '';
    button.dataset.href = '';
    button.textContent = WORDS[index];
  });
  if (from.search) {
    let beside;
    try {
      beside = await rowsBeside(api, from.search, Number(from.row), from.min_length ?? null);
    } catch {
      return;
    }
    [beside.easier, beside.harder].forEach((rung, index) => {
      if (!rung || !stillShown()) return;
      buttons[index].disabled = false;
      buttons[index].dataset.href = rung.href;
      buttons[index].textContent = `${WORDS[index]}: the file's next row `
        + `(${rung.length ?? 'no solution'})`;
    });
    return;
  }
  if (!/^[a-z0-9-]+$/.test(name ?? '')) return; // a pasted board: no family
  let rungs;
  try {
    rungs = await api('/api/puzzles/ladder', { name, order: ui.ladderOrder.value });
  } catch {
    return; // a server too small for the family: no ladder, the game goes on
  }
  if (!stillShown()) return;
  [rungs.easier, rungs.harder].forEach((rung, index) => {
    if (!rung) return;
    buttons[index].disabled = false;
    buttons[index].dataset.name = rung.name;
    const told = rung.grade ? `grade ${rung.grade}, ${rung.length} moves` : rung.length;
    buttons[index].textContent = `${WORDS[index]}: ${rung.title} (${told})`;
  });
}

// A rung of the ladder climbed: a file's row opens by its address, a catalogue puzzle by
// open(name).
export function climbLadder(button, open) {
  const { name, href } = button.dataset;
  if (href) location.hash = href.slice(href.indexOf('#') + 1);
  else if (name) open(name);
}

// The catalogue, as a numbered list of buttons that open(entry) each puzzle, in the order of
// their names with numbers read as numbers ("bickford-4x4-2" before "bickford-4x4-10");
// resolves to its entries.
export async function drawCatalogue(list, open) {
  const entries = (await api('/api/puzzles', {}))
    .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
  list.replaceChildren(...entries.map((entry, index) => {
    const button = el('button', {
      type: 'button', className: 'catalogue-entry', 'data-name': entry.name, title: entry.source,
    }, entry.title);
    button.addEventListener('click', () => open(entry));
    return el('li', {},
      el('span', { className: 'catalogue-number', 'aria-hidden': 'true' }, `${index + 1}.`),
      el('span', {}, button, el('span', { className: 'catalogue-note' },
        ` ${entry.rows}×${entry.columns}, ${entry.metric}`)));
  }));
  return entries;
}
