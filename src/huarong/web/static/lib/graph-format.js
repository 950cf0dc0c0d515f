// The explorer's binary graph, HRG2 (docs/explorer.md), for any puzzle: little-endian, each
// section padded to 8 bytes so that every typed array below is a view, not a copy.
//   HRG2; uint32 nodes, edges, start, flags, rows, columns, name length;
//   the puzzle's name (UTF-8); int64 codes; float32 positions (x, y); uint32 edge pairs;
//   int32 minimum steps, farthest steps, distance from the start (-1: none, unknown);
//   with flags bit 1, uint8 board cells (rows x columns per node: 0 empty, 255 wall).

const MAGIC = 'HRG2';
export const FLAG_FARTHEST = 1;
export const FLAG_CELLS = 2;
const ALIGN = 8;

// The arrays of a graph and its geometry: {nodes, edges, start, farthestKnown,
// geometry: {puzzle, rows, columns}, codes, positions, pairs, min, farthest, distance, cells}.
export function parseGraph(buffer) {
  const head = new DataView(buffer);
  const magic = String.fromCharCode(...new Uint8Array(buffer, 0, 4));
  if (magic !== MAGIC) throw new Error(`The server sent a graph in an unknown form (${magic}).`);
  const [nodes, edges, start, flags, rows, columns, nameLength] = [4, 8, 12, 16, 20, 24, 28]
    .map((at) => head.getUint32(at, true));
  let at = 32;
  const take = (Type, length) => {
    const array = new Type(buffer, at, length);
    at += Math.ceil((length * Type.BYTES_PER_ELEMENT) / ALIGN) * ALIGN;
    return array;
  };
  const puzzle = new TextDecoder().decode(take(Uint8Array, nameLength));
  const graph = {
    nodes, edges, start, farthestKnown: (flags & FLAG_FARTHEST) !== 0,
    geometry: { puzzle, rows, columns },
    codes: take(BigInt64Array, nodes), positions: take(Float32Array, 2 * nodes),
    pairs: take(Uint32Array, 2 * edges), min: take(Int32Array, nodes),
    farthest: take(Int32Array, nodes), distance: take(Int32Array, nodes),
    cells: (flags & FLAG_CELLS) !== 0 ? take(Uint8Array, nodes * rows * columns) : null,
  };
  if (at !== buffer.byteLength) {
    throw new Error(`The server's graph is ${buffer.byteLength} bytes, not the ${at} its `
      + 'header announces.');
  }
  return graph;
}

// A node's state code as text: Klotski's nine hex digits (common codes), else hex.
export function codeText(graph, index) {
  const text = graph.codes[index].toString(16).toUpperCase();
  return graph.geometry.puzzle === 'klotski' ? text.padStart(9, '0') : text;
}

// A node's board cells (rows x columns, row by row), or null when the graph has none.
export function cellsOf(graph, index) {
  if (!graph.cells) return null;
  const size = graph.geometry.rows * graph.geometry.columns;
  return graph.cells.subarray(index * size, (index + 1) * size);
}
