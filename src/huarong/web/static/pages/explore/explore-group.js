// A group's page: its graph from the server's binary form, coloured by minimum steps, by
// distance from the chosen layout or by farthest step, with a legend; pointing at a layout
// shows its board (the codes come in the binary: no request per hover) and a click plays it.
// Any puzzle's cluster (/api/puzzles/graph) is drawn on the same page, without Klotski's
// board, class and database figures.

import { ApiError, api, request } from '../../lib/api.js';
import { $, el } from '../../lib/dom.js';
import { count } from '../../lib/format.js';
import { classHref, groupHref, playHref } from './explore-common.js';
import {
  bottleneckColours, bridgePairs, drawBottleneckLegend, loadBottlenecks,
} from './explore-bottlenecks.js';
import {
  putOnBoard, startPlay, stopPlay, wirePlay,
} from './explore-play.js';
import { codeText, parseGraph } from '../../lib/graph-format.js';
import { GraphView } from '../../components/graph-view.js';
import { graphBoard } from '../../components/miniboard.js';

// Without a GPU, more steps than this are left undrawn until asked for.
const SOFTWARE_LINES = 500000;
// The colour of a figure from 0 (a goal, the chosen layout) to its largest value.
const STOPS = ['#3fb68b', '#e9c46a', '#f4a259', '#e76f51', '#9b5de5'];
const UNKNOWN_COLOUR = '#6b5a4a';
const MODES = {
  min: { label: 'minimum steps to a goal', none: 'no solution' },
  distance: { label: 'steps from the chosen layout', none: null },
  farthest: { label: 'farthest step', none: 'unknown' },
};

let view = null;
// {code (null for a puzzle's cluster), graph, mode, index (code -> node, built on demand),
// bottlenecks, words (what a state and a move are called)}
let group = null;
const KLOTSKI_WORDS = { state: 'layout', move: 'step' };
const PUZZLE_WORDS = { state: 'position', move: 'move' };
const PUZZLE_PARAMETERS = ['start', 'goal', 'metric', 'rules', 'position', 'distinct'];

const codeOf = codeText;

// ---- colours ------------------------------------------------------------------------------

const rgb = (hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));

const PALETTE = (() => {
  const stops = STOPS.map(rgb);
  const table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (stops.length - 1);
    const low = Math.min(Math.floor(t), stops.length - 2);
    const f = t - low;
    for (let c = 0; c < 3; c++) {
      table[3 * i + c] = Math.round(stops[low][c] * (1 - f) + stops[low + 1][c] * f);
    }
  }
  return table;
})();

function figures(graph, mode) {
  if (mode === 'min') return graph.min;
  return mode === 'distance' ? graph.distance : graph.farthest;
}

function colours(values) {
  let most = 0;
  for (const value of values) if (value > most) most = value;
  const unknown = rgb(UNKNOWN_COLOUR);
  const rgba = new Uint8Array(values.length * 4);
  let unknowns = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value < 0) {
      rgba.set(unknown, 4 * i);
      rgba[4 * i + 3] = 200;
      unknowns++;
    } else {
      const at = 3 * Math.round((255 * value) / Math.max(most, 1));
      rgba.set(PALETTE.subarray(at, at + 3), 4 * i);
      rgba[4 * i + 3] = 255;
    }
  }
  return { rgba, most, unknowns };
}

function drawLegend(mode, most, unknowns) {
  const { label, none } = MODES[mode];
  const legend = $('graph-legend');
  const bar = el('span', { className: 'legend-bar', 'aria-hidden': 'true' });
  bar.style.background = `linear-gradient(to right, ${STOPS.join(', ')})`;
  const parts = [el('span', { className: 'legend-title' }, `Colour: ${label}`),
    el('span', { className: 'legend-scale' }, el('span', {}, '0'), bar,
      el('span', {}, count(most)))];
  if (unknowns && none) {
    const swatch = el('span', { className: 'legend-swatch', 'aria-hidden': 'true' });
    swatch.style.background = UNKNOWN_COLOUR;
    parts.push(el('span', { className: 'legend-none' }, swatch,
      `${none} (${count(unknowns)})`));
  }
  legend.replaceChildren(...parts);
}

