// One class: its figures, its layouts by minimum steps as a plot, and its groups, largest
// first, a page at a time, each a link to its graph.

import { api } from '../../lib/api.js';
import { $, el } from '../../lib/dom.js';
import { count, share } from '../../lib/format.js';
import { groupHref, missingNote, playHref } from './explore-common.js';
import { miniBoard } from '../../components/miniboard.js';

const PER_PAGE = 100;
const SVG = 'http://www.w3.org/2000/svg';
const shown = { name: null, page: 0, total: 0 };

function svg(tag, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== null) element.textContent = text;
  return element;
}

// A bar per number of steps, the layouts with no solution apart at the left in grey.
function histogram(pairs) {
  const width = 720;
  const height = 220;
  const left = 56;
  const bottom = 28;
  const solvable = pairs.filter(([steps]) => steps >= 0);
  const none = pairs.find(([steps]) => steps < 0);
  const most = Math.max(1, ...pairs.map(([, layouts]) => layouts));
  const longest = Math.max(0, ...solvable.map(([steps]) => steps));
  const apart = none ? 44 : 0; // room for the grey bar and its label
  const slot = (width - left - apart) / (longest + 1);
  const plot = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': `Layouts by minimum steps, 0 to ${longest}, at most ${count(most)} at one `
      + `count${none ? `; ${count(none[1])} with no solution` : ''}` });
  const y = (layouts) => (height - bottom) * (1 - layouts / most);
  const bar = (x, barWidth, steps, layouts, className) => {
    const rect = svg('rect', { x, y: y(layouts), width: barWidth,
      height: height - bottom - y(layouts), class: className });
    rect.append(svg('title', {}, `${steps < 0 ? 'no solution' : `${steps} steps`}: `
      + `${count(layouts)} layouts`));
    return rect;
  };
  const label = (x, text) => svg('text', { x, y: height - 8, 'text-anchor': 'middle' }, text);
  if (none) {
    plot.append(bar(left + 6, 20, -1, none[1], 'none'), label(left + 16, 'none'));
  }
  const first = left + apart;
  for (const [steps, layouts] of solvable) {
    plot.append(bar(first + steps * slot + slot * 0.1, Math.max(slot * 0.8, 0.5), steps, layouts,
      'bar'));
  }
  plot.append(svg('line', { x1: left, x2: width, y1: height - bottom, y2: height - bottom,
    class: 'axis' }));
  plot.append(svg('text', { x: left - 6, y: 12, 'text-anchor': 'end' }, count(most)));
  plot.append(svg('text', { x: left - 6, y: height - bottom, 'text-anchor': 'end' }, '0'));
  const tick = Math.max(10, Math.ceil(longest / 8 / 10) * 10);
  for (let steps = 0; steps <= longest; steps += tick) {
    plot.append(label(first + (steps + 0.5) * slot, String(steps)));
  }
  return plot;
}

function fact(term, value) {
  return [el('dt', {}, term), el('dd', {}, value)];
}

function drawSummary(summary) {
  $('class-title').textContent = `Class ${summary.name}: ${summary.jiang} generals, `
    + `${summary.bing} soldiers, ${summary.style} of the generals horizontal`;
  $('class-facts').replaceChildren(
    ...fact('layouts', count(summary.layouts)),
    ...fact('groups', count(summary.groups_total ?? summary.groups)),
    ...fact('can reach a goal', share(summary.solvable_layouts, summary.layouts)),
    ...fact('longest minimum', count(summary.longest_min_steps)),
    ...fact('longest farthest step', count(summary.longest_farthest_steps)));
  const histogramBox = $('class-histogram');
  if (summary.min_steps_histogram?.length) {
    histogramBox.replaceChildren(histogram(summary.min_steps_histogram));
  } else {
    histogramBox.replaceChildren(el('p', { className: 'note' },
      missingNote({ database: false }, 'Minimum steps')));
  }
}

function groupRow(group) {
  return el('tr', {},
    el('th', { scope: 'row' }, el('a', { href: groupHref(group.seed) }, `#${group.group_num}`)),
    el('td', {}, el('a', { href: groupHref(group.seed) }, count(group.size))),
    el('td', { className: 'layout-cell' }, el('a', { href: playHref(group.seed),
      className: 'play-link', title: `Play ${group.seed}` }, miniBoard(group.seed),
    el('span', { className: 'mono' }, group.seed))),
    el('td', {}, count(group.min_steps)), el('td', {}, count(group.longest_min_steps)));
}

async function showGroups(page, current = () => true) {
  const name = shown.name;
  const answer = await api(`/api/classes/${name}/groups`, { page, per_page: PER_PAGE });
  if (!current() || shown.name !== name) return;
  shown.page = answer.page;
  shown.total = answer.groups_total;
  $('class-groups').tBodies[0].replaceChildren(...answer.groups.map(groupRow));
  const first = answer.page * answer.per_page;
  $('groups-range').textContent = `${count(first + 1)}–${count(first + answer.groups.length)}`
    + ` of ${count(answer.groups_total)}`;
  $('groups-prev').disabled = answer.page === 0;
  $('groups-next').disabled = first + answer.groups.length >= answer.groups_total;
}

// Draws the class only while current() holds: the router's page may have changed while the
// answers were on their way.
export async function showClass(name, current) {
  if (name === shown.name) return;
  shown.name = null;
  const summary = await api(`/api/classes/${encodeURIComponent(name)}`, {});
  if (!current()) return;
  shown.name = summary.name;
  drawSummary(summary);
  await showGroups(0, current);
}

export function wireClassPage(onError) {
  $('groups-prev').addEventListener('click', () => {
    showGroups(Math.max(0, shown.page - 1)).catch(onError);
  });
  $('groups-next').addEventListener('click', () => {
    showGroups(shown.page + 1).catch(onError);
  });
}
