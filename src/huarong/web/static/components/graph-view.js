// A group's graph drawn with WebGL2: every layout a point, every step a line between two
// points, straight from the server's binary arrays (the edge pairs are the index buffer, so
// nothing is copied per edge). twgl.js compiles the shaders and binds the buffers; kdbush finds
// the point under the pointer without asking the server.
//
// It draws once when the data arrive and again only when the view changes: without a GPU
// (a software renderer, as in headless tests) one frame of a large group takes seconds, so
// there is no animation loop. Where a frame proves slow, a pan or zoom moves the last picture
// with a CSS transform and redraws once the gesture rests.

import KDBush from '../vendor/kdbush.js';
import * as twgl from '../vendor/twgl-full.module.js';
import { drawMarks } from './graph-marks.js';

const VERTEX = `#version 300 es
in vec2 position;
in vec4 colour;
uniform vec2 scale;
uniform vec2 offset;
uniform float pointSize;
uniform float alpha;
out vec4 tint;
void main() {
  gl_Position = vec4(position * scale + offset, 0.0, 1.0);
  gl_PointSize = pointSize;
  tint = vec4(colour.rgb, colour.a * alpha);
}`;
const POINT_FRAGMENT = `#version 300 es
precision mediump float;
in vec4 tint;
out vec4 colour;
void main() {
  vec2 from = gl_PointCoord - 0.5;
  if (dot(from, from) > 0.25) discard;
  colour = tint;
}`;
const LINE_FRAGMENT = `#version 300 es
precision mediump float;
in vec4 tint;
out vec4 colour;
void main() { colour = tint; }`;

const BACKGROUND = [0.118, 0.067, 0.039, 1];
const LINE_ALPHA = 0.4;
const FAST_FRAME_MS = 40; // below this a frame is redrawn live during a gesture
const REST_MS = 180; // a slow renderer redraws once the gesture has rested this long
const PICK_RADIUS_PX = 10;
const MOVE_SLOP_PX = 5;

const pixelRatio = () => Math.min(window.devicePixelRatio || 1, 2);

export class GraphView {
  // box: the element the canvas fills, which takes the gestures; marks: an <svg> laid over
  // the canvas for the path and the rings; onHover(index | null, x, y) and
  // onPick(index, pointerType) with CSS pixels in the box.
  constructor(box, canvas, marks, { onHover, onPick }) {
    this.box = box;
    this.canvas = canvas;
    this.marks = marks;
    this.onHover = onHover;
    this.onPick = onPick;
    this.gl = canvas.getContext('webgl2', { antialias: true, alpha: false });
    if (!this.gl) throw new Error('This browser cannot draw with WebGL2.');
    // a software renderer (no GPU) takes seconds for a million lines
    const debug = this.gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = this.gl.getParameter(debug ? debug.UNMASKED_RENDERER_WEBGL
      : this.gl.RENDERER) ?? '';
    this.software = /swiftshader|llvmpipe|software/i.test(renderer);
    this.showLines = true;
    this.points = twgl.createProgramInfo(this.gl, [VERTEX, POINT_FRAGMENT]);
    this.lines = twgl.createProgramInfo(this.gl, [VERTEX, LINE_FRAGMENT]);
    this.view = { scale: 1, x: 0, y: 0 }; // CSS px = x + position * scale
    this.drawn = null; // the view of the picture on the canvas
    this.fast = null; // unknown until the first frame is timed
    this.frame = 0;
    this.rest = 0;
    this.draws = 0;
    this.path = [];
    this.start = -1;
    this.hovered = -1;
    this.board = -1; // the layout on the playable board, and the trail of its steps
    this.trail = [];
    this.bridges = []; // node index pairs, drawn over the lines
    this.pointers = new Map();
    this.gesture = null;
    this.wire();
  }

