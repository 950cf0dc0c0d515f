// The parts several pages show alike, each drawn from one description: the site's
// navigation, a pager's three controls and the choices of a puzzle's metric and rules, drawn
// into their placeholders as soon as this module is imported (a page imports it first, before
// its modules look their elements up), and a game's readouts, drawn by the page that names
// them.
//
//   <nav class="site-nav" aria-label="Pages" data-current="/puzzles"></nav>
//   <div class="pager" data-pager="search" data-prev="← Harder" data-next="Easier →"
//        data-live></div>          // button#search-prev, span#search-range, button#search-next
//   <select data-choices="metric" data-none="by notation" data-chosen="step"></select>

import { el } from '../lib/dom.js';

const PAGES = [
  ['/', 'Klotski viewer'], ['/puzzles', 'Any puzzle'], ['/puzzles/editor', 'Editor'],
  ['/explore#/', 'Explorer'], ['/explore#/searches', 'Search results'],
];

const CHOICES = { metric: ['unit', 'slide', 'step'], rules: ['free', 'length'] };

function drawChoices(select) {
  const { choices, none, chosen } = select.dataset;
  select.replaceChildren(...(none ? [el('option', { value: '' }, none)] : []),
    ...CHOICES[choices].map((value) => el('option', { value }, value)));
  if (chosen) select.value = chosen;
}

function drawSiteNav(nav) {
  nav.replaceChildren(...PAGES.map(([href, text]) => el('a', {
    href, 'aria-current': href === nav.dataset.current && 'page',
  }, text)));
}

function drawPager(pager) {
  const { pager: name, prev, next } = pager.dataset;
  pager.replaceChildren(
    el('button', { id: `${name}-prev`, type: 'button' }, prev),
    el('span', { id: `${name}-range`, className: 'mono',
      'aria-live': pager.hasAttribute('data-live') && 'polite' }),
    el('button', { id: `${name}-next`, type: 'button' }, next),
  );
}

// The readouts of a game, after what the container holds already: [{id, label, value,
// title}], each a label over its value (value: the text shown before the first answer).
export function drawReadouts(container, items) {
  container.append(...items.map(({ id, label, value, title }) => el('div', {
    className: 'readout-item', title,
  }, el('span', { className: 'label' }, label), el('span', { id, className: 'value' }, value))));
}

document.querySelectorAll('.site-nav[data-current]').forEach(drawSiteNav);
document.querySelectorAll('.pager[data-pager]').forEach(drawPager);
document.querySelectorAll('select[data-choices]').forEach(drawChoices);
