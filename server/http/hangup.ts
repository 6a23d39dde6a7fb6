import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientHangup, HangupListener } from '../events/hub.js';

/**
 * A request's connection as a long-poll sees it: gone when it closes before
 * the answer has been written. Plain listeners on the request and response,
 * added only by a poll that waits: an AbortController per request cost more
 * than the rest of answering a poll.
 */
export class ConnectionHangup implements ClientHangup {
  private listener: HangupListener | null = null;

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
  ) {}

  private readonly unlessAnswered = (): void => {
    if (!this.response.writableFinished) this.listener?.hungUp();
  };

  listen(listener: HangupListener): void {
    const { request, response } = this;
    this.listener = listener;
    if (request.destroyed || response.writableEnded) {
      this.unlessAnswered();
      return;
    }
    request.on('close', this.unlessAnswered);
    response.on('close', this.unlessAnswered);
  }

  stopListening(): void {
    this.listener = null;
    this.request.removeListener('close', this.unlessAnswered);
    this.response.removeListener('close', this.unlessAnswered);
  }
}
