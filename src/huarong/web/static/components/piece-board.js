// One board for every sliding-block puzzle (Klotski's viewer, /puzzles, and whatever page
// comes next), styled by board.css (the pb- namespace) with a look per family: 'klotski'
// (the lacquered tiles), 'rush-hour' (cars and trucks, the goal car red) and 'blocks'
// (wooden blocks, the goal piece marked).
//
// The board element is an ARIA grid of rows of cells laid out by CSS grid; each piece is ONE
// element (data-piece: its letter) absolutely placed over its cells, living in the cell of its
// first cell, so a move is a change of position that can animate and keeps focus. Walls are
// drawn as part of the frame; the goal as the goal piece's outline where it must end, and as
// a gap in the frame (put the board inside a .pb-frame) where it leaves through an edge.
//
// API:
//   const board = createBoard(element, { picture })  // picture: no roles, not focusable
//   const elements = board.draw({
//     rows, columns, family,                // family: 'klotski' | 'rush-hour' | 'blocks'
//     walls: [[row, column], ...],
//     goal: [{ letter, cells: [[row, column], ...] }, ...],  // outlines; letters marked
//     rules,                                 // 'length' opens an exit on any edge
//     pieces: [{ key, letter, cells, text, label, colour, classes, via }],
//   }, { duration });
//     Draws the position: an element of the last draw is kept for the piece it still fits
//     (same key and place, same shape and place, same key, same shape), so a moved piece
//     animates over duration ms from where it was, through via (top-left corners, as
//     [row, column]), to where it is. Returns the pieces' elements in the order given.
//     The board's data-grid is then the position as grid text.
//   board.piece(letter)                     // the element drawing that letter
//   board.pieceAt(row, column)              // the element of the piece covering that cell
//   board.cornerOf(el)                      // [row, column] of el's top-left, as drawn
//   board.rows(), board.columns()
//   board.position(el, row, column)         // draws el's top-left there (a drag under way)
//   board.settle(el, cells)                 // el now covers cells
//   board.cell(row, column)                 // a gridcell element
//   piecesOfGrid(grid), wallsOfGrid(grid)   // grid text (puzzle-grid.js) as pieces, walls
//   exitsOf(goal, rows, columns, rules)     // the edges a goal leaves through

import { pieceCells, rowsOf } from '../lib/grid-text.js';

const SIDES = [[-1, 0, 'top'], [1, 0, 'bottom'], [0, -1, 'left'], [0, 1, 'right']];
const FAMILIES = ['klotski', 'rush-hour', 'blocks'];
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

function boxOf(cells) {
  const rows = cells.map(([r]) => r);
  const columns = cells.map(([, c]) => c);
  const top = Math.min(...rows);
  const left = Math.min(...columns);
  return {
    top, left, height: Math.max(...rows) - top + 1, width: Math.max(...columns) - left + 1,
  };
}

// The cells relative to their box: pieces of one shape have the same one.
const shapeOf = (cells, box) => cells.map(([r, c]) => `${r - box.top},${c - box.left}`).join(' ');
const isRectangle = (cells, box) => cells.length === box.width * box.height;
const percent = (part, whole) => `${(part * 100) / whole}%`;

function placeIn(el, box, rows, columns) {
  el.style.left = percent(box.left, columns);
  el.style.top = percent(box.top, rows);
  el.style.width = percent(box.width, columns);
  el.style.height = percent(box.height, rows);
}

// A shape that is not a rectangle is drawn cell by cell inside its box, each cell with the
// sides where the shape ends, so it still has one outline.
function drawParts(container, cells, box) {
  const inside = new Set(cells.map(([r, c]) => `${r},${c}`));
  const parts = cells.map(([r, c]) => {
    const part = document.createElement('i');
    part.className = 'pb-part';
    for (const [dr, dc, side] of SIDES) {
      if (!inside.has(`${r + dr},${c + dc}`)) part.classList.add(`pb-edge-${side}`);
    }
    placeIn(part, { top: r - box.top, left: c - box.left, height: 1, width: 1 },
      box.height, box.width);
    return part;
  });
  container.querySelectorAll(':scope > .pb-part').forEach((old) => old.remove());
  container.prepend(...parts);
}

