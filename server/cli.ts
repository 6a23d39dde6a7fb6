// First: on too old a Node.js, say so before anything native loads.
import './node-version.js';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkJwtKey, setJwtKey } from './auth/index.js';
import { ensureOrganization } from './bootstrap.js';
import { ApiError } from './core/errors.js';
import { defaultDataDir } from './data-dir.js';
import { DatabaseTooNewError } from './db/migrate.js';
import { parseTrustedProxies } from './http/client-address.js';
import { consoleLogger, createServer, type RunningServer } from './index.js';
import { deactivateOrganization } from './realm/index.js';
import { isLoopbackHost, isWildcardHost, normalizeExternalUrl } from './shared/network.js';

export { zuliprcText } from './bootstrap.js';

export interface CliOptions {
  dataDir: string;
  port: number;
  host: string;
  /** The URL clients use when it is not http://HOST:PORT (a proxy, a name). */
  externalUrl?: string;
  demo: boolean;
  rateLimit: boolean;
  /** Reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges). */
  trustedProxies: string[];
  /** Deactivate the organization and exit instead of serving. */
  deactivateOrganization: boolean;
  /**
   * The organization's JWT key to store at start (POST /jwt/fetch_api_key);
   * null removes it; undefined leaves the stored one as it is.
   */
  jwtKey?: string | null;
}

const truthy = (value: string | undefined) =>
  value !== undefined && !['0', 'false', 'no', ''].includes(value.toLowerCase());

/** Flags win over environment variables, which win over defaults. */
export function parseCliOptions(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'external-url': { type: 'string' },
      demo: { type: 'boolean' },
      'no-rate-limit': { type: 'boolean' },
      'trusted-proxy': { type: 'string', multiple: true },
      'deactivate-organization': { type: 'boolean' },
      'set-jwt-key': { type: 'string' },
      'clear-jwt-key': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(`Usage: npm start -- [options]

  --data-dir DIR     where the database and zuliprc live (HEARTH_DATA_DIR; default ${defaultDataDir()})
  --port N           TCP port, 0 picks a free one (HEARTH_PORT; default 9991)
  --host H           address to listen on (HEARTH_HOST; default 127.0.0.1); 0.0.0.0 or ::
                     serves the LAN, whose clients are told this machine's LAN address
  --external-url URL the URL clients use, when not http://HOST:PORT, e.g. behind a proxy:
                     realm_url, the zuliprc's site and the banner (HEARTH_EXTERNAL_URL)
  --demo             seed a demo organization and enable the dev login endpoints (HEARTH_DEMO=1)
  --no-rate-limit    turn rate limiting off, e.g. for benchmarks (HEARTH_RATE_LIMIT=0)
  --trusted-proxy ADDR[,ADDR]
                     reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names
                     the client, for per-address limits (HEARTH_TRUSTED_PROXIES)
  --deactivate-organization
                     deactivate the organization (every API request then fails) and exit
  --set-jwt-key KEY  store the organization's JWT key (HS256, at least 32 bytes), enabling
                     POST /api/v1/jwt/fetch_api_key (HEARTH_JWT_KEY)
  --clear-jwt-key    remove the stored JWT key, disabling JWT login (HEARTH_CLEAR_JWT_KEY=1)`);
    process.exit(0);
  }
  const portText = values.port ?? env.HEARTH_PORT ?? '9991';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`invalid port: ${portText}`);
  const externalUrl = values['external-url'] ?? env.HEARTH_EXTERNAL_URL;
  return {
    ...(externalUrl ? { externalUrl: normalizeExternalUrl(externalUrl) } : {}),
    jwtKey: jwtKeyOption(values['set-jwt-key'], values['clear-jwt-key'], env),
    dataDir: path.resolve(values['data-dir'] ?? env.HEARTH_DATA_DIR ?? defaultDataDir()),
    port,
    host: values.host ?? env.HEARTH_HOST ?? '127.0.0.1',
    demo: values.demo ?? truthy(env.HEARTH_DEMO),
    rateLimit: values['no-rate-limit']
      ? false
      : env.HEARTH_RATE_LIMIT === undefined || truthy(env.HEARTH_RATE_LIMIT),
    trustedProxies: parseTrustedProxies(
      (values['trusted-proxy'] ?? [env.HEARTH_TRUSTED_PROXIES ?? '']).join(','),
    ),
    deactivateOrganization: values['deactivate-organization'] ?? false,
  };
}

