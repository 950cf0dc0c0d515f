// Playing the shortest solution back: one request for the whole path, then step by step
// through the game's history, so playback steps are moves like any other.

import { api } from '../../lib/api.js';
import {
  PAUSE_FRACTION, advance, enqueue, noteMove, record, refresh, showCurrent, sleep, solutionStep,
  stepMs, stepTo,
} from './klotski-game.js';
import { currentCode, say, state, ui } from './klotski-page.js';

async function stepBy(direction) {
  const step = solutionStep();
  if (step < 0) return;
  const target = step + direction;
  if (target < 0 || target > state.solution.moves.length) return;
  if (direction > 0) {
    noteMove('solution', currentCode(), state.solution.path[target],
      { verdict: 'better', moves_left: state.solution.moves.length - target });
    await advance(state.solution.path[target]);
  } else {
    record.note('step-back', { to: state.history[state.at - 1] });
    await stepTo(state.at - 1);
  }
}

async function playLoop() {
  if (solutionStep() < 0) return;
  const total = state.solution.moves.length;
  if (solutionStep() === total) {
    state.at = state.solution.base;
    showCurrent();
    await sleep(stepMs());
  }
  state.playing = true;
  refresh();
  while (state.playing && solutionStep() >= 0 && solutionStep() < total) {
    await stepBy(1);
    if (state.playing && solutionStep() < total) await sleep(stepMs() * PAUSE_FRACTION);
  }
  state.playing = false;
  refresh();
}

// One request for the whole solution; a second click while it is on its way or playing
// does nothing, and a click with the solution known plays it.
export async function solve() {
  if (state.editing || !currentCode() || state.solving) return;
  if (state.solution) {
    if (!state.playing) togglePlay();
    return;
  }
  state.playing = false;
  state.solving = true;
  const code = currentCode();
  say('Searching for the shortest solution…');
  let result;
  try {
    result = await api('/api/solve', { code });
  } finally {
    state.solving = false;
  }
  await enqueue(async () => {
    if (currentCode() !== code || state.editing) return;
    if (!result.solvable) {
      say('No solution: the 2×2 can never reach the exit from this layout.');
      ui.remaining.textContent = 'no solution';
      return;
    }
    state.solution = { path: result.path, moves: result.moves, base: state.at };
    say(result.steps === 0 ? 'Already solved.' : `Shortest solution: ${result.steps} steps.`);
    refresh();
    if (result.steps > 0) await playLoop();
  });
}

export function togglePlay() {
  if (!state.solution) return;
  if (state.playing) {
    state.playing = false;
    refresh();
  } else {
    enqueue(playLoop);
  }
}

export function stepButton(direction) {
  state.playing = false;
  enqueue(() => stepBy(direction));
}
