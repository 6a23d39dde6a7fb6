/** `npm start` (the CLI) writes the same log file as the desktop app. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { cliSession } from '../cli/process.js';

const cli = cliSession();

it('the CLI logs its start and each request to DATA_DIR/logs/hearth.log', async () => {
  const dataDir = cli.dataDir();
  const child = cli.start(['--data-dir', dataDir, '--port', '0']);
  const url = await child.listening();
  const port = new URL(url).port;
  expect((await fetch(`${url}/api/v1/server_settings?api_key=secret-value`)).status).toBe(200);
  await child.stop();
  const log = readFileSync(path.join(dataDir, 'logs', 'hearth.log'), 'utf8');
  expect(log).toContain(`Hearth listening on 127.0.0.1 port ${port}`);
  expect(log).toContain('GET /api/v1/server_settings?api_key=[redacted] 200');
  expect(log).not.toContain('secret-value');
}, 60_000);
