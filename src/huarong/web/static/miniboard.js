// A small picture of a layout, for lists of layouts and the explorer's hover card.

import { SHAPE, colOf, decode, rowOf } from './rules.js';

export function miniBoard(code) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 4 5');
  svg.setAttribute('class', 'mini');
  svg.setAttribute('aria-hidden', 'true');
  for (const piece of decode(code)) {
    const [width, height] = SHAPE[piece.kind];
    const rect = document.createElementNS(ns, 'rect');
    rect.setAttribute('x', String(colOf(piece.address) + 0.07));
    rect.setAttribute('y', String(rowOf(piece.address) + 0.07));
    rect.setAttribute('width', String(width - 0.14));
    rect.setAttribute('height', String(height - 0.14));
    rect.setAttribute('rx', '0.15');
    rect.setAttribute('class', piece.kind);
    svg.append(rect);
  }
  return svg;
}
