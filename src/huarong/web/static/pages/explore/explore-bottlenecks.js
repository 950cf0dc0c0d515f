// Where a group narrows: its cut vertices (layouts whose loss splits the group) and bridges
// (steps whose loss does), from /api/groups/{code}/bottlenecks, and its basins (the parts a cut
// vertex or bridge closes off from the nearest goals) coloured one colour each.

import { ApiError, api } from '../../lib/api.js';
import { $, el } from '../../lib/dom.js';
import { count } from '../../lib/format.js';

// one colour per basin, in turn; white for the cut vertices, dim for the rest of the group
const BASIN_COLOURS = ['#4cc9f0', '#f77f00', '#b5e48c', '#c77dff', '#ffd166', '#06d6a0',
  '#ff5d8f', '#a0c4ff'];
const CUT_COLOUR = '#ffffff';
const ELSEWHERE_COLOUR = '#6b5a4a';
const BRIDGE_COLOUR = '#ff4fd8'; // as .graph-marks .bridge draws them
const rgb = (hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));

// The answer with the basin of every layout (?nodes=1); a group past the server's limit for
// per-layout answers (413) gets its bottlenecks without the basins' layouts.
export async function loadBottlenecks(code) {
  const path = `/api/groups/${encodeURIComponent(code)}/bottlenecks`;
  try {
    return await api(path, { nodes: 1 });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 413) throw error;
    return api(path, {});
  }
}

// The points' colours (RGBA per layout): basins, cut vertices over them, the rest dim; the
// layouts are in the order of the basin list (ascending code, as the binary graph lists them).
export function bottleneckColours(nodes, answer, indexOf) {
  const rgba = new Uint8Array(nodes * 4);
  const elsewhere = rgb(ELSEWHERE_COLOUR);
  const basinColours = BASIN_COLOURS.map(rgb);
  for (let i = 0; i < nodes; i++) {
    const basin = answer.basin ? answer.basin[i] : -1;
    rgba.set(basin >= 0 ? basinColours[basin % basinColours.length] : elsewhere, 4 * i);
    rgba[4 * i + 3] = basin >= 0 ? 255 : 170;
  }
  const cut = rgb(CUT_COLOUR);
  for (const code of answer.articulation_points.list) {
    const index = indexOf(code);
    if (index >= 0) rgba.set([...cut, 255], 4 * index);
  }
  return rgba;
}

export function bridgePairs(answer, indexOf) {
  return answer.bridges.list.map(([a, b]) => [indexOf(a), indexOf(b)])
    .filter(([a, b]) => a >= 0 && b >= 0);
}

function swatch(colour, text) {
  const dot = el('span', { className: 'legend-swatch', 'aria-hidden': 'true' });
  dot.style.background = colour;
  return el('span', { className: 'legend-none' }, dot, text);
}

export function drawBottleneckLegend(answer) {
  const { articulation_points: cuts, bridges, basins, dead_ends: deadEnds } = answer;
  const basinsShown = answer.basin ? `${count(basins.count)} basins, a colour each`
    : `${count(basins.count)} basins (not coloured: too many layouts to send)`;
  const bridge = el('span', { className: 'legend-line', 'aria-hidden': 'true' });
  bridge.style.background = BRIDGE_COLOUR;
  $('graph-legend').replaceChildren(
    el('span', { className: 'legend-title' }, 'Bottlenecks'),
    swatch(BASIN_COLOURS[0], basinsShown),
    swatch(CUT_COLOUR, `${count(cuts.count)} cut vertices`),
    el('span', { className: 'legend-none' }, bridge, `${count(bridges.count)} bridges`),
    swatch(ELSEWHERE_COLOUR, 'the rest'));
  $('bottleneck-note').textContent = `${count(cuts.count)} cut vertices, ${count(bridges.count)} `
    + `bridges, ${count(deadEnds.count)} dead ends and ${count(basins.count)} basins: a basin is `
    + 'the part of the group that a cut vertex or a bridge closes off from the nearest goals.';
  $('bottleneck-note').hidden = false;
}
