// The game's adapter for grid text (lib/grid-text.js), any sliding-block puzzle: its pieces
// drawn in a hue per letter in the look of its family, its walls and its goal's outline; the
// server's moves (/api/puzzles/next) as the places a piece can go, and a piece sliding round
// the corners of its move.

import {
  colourOf, displacement, pieceCells, pieceLabel, rowsOf,
} from '../lib/grid-text.js';
import { piecesOfGrid, wallsOfGrid } from './piece-board.js';

const DIRECTIONS = ['up', 'down', 'left', 'right'];

export const familyOf = (rules) => (rules === 'length' ? 'rush-hour' : 'blocks');

export function goalPieces(goal) {
  return goal ? piecesOfGrid(goal).map(({ letter, cells }) => ({ letter, cells })) : [];
}

// /api/puzzles/next's answer for a position, in the game's terms (lib/answers.js).
export function gridAnswer(next) {
  const moves = next.moves.map((move) => ({
    to: move.to, verdict: move.verdict ?? null, minSteps: move.min_steps ?? null, move,
  }));
  return {
    minSteps: next.min_steps,
    solved: next.solved,
    moves,
    best: moves.find((move) => move.verdict === 'better') ?? null,
    raw: next,
  };
}

// The corners a move turns on its way (a move 'up,left' passes above where it started), as
// the top-left corners the moved piece's element passes through.
function corners(move, before) {
  const parts = move.direction.split(',');
  if (parts.length < 2) return [];
  const cells = pieceCells(before).get(move.piece);
  const top = Math.min(...cells.map(([r]) => r));
  const left = Math.min(...cells.map(([, c]) => c));
  return parts.slice(0, -1).map((_, index) => displacement({
    direction: parts.slice(0, index + 1).join(','), distance: 1,
  })).map(([dr, dc]) => [top + dr, left + dc]);
}

// The moved piece may land with a new letter (pieces of one shape are interchangeable): it is
// the piece whose first cell is where the move takes the first cell of the piece that moved.
function landedLetter(move, before) {
  const [dr, dc] = displacement(move);
  const [r, c] = pieceCells(before).get(move.piece)[0];
  return rowsOf(move.to)[r + dr]?.[c + dc];
}

async function landings(grid, el, answers) {
  const answer = await answers.get(grid);
  return answer.moves.filter(({ move }) => move.piece === el.dataset.piece)
    .map(({ to, move }) => ({ offset: displacement(move), to, move }));
}

// puzzle() gives the puzzle played: {goal, rules} as the server read them.
export function gridPositions(puzzle) {
  return {
    draw(board, grid, { before = null, move = null, duration = 0 }) {
      const rows = rowsOf(grid);
      const { goal, rules } = puzzle();
      const aims = goalPieces(goal);
      const shapes = new Set(aims.map((piece) => piece.letter));
      const landed = move && before ? landedLetter(move, before) : null;
      board.draw({
        rows: rows.length,
        columns: rows[0].length,
        family: familyOf(rules),
        walls: wallsOfGrid(grid),
        goal: aims,
        rules,
        pieces: piecesOfGrid(grid).map((piece) => ({
          ...piece,
          label: pieceLabel(piece.letter, piece.cells),
          colour: colourOf(piece.letter, shapes.has(piece.letter)),
          via: piece.letter === landed ? corners(move, before) : [],
        })),
      }, { duration: landed ? duration : 0 });
      board.element.setAttribute('aria-label', `Puzzle board, ${rows.length} rows by `
        + `${rows[0].length} columns`);
    },
    landings,
    // The move of the piece a cell that way, else the first straight that way, else one round a
    // corner that sets off that way.
    async keyLanding(grid, el, [dr, dc], answers) {
      const word = DIRECTIONS[[[-1, 0], [1, 0], [0, -1], [0, 1]]
        .findIndex(([r, c]) => r === dr && c === dc)];
      const mine = (await landings(grid, el, answers))
        .filter(({ move }) => move.direction.split(',')[0] === word);
      return mine.find(({ move }) => move.direction === word && move.distance === 1)
        ?? mine.find(({ move }) => move.direction === word) ?? mine[0] ?? null;
    },
    continues: () => false,
    recordOf: (from, to, move) => (move ? {
      piece: move.piece, direction: move.direction, distance: move.distance,
    } : {}),
    hintedPiece: (board, grid, best) => board.piece(best.move.piece),
  };
}