// The lines of a goal's outline, in cells: each side of a goal cell where its piece ends.
function outlineOf(goal) {
  return goal.flatMap(({ cells }) => {
    const inside = new Set(cells.map(([r, c]) => `${r},${c}`));
    return cells.flatMap(([r, c]) => SIDES
      .filter(([dr, dc]) => !inside.has(`${r + dr},${c + dc}`))
      .map(([dr, dc]) => (dr ? { across: true, at: r + Math.max(dr, 0), from: c, to: c + 1 }
        : { across: false, at: c + Math.max(dc, 0), from: r, to: r + 1 })));
  });
}

// Whether a line of the outline runs through the box's inside (not along its sides).
function crosses(lines, box) {
  return lines.some(({ across, at, from, to }) => (across
    ? box.top < at && at < box.top + box.height && from < box.left + box.width && to > box.left
    : box.left < at && at < box.left + box.width && from < box.top + box.height && to > box.top));
}

// Grid text ('/' between rows, '.' empty, '#' wall, a letter per piece) as draw's pieces.
export function piecesOfGrid(grid) {
  return [...pieceCells(grid)].map(([letter, cells]) => ({ letter, cells, text: letter }));
}

export function wallsOfGrid(grid) {
  return rowsOf(grid).flatMap((row, r) => row.flatMap((glyph, c) => (glyph === '#' ? [[r, c]] : [])));
}

// Where the goal piece leaves the board: under Rush Hour's rules through any edge its goal
// touches (beside the red car's row); otherwise through the bottom edge when the goal is
// centred on it, as Klotski's gate and Century's.
export function exitsOf(goal, rows, columns, rules) {
  const aimed = goal.flatMap((piece) => piece.cells);
  if (!aimed.length) return [];
  const box = boxOf(aimed);
  const bottom = box.top + box.height - 1;
  const right = box.left + box.width - 1;
  const across = { first: box.left, count: box.width };
  const down = { first: box.top, count: box.height };
  if (rules === 'length') {
    return [
      right === columns - 1 && { side: 'right', ...down },
      box.left === 0 && { side: 'left', ...down },
      box.top === 0 && { side: 'top', ...across },
      bottom === rows - 1 && { side: 'bottom', ...across },
    ].filter(Boolean);
  }
  return bottom === rows - 1 && box.left + right === columns - 1
    ? [{ side: 'bottom', ...across }] : [];
}

