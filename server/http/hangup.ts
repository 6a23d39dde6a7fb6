import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientHangup } from '../events/hub.js';

const nothingToStop = () => {};

/**
 * A request's connection as a long-poll sees it: gone when it closes before
 * the answer has been written. Plain listeners on the request and response,
 * added only by a poll that waits: an AbortController per request cost more
 * than the rest of answering a poll.
 */
export class ConnectionHangup implements ClientHangup {
  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {}

  listen(gone: () => void): () => void {
    const { request, response } = this;
    const unlessAnswered = () => {
      if (!response.writableFinished) gone();
    };
    if (request.destroyed || response.writableEnded) {
      unlessAnswered();
      return nothingToStop;
    }
    request.on('close', unlessAnswered);
    response.on('close', unlessAnswered);
    return () => {
      request.removeListener('close', unlessAnswered);
      response.removeListener('close', unlessAnswered);
    };
  }
}
