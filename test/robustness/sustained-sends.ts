/**
 * Clients sending direct messages as fast as they are answered, for the
 * durability tests: they record every send answered 200 (what the server
 * promised to keep) until stopped, typically by the server's death.
 */
import type { ApiClient } from '../helpers/server.js';

export interface Ack {
  id: number;
  content: string;
}

export function sustainedSends(client: ApiClient, to: number, senders: number) {
  const acked: Ack[] = [];
  let attempted = 0;
  let stopped = false;
  const loops = Array.from({ length: senders }, async (_, n) => {
    for (let i = 0; !stopped; i++) {
      const content = `durable ${n}-${i}`;
      attempted++;
      try {
        const res = await client.post(
          '/messages',
          { type: 'direct', to: [to], content },
          { skipSchema: true },
        );
        if (res.status === 200) acked.push({ id: res.body.id, content });
      } catch {
        // The connection died with the process: not acknowledged.
      }
    }
  });
  return {
    /** Sends answered 200, in the order the answers came. */
    acked,
    get attempted() {
      return attempted;
    },
    /** Resolves once `count` sends were answered (or the time is up). */
    async whenAcked(count: number, timeoutMs = 45_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (acked.length < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    /** Stops sending; resolves when every sender has had its last answer. */
    async stop(): Promise<void> {
      stopped = true;
      await Promise.all(loops);
    },
  };
}
