// Building the pages' elements: the one `$` and `el` of every page.

export const $ = (id) => document.getElementById(id);

// el('a', {href: '#'}, 'text', child, ...): className is set as the property, every other
// attribute as an attribute (true as an empty one; false, null and undefined left out).
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

// A page's table of elements from one text of ids: each id under its camelCase name
// ('moves-made' -> movesMade), or under the name written before it ('undo:undo-button').
export function elementsById(text) {
  const table = {};
  for (const entry of text.trim().split(/\s+/)) {
    const [name, id] = entry.includes(':') ? entry.split(':') : [camelCase(entry), entry];
    table[name] = $(id);
  }
  return table;
}

const camelCase = (id) => id.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
