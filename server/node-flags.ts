/**
 * The V8 flags the server's process runs with, wherever it is launched:
 * `npm start` (package.json, which cannot import this, spells them out; a
 * test holds the two equal), the desktop's server process, and
 * bench/startup.ts.
 *
 * Loading the server's few hundred modules keeps most of what it allocates,
 * so V8 grows the young generation to its 16 MB semi-spaces during start-up
 * and keeps them committed while idle: about 10 MB of the idle RSS. A 4 MB
 * cap keeps most of that saving; 2 MB saved 3-4 MB more but raised POST
 * /register's p99 (the most allocation-heavy request) from 12-18 ms to
 * 24-29 ms, while with 4 MB it stayed within the noise.
 *
 * V8's four background threads each keep the malloc arena that start-up's
 * concurrent compilation (Node's module loader gets optimised) left in it:
 * two, this machine's cores, save another 2-4 MB. Together about 10 MB:
 * 93-96 MB idle in `npm run bench` (start-up), against 101-106 MB without.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--v8-pool-size=2'];