function colourBy(mode) {
  const { graph } = group;
  group.mode = mode;
  const { rgba, most, unknowns } = colours(figures(graph, mode));
  drawLegend(mode, most, unknowns);
  return rgba;
}

// ---- hover card and picking ----------------------------------------------------------------

function describe(graph, index) {
  const min = graph.min[index];
  const { state, move } = group.words;
  const lines = [min < 0 ? 'no solution' : `${min} ${move}${min === 1 ? '' : 's'} to a goal`,
    `${graph.distance[index]} from the chosen ${state}`];
  if (graph.farthestKnown) lines.push(`farthest step ${graph.farthest[index]}`);
  return lines;
}

function showCard(index, x, y, touch) {
  const card = $('graph-card');
  if (index === null) {
    card.hidden = true;
    return;
  }
  const { graph } = group;
  const code = codeOf(graph, index);
  const playable = !$('board-panel').hidden;
  card.replaceChildren(graphBoard(graph, index), el('span', { className: 'card-text' },
    el('strong', { className: 'mono' }, code),
    ...describe(graph, index).map((line) => el('span', {}, line)),
    playable ? el('em', {}, touch ? 'on the board' : 'click to put it on the board') : null));
  card.dataset.code = code;
  card.hidden = false;
  const box = $('graph-box');
  const left = Math.min(x + 14, box.clientWidth - card.offsetWidth - 4);
  const top = y + 14 + card.offsetHeight > box.clientHeight ? y - card.offsetHeight - 10 : y + 14;
  card.style.left = `${Math.max(4, left)}px`;
  card.style.top = `${Math.max(4, top)}px`;
}

// A click or tap on a point puts its layout on the board; a touch has no hover, so the tap
// also shows the point's card.
function pick(index, pointerType) {
  if (!$('board-panel').hidden) putOnBoard(index);
  if (pointerType === 'mouse') return;
  view.hovered = index;
  view.drawMarks();
  const [x, y] = view.screenOf(index);
  showCard(index, x, y, true);
}

function indexOf(code) {
  if (!group.index) {
    const { graph } = group;
    group.index = new Map();
    for (let i = 0; i < graph.nodes; i++) group.index.set(codeOf(graph, i), i);
  }
  return group.index.get(code) ?? -1;
}

// The bottlenecks toggle: cut vertices and basins in the points' colours, bridges as marks;
// asked of the server once per group, the first time the toggle is on.
async function markBottlenecks() {
  const shown = group;
  const note = $('bottleneck-note');
  if (!shown) return;
  if (!$('group-bottlenecks').checked) {
    view.setBridges([]);
    note.hidden = true;
    view.setColours(colourBy($('group-colour').value));
    return;
  }
  note.hidden = false;
  if (!shown.bottlenecks) note.textContent = 'Finding where the group narrows…';
  try {
    shown.bottlenecks ??= await loadBottlenecks(shown.code);
  } catch (error) {
    if (group !== shown) return;
    note.textContent = `The bottlenecks are unavailable: ${error.message}`;
    $('group-bottlenecks').checked = false;
    return;
  }
  if (group !== shown || !$('group-bottlenecks').checked) return;
  const answer = shown.bottlenecks;
  view.setColours(bottleneckColours(shown.graph.nodes, answer, indexOf));
  view.setBridges(bridgePairs(answer, indexOf));
  drawBottleneckLegend(answer);
}

// ---- the page ----------------------------------------------------------------------------

// Each state of the way out with its board; Klotski's layouts link to the viewer.
function pathList(path, graph, klotski) {
  if (!path.length) {
    return [el('li', { className: 'note' }, klotski
      ? 'No way out: no layout of this group is a goal.'
      : 'No way out: no position of this cluster is a goal.')];
  }
  return path.map((index, step) => {
    const code = codeOf(graph, index);
    const left = path.length - 1 - step;
    const parts = [graphBoard(graph, index), el('span', { className: 'mono' }, code),
      el('span', { className: 'steps-left' }, left ? `${left} to go` : 'a goal')];
    return el('li', {}, klotski ? el('a', { href: playHref(code), className: 'play-link' },
      ...parts) : el('span', { className: 'play-link' }, ...parts));
  });
}

