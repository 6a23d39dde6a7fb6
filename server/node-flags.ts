/**
 * The V8 flags the server's process runs with, wherever it is launched:
 * `npm start` (package.json, which cannot import this, spells them out; a
 * test holds the two equal), the desktop's server process, and
 * bench/startup.ts.
 *
 * Loading the server's few hundred modules keeps most of what it allocates,
 * so V8 grows the young generation to its 16 MB semi-spaces during start-up
 * and keeps them committed while idle: about 10 MB of the idle RSS. A 2 MB
 * cap keeps it near 86 MB instead of ~97 MB; POST /register's CPU time (the
 * most allocation-heavy request) did not move beyond the noise with it.
 *
 * V8's four background threads each keep the malloc arena that start-up's
 * concurrent compilation (Node's module loader gets optimised) left in it:
 * two, this machine's cores, save another 2-4 MB (83-85 MB measured).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--v8-pool-size=2'];