/** --set-jwt-key / --clear-jwt-key, or their variables; a bad key stops the start. */
function jwtKeyOption(
  flagKey: string | undefined,
  flagClear: boolean | undefined,
  env: NodeJS.ProcessEnv,
): string | null | undefined {
  const key = flagKey ?? (flagClear ? undefined : env.HEARTH_JWT_KEY);
  const clear = flagClear ?? (flagKey === undefined && truthy(env.HEARTH_CLEAR_JWT_KEY));
  if (key !== undefined && clear) {
    throw new Error('give either a JWT key to set or --clear-jwt-key, not both');
  }
  if (clear) return null;
  if (key === undefined) return undefined;
  try {
    return checkJwtKey(key);
  } catch (err) {
    throw new Error(err instanceof ApiError ? `invalid JWT key: ${err.message}` : String(err));
  }
}

export async function main(
  argv = process.argv.slice(2),
  env = process.env,
): Promise<RunningServer> {
  const options = parseCliOptions(argv, env);
  // Per launch: whoever can read this process's output may administer the organization.
  const adminToken = randomBytes(32).toString('base64url');
  const server = await createServer({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    externalUrl: options.externalUrl,
    demo: options.demo,
    rateLimit: options.rateLimit,
    trustedProxies: options.trustedProxies,
    log: consoleLogger,
    adminToken,
  });

  const boot = await ensureOrganization(server, { demo: options.demo });
  if (options.deactivateOrganization) {
    const changed = deactivateOrganization(server.ctx);
    console.log(
      changed
        ? 'Deactivated the organization: every API request now fails with REALM_DEACTIVATED.'
        : 'The organization was already deactivated.',
    );
    await server.close();
    return server;
  }
  if (boot.created) {
    console.log('Created a new organization.');
    console.log(`  URL:      ${server.url}`);
    console.log(`  Owner:    ${boot.ownerEmail}`);
    console.log(`  Password: ${boot.password}`);
    console.log(`  API key:  ${boot.apiKey}`);
    console.log(`  zuliprc:  ${boot.zuliprcPath}`);
  } else if (boot.zuliprcPath) {
    console.log(`Using the existing organization; owner credentials are in ${boot.zuliprcPath}`);
    if (boot.zuliprcUpdated) console.log(`  (its site is now ${server.url})`);
  }
  if (options.jwtKey !== undefined) {
    const { jwt_enabled } = setJwtKey(server.ctx, null, options.jwtKey);
    console.log(
      jwt_enabled
        ? 'JWT login enabled: POST /api/v1/jwt/fetch_api_key accepts tokens signed with the key given.'
        : 'JWT login disabled: the JWT key was removed.',
    );
  }
  if (!isLoopbackHost(options.host)) {
    console.warn(
      `WARNING: listening on ${options.host} (LAN mode). Hearth speaks plain HTTP: API keys and passwords cross the network in clear text.`,
    );
  }
  if (options.demo) {
    console.log(
      'Demo mode: GET /api/v1/dev_list_users and POST /api/v1/dev_fetch_api_key are enabled.',
    );
    if (boot.demoPassword) {
      console.log(
        `Demo password (every demo account, e.g. iago@hearth.local): ${boot.demoPassword}`,
      );
    }
  }
  // The admin UI is for this machine: its token must not cross the LAN.
  console.log(`Admin UI: ${server.localUrl}/admin/#token=${adminToken}`);
  if (server.localUrl !== server.url) console.log(`On this machine: ${server.localUrl}`);
  if (isWildcardHost(options.host) && !options.externalUrl) {
    console.log(
      `Clients on the LAN use ${server.url} (the first LAN address; --external-url picks another).`,
    );
  }
  console.log(`Hearth listening on ${server.url}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return server;
}

/**
 * `npm start` execs the server, so npm forwards SIGTERM and SIGINT straight
 * to it; but an npm killed outright (SIGKILL, a crash), or a script shell
 * that does not exec, would leave it running and listening with nobody to
 * stop it. Under npm the server therefore stops itself (cleanly, as on
 * SIGTERM) once the process that started it is gone.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 200);
  timer.unref();
}

const invokedDirectly =
  process.argv[1] &&
  path.resolve(process.argv[1]).replace(/\.[jt]s$/, '') ===
    fileURLToPath(import.meta.url).replace(/\.[jt]s$/, '');
if (invokedDirectly) {
  if (process.env.npm_lifecycle_event !== undefined) stopWhenOrphaned();
  main().catch((err: unknown) => {
    if (err instanceof DatabaseTooNewError) console.error(err.message);
    else console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
