// The client of the server's JSON API: one-line errors turned into sentences, and the answers
// of /api/next kept, so each layout is asked about once.

export class ApiError extends Error {
  constructor(message, status = null) {
    super(message);
    this.status = status; // the HTTP status, null when the server could not be reached
  }
}

// The server's one-line reasons, as a sentence: "parameter 'code': bad code 'X'" reads
// "Bad code 'X'."
function sentence(text) {
  const plain = text.replace(/^parameter '[^']*': /, '').trim();
  const capital = plain.charAt(0).toUpperCase() + plain.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export const pause = (seconds) => new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });

// A heavy answer not made yet comes back 202 "working" (the server goes on making it): asked
// again after the wait the server names; onWorking is told of each such answer.
export async function api(path, params, { onWorking } = {}) {
  for (;;) {
    let response;
    try {
      response = await fetch(`${path}?${new URLSearchParams(params)}`);
    } catch {
      throw new ApiError('The server cannot be reached: is huarong serve still running?');
    }
    const body = await response.json().catch(() => null);
    if (response.status === 202 && body?.status === 'working') {
      onWorking?.(body);
      await pause(body.retry_after ?? 1);
      continue;
    }
    if (!response.ok) {
      const reason = body?.error
        ?? `the server answered ${response.status} ${response.statusText}`;
      throw new ApiError(sentence(reason), response.status);
    }
    return body;
  }
}

const nextInfo = new Map(); // code -> promise of /api/next
export const knownSteps = new Map(); // code -> minimum steps, learnt from its parent's /api/next
// code -> the klotski engine's 5-character short code, from any answer that carries one
// (servers before short codes send none, and the viewer then shows none)
export const shortCodes = new Map();

export function learnShortCode(layout) {
  if (layout && typeof layout.short_code === 'string') {
    shortCodes.set(layout.code, layout.short_code);
  }
}

export function hintsFor(code) {
  if (!nextInfo.has(code)) {
    const request = api('/api/next', { code });
    request.then((next) => {
      learnShortCode(next);
      for (const child of next.children) {
        knownSteps.set(child.code, child.min_steps);
        learnShortCode(child);
      }
    }, () => nextInfo.delete(code));
    nextInfo.set(code, request);
  }
  return nextInfo.get(code);
}
