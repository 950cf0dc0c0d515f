// The results of `huarong puzzle search` the server serves (huarong serve --search FILE):
// the files (#/searches), and one file's clusters hardest first, a page at a time
// (#/search/NAME?offset=…&min_length=…&limit=…), each start one click from the viewer
// (/puzzles) and one from its state graph (#/puzzle?…).

import { api } from '../../lib/api.js';
import { $, el } from '../../lib/dom.js';
import { count } from '../../lib/format.js';
import { readableTime } from '../../components/difficulty-line.js';
import { gridBoard } from '../../components/miniboard.js';
import { rowAddress, rowQuery } from '../../lib/search-rows.js';

const PER_PAGE = 50;
const BOARD_HEIGHT = 30; // pixels: a row's picture of its start
const shown = {
  name: null, offset: 0, minLength: null, limit: PER_PAGE,
};

function searchHref(name, offset = 0, minLength = null, limit = PER_PAGE) {
  const query = new URLSearchParams();
  if (offset) query.set('offset', String(offset));
  if (minLength !== null) query.set('min_length', String(minLength));
  if (limit !== PER_PAGE) query.set('limit', String(limit));
  const tail = query.toString();
  return `#/search/${encodeURIComponent(name)}${tail ? `?${tail}` : ''}`;
}

// The query that plays a row's start: the file's puzzle, or the row's own goal and distinct
// pieces where each row is its own puzzle (a preset's records); the viewer's and the state
// graph's.
function startBoard(puzzle, start) {
  const board = gridBoard(start);
  board.style.height = `${BOARD_HEIGHT}px`;
  board.style.width = `${(BOARD_HEIGHT * puzzle.columns) / puzzle.rows}px`;
  return board;
}

function hardestText(totals) {
  return totals.hardest ? `${count(totals.hardest.length)} moves` : 'no solved state';
}

function drawFiles(files, name) {
  $('searches-note').textContent = files.length
    ? 'Pick a file to see its clusters, hardest first.'
    : 'The server serves no search results: start it with “huarong serve --search '
      + 'FILE.parquet”, a file written by “huarong puzzle search … -o FILE.parquet”.';
  $('searches-list').replaceChildren(...files.map((file) => el('li', {},
    el('a', { href: searchHref(file.name), 'aria-current': file.name === name && 'page' },
      file.name),
    ` · ${file.puzzle.rows}×${file.puzzle.columns}, ${count(file.rows)} clusters, `
      + `${count(file.totals.states)} states, hardest ${hardestText(file.totals)}`)));
}

function fact(term, value) {
  return [el('dt', {}, term), el('dd', {}, value)];
}

function drawSummary(file) {
  const { puzzle, totals } = file;
  const pieces = puzzle.pieces.reduce((sum, piece) => sum + piece.letters.length, 0);
  $('search-title').textContent = `${file.name}: the clusters, hardest first`;
  $('search-facts').replaceChildren(
    ...fact('board', `${puzzle.rows}×${puzzle.columns}`),
    // A preset's rows each hold their own pieces (rush-hour): the file names none.
    ...fact('pieces', pieces ? count(pieces) : 'each start its own'),
    ...fact('rules', puzzle.rules), ...fact('metric', puzzle.metric),
    ...fact('clusters', count(file.rows)), ...fact('states', count(totals.states)),
    ...fact('hardest', hardestText(totals)));
}

// The difficulty model's prediction the file holds for its hardest rows (none for the others
// and in files written before the model): the time of a first-time player and its grade.
function difficultyCell(item) {
  if (item.difficulty === null || item.difficulty === undefined) {
    return el('td', { className: 'quiet' }, '–');
  }
  return el('td', { title: 'Predicted median time to solve for a first-time player' },
    `${readableTime(item.difficulty)}, grade ${item.grade}`);
}

function row(item, rank, puzzle) {
  const query = rowQuery(puzzle, item);
  return el('tr', {},
    el('th', { scope: 'row' }, count(rank)),
    el('td', {}, item.length === null ? 'none' : count(item.length)),
    el('td', {}, count(item.states)),
    el('td', {}, count(item.solved)),
    difficultyCell(item),
    el('td', { className: 'layout-cell' }, el('a', {
      href: rowAddress(puzzle, item, shown.name, rank - 1, shown.minLength),
      className: 'play-link', title: 'Play this start',
    }, startBoard(puzzle, item.start), el('span', { className: 'mono' }, item.start))),
    el('td', {}, el('a', { href: `#/puzzle?${query}`, className: 'graph-link' }, 'graph',
      el('span', { className: 'visually-hidden' }, ` of ${item.start}`))));
}

async function showRows(offset, current = () => true) {
  const { name, minLength, limit } = shown;
  const query = { offset, limit };
  if (minLength !== null) query.min_length = minLength;
  const answer = await api(`/api/puzzles/searches/${encodeURIComponent(name)}`, query);
  if (!current() || shown.name !== name) return;
  shown.offset = answer.offset;
  $('search-rows').tBodies[0].replaceChildren(...answer.rows.map(
    (item, index) => row(item, answer.offset + index + 1, answer.puzzle)));
  const last = answer.offset + answer.rows.length;
  $('search-range').textContent = answer.rows.length
    ? `${count(answer.offset + 1)}–${count(last)} of ${count(answer.total)}`
    : `none of ${count(answer.total)}`;
  $('search-prev').disabled = answer.offset === 0;
  $('search-next').disabled = last >= answer.total;
}

// Pages and filters keep the address current, so that a reload or a shared link shows the
// same rows, without a new route (which would move the focus to the heading).
function turnTo(offset) {
  return showRows(offset).then(() => {
    history.replaceState(null, '', searchHref(shown.name, shown.offset, shown.minLength,
      shown.limit));
  });
}

// Draws the files and, with a name, that file's rows, only while current() holds.
export async function showSearches(name, params, current) {
  const files = await api('/api/puzzles/searches', {});
  if (!current()) return [];
  drawFiles(files, name);
  $('search-panel').hidden = !name;
  if (!name) return [['search results', null]];
  const file = files.find((candidate) => candidate.name === name);
  if (!file) {
    const served = files.map((candidate) => candidate.name).join(', ') || 'none';
    throw new Error(`No search result named “${name}” is served (served: ${served}).`);
  }
  const minLength = params.get('min_length');
  shown.name = name;
  shown.minLength = minLength === null || minLength === '' ? null : Number(minLength);
  shown.limit = Number(params.get('limit')) || PER_PAGE;
  $('search-min').value = shown.minLength ?? '';
  drawSummary(file);
  await showRows(Number(params.get('offset') ?? 0) || 0, current);
  return [['search results', '#/searches'], [name, null]];
}

export function wireSearchPage(onError) {
  $('search-prev').addEventListener('click', () => {
    turnTo(Math.max(0, shown.offset - shown.limit)).catch(onError);
  });
  $('search-next').addEventListener('click', () => {
    turnTo(shown.offset + shown.limit).catch(onError);
  });
  $('search-filter').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('search-min').value.trim();
    shown.minLength = value === '' ? null : Number(value);
    turnTo(0).catch(onError);
  });
}
