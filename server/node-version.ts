/**
 * Stops at once, with a sentence, on a Node.js older than Hearth supports,
 * before anything native loads: better-sqlite3's addon crashes the process
 * (a segmentation fault, no message) on Node 20. Imported first by every
 * entry point, so that it runs first. package.json's `engines` says the same.
 */

export const OLDEST_NODE = { major: 22, minor: 12 } as const;

/** Why this Node.js cannot run Hearth, or null when it can. */
export function unsupportedNode(version: string): string | null {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const old =
    major < OLDEST_NODE.major || (major === OLDEST_NODE.major && minor < OLDEST_NODE.minor);
  return old
    ? `Hearth needs Node.js ${OLDEST_NODE.major}.${OLDEST_NODE.minor} or newer ` +
        `(24 LTS recommended); this is Node.js ${version.replace(/^v/, '')}.`
    : null;
}

const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
