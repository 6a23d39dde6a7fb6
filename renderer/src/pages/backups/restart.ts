import type { Api } from '../../api/client.js';

/** How long a restore's restart may take before the page gives up waiting. */
const RESTART_TIMEOUT_MS = 120_000;
const POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits for the server to come back after a restore: first for it to go away
 * (or a moment to pass), then for it to answer again. Calls failing meanwhile
 * are expected, not errors.
 */
export async function waitForRestart(api: Api): Promise<void> {
  const deadline = Date.now() + RESTART_TIMEOUT_MS;
  await sleep(POLL_MS * 2);
  while (Date.now() < deadline) {
    try {
      await api.setup.status.query();
      return;
    } catch {
      await sleep(POLL_MS);
    }
  }
  throw new Error('The server did not come back after the restore. Check its log.');
}
