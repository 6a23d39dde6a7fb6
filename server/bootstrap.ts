import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from './core/context.js';
import { DEMO_PASSWORD, refreshDemo, seedDemo } from './demo/seed.js';
import type { RunningServer } from './index.js';
import { setUpFirstRun } from './onboarding/index.js';
import {
  createOrganization,
  type OrganizationSetup,
  organizationExists,
  primaryOwner,
  setUpOrganization,
} from './realm/index.js';
import { generatePassword } from './shared/credentials.js';
import { CA_CERT_FILE, tlsFolder, tlsOf } from './tls/index.js';

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
  /** True when this start rewrote an existing zuliprc for a new URL. */
  zuliprcUpdated: boolean;
  /** In demo mode, when the demo people exist: the password they all log in with. */
  demoPassword?: string;
}

/**
 * The INI file Zulip clients read (`zulip.Client(config_file=...)`, zulip-js,
 * zulip-terminal). `certBundle`: the authority to trust for an https site
 * (the bindings' `cert_bundle`), for the owner's zuliprc on this machine.
 */
export function zuliprcText(
  email: string,
  apiKey: string,
  site: string,
  certBundle?: string,
): string {
  const bundle = certBundle ? `cert_bundle=${certBundle}\n` : '';
  return `[api]\nemail=${email}\nkey=${apiKey}\nsite=${site}\n${bundle}`;
}

/** Sets `key=value` in the [api] section's lines; false when it already said so. */
function setApiValue(lines: string[], key: string, value: string): boolean {
  const keyLine = new RegExp(`^\\s*${key}\\s*=`);
  const at = lines.findIndex((line) => keyLine.test(line));
  if (at >= 0) {
    if (lines[at]!.slice(lines[at]!.indexOf('=') + 1).trim() === value) return false;
    lines[at] = `${key}=${value}`;
    return true;
  }
  const api = lines.findIndex((line) => line.trim() === '[api]');
  lines.splice(api + 1, 0, `${key}=${value}`);
  return true;
}

/**
 * A zuliprc's text with its `site=` set to `site` (and `cert_bundle=` to
 * `certBundle`, when given; every other line, the owner's credentials
 * included, kept as it is), or null when it already says so.
 */
export function zuliprcWithSite(text: string, site: string, certBundle?: string): string | null {
  const lines = text.split('\n');
  const siteChanged = setApiValue(lines, 'site', site);
  const bundleChanged = certBundle ? setApiValue(lines, 'cert_bundle', certBundle) : false;
  return siteChanged || bundleChanged ? lines.join('\n') : null;
}

/** The authority file the owner's zuliprc trusts, when the server has its own authority. */
function ownerCertBundle(ctx: AppContext): string | undefined {
  return tlsOf(ctx)?.authority ? path.join(tlsFolder(ctx.config.dataDir), CA_CERT_FILE) : undefined;
}

/** Owner-only before and after: a file made by hand may have been world-readable. */
function writeZuliprc(file: string, text: string): void {
  if (existsSync(file)) chmodSync(file, 0o600);
  writeFileSync(file, text, { mode: 0o600 });
}

/** The desktop's first start: nothing is created until the wizard completes. */
export interface SetupPending {
  created: false;
  needsSetup: true;
  zuliprcPath: null;
  zuliprcUpdated: false;
}

export interface BootstrapOptions {
  demo: boolean;
  /**
   * The desktop: with no organization yet, create none and leave it to the
   * first-run wizard (tRPC `setup.complete`), where the owner chooses their
   * own name, e-mail and password, so no generated password must be kept.
   */
  deferToWizard?: boolean;
}

/**
 * Every start, shared by the CLI and the desktop shell. First start creates
 * the organization and its owner (plus the demo content when asked) and
 * writes the owner's zuliprc into the data directory. Later starts point the
 * zuliprc at the server's current URL when it moved (another port, host or
 * --external-url), keeping its credentials. In demo mode every start gives
 * the demo people their password and recent presence.
 */
export async function ensureOrganization(
  server: RunningServer,
  options: BootstrapOptions & { deferToWizard: true },
): Promise<BootstrapResult | SetupPending>;
export async function ensureOrganization(
  server: RunningServer,
  options: BootstrapOptions,
): Promise<BootstrapResult>;
export async function ensureOrganization(
  server: RunningServer,
  options: BootstrapOptions,
): Promise<BootstrapResult | SetupPending> {
  const { ctx, zuliprcPath } = server;
  if (options.deferToWizard && !organizationExists(ctx)) {
    return { created: false, needsSetup: true, zuliprcPath: null, zuliprcUpdated: false };
  }
  if (organizationExists(ctx)) {
    const owner = primaryOwner(ctx);
    let zuliprcUpdated = false;
    if (existsSync(zuliprcPath)) {
      const updated = zuliprcWithSite(
        readFileSync(zuliprcPath, 'utf8'),
        server.url,
        ownerCertBundle(server.ctx),
      );
      if (updated !== null) {
        writeZuliprc(zuliprcPath, updated);
        zuliprcUpdated = true;
      }
    }
    const demoPeople = options.demo ? await refreshDemo(ctx) : 0;
    return {
      created: false,
      ownerEmail: owner.delivery_email,
      apiKey: owner.api_key,
      zuliprcPath: existsSync(zuliprcPath) ? zuliprcPath : null,
      zuliprcUpdated,
      ...(demoPeople > 0 ? { demoPassword: DEMO_PASSWORD } : {}),
    };
  }
  // The demo is a sandbox: its owner shares the demo people's printed password.
  const password = options.demo ? DEMO_PASSWORD : generatePassword();
  const owner = await createOrganization(ctx, {
    name: options.demo ? 'Hearth Demo' : 'Hearth',
    emailDomain: 'hearth.local',
    ownerEmail: OWNER_EMAIL,
    ownerName: 'Owner',
    ownerPassword: password,
  });
  if (options.demo) {
    await seedDemo(ctx, owner.user_id);
    await refreshDemo(ctx);
  } else {
    setUpFirstRun(ctx, owner.user_id);
  }
  // A zuliprc left by an earlier organization would keep its mode when rewritten.
  writeZuliprc(
    zuliprcPath,
    zuliprcText(OWNER_EMAIL, owner.api_key, server.url, ownerCertBundle(server.ctx)),
  );
  return {
    created: true,
    ownerEmail: OWNER_EMAIL,
    password,
    apiKey: owner.api_key,
    zuliprcPath,
    zuliprcUpdated: false,
    ...(options.demo ? { demoPassword: DEMO_PASSWORD } : {}),
  };
}

/**
 * The first-run wizard's end: the organization and owner as chosen, and the
 * owner's zuliprc in the data directory (its API key is the one secret the
 * server generated, so it is written down at once).
 */
export async function completeSetup(
  ctx: AppContext,
  zuliprcPath: string | null,
  input: OrganizationSetup,
): Promise<{ ownerEmail: string; zuliprcPath: string | null }> {
  const owner = await setUpOrganization(ctx, input);
  setUpFirstRun(ctx, owner.user_id);
  const email = input.email.trim();
  if (zuliprcPath)
    writeZuliprc(
      zuliprcPath,
      zuliprcText(email, owner.api_key, ctx.config.externalUrl, ownerCertBundle(ctx)),
    );
  return { ownerEmail: email, zuliprcPath };
}