  setData(positions, edges, colours) {
    const { gl } = this;
    this.release();
    this.positions = positions;
    this.nodes = positions.length / 2;
    this.edges = edges.length / 2;
    this.index = null;
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < positions.length; i += 2) {
      left = Math.min(left, positions[i]);
      right = Math.max(right, positions[i]);
      top = Math.min(top, positions[i + 1]);
      bottom = Math.max(bottom, positions[i + 1]);
    }
    this.bounds = [left, top, right, bottom];
    const pointInfo = twgl.createBufferInfoFromArrays(gl, {
      position: { numComponents: 2, data: positions },
      colour: { numComponents: 4, data: colours, normalize: true },
    });
    this.pointInfo = pointInfo;
    this.pointVao = twgl.createVAOFromBufferInfo(gl, this.points, pointInfo);
    this.lineInfo = null;
    if (this.edges > 0) {
      this.lineInfo = {
        ...pointInfo,
        indices: twgl.createBufferFromTypedArray(gl, edges, gl.ELEMENT_ARRAY_BUFFER),
        elementType: gl.UNSIGNED_INT,
        numElements: edges.length,
      };
      this.lineVao = twgl.createVAOFromBufferInfo(gl, this.lines, this.lineInfo);
    }
    this.fit();
  }

  // Frees the last group's buffers: a page that shows one group after another keeps one.
  release() {
    const { gl } = this;
    if (!this.pointInfo) return;
    for (const attrib of Object.values(this.pointInfo.attribs)) gl.deleteBuffer(attrib.buffer);
    gl.deleteVertexArray(this.pointVao);
    if (this.lineInfo && this.showLines) {
      gl.deleteBuffer(this.lineInfo.indices);
      gl.deleteVertexArray(this.lineVao);
    }
    this.pointInfo = null;
    this.lineInfo = null;
    this.hovered = -1;
    this.board = -1;
    this.trail = [];
    this.bridges = [];
  }

  setColours(colours) {
    twgl.setAttribInfoBufferFromArray(this.gl, this.pointInfo.attribs.colour, colours);
    this.requestDraw();
  }

  setLines(on) {
    this.showLines = on;
    this.requestDraw();
  }

  // The chosen layout's shortest path to a goal (node indices) and the chosen layout.
  setMarks(path, start) {
    this.path = path;
    this.start = start;
    this.drawMarks();
  }

  // The layout on the board (node index, -1 for none) and the steps that led there.
  setBoard(index, trail) {
    this.board = index;
    this.trail = trail;
    this.drawMarks();
  }

  setBridges(pairs) {
    this.bridges = pairs;
    this.drawMarks();
  }

  // The box's size (a transformed canvas would misreport its own).
  size() {
    return { width: Math.max(1, this.box.clientWidth), height: Math.max(1, this.box.clientHeight) };
  }

  // Shows the whole group, centred, with a margin.
  fit() {
    const { width, height } = this.size();
    const [left, top, right, bottom] = this.bounds;
    // a group of one layout has no extent: it gets the scale of a group filling the box
    const scale = Math.min(4 * Math.min(width, height), 0.94 * Math.min(
      width / Math.max(right - left, 1e-6), height / Math.max(bottom - top, 1e-6)));
    this.view = {
      scale,
      x: width / 2 - ((left + right) / 2) * scale,
      y: height / 2 - ((top + bottom) / 2) * scale,
    };
    this.changed();
  }

  // Zooms by factor keeping the point at (x, y) in CSS px where it is.
  zoomBy(factor, x, y) {
    const { view } = this;
    const scale = Math.min(Math.max(view.scale * factor, 50), 400000);
    const k = scale / view.scale;
    this.view = { scale, x: x - (x - view.x) * k, y: y - (y - view.y) * k };
    this.changed();
  }

  zoomAtCentre(factor) {
    const { width, height } = this.size();
    this.zoomBy(factor, width / 2, height / 2);
  }

  panBy(dx, dy) {
    this.view = { ...this.view, x: this.view.x + dx, y: this.view.y + dy };
    this.changed();
  }

  screenOf(index) {
    const { scale, x, y } = this.view;
    return [x + this.positions[2 * index] * scale, y + this.positions[2 * index + 1] * scale];
  }

  // ---- drawing ------------------------------------------------------------------------

  changed() {
    this.drawMarks();
    this.canvas.dataset.view = JSON.stringify([this.view.scale, this.view.x, this.view.y]);
    if (this.fast !== false || !this.drawn) {
      this.requestDraw();
      return;
    }
    const k = this.view.scale / this.drawn.scale;
    const dx = this.view.x - this.drawn.x * k;
    const dy = this.view.y - this.drawn.y * k;
    this.canvas.style.transform = `translate(${dx}px, ${dy}px) scale(${k})`;
    clearTimeout(this.rest);
    this.rest = setTimeout(() => this.requestDraw(), REST_MS);
  }

  requestDraw() {
    if (this.frame || !this.pointInfo) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    const { gl, canvas, view } = this;
    const { width, height } = this.size();
    const ratio = pixelRatio();
    const pixels = [Math.round(width * ratio), Math.round(height * ratio)];
    if (canvas.width !== pixels[0] || canvas.height !== pixels[1]) {
      [canvas.width, canvas.height] = pixels;
    }
    const started = performance.now();
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(...BACKGROUND);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    const spacing = view.scale / Math.sqrt(this.nodes);
    const uniforms = {
      scale: [(2 * view.scale) / width, (-2 * view.scale) / height],
      offset: [(2 * view.x) / width - 1, 1 - (2 * view.y) / height],
      pointSize: Math.min(Math.max(spacing * 0.55, 1.5), 9) * ratio,
      alpha: LINE_ALPHA,
    };
    if (this.lineInfo && this.showLines) {
      gl.useProgram(this.lines.program);
      gl.bindVertexArray(this.lineVao);
      twgl.setUniforms(this.lines, uniforms);
      twgl.drawBufferInfo(gl, this.lineInfo, gl.LINES);
    }
    gl.useProgram(this.points.program);
    gl.bindVertexArray(this.pointVao);
    twgl.setUniforms(this.points, { ...uniforms, alpha: 1 });
    twgl.drawBufferInfo(gl, this.pointInfo, gl.POINTS);
    gl.bindVertexArray(null);
    if (this.fast === null) {
      gl.finish(); // once, to learn whether this renderer can follow a gesture live
      this.fast = performance.now() - started < FAST_FRAME_MS;
    }
    this.drawn = { ...view };
    canvas.style.transform = '';
    this.draws += 1;
    if (this.draws === 1) performance.mark('graph-drawn');
    canvas.dataset.draws = String(this.draws);
    canvas.dataset.nodes = String(this.nodes);
    canvas.dataset.edges = String(this.edges);
  }

  drawMarks() {
    if (this.positions) drawMarks(this);
  }

  // ---- finding the point under the pointer ------------------------------------------------

  nearest(x, y) {
    if (!this.positions) return -1;
    if (!this.index) {
      this.index = new KDBush(this.nodes, 64, Float32Array);
      for (let i = 0; i < this.nodes; i++) {
        this.index.add(this.positions[2 * i], this.positions[2 * i + 1]);
      }
      this.index.finish();
    }
    const { scale } = this.view;
    const px = (x - this.view.x) / scale;
    const py = (y - this.view.y) / scale;
    let best = -1;
    let bestDistance = Infinity;
    for (const i of this.index.within(px, py, PICK_RADIUS_PX / scale)) {
      const distance = (this.positions[2 * i] - px) ** 2 + (this.positions[2 * i + 1] - py) ** 2;
      if (distance < bestDistance || (distance === bestDistance && i < best)) {
        best = i;
        bestDistance = distance;
      }
    }
    return best;
  }

  hover(x, y) {
    const found = x === null ? -1 : this.nearest(x, y);
    if (found !== this.hovered) {
      this.hovered = found;
      this.drawMarks();
    }
    this.onHover(found >= 0 ? found : null, x, y);
  }

  // ---- gestures: drag to pan, wheel or pinch to zoom, click to pick ------------------------

  local(event) {
    const box = this.box.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  wire() {
    const target = this.box;
    target.addEventListener('wheel', (event) => {
      event.preventDefault();
      const lines = event.deltaMode === 1 ? 16 : 1;
      this.zoomBy(Math.exp(-event.deltaY * lines * 0.0015), ...this.local(event));
    }, { passive: false });
    target.addEventListener('pointerdown', (event) => {
      target.setPointerCapture(event.pointerId);
      this.pointers.set(event.pointerId, this.local(event));
      const [x, y] = this.local(event);
      this.gesture = { x, y, moved: this.pointers.size > 1 };
    });
    target.addEventListener('pointermove', (event) => {
      const now = this.local(event);
      if (!this.pointers.has(event.pointerId)) {
        this.hover(...now);
        return;
      }
      const before = this.pointers.get(event.pointerId);
      if (this.pointers.size === 1) {
        this.panBy(now[0] - before[0], now[1] - before[1]);
      } else if (this.pointers.size === 2) {
        const [other] = [...this.pointers].filter(([id]) => id !== event.pointerId);
        const [ox, oy] = other[1];
        const apart = (x, y) => Math.hypot(x - ox, y - oy);
        const factor = apart(...now) / Math.max(apart(...before), 1);
        this.zoomBy(factor, (now[0] + ox) / 2, (now[1] + oy) / 2);
        this.panBy((now[0] - before[0]) / 2, (now[1] - before[1]) / 2);
      }
      this.pointers.set(event.pointerId, now);
      const { gesture } = this;
      if (gesture && Math.hypot(now[0] - gesture.x, now[1] - gesture.y) > MOVE_SLOP_PX) {
        gesture.moved = true;
      }
    });
    const end = (event) => {
      if (!this.pointers.delete(event.pointerId)) return;
      const { gesture } = this;
      if (this.pointers.size === 0) this.gesture = null;
      if (event.type !== 'pointerup' || !gesture || gesture.moved) return;
      const found = this.nearest(...this.local(event));
      if (found >= 0) this.onPick(found, event.pointerType);
    };
    target.addEventListener('pointerup', end);
    target.addEventListener('pointercancel', end);
    target.addEventListener('pointerleave', (event) => {
      if (event.pointerType === 'mouse' && !this.pointers.size) this.hover(null, null);
    });
    new ResizeObserver(() => {
      if (!this.drawn) return;
      const { width, height } = this.size();
      if (Math.round(width * pixelRatio()) !== this.canvas.width
        || Math.round(height * pixelRatio()) !== this.canvas.height) {
        this.changed();
      }
    }).observe(target);
  }
}
