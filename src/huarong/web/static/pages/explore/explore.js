// The explorer: the classes and records (#/), one class (#/class/5-4-1), one group's graph
// (#/group/1A9BF0C00, any layout of the group) and any puzzle's state graph
// (#/puzzle?start=dads-puzzle&goal=…&metric=…&rules=…&position=…, as /api/puzzles/graph
// reads them) and the served results of puzzle searches (#/searches, #/search/NAME?offset=…),
// routed by the address's hash. The group page's modules (WebGL and its
// library) load only when a graph is shown.

import '../../components/page-parts.js';
import { showClass, wireClassPage } from './explore-class.js';
import { $, el } from '../../lib/dom.js';
import { showError } from './explore-common.js';
import { showHome } from './explore-home.js';
import { showSearches, wireSearchPage } from './explore-search.js';

const PAGES = ['home', 'class', 'group', 'search'];
let groupPage = null;
let routed = 0;

function loadGroupPage() {
  groupPage ??= import('./explore-group.js').then((module) => {
    module.wireGroupPage();
    return module;
  });
  return groupPage;
}

function showPage(name) {
  for (const page of PAGES) $(`page-${page}`).hidden = page !== name;
}

function drawCrumbs(trail) {
  const links = [['Explore', '#/'], ...trail];
  const items = links.map(([text, href], index) => (index === links.length - 1
    ? el('span', { 'aria-current': 'page' }, text) : el('a', { href }, text)));
  $('crumbs').replaceChildren(...items.flatMap((item, index) => (index
    ? [el('span', { className: 'sep', 'aria-hidden': 'true' }, '›'), item] : [item])));
}

// "#/group/1A9BF0C00" -> ['group', '1A9BF0C00', URLSearchParams{}];
// "#/puzzle?start=AB/CD" -> ['puzzle', '', URLSearchParams{start: 'AB/CD'}] (a grid's "/"
// belongs to the query, not the path)
function parseHash() {
  const hash = location.hash.replace(/^#\/?/, '');
  const mark = hash.includes('?') ? hash.indexOf('?') : hash.length;
  const [kind = '', ...rest] = hash.slice(0, mark).split('/');
  return [kind, decodeURIComponent(rest.join('/')).trim(),
    new URLSearchParams(hash.slice(mark + 1))];
}

async function route() {
  const turn = ++routed;
  // a page's answers may come after the reader has moved on: each page draws only while
  // this is still the route being shown, so a late answer never overwrites a later page
  const current = () => turn === routed;
  const [kind, path, query] = parseHash();
  const name = kind === 'puzzle' ? query.get('start') ?? '' : path;
  showError('');
  let trail = [];
  let page = 'home';
  try {
    if (kind === 'class' && name) {
      page = 'class';
      drawCrumbs([[`class ${name}`, null]]);
      await showClass(name, current);
      trail = [[`class ${name}`, null]];
    } else if (kind === 'group' && name) {
      page = 'group';
      drawCrumbs([[`group of ${name}`, null]]);
      showPage(page);
      trail = await (await loadGroupPage()).showGroup(name, current);
    } else if (kind === 'puzzle') {
      page = 'group';
      drawCrumbs([[`state graph of ${name}`, null]]);
      showPage(page);
      trail = await (await loadGroupPage()).showPuzzle(query, current);
    } else if (kind === 'searches' || (kind === 'search' && name)) {
      page = 'search';
      drawCrumbs([['search results', null]]);
      trail = await showSearches(kind === 'search' ? name : '', query, current);
    } else {
      await showHome();
    }
  } catch (error) {
    if (turn !== routed) return;
    showPage(null);
    // the server's reason may not repeat what was asked for
    const asked = {
      class: `Class “${name}”`, group: `Layout “${name}”`, puzzle: `Puzzle “${name}”`,
      search: `Search result “${name}”`,
    }[kind];
    showError(asked && name && !error.message.includes(name) ? `${asked}: ${error.message}`
      : error.message);
    return;
  }
  if (turn !== routed) return;
  showPage(page);
  drawCrumbs(trail);
  // after a link inside the explorer, a screen reader starts at the new page's heading
  if (turn > 1) {
    const heading = $(`page-${page}`).querySelector('section:not([hidden]) h2');
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }
}

wireClassPage((error) => showError(error.message));
wireSearchPage((error) => showError(error.message));
window.addEventListener('hashchange', () => { route(); });
route();
