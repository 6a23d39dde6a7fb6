/**
 * The command line: --export-zulip on a running server's data (it keeps
 * serving), --import-zulip into an empty data directory, --set-password,
 * and their refusals, each exiting with its status.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSession } from '../cli/process.js';
import { basicAuth } from '../helpers/server.js';

const cli = cliSession();
const run = async (args: string[], env: Record<string, string> = {}) => {
  const child = cli.start(args, env);
  const { code } = await child.exited;
  return { code, stdout: child.stdout, stderr: child.stderr };
};

describe('moving an organization from the command line', () => {
  const source = cli.dataDir();
  const target = path.join(cli.dataDir(), 'imported');
  const out = path.join(cli.dataDir(), 'team.tar.gz');

  it('exports a running server’s organization, which keeps serving', {
    timeout: 60_000,
  }, async () => {
    const server = cli.start(['--data-dir', source, '--port', '0']);
    const url = await server.listening();
    const { code, stdout, stderr } = await run(['--data-dir', source, '--export-zulip', out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/Wrote the Zulip 12\.x export to .*team\.tar\.gz/);
    expect(existsSync(out)).toBe(true);
    expect((await fetch(`${url}/api/v1/server_settings`)).status).toBe(200);
    await server.stop();
  });

  it('imports it into an empty data directory and names the owner', {
    timeout: 60_000,
  }, async () => {
    const { code, stdout, stderr } = await run(['--data-dir', target, '--import-zulip', out]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/Imported \d+ users, \d+ channels and \d+ messages/);
    expect(stdout).toMatch(/Owner account: owner@hearth\.local/);
    expect(stdout).toMatch(/--set-password owner@hearth\.local/);
  });

  it('sets a password from HEARTH_PASSWORD, and it logs in', { timeout: 60_000 }, async () => {
    const refused = await run(['--data-dir', target, '--set-password', 'owner@hearth.local']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HEARTH_PASSWORD/);
    const { code, stdout, stderr } = await run(
      ['--data-dir', target, '--set-password', 'owner@hearth.local'],
      {
        HEARTH_PASSWORD: 'a long enough password',
      },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/Set the password of owner@hearth\.local/);
    const server = cli.start(['--data-dir', target, '--port', '0']);
    const url = await server.listening();
    const res = await fetch(`${url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        username: 'owner@hearth.local',
        password: 'a long enough password',
      }),
    });
    expect(res.status).toBe(200);
    const { api_key } = (await res.json()) as { api_key: string };
    const me = await fetch(`${url}/api/v1/users/me`, {
      headers: { authorization: basicAuth('owner@hearth.local', api_key) },
    });
    expect(me.status).toBe(200);
    await server.stop();
  });

  it('refuses to export into a folder that is not empty', async () => {
    const busy = cli.dataDir();
    writeFileSync(path.join(busy, 'keep'), 'x');
    const { code, stderr } = await run(['--data-dir', source, '--export-zulip', busy]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/is not empty/);
  });

  it('refuses to import into a data directory that has an organization', async () => {
    const { code, stderr } = await run(['--data-dir', source, '--import-zulip', out]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/already has an organization/);
  });

  it('refuses two of these at once', async () => {
    mkdirSync(path.join(source, 'x'), { recursive: true });
    const { code, stderr } = await run([
      '--data-dir',
      source,
      '--import-zulip',
      out,
      '--export-zulip',
      path.join(source, 'x'),
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /one of --export-zulip, --import-zulip, --set-password and --settle-zulip/,
    );
  });
});
