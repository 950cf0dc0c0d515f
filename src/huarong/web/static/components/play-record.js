// A game's record, for teachers and studies: the puzzle, then every action with its time since
// the puzzle was loaded (moves with who made them, their verdict and the moves left after them,
// hints with their rung, undo, redo, restart), downloaded as JSON.

export function createRecord() {
  let began = performance.now();
  let about = {};
  let events = [];
  return {
    // A new game: ``puzzle`` says what is played (kept at the head of the record).
    start(puzzle) {
      began = performance.now();
      about = { ...puzzle, started_at: new Date().toISOString() };
      events = [];
    },
    // More about the game, learnt after it started (the fewest moves, say).
    learn(fields) {
      Object.assign(about, fields);
    },
    // The event, returned so figures the server answers later can be filled in.
    note(kind, details = {}) {
      const event = { ms: Math.round(performance.now() - began), kind, ...details };
      events.push(event);
      return event;
    },
    text() {
      return JSON.stringify({ record: 'huarong play record', version: 1, ...about, events },
        null, 2);
    },
    download(fileName) {
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([this.text()], { type: 'application/json' }));
      link.download = fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 0);
    },
  };
}
