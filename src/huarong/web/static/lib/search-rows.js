// A search result file's row as the puzzles viewer plays it: its start, its own goal and
// distinct piece (a preset's rows each hold their own) or the file's, the file's metric and
// rules; and where the row stands in its file, so the viewer's ladder can step to the rows
// beside it (the file is hardest first: the row before is harder).

export function rowQuery(puzzle, item) {
  const distinct = item.distinct ?? puzzle.pieces.filter((piece) => piece.distinct)
    .map((piece) => piece.letters).join('');
  const query = new URLSearchParams({ start: item.start });
  const goal = item.goal ?? puzzle.goal;
  if (goal) query.set('goal', goal);
  query.set('metric', puzzle.metric);
  query.set('rules', puzzle.rules);
  if (distinct) query.set('distinct', distinct);
  return query;
}

// The viewer's address of a row: the puzzle, then ``search``, ``row`` (its index in the
// file, after the ``min_length`` filter if one is given) and ``min_length``.
export function rowAddress(puzzle, item, name, index, minLength) {
  const query = rowQuery(puzzle, item);
  query.set('search', name);
  query.set('row', String(index));
  if (minLength !== null && minLength !== undefined) query.set('min_length', String(minLength));
  return `/puzzles#${query}`;
}

// The rows beside row ``index`` of a served file: {harder, easier} addresses (null at an end).
export async function rowsBeside(api, name, index, minLength) {
  const offset = Math.max(0, index - 1);
  const query = { offset, limit: 3 };
  if (minLength !== null && minLength !== undefined) query.min_length = minLength;
  const answer = await api(`/api/puzzles/searches/${encodeURIComponent(name)}`, query);
  const at = (position) => {
    const item = answer.rows[position - offset];
    return item && position >= 0 ? {
      href: rowAddress(answer.puzzle, item, name, position, minLength),
      length: item.length, start: item.start,
    } : null;
  };
  return { harder: index > 0 ? at(index - 1) : null, easier: at(index + 1) };
}
