import type { Route } from '../../server/http/route.js';

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** What is wrong with this answer to a fuzzed request, if anything. */
export function problemWith(
  route: Pick<Route, 'atRoot'>,
  answer: Answer,
  changed: boolean,
): string | null {
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  const isJson = answer.contentType.startsWith('application/json');
  if (answer.status >= 300 && answer.status < 400) return null; // file routes redirect
  if (answer.status >= 400) {
    if (changed) return `rejected (${answer.status}) but changed stored data`;
    if (!isJson) {
      return route.atRoot ? null : `non-JSON ${answer.status}: ${answer.text.slice(0, 200)}`;
    }
    let body: { result?: unknown; code?: unknown; msg?: unknown };
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `invalid JSON ${answer.status}: ${answer.text.slice(0, 200)}`;
    }
    if (body.result !== 'error' || typeof body.code !== 'string' || typeof body.msg !== 'string') {
      return `error without the envelope: ${answer.text.slice(0, 200)}`;
    }
    return null;
  }
  if (!route.atRoot && !isJson) return `non-JSON ${answer.status}`;
  return null;
}