export function createBoard(element, { picture = false } = {}) {
  let rows = 0;
  let columns = 0;
  let cells = [];
  let walls = new Set();
  let outline = []; // the goal's lines, where labels must not be
  let aimed = new Set(); // the goal's cells
  const drawn = new Map(); // piece element -> {key, letter, cells, box, shape, classes}
  element.classList.add('pb-board');
  if (!picture) element.setAttribute('role', 'grid');

  // A row or a cell, with its role and place for assistive technology (none in a picture).
  function gridPart(className, role, place, index) {
    const part = document.createElement('div');
    part.className = className;
    if (!picture) {
      part.setAttribute('role', role);
      part.setAttribute(place, String(index + 1));
    }
    return part;
  }

  function build(height, width) {
    rows = height;
    columns = width;
    cells = [];
    drawn.clear();
    element.replaceChildren();
    element.style.setProperty('--pb-rows', rows);
    element.style.setProperty('--pb-columns', columns);
    if (!picture) {
      element.setAttribute('aria-rowcount', String(rows));
      element.setAttribute('aria-colcount', String(columns));
    }
    for (let r = 0; r < rows; r++) {
      const line = gridPart('pb-row', 'row', 'aria-rowindex', r);
      for (let c = 0; c < columns; c++) {
        const cell = gridPart('pb-cell', 'gridcell', 'aria-colindex', c);
        line.append(cell);
        cells.push(cell);
      }
      element.append(line);
    }
  }

  function writeGrid() {
    const glyphs = rowsOf(Array(rows).fill('.'.repeat(columns)).join('/'));
    for (const key of walls) {
      const [r, c] = key.split(',').map(Number);
      glyphs[r][c] = '#';
    }
    for (const record of drawn.values()) {
      for (const [r, c] of record.cells) glyphs[r][c] = record.letter;
    }
    element.dataset.grid = glyphs.map((row) => row.join('')).join('/');
  }

  function drawOverlays(goal, rules) {
    outline = outlineOf(goal);
    aimed = new Set(goal.flatMap(({ cells: own }) => own.map(([r, c]) => `${r},${c}`)));
    element.querySelectorAll(':scope > .pb-goal, :scope > .pb-exit').forEach((old) => old.remove());
    for (const piece of goal) {
      const box = boxOf(piece.cells);
      const outline = document.createElement('div');
      outline.className = 'pb-goal';
      outline.setAttribute('aria-hidden', 'true');
      placeIn(outline, box, rows, columns);
      if (!isRectangle(piece.cells, box)) {
        outline.classList.add('pb-shaped');
        drawParts(outline, piece.cells, box);
      }
      element.append(outline);
    }
    for (const { side, first, count } of exitsOf(goal, rows, columns, rules)) {
      const gap = document.createElement('div');
      gap.className = `pb-exit pb-exit-${side}`;
      gap.setAttribute('aria-hidden', 'true');
      gap.style.setProperty('--pb-first', first);
      gap.style.setProperty('--pb-count', count);
      element.append(gap);
    }
  }

  function position(el, row, column) {
    el.style.left = percent(column, columns);
    el.style.top = percent(row, rows);
  }

  // The element lives in the gridcell of its first cell; moving it there keeps its focus.
  function settle(el, own) {
    const record = drawn.get(el);
    const box = boxOf(own);
    const shape = shapeOf(own, box);
    if (shape !== record.shape) {
      const rectangle = isRectangle(own, box);
      el.classList.toggle('pb-shaped', !rectangle);
      const body = el.querySelector('.pb-body');
      if (rectangle) body.querySelectorAll('.pb-part').forEach((part) => part.remove());
      else drawParts(body, own, box);
    }
    // The label sits in the middle of the piece, or on one of its cells (never crossed by the
    // goal's outline) where the piece is not a rectangle or the outline runs through it.
    const label = el.querySelector('.pb-label');
    const onCell = !isRectangle(own, box) || crosses(outline, box);
    label.classList.toggle('pb-label-cell', onCell);
    if (onCell) {
      const [r, c] = own.find(([row, column]) => !aimed.has(`${row},${column}`)) ?? own[0];
      placeIn(label, { top: r - box.top, left: c - box.left, height: 1, width: 1 },
        box.height, box.width);
    } else {
      label.removeAttribute('style');
    }
    Object.assign(record, { cells: own, box, shape });
    placeIn(el, box, rows, columns);
    const cell = cells[own[0][0] * columns + own[0][1]];
    if (el.parentElement !== cell) {
      const focused = document.activeElement === el;
      cell.append(el);
      if (focused) el.focus({ preventScroll: true });
    }
    writeGrid();
  }

  function create() {
    const el = document.createElement('div');
    if (!picture) {
      el.tabIndex = 0;
      el.setAttribute('role', 'button');
    }
    const body = document.createElement('span');
    body.className = 'pb-body';
    body.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'pb-label';
    body.append(label);
    el.append(body);
    drawn.set(el, { key: null, letter: null, cells: [], box: null, shape: null, classes: [] });
    return el;
  }

  function animate(el, from, via, to, duration) {
    el.getAnimations().forEach((running) => running.cancel());
    if (!duration || reducedMotion.matches) return;
    const frames = [[from.top, from.left], ...via, [to.top, to.left]].map(([r, c]) => ({
      top: percent(r, rows), left: percent(c, columns),
    }));
    el.classList.add('pb-moving');
    el.animate(frames, { duration, easing: 'cubic-bezier(.5,.05,.3,1)' }).finished
      .catch(() => {}).then(() => el.classList.remove('pb-moving'));
  }

  function draw({
    rows: height, columns: width, family, walls: wallCells = [], goal = [], rules = null,
    pieces = [],
  }, { duration = 0 } = {}) {
    if (height !== rows || width !== columns) build(height, width);
    for (const name of FAMILIES) element.classList.toggle(`pb-${name}`, name === family);
    walls = new Set(wallCells.map(([r, c]) => `${r},${c}`));
    cells.forEach((cell, index) => {
      const wall = walls.has(`${Math.floor(index / columns)},${index % columns}`);
      cell.classList.toggle('pb-wall', wall);
      if (wall && !picture) cell.setAttribute('aria-label', 'wall');
      else cell.removeAttribute('aria-label');
    });
    drawOverlays(goal, rules);
    const goalLetters = new Set(goal.map((piece) => piece.letter));

    const wanted = pieces.map((spec) => {
      const box = boxOf(spec.cells);
      return { ...spec, key: spec.key ?? spec.letter, box, shape: shapeOf(spec.cells, box) };
    });
    const samePlace = (a, b) => a.box && a.box.top === b.box.top && a.box.left === b.box.left;
    const tests = [
      (old, spec) => old.key === spec.key && old.shape === spec.shape && samePlace(old, spec),
      (old, spec) => old.shape === spec.shape && samePlace(old, spec),
      (old, spec) => old.key === spec.key,
      (old, spec) => old.shape === spec.shape,
    ];
    const spare = new Map(drawn);
    const chosen = [];
    for (const test of tests) {
      wanted.forEach((spec, i) => {
        if (chosen[i]) return;
        for (const [el, old] of spare) {
          if (!test(old, spec)) continue;
          chosen[i] = el;
          spare.delete(el);
          break;
        }
      });
    }
    for (const el of spare.keys()) {
      el.remove();
      drawn.delete(el);
    }
    const elements = wanted.map((spec, i) => {
      const el = chosen[i] ?? create();
      const record = drawn.get(el);
      const from = record.box;
      el.classList.remove(...record.classes);
      record.classes = ['pb-piece', ...(spec.classes ?? []),
        ...(goalLetters.has(spec.letter) ? ['pb-goal-piece'] : [])];
      el.classList.add(...record.classes);
      record.key = spec.key;
      record.letter = spec.letter;
      el.dataset.piece = spec.letter;
      if (spec.label && !picture) el.setAttribute('aria-label', spec.label);
      if (spec.colour) el.style.setProperty('--pb-colour', spec.colour);
      else el.style.removeProperty('--pb-colour');
      el.querySelector('.pb-label').textContent = spec.text ?? '';
      settle(el, spec.cells);
      if (from && (from.top !== spec.box.top || from.left !== spec.box.left)) {
        animate(el, from, spec.via ?? [], spec.box, duration);
      }
      return el;
    });
    writeGrid();
    return elements;
  }

  return {
    element,
    draw,
    position,
    settle,
    rows: () => rows,
    columns: () => columns,
    cell: (row, column) => cells[row * columns + column],
    pieceAt: (row, column) => [...drawn].find(([, record]) => record.cells
      .some(([r, c]) => r === row && c === column))?.[0] ?? null,
    cornerOf: (el) => [drawn.get(el).box.top, drawn.get(el).box.left],
    piece: (letter) => [...drawn].find(([, record]) => record.letter === letter)?.[0] ?? null,
  };
}
