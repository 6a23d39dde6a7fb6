/**
 * Builds what the suite runs once, before any test file: the browser tests
 * serve renderer/dist and the `npm start` tests run dist/. Test files running
 * side by side would otherwise each find the build stale and rebuild the same
 * folders at the same moment.
 */
import { ensureBuilt } from '../scripts/build.js';

export default async function buildOnce(): Promise<void> {
  await ensureBuilt();
}
