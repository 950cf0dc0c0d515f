// A small picture of a layout, for lists of layouts and the explorer's hover card: Klotski's
// from its code, any puzzle's from its board cells or its grid text.

import PALETTE from '/palette.json' with { type: 'json' };

import { cellsOf, codeText } from '../lib/graph-format.js';
import { SHAPE, colOf, decode, rowOf } from '../lib/klotski-rules.js';

const NS = 'http://www.w3.org/2000/svg';
const WALL = 255;
const INSET = 0.07;

function frame(columns, rows) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${columns} ${rows}`);
  svg.setAttribute('class', 'mini');
  svg.setAttribute('aria-hidden', 'true');
  return svg;
}

function rect(x, y, width, height) {
  const shape = document.createElementNS(NS, 'rect');
  shape.setAttribute('x', String(x));
  shape.setAttribute('y', String(y));
  shape.setAttribute('width', String(width));
  shape.setAttribute('height', String(height));
  return shape;
}

export function miniBoard(code) {
  const svg = frame(4, 5);
  for (const piece of decode(code)) {
    const [width, height] = SHAPE[piece.kind];
    const shape = rect(colOf(piece.address) + INSET, rowOf(piece.address) + INSET,
      width - 2 * INSET, height - 2 * INSET);
    shape.setAttribute('rx', '0.15');
    shape.setAttribute('class', piece.kind);
    shape.setAttribute('fill', PALETTE.klotski[piece.kind]);
    svg.append(shape);
  }
  return svg;
}

// A board from its cells (uint8, row by row: 0 empty, 255 wall, else a piece number): each
// cell a square, inset only where its neighbour holds something else, so a piece of any shape
// shows as one block (two touching pieces of one shape merge: the cells do not tell them apart).
export function cellBoard(cells, rows, columns) {
  const svg = frame(columns, rows);
  const at = (row, column) => (row >= 0 && row < rows && column >= 0 && column < columns
    ? cells[row * columns + column] : -1);
  for (let row = 0; row < rows; row++) {
    for (let column = 0; column < columns; column++) {
      const value = at(row, column);
      if (value === 0) continue;
      const left = at(row, column - 1) === value ? 0 : INSET;
      const top = at(row - 1, column) === value ? 0 : INSET;
      const right = at(row, column + 1) === value ? 0 : INSET;
      const bottom = at(row + 1, column) === value ? 0 : INSET;
      const shape = rect(column + left, row + top, 1 - left - right, 1 - top - bottom);
      // by piece number (pieces of one shape share a number), as the engine's pictures
      shape.setAttribute('fill', value === WALL ? PALETTE.wall
        : PALETTE.pieces[(value - 1) % PALETTE.pieces.length]);
      svg.append(shape);
    }
  }
  return svg;
}

// A board from grid text ('/'-joined rows, '.' empty, '#' wall, a letter per piece), each
// piece a number of its own.
export function gridBoard(grid) {
  const rows = grid.split('/');
  const letters = [...new Set(grid.replace(/[./#]/g, ''))];
  const cells = Uint8Array.from(rows.join(''), (glyph) => {
    if (glyph === '.') return 0;
    return glyph === '#' ? WALL : letters.indexOf(glyph) + 1;
  });
  return cellBoard(cells, rows.length, rows[0].length);
}

// The board of a graph's node (graph-format.js): from its cells when the graph has them,
// else Klotski's from its code.
export function graphBoard(graph, index) {
  const cells = cellsOf(graph, index);
  if (cells) return cellBoard(cells, graph.geometry.rows, graph.geometry.columns);
  return miniBoard(codeText(graph, index));
}
