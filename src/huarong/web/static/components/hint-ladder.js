// Graded hints, the same in every viewer: on one position the first hint tells how far the goal
// is, the second which piece to move, the third makes the move; a new position starts again at
// the first.  Every hint asked is counted, so a player (or a teacher) sees how much help a
// game took.

export const RUNGS = ['distance', 'piece', 'move'];

export function createLadder() {
  let position = null;
  let rung = 0;
  let used = 0;
  return {
    // The rung of this hint on ``at`` (any value naming the position), counted as used.
    climb(at) {
      if (at !== position) {
        position = at;
        rung = 0;
      }
      const step = RUNGS[rung];
      rung = Math.min(rung + 1, RUNGS.length - 1);
      used += 1;
      return step;
    },
    get used() { return used; },
    reset() {
      position = null;
      rung = 0;
      used = 0;
    },
  };
}
