// Numbers and counts as people read them, the same on every page.

export const count = (n) => (n === null || n === undefined ? '—' : n.toLocaleString('en'));

// "1 move", "3 moves"
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function share(part, whole) {
  if (part === null || part === undefined || !whole) return '—';
  return `${((100 * part) / whole).toFixed(1)}%`;
}
