// The one cache of next-move answers: each position is asked about once (an answer that
// failed is asked for again next time), and a viewer's adapter reads every answer the same
// way: {minSteps, solved, moves: [{to, verdict, minSteps, ...}], best, raw}.

// ask(position) resolves to the answer of that position.
export function createAnswers(ask) {
  const answers = new Map(); // position -> promise of its answer
  return {
    get(position) {
      if (!answers.has(position)) {
        const request = ask(position);
        request.catch(() => answers.delete(position));
        answers.set(position, request);
      }
      return answers.get(position);
    },
    // An answer known without asking (the first answer of a puzzle, say).
    put(position, answer) {
      answers.set(position, Promise.resolve(answer));
    },
    clear() {
      answers.clear();
    },
  };
}
