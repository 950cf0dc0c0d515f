// The marks a graph view lays over its canvas as SVG: the chosen layout's shortest path, the
// rings (chosen layout, its goal, the board's layout, the point under the pointer), the board's
// trail and the bridges. Redrawn whenever the view moves: SVG keeps them sharp at any zoom.

const SVG = 'http://www.w3.org/2000/svg';

export function drawMarks(view) {
  const { width, height } = view.size();
  view.marks.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const shapes = [];
  const polyline = (indices, className) => {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', indices.map((i) => view.screenOf(i).join(',')).join(' '));
    line.setAttribute('class', className);
    return line;
  };
  if (view.bridges.length) {
    const bridges = document.createElementNS(SVG, 'path');
    bridges.setAttribute('d', view.bridges.map(([a, b]) => `M${view.screenOf(a).join(',')}`
      + `L${view.screenOf(b).join(',')}`).join(''));
    bridges.setAttribute('class', 'bridge');
    shapes.push(bridges);
  }
  if (view.path.length > 1) shapes.push(polyline(view.path, 'path'));
  if (view.trail.length > 1) shapes.push(polyline(view.trail, 'trail'));
  const ring = (index, className) => {
    const circle = document.createElementNS(SVG, 'circle');
    const [x, y] = view.screenOf(index);
    circle.setAttribute('cx', String(x));
    circle.setAttribute('cy', String(y));
    circle.setAttribute('r', '7');
    circle.setAttribute('class', className);
    return circle;
  };
  if (view.path.length) shapes.push(ring(view.path[view.path.length - 1], 'goal'));
  if (view.start >= 0) shapes.push(ring(view.start, 'start'));
  if (view.board >= 0) shapes.push(ring(view.board, 'board-at'));
  if (view.hovered >= 0) shapes.push(ring(view.hovered, 'hovered'));
  view.marks.replaceChildren(...shapes);
  // for tools and tests: the board's layout, its trail and the bridges, as node indices
  Object.assign(view.marks.dataset, { board: view.board, trail: view.trail.join(' '),
    bridges: view.bridges.length });
}
