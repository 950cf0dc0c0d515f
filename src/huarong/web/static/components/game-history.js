// The game's board transitions, pure: the positions reached, one move apart, and the one
// shown. Every function returns a new history and leaves its argument as it was.

export const startAt = (position) => ({ positions: [position], at: 0 });
export const current = (history) => history.positions[history.at] ?? null;
export const first = (history) => history.positions[0] ?? null;
export const canUndo = (history) => history.at > 0;
export const canRedo = (history) => history.at < history.positions.length - 1;
export const shownAt = (history, at) => ({ ...history, at });

// One move on: what could be redone is kept when position is its next one.
export function advanced(history, position) {
  const { positions, at } = history;
  return {
    positions: positions[at + 1] === position ? positions
      : [...positions.slice(0, at + 1), position],
    at: at + 1,
  };
}

// A move that carries on the last one (Klotski's step slides one piece any distance): it
// replaces the last position, or takes the step back when it returns where the step began.
export function extended(history, position) {
  const { positions, at } = history;
  if (position === positions[at - 1]) return { positions: positions.slice(0, at), at: at - 1 };
  return { positions: [...positions.slice(0, at), position], at };
}

// The step of solution ({path, base: the history index of path[0]}) the history shows, or
// -1 once it has left the path.
export function solutionStep(history, solution) {
  if (!solution) return -1;
  const step = history.at - solution.base;
  return step >= 0 && step < solution.path.length
    && solution.path[step] === current(history) ? step : -1;
}
