// The explorer's first page: the 203 classes as a sortable table, and the records of the space,
// each one click from play.

import { api } from '../../lib/api.js';
import { $, el } from '../../lib/dom.js';
import { count, share } from '../../lib/format.js';
import { classHref, groupHref, missingNote, playHref } from './explore-common.js';
import { miniBoard } from '../../components/miniboard.js';

// [key, heading, value of a class, numeric]
const COLUMNS = [
  ['name', 'class', (c) => [c.jiang, c.bing, c.style], false],
  ['jiang', 'generals', (c) => c.jiang, true],
  ['bing', 'soldiers', (c) => c.bing, true],
  ['style', 'style', (c) => c.style, true],
  ['layouts', 'layouts', (c) => c.layouts, true],
  ['groups', 'groups', (c) => c.groups, true],
  ['solvable', 'can reach a goal',
    (c) => (c.solvable_layouts === null ? null : c.solvable_layouts / c.layouts), true],
  ['longest_min', 'longest minimum', (c) => c.longest_min_steps, true],
  ['longest_farthest', 'longest farthest', (c) => c.longest_farthest_steps, true],
];

const table = { classes: [], key: 'name', descending: false };
let loaded = null;

function compare(a, b) {
  if (Array.isArray(a)) {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }
  return a - b;
}

// Unknown figures (null) go last whichever way the column is sorted.
function sorted() {
  const [, , value] = COLUMNS.find(([key]) => key === table.key);
  const sign = table.descending ? -1 : 1;
  return [...table.classes].sort((x, y) => {
    const a = value(x);
    const b = value(y);
    if (a === null || b === null) return (a === null) - (b === null);
    return sign * compare(a, b) || compare(COLUMNS[0][2](x), COLUMNS[0][2](y));
  });
}

function classRow(c) {
  return el('tr', {},
    el('th', { scope: 'row' }, el('a', { href: classHref(c.name) }, c.name)),
    el('td', {}, String(c.jiang)), el('td', {}, String(c.bing)), el('td', {}, String(c.style)),
    el('td', {}, count(c.layouts)), el('td', {}, count(c.groups)),
    el('td', {}, share(c.solvable_layouts, c.layouts)),
    el('td', {}, count(c.longest_min_steps)), el('td', {}, count(c.longest_farthest_steps)));
}

function drawTable() {
  const head = $('explore-classes').tHead.rows[0];
  head.replaceChildren(...COLUMNS.map(([key, heading, , numeric]) => {
    const button = el('button', { type: 'button', className: 'sort' }, heading);
    button.addEventListener('click', () => {
      // a number reads best largest first, a name from the start
      table.descending = table.key === key ? !table.descending : numeric;
      table.key = key;
      drawTable();
    });
    const order = table.descending ? 'descending' : 'ascending';
    return el('th', { scope: 'col', 'aria-sort': table.key === key ? order : 'none',
      className: numeric ? 'num' : null }, button);
  }));
  $('explore-classes').tBodies[0].replaceChildren(...sorted().map(classRow));
}

function layoutCell(code) {
  return el('td', { className: 'layout-cell' },
    el('a', { href: playHref(code), className: 'play-link', title: `Play ${code}` },
      miniBoard(code), el('span', { className: 'mono' }, code)));
}

function recordTable(record) {
  const rows = record.rows.map((row) => el('tr', {},
    layoutCell(row.code),
    el('td', {}, el('a', { href: classHref(row.class) }, row.class)),
    el('td', {}, count(row.min_steps)), el('td', {}, count(row.farthest_steps)),
    el('td', {}, count(row.solution_count)),
    el('td', {}, el('a', { href: groupHref(row.code) }, count(row.group_size)))));
  const heads = ['layout (play)', 'class', 'minimum steps', 'farthest step', 'solutions',
    'group (graph)'];
  return el('table', { className: 'data record-table' },
    el('thead', {}, el('tr', {}, ...heads.map((text) => el('th', { scope: 'col' }, text)))),
    el('tbody', {}, ...rows));
}

function drawRecords(answer) {
  $('records-note').textContent = missingNote(answer, 'Records')
    || 'Found by queries on the database; pick a layout to play it.';
  $('records-list').replaceChildren(...answer.records.map((record) => {
    const titleId = `record-${record.id}`;
    const body = record.rows.length ? el('div', { className: 'table-scroll', tabindex: 0,
      role: 'region', 'aria-labelledby': titleId }, recordTable(record))
      : el('p', { className: 'note' }, 'None in the database yet.');
    return el('section', { className: 'record', 'aria-labelledby': titleId },
      el('h3', { id: titleId }, record.title), body);
  }));
}

function drawClasses(classes) {
  table.classes = classes.classes;
  const layouts = table.classes.reduce((sum, c) => sum + c.layouts, 0);
  const groups = table.classes.reduce((sum, c) => sum + c.groups, 0);
  $('classes-note').textContent = `${table.classes.length} classes, ${count(layouts)} layouts `
    + `in ${count(groups)} groups. ${missingNote(classes, 'Steps and shares')}`;
  drawTable();
}

// The records come apart from the classes: a failing query leaves the table standing.
function load() {
  const records = api('/api/records', {}).then(drawRecords, (error) => {
    $('records-note').textContent = error.message;
  });
  return Promise.all([api('/api/classes', {}).then(drawClasses), records]);
}

export function showHome() {
  loaded ??= load().catch((error) => {
    loaded = null;
    throw error;
  });
  return loaded;
}
