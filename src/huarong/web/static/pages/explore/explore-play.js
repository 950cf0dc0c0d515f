// The board beside a group's graph: a step on the board moves its marker on the graph and
// leaves a trail, a click on a point puts that layout on the board, and "solve from here"
// plays a shortest way to a goal on both, at the speed the reader picks.

import { createGame } from '../../components/game.js';
import { klotskiPositions } from '../../components/game-klotski.js';
import { $ } from '../../lib/dom.js';
import { playHref } from './explore-common.js';

const TRAIL_MAX = 2000; // the marks are SVG: the trail keeps its latest steps
let board = null; // the game on the board (components/game.js): a step by hand moves the marker
// {graph, view, codeAt(index), indexOf(code), at, trail, timer, next (CSR, built on demand)}
let game = null;

function status() {
  const { graph, at } = game;
  const min = graph.min[at];
  const steps = game.trail.length - 1;
  const left = min < 0 ? 'no way to a goal' : min === 0 ? 'a goal' : `${min} steps to a goal`;
  $('board-status').textContent = `${game.codeAt(at)} · ${left}`
    + `${steps ? ` · ${steps} step${steps === 1 ? '' : 's'} on the trail` : ''}`;
  $('board-play').href = playHref(game.codeAt(at));
  game.view.setBoard(at, game.trail);
}

function arrive(index) {
  game.at = index;
  game.trail.push(index);
  if (game.trail.length > TRAIL_MAX) game.trail.splice(0, game.trail.length - TRAIL_MAX);
  status();
}

function stopSolving() {
  if (game) {
    clearTimeout(game.timer);
    game.timer = 0;
  }
  $('board-solve').textContent = 'Solve from here';
}

// The neighbours of every layout (CSR from the edge pairs), built the first time a solution is
// played: a graph of a million layouts takes a moment and 40 MB.
function neighbours(graph) {
  if (game.next) return game.next;
  const { pairs, nodes } = graph;
  const start = new Uint32Array(nodes + 1);
  for (let k = 0; k < pairs.length; k++) start[pairs[k] + 1] += 1;
  for (let i = 0; i < nodes; i++) start[i + 1] += start[i];
  const fill = start.slice(0, nodes);
  const list = new Uint32Array(pairs.length);
  for (let k = 0; k < pairs.length; k += 2) {
    list[fill[pairs[k]]++] = pairs[k + 1];
    list[fill[pairs[k + 1]]++] = pairs[k];
  }
  game.next = { start, list };
  return game.next;
}

// The next layout on a shortest way to a goal: a neighbour one step nearer (the lowest index
// of them, so the way is always the same); -1 from a goal or where none can be reached.
function nearer(index) {
  const { graph } = game;
  const min = graph.min[index];
  if (min <= 0) return -1;
  const { start, list } = neighbours(graph);
  let best = -1;
  for (let k = start[index]; k < start[index + 1]; k++) {
    if (graph.min[list[k]] === min - 1 && (best < 0 || list[k] < best)) best = list[k];
  }
  return best;
}

const stepMs = () => 1000 / Number($('board-speed').value);

function solveStep() {
  const next = nearer(game.at);
  // the reader has left the group's page: the solution stops with it
  if (next < 0 || $('page-group').hidden) {
    stopSolving();
    return;
  }
  board.start(game.codeAt(next));
  arrive(next);
  if (game.graph.min[next] > 0) game.timer = setTimeout(solveStep, stepMs());
  else stopSolving();
}

function toggleSolving() {
  if (!game) return;
  if (game.timer) {
    stopSolving();
  } else if (game.graph.min[game.at] > 0) {
    $('board-solve').textContent = 'Stop';
    game.timer = setTimeout(solveStep, 0);
  }
}

// Puts a layout of the group on the board (a jump, not a step: the trail starts again).
export function putOnBoard(index) {
  stopSolving();
  board.start(game.codeAt(index));
  game.at = index;
  game.trail = [index];
  status();
}

// A new group: codeAt(index) and indexOf(code) name its layouts; start goes on the board.
export function startPlay(graph, view, codeAt, indexOf, start) {
  stopSolving();
  game = { graph, view, codeAt, indexOf, at: start, trail: [], timer: 0, next: null };
  putOnBoard(start);
}

// The board's game ends: a graph without a board (another puzzle's) is shown.
export function stopPlay() {
  stopSolving();
  game = null;
}

export function wirePlay() {
  const element = $('play-board');
  // Every step by hand is a step on the graph (no history: the trail is the graph's).
  board = createGame(element, {
    adapter: klotskiPositions,
    on: {
      change: () => { element.dataset.code = board.position(); },
      moved: ({ by, to }) => {
        if (by !== 'player') return;
        stopSolving();
        const index = game.indexOf(to);
        if (index >= 0) arrive(index);
      },
    },
  });
  $('board-solve').addEventListener('click', toggleSolving);
  $('board-speed').addEventListener('input', () => {
    $('board-speed-value').textContent = `${$('board-speed').value} steps/s`;
  });
}
