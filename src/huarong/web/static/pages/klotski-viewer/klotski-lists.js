// The lists of layouts to pick from: the named classics and, with the database, every
// standard layout by minimum steps.

import { ApiError, api } from '../../lib/api.js';
import { loadLayout, refresh, revealBoard } from './klotski-game.js';
import { miniBoard } from '../../components/miniboard.js';
import { classicNames, state, ui } from './klotski-page.js';

const LEVELS_PER_PAGE = 10;

function layoutButton(code, steps, zh, en) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'classic';
  button.dataset.code = code;
  const names = document.createElement('span');
  names.className = 'names';
  names.innerHTML = '<span class="zh"></span><span class="en"></span>';
  names.querySelector('.zh').textContent = zh;
  names.querySelector('.en').textContent = en;
  const count = document.createElement('span');
  count.className = 'steps';
  count.textContent = steps === null ? '—' : `${steps}`;
  count.title = 'minimum steps';
  const tick = document.createElement('span');
  tick.className = 'tick';
  tick.textContent = '✓';
  tick.title = 'solved';
  button.setAttribute('aria-label', `${zh} ${en}, ${steps === null ? 'no solution'
    : `${steps} steps`}`);
  button.append(miniBoard(code), names, count, tick);
  button.addEventListener('click', async () => {
    ui.codeInput.value = code;
    if (await loadLayout(code)) revealBoard();
  });
  const item = document.createElement('li');
  item.append(button);
  return item;
}

export async function loadClassics() {
  const classics = await api('/api/classics', {});
  for (const classic of classics) {
    classicNames.set(classic.code, classic);
    ui.classics.append(layoutButton(classic.code, classic.min_steps, classic.name,
      classic.name_en ?? ''));
  }
  if (!state.editing) refresh();
}

export async function showLevels(params) {
  let page;
  try {
    page = await api('/api/levels', { limit: LEVELS_PER_PAGE, ...params });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ui.levelsNote.textContent = 'Only the classics for now: build the database with '
      + '“huarong db build” (about a minute), then reload this page to browse all 121,285 '
      + 'standard layouts by difficulty.';
    return;
  }
  state.levelsOffset = page.offset;
  ui.levelsNote.textContent = `All ${page.total.toLocaleString('en')} standard layouts worth `
    + 'playing (one of each mirror pair), easiest first.';
  ui.levelsForm.hidden = false;
  ui.levelsPager.hidden = false;
  ui.levels.replaceChildren(...page.levels.map((level, index) => layoutButton(level.code,
    level.min_steps, `#${(page.offset + index + 1).toLocaleString('en')}`, level.code)));
  const last = page.offset + page.levels.length;
  ui.levelsRange.textContent = `${(page.offset + 1).toLocaleString('en')}–`
    + `${last.toLocaleString('en')}`;
  ui.levelsPrev.disabled = page.offset === 0;
  ui.levelsNext.disabled = last >= page.total;
  if (!state.editing) refresh();
}

export function wireLevels() {
  ui.levelsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    showLevels({ min_steps: Number(ui.levelsSteps.value) || 1 });
  });
  ui.levelsPrev.addEventListener('click', () => {
    showLevels({ offset: Math.max(0, state.levelsOffset - LEVELS_PER_PAGE) });
  });
  ui.levelsNext.addEventListener('click', () => {
    showLevels({ offset: state.levelsOffset + LEVELS_PER_PAGE });
  });
}