// A shortest way from start to a goal: from each state the neighbour one move nearer with
// the lowest index (as the board's "solve from here" walks); empty without a way.
function shortestPath(graph, start) {
  const { min, pairs } = graph;
  if (min[start] < 0) return [];
  const nearer = new Int32Array(graph.nodes).fill(-1);
  const consider = (from, to) => {
    if (min[to] === min[from] - 1 && (nearer[from] < 0 || to < nearer[from])) nearer[from] = to;
  };
  for (let k = 0; k < pairs.length; k += 2) {
    consider(pairs[k], pairs[k + 1]);
    consider(pairs[k + 1], pairs[k]);
  }
  const path = [start];
  while (min[path[path.length - 1]] > 0) path.push(nearer[path[path.length - 1]]);
  return path;
}

function drawSummary(summary, graph) {
  $('group-title').replaceChildren(`Group #${summary.group_num} of class `,
    el('a', { href: classHref(summary.class) }, summary.class));
  const start = codeOf(graph, summary.start_index);
  const steps = summary.start_min_steps;
  $('group-summary').textContent = `${count(graph.nodes)} layouts and ${count(graph.edges)} `
    + `steps; ${count(summary.goals)} of them goals. The chosen layout ${start} `
    + `${steps === null || steps === undefined ? 'cannot reach a goal'
      : `needs ${steps} steps`}.`;
  $('group-play').href = playHref(start);
  $('group-play').textContent = 'Play the chosen layout';
}

function showFarthest(graph, missing) {
  const farthest = $('group-colour').querySelector('option[value=farthest]');
  farthest.disabled = !graph.farthestKnown;
  farthest.textContent = graph.farthestKnown ? 'farthest step' : `farthest step (${missing})`;
  if (group.mode === 'farthest' && !graph.farthestKnown) {
    $('group-colour').value = 'min';
    group.mode = 'min';
  }
}

// A cluster the server refuses to search (413) is told with the commands that take any size.
// A graph not placed yet (202) is asked for again after the wait the server names.
async function fetchGraph(url) {
  const response = await request(url, {
    onWorking: () => loading('The server is still placing this graph…'),
  });
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    const reason = body?.error ?? `The server answered ${response.status}.`;
    if (response.status === 413) {
      throw new ApiError(`Too large to draw here: ${reason}. Draw it with “huarong puzzle `
        + 'draw START -o FILE.png”, or write it with “huarong puzzle graph START -o '
        + 'FILE.graphml”.', 413);
    }
    throw new ApiError(reason, response.status);
  }
  return parseGraph(await response.arrayBuffer());
}

function loading(text) {
  $('graph-status').hidden = false;
  $('graph-status').textContent = text;
  $('graph-card').hidden = true;
}

// The graph drawn with its marks; Klotski's groups get the board beside it and the
// bottlenecks, other puzzles neither (their codes are not Klotski's layouts).
function drawGraph(graph, path, start) {
  const klotski = graph.geometry.puzzle === 'klotski';
  view ??= new GraphView($('graph-box'), $('group-graph'), $('graph-marks'), {
    onHover: (index, x, y) => showCard(index, x, y, false),
    onPick: pick,
  });
  const lines = !view.software || graph.edges <= SOFTWARE_LINES;
  $('group-lines').checked = lines;
  view.showLines = lines;
  $('lines-note').hidden = lines;
  view.setData(graph.positions, graph.pairs, colourBy($('group-colour').value));
  view.setMarks(path, start);
  $('group-path').replaceChildren(...pathList(path, graph, klotski));
  $('board-panel').hidden = !klotski;
  $('board-help').hidden = !klotski;
  $('bottlenecks-choice').hidden = !klotski;
  if (klotski) {
    startPlay(graph, view, (index) => codeOf(graph, index), indexOf, start);
  } else {
    stopPlay();
    $('group-bottlenecks').checked = false;
  }
  if ($('group-bottlenecks').checked) markBottlenecks();
  else $('bottleneck-note').hidden = true;
  $('graph-status').hidden = true;
}

