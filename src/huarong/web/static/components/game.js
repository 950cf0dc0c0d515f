// The one game controller of both viewers, after lichess's chessground: one factory,
// createGame(element, config), returns the game's API; all its state is one object; the board
// transitions are pure (game-history.js) and kept apart from the drag (game-drag.js), the
// animation and drawing (piece-board.js) and the events. A page talks to it only through its
// configuration and the callbacks it names.
//
// config:
//   adapter        the positions it plays (game-klotski.js: Klotski codes; game-grid.js: grid
//                  text): draw, landings, keyLanding, continues, recordOf, hintedPiece
//   answers        the answer cache of next moves (lib/answers.js), or none (no verdicts)
//   solve(p)       resolves to {solvable, path: [positions], moves: [server moves]}
//   stepMs()       a playback step's length; slideShare: the part of it a piece slides
//   handMs()       how long a move by key or by a marked target slides
//   extendStep     a hand move of the piece the last move moved carries that move on
//   allowed()      whether a person may move now (the page's editor is closed, say)
//   ignore         a selector of presses on the board left to the page
//   on: {change(game), moved({by, from, to, verdict}), hint({rung, answer, best}),
//        blocked(el, direction), solved(result), error(error)}
//
// The API: state (read only), board, record, position(), start(position), move(to, ...),
// undo(), redo(), restart(), hint(), solve(), togglePlay(), pause(), stepSolution(±1),
// solutionStep(), hintsUsed(), canUndo(), canRedo(), show() (draws the position again),
// enqueue(task) and busy().

import {
  advanced, canRedo, canUndo, current, extended, shownAt, solutionStep, startAt,
} from './game-history.js';
import { bindDrag } from './game-drag.js';
import { createLadder } from './hint-ladder.js';
import { createBoard } from './piece-board.js';
import { createRecord } from './play-record.js';

const ARROWS = {
  ArrowUp: [-1, 0, 'up'], ArrowDown: [1, 0, 'down'], ArrowLeft: [0, -1, 'left'],
  ArrowRight: [0, 1, 'right'],
};

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

