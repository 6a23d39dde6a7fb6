import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { seedDemo } from './demo/seed.js';
import type { RunningServer } from './index.js';
import { createOrganization, organizationExists, primaryOwner } from './realm/index.js';
import { generatePassword } from './shared/credentials.js';

export const OWNER_EMAIL = 'owner@hearth.local';

export interface BootstrapResult {
  /** True when this call created the organization (first start). */
  created: boolean;
  ownerEmail: string;
  /** Only on first start: the owner's generated password is never stored in clear. */
  password?: string;
  apiKey: string;
  /** The owner's zuliprc, or null when it has been removed since the first start. */
  zuliprcPath: string | null;
}

/** The INI file Zulip clients read (`zulip.Client(config_file=...)`, zulip-js, zulip-terminal). */
export function zuliprcText(email: string, apiKey: string, site: string): string {
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n`;
}

/**
 * First start, shared by the CLI and the desktop shell: creates the
 * organization and its owner (plus the demo content when asked) and writes the
 * owner's zuliprc into the data directory. Later starts only report what exists.
 */
export async function ensureOrganization(
  server: RunningServer,
  options: { demo: boolean },
): Promise<BootstrapResult> {
  const { ctx, zuliprcPath } = server;
  if (organizationExists(ctx)) {
    const owner = primaryOwner(ctx);
    return {
      created: false,
      ownerEmail: owner.delivery_email,
      apiKey: owner.api_key,
      zuliprcPath: existsSync(zuliprcPath) ? zuliprcPath : null,
    };
  }
  const password = generatePassword();
  const owner = await createOrganization(ctx, {
    name: options.demo ? 'Hearth Demo' : 'Hearth',
    emailDomain: 'hearth.local',
    ownerEmail: OWNER_EMAIL,
    ownerName: 'Owner',
    ownerPassword: password,
  });
  if (options.demo) await seedDemo(ctx, owner.user_id);
  // A zuliprc left by an earlier organization would keep its mode when rewritten.
  if (existsSync(zuliprcPath)) chmodSync(zuliprcPath, 0o600);
  writeFileSync(zuliprcPath, zuliprcText(OWNER_EMAIL, owner.api_key, server.url), { mode: 0o600 });
  return { created: true, ownerEmail: OWNER_EMAIL, password, apiKey: owner.api_key, zuliprcPath };
}