// Draws the group only while current() holds (the router's page may have changed while the
// answers were on their way); resolves to the crumbs' trail, or null when not drawn.
export async function showGroup(code, current) {
  loading('Placing the group (the first time takes a while)…');
  const [summary, graph] = await Promise.all([
    api(`/api/groups/${encodeURIComponent(code)}`, {}),
    fetchGraph(`/api/groups/${encodeURIComponent(code)}/graph?format=binary`)]);
  if (!current()) return null;
  group = {
    code, graph, mode: $('group-colour').value, index: null, bottlenecks: null,
    words: KLOTSKI_WORDS,
  };
  showFarthest(graph, 'not in the database');
  drawSummary(summary, graph);
  drawGraph(graph, summary.shortest_path, summary.start_index);
  return [[summary.class, classHref(summary.class)],
    [`group #${summary.group_num}`, groupHref(code)]];
}

function drawPuzzleSummary(graph, next, asked) {
  const name = graph.geometry.puzzle === 'puzzle' ? next.start : graph.geometry.puzzle;
  $('group-title').textContent = `The state graph of ${name}`;
  let goals = 0;
  for (const min of graph.min) if (min === 0) goals++;
  const steps = graph.min[graph.start];
  $('group-summary').textContent = `${count(graph.nodes)} positions and ${count(graph.edges)} `
    + `moves (${next.rows}×${next.columns} board, ${next.rules} rules, ${next.metric} `
    + `metric); ${count(goals)} of them goals. The chosen position `
    + `${steps < 0 ? 'cannot reach a goal' : `needs ${steps} moves`}.`;
  $('group-play').href = `/puzzles#${new URLSearchParams(asked)}`;
  $('group-play').textContent = 'Play it in the puzzle viewer';
  return name;
}

// Any puzzle's cluster, named as /api/puzzles/graph names it (params: URLSearchParams with
// start and optionally goal, metric, rules, position, distinct); resolves as showGroup does.
export async function showPuzzle(params, current) {
  const asked = Object.fromEntries(PUZZLE_PARAMETERS.filter((name) => params.get(name))
    .map((name) => [name, params.get(name)]));
  if (!asked.start) {
    throw new ApiError('Name a puzzle to draw: #/puzzle?start= and a catalogue name or a '
      + 'grid.');
  }
  loading('Searching and placing the cluster…');
  const graph = await fetchGraph(`/api/puzzles/graph?${new URLSearchParams(asked)}`);
  // the cluster is the server's last searched: the position's facts come at once
  const next = await api('/api/puzzles/next', asked);
  if (!current()) return null;
  group = {
    code: null, graph, mode: $('group-colour').value, index: null, bottlenecks: null,
    words: PUZZLE_WORDS,
  };
  showFarthest(graph, 'huarong puzzle analyze');
  const name = drawPuzzleSummary(graph, next, asked);
  drawGraph(graph, shortestPath(graph, graph.start), graph.start);
  return [[`state graph of ${name}`, null]];
}

export function wireGroupPage() {
  $('group-colour').addEventListener('change', () => {
    $('group-bottlenecks').checked = false;
    if (group) markBottlenecks();
  });
  $('group-bottlenecks').addEventListener('change', markBottlenecks);
  wirePlay();
  $('group-lines').addEventListener('change', () => {
    view?.setLines($('group-lines').checked);
    $('lines-note').hidden = true;
  });
  $('zoom-in').addEventListener('click', () => view?.zoomAtCentre(1.5));
  $('zoom-out').addEventListener('click', () => view?.zoomAtCentre(1 / 1.5));
  $('zoom-fit').addEventListener('click', () => view?.fit());
}