export function createGame(element, config) {
  const {
    adapter, answers = null, on = {}, stepMs = () => 450, slideShare = 0.7, handMs = () => 0,
    extendStep = false, allowed = () => true,
  } = config;
  const board = createBoard(element);
  const hints = createLadder();
  const record = createRecord();
  const state = {
    history: startAt(null),
    solution: null, // {path, moves, base}: the solution being played, while the board is on it
    playing: false,
    solving: false,
    verdict: null, // the last move's, once known
    queued: 0,
  };
  let queue = Promise.resolve();
  const position = () => current(state.history);
  const emit = (name, ...args) => on[name]?.(...args);
  const step = () => solutionStep(state.history, state.solution);

  // Every change of the board runs through this queue, so slides never overlap.
  function enqueue(task) {
    state.queued += 1;
    queue = queue.then(task).catch((error) => emit('error', error))
      .finally(() => { state.queued -= 1; });
    return queue;
  }

  function changed() {
    if (state.solution && step() < 0) {
      state.solution = null;
      state.playing = false;
    }
    emit('change', game);
  }

  // Draws the position shown, sliding from before; resolves once the slide is over.
  async function show(before = null, { duration = 0, move = null } = {}) {
    element.querySelectorAll('.hinted').forEach((el) => el.classList.remove('hinted'));
    adapter.draw(board, position(), { before, move, duration });
    changed();
    if (duration) {
      // the pieces' slides, not a page's endless glow round a solved board
      await Promise.all(element.getAnimations({ subtree: true })
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity
          && animation.effect?.target?.classList.contains('pb-piece'))
        .map((animation) => animation.finished.catch(() => {})));
    }
  }

  async function judged(from, to) {
    const answer = answers && from ? await answers.get(from).catch(() => null) : null;
    return answer?.moves.find((move) => move.to === to) ?? null;
  }

  // A move into the record, its verdict and the moves left after it filled in once known
  // (known: a solution's step, which needs no answer).
  function note(by, from, to, { known = null, move = null } = {}) {
    const event = record.note('move', {
      by, ...adapter.recordOf(from, to, move), from, to, verdict: null, moves_left: null, ...known,
    });
    if (!known) {
      judged(from, to).then((move) => {
        event.verdict = move?.verdict ?? null;
        event.moves_left = move?.minSteps ?? null;
      });
    }
  }

  async function tell(by, from, to) {
    const move = from ? await judged(from, to) : null;
    if (move && position() === to) {
      state.verdict = move.verdict ?? null;
      changed();
    }
    emit('moved', { by, from, to, verdict: move?.verdict ?? null });
  }

  // A move to a position one move from the one shown: by 'player', 'hint' or 'solution'.
  async function go(to, by, { duration = 0, move = null, known = null } = {}) {
    const before = position();
    const last = state.history.positions[state.history.at - 1];
    const carries = by === 'player' && extendStep && state.history.at > 0
      && adapter.continues(last, before, to);
    state.history = carries ? extended(state.history, to) : advanced(state.history, to);
    // a solution's step and a server's move say their verdict; else the answer will
    state.verdict = known?.verdict ?? move?.verdict ?? null;
    note(by, before, to, { known, move });
    await show(before, { duration, move });
    if (by !== 'solution') tell(by, before, to);
  }

  async function jump(at, kind) {
    const before = position();
    state.history = shownAt(state.history, at);
    state.verdict = null;
    record.note(kind, { to: position() });
    await show(before, { duration: stepMs() * slideShare });
    emit('moved', { by: kind, from: before, to: position(), verdict: null });
  }

  const idle = () => allowed() && !state.playing && state.queued === 0;

  // A move chosen by the page (a marked target, a listed move): to is a position one move
  // from the one shown; move, the server's move, draws its way.
  function move(to, { by = 'player', duration = handMs(), move: served = null } = {}) {
    if (!allowed()) return queue;
    state.playing = false;
    return enqueue(() => go(to, by, { duration, move: served }));
  }

  function start(first) {
    state.history = startAt(first);
    state.solution = null;
    state.playing = false;
    state.verdict = null;
    hints.reset();
    show();
  }

  function undo() {
    state.playing = false;
    return enqueue(() => (canUndo(state.history) && allowed()
      ? jump(state.history.at - 1, 'undo') : null));
  }

  function redo() {
    state.playing = false;
    return enqueue(() => (canRedo(state.history) && allowed()
      ? jump(state.history.at + 1, 'redo') : null));
  }

  function restart() {
    state.playing = false;
    return enqueue(async () => {
      if (!allowed() || state.history.at === 0) return;
      state.history = shownAt(state.history, 0);
      state.verdict = null;
      record.note('restart', { to: position() });
      await show();
      emit('moved', { by: 'restart', from: null, to: position(), verdict: null });
    });
  }

  // Graded (hint-ladder.js): how far, then which piece (outlined on the board), then the move.
  function hint() {
    state.playing = false;
    return enqueue(async () => {
      if (!allowed() || !answers) return;
      const at = position();
      const rung = hints.climb(`${state.history.at}:${at}`);
      record.note('hint', { rung, at });
      changed();
      const answer = await answers.get(at);
      if (position() !== at) return;
      const best = answer.best ?? null;
      if (rung === 'piece' && best && !answer.solved) {
        adapter.hintedPiece(board, at, best)?.classList.add('hinted');
      }
      emit('hint', { rung, answer, best });
      if (rung === 'move' && best && !answer.solved && answer.minSteps !== null) {
        await go(best.to, 'hint', { duration: stepMs() * slideShare, move: best.move });
      }
    });
  }

  // One step of the solution along its path (direction +1 or -1).
  async function stepBy(direction) {
    const at = step();
    if (at < 0) return;
    const target = at + direction;
    const { path, moves } = state.solution;
    if (target < 0 || target >= path.length) return;
    if (direction < 0) {
      await jump(state.history.at - 1, 'step-back');
      return;
    }
    await go(path[target], 'solution', {
      duration: stepMs() * slideShare, move: moves[target - 1] ?? null,
      known: { verdict: 'better', moves_left: path.length - 1 - target },
    });
  }

  async function playLoop() {
    if (step() < 0) return;
    const last = state.solution.path.length - 1;
    if (step() === last) {
      state.history = shownAt(state.history, state.solution.base);
      await show();
      await sleep(stepMs());
    }
    state.playing = true;
    changed();
    while (state.playing && step() >= 0 && step() < last) {
      await stepBy(1);
      if (state.playing && step() < last) await sleep(stepMs() * (1 - slideShare));
    }
    state.playing = false;
    changed();
  }

  function togglePlay() {
    if (!state.solution) return;
    if (state.playing) pause();
    else enqueue(playLoop);
  }

  function pause() {
    state.playing = false;
    changed();
  }

  // One request for the whole solution, then played; a second call while it is on its way
  // does nothing, and a call with the solution known plays it.
  async function solve() {
    if (!allowed() || state.solving || !position()) return;
    if (state.solution) {
      if (!state.playing) togglePlay();
      return;
    }
    state.playing = false;
    state.solving = true;
    const from = position();
    let result;
    try {
      result = await config.solve(from);
    } finally {
      state.solving = false;
    }
    await enqueue(async () => {
      if (position() !== from || !allowed()) return;
      emit('solved', result);
      if (!result.solvable) return;
      state.solution = { path: result.path, moves: result.moves ?? [], base: state.history.at };
      changed();
      if (result.path.length > 1) await playLoop();
    });
  }

  function stepSolution(direction) {
    state.playing = false;
    enqueue(() => stepBy(direction));
  }

  // An arrow key on a focused piece moves it a cell that way (or the nearest move that way).
  element.addEventListener('keydown', (event) => {
    const piece = event.target.closest?.('.pb-piece');
    const arrow = ARROWS[event.key];
    if (!piece || !arrow || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (!allowed()) return;
    state.playing = false;
    enqueue(async () => {
      const [dr, dc, word] = arrow;
      const landing = await adapter.keyLanding(position(), piece, [dr, dc], answers);
      if (landing) await go(landing.to, 'player', { duration: handMs(), move: landing.move });
      else emit('blocked', piece, word);
    });
  });

  bindDrag(board, {
    landings: (el) => adapter.landings(position(), el, answers),
    land: (landing) => {
      state.playing = false;
      enqueue(() => go(landing.to, 'player', { move: landing.move }));
    },
    allowed: idle,
    ignore: config.ignore,
  });

  const game = {
    state,
    board,
    record,
    position,
    start,
    move,
    undo,
    redo,
    restart,
    hint,
    solve,
    togglePlay,
    pause,
    stepSolution,
    enqueue,
    solutionStep: step,
    hintsUsed: () => hints.used,
    busy: () => state.queued > 0,
    canUndo: () => canUndo(state.history),
    canRedo: () => canRedo(state.history),
    show,
  };
  return game;
}
