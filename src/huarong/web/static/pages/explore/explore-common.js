// What the explorer's pages share: building elements, numbers as people read them, the links
// between the pages and into the viewer, and the one place errors are shown.

export const $ = (id) => document.getElementById(id);

// el('a', {href: '#'}, 'text', child, ...): attributes named className, textContent or
// dataset-like keys are set as properties, the rest as attributes.
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'className') element.className = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

export const count = (n) => (n === null || n === undefined ? '—' : n.toLocaleString('en'));

export function share(part, whole) {
  if (part === null || part === undefined || !whole) return '—';
  return `${((100 * part) / whole).toFixed(1)}%`;
}

export const playHref = (code) => `/#${code}`;
export const classHref = (name) => `#/class/${name}`;
export const groupHref = (code) => `#/group/${code}`;

export function showError(text) {
  const box = $('explore-error');
  box.textContent = text;
  box.hidden = !text;
}

// The figures the database lacks, and the command that computes them.
export function missingNote(answer, what) {
  if (!answer.database) {
    return `${what} need the database: build it with “huarong db build”, then reload.`;
  }
  const missing = answer.figures_missing ?? [];
  if (!missing.length) return '';
  const names = missing.length > 6 ? `${missing.slice(0, 6).join(', ')}, …` : missing.join(', ');
  return `Farthest steps are not in the database yet for ${missing.length} `
    + `class${missing.length === 1 ? '' : 'es'} (${names}): run “${answer.fill_command}” `
    + 'to compute them.';
}
