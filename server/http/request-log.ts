import type { FastifyInstance } from 'fastify';
import { loggablePath, type RequestLogEntry } from '../core/log.js';
import { leanEventsOf } from './app.js';

/**
 * Logs each answered request: method, path (credentials in the query string
 * redacted), status and duration. Headers and bodies are never logged: they
 * carry API keys and passwords.
 */
export function logRequests(app: FastifyInstance, write: (entry: RequestLogEntry) => void): void {
  app.addHook('onResponse', (request, reply, done) => {
    write({
      method: request.method,
      path: loggablePath(request.raw.url ?? request.url),
      status: reply.statusCode,
      durationMs: reply.elapsedTime,
    });
    done();
  });
  // Long-polls answered on the lean path never reach the hook.
  leanEventsOf(app)?.logTo(write);
}
