// The client of the server's API: the one loop that waits out a 202 "working" answer, and
// one-line errors turned into sentences.

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

const UNREACHABLE = 'The server cannot be reached: is huarong serve still running?';

// A heavy answer not made yet comes back 202 "working" (the server goes on making it): asked
// again after the wait the server names; onWorking is told of each such answer. Resolves to
// the first other response, whatever its status.
export async function request(url, { onWorking } = {}) {
  for (;;) {
    let response;
    try {
      response = await fetch(url);
    } catch {
      throw new ApiError(UNREACHABLE);
    }
    if (response.status !== 202) return response;
    const body = await response.clone().json().catch(() => null);
    if (body?.status !== 'working') return response;
    onWorking?.(body);
    await pause(body.retry_after ?? 1);
  }
}

// The JSON answer of path with the query params (waiting out any 202), or an ApiError that
// says the server's reason as a sentence.
export async function api(path, params, options = {}) {
  const response = await request(`${path}?${new URLSearchParams(params)}`, options);
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const reason = body?.error ?? `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(sentence(reason), response.status);
  }
  return body;
}
