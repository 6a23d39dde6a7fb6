/**
 * A request refused while its body is still arriving (too large, too many
 * files, malformed) is answered only once the rest has been read and
 * dropped. A client writes its whole body before it reads the answer; if the
 * server closed the connection first, the client's next write would fail
 * (EPIPE, or a reset) and it would never see the JSON error. Node 24's fetch
 * fails that way on every such refusal.
 *
 * Reading is bounded: a body declared, or found, longer than
 * REFUSED_BODY_DRAIN_BYTES is not waited for, and the answer goes out at once
 * on a connection that then closes. Node's requestTimeout bounds the time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { REFUSED_BODY_DRAIN_BYTES } from '../shared/limits.js';

/**
 * Before any answer goes out on a request whose body was not read to its end
 * (refused before or while reading it, or a form whose read stopped at a
 * file too large): drains the rest within the bound, and if that was not
 * all, closes the connection after the answer. Otherwise Node would go on
 * reading, and dropping, an unbounded body to keep the connection alive.
 */
export async function settleUnreadBody(
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (request.complete) return;
  await drainRefusedBody(request);
  if (!request.complete && !response.headersSent) response.setHeader('Connection', 'close');
}

export function drainRefusedBody(
  request: IncomingMessage,
  limit = REFUSED_BODY_DRAIN_BYTES,
): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  const declared = Number(request.headers['content-length']);
  if (declared > limit) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', stop);
      request.off('close', stop);
      request.off('error', stop);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) stop();
    };
    request.on('data', onData);
    request.once('end', stop);
    request.once('close', stop);
    request.once('error', stop);
    request.resume();
  });
}
