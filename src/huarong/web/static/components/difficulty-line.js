// The difficulty model's word on a start (/api/puzzles/difficulty, docs/difficulty.md), in
// one line under a viewer's readouts: the grade and its name, the predicted median time of a
// first-time player and the share of people who solve it; the model is fitted on people's
// Rush Hour play, so any other puzzle's line says it is an extrapolation. A start the server
// does not grade (a cluster past its limit, no goal) leaves the line empty.

import { createAnswers } from '../lib/answers.js';
import { api } from '../lib/api.js';

const graded = createAnswers((key) => api('/api/puzzles/difficulty',
  Object.fromEntries(new URLSearchParams(key))));

// Seconds as a person reads them: "about 40 s", "about 3 min", "about 2 h", "over a day".
export function readableTime(seconds) {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 90 * 60) return `about ${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `about ${Math.round(seconds / 3600)} h`;
  return 'over a day';
}

function readableShare(share) {
  if (share < 0.01) return 'under 1 %';
  if (share > 0.99) return 'over 99 %';
  return `${Math.round(100 * share)} %`;
}

export function describeDifficulty(found) {
  const told = `Grade ${found.grade} of 10, ${found.grade_name}: `
    + `${readableTime(found.median_seconds)} for a first-time player, `
    + `${readableShare(found.solved_share)} solve it`;
  return found.extrapolates ? `${told} (extrapolated from Rush Hour play)` : told;
}

// The line, made once under the element after (the viewer's progress line) with this id.
export function difficultyLine(id, after) {
  const line = document.createElement('p');
  line.id = id;
  line.className = 'difficulty-line';
  after.after(line);
  return line;
}

// Draws the line of the start that query names ({start, goal, ...} as the puzzle routes read
// them) into element, unless stillShown() says the viewer has moved on meanwhile.
// The line keeps its text until the new one comes, so its height does not jump meanwhile.
export async function drawDifficulty(element, query, stillShown) {
  let found;
  try {
    found = await graded.get(new URLSearchParams(query).toString());
  } catch {
    if (stillShown()) element.textContent = ''; // not graded here: the game goes on without it
    return;
  }
  if (!stillShown()) return;
  element.textContent = describeDifficulty(found);
  element.title = `Fewest moves ${found.features.optimal_length}; the model reads them with `
    + 'how the moves around the way lead astray (huarong\'s docs: "How hard is a puzzle for a person?")';
}
