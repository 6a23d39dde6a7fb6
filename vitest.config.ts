import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest 5 clears every mock's calls before each test; the desktop tests
    // assert calls made while a file's beforeAll started the app.
    clearMocks: false,
    // Vitest's default is one worker fewer than the cores: a single worker on
    // a 2-core machine. Many files mostly wait (child processes, long-polls,
    // timeouts), so two workers nearly halve the suite there; every test runs
    // on its own ephemeral port and temporary data directory.
    maxWorkers: 2,
  },
});
