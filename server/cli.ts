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
import { deviceSetupUrl } from './hosting/index.js';
import { parseTrustedProxies } from './http/client-address.js';
import { PER_ADDRESS_LIMIT } from './http/connection-cap.js';
import { consoleLogger, createServer, type RunningServer } from './index.js';
import { type PortabilityCommand, runPortabilityCommand } from './portability-cli.js';
import { deactivateOrganization } from './realm/index.js';
import { isWildcardHost, normalizeExternalUrl } from './shared/network.js';
import { type OwnCertificateFiles, tlsOf } from './tls/index.js';

export { zuliprcText } from './bootstrap.js';

export interface CliOptions {
  dataDir: string;
  port: number;
  host: string;
  /** The URL clients use when it is not http://HOST:PORT (a proxy, a name). */
  externalUrl?: string;
  demo: boolean;
  rateLimit: boolean;
  /** --https: HTTPS on every address, loopback included (LAN mode has it anyway). */
  https: boolean;
  /** --tls-cert/--tls-key or --tls-pfx: the team's own certificate. */
  tlsCertificate?: OwnCertificateFiles;
  /** Connections one address (not this machine) may hold open; undefined: the default. */
  maxConnectionsPerAddress?: number;
  /** Reverse proxies whose X-Forwarded-For names the client (addresses or CIDR ranges). */
  trustedProxies: string[];
  /** Deactivate the organization and exit instead of serving. */
  deactivateOrganization: boolean;
  /**
   * The organization's JWT key to store at start (POST /jwt/fetch_api_key);
   * null removes it; undefined leaves the stored one as it is.
   */
  jwtKey?: string | null;
  /** --export-zulip, --import-zulip or --set-password: do that and exit (portability-cli.ts). */
  portability?: PortabilityCommand;
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
      https: { type: 'boolean' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'tls-pfx': { type: 'string' },
      demo: { type: 'boolean' },
      'no-rate-limit': { type: 'boolean' },
      'max-connections-per-address': { type: 'string' },
      'trusted-proxy': { type: 'string', multiple: true },
      'deactivate-organization': { type: 'boolean' },
      'set-jwt-key': { type: 'string' },
      'clear-jwt-key': { type: 'boolean' },
      'export-zulip': { type: 'string' },
      'import-zulip': { type: 'string' },
      'set-password': { type: 'string' },
      'settle-zulip': { type: 'string' },
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
  --https            serve HTTPS on every address listened on, loopback included (HEARTH_HTTPS=1);
                     LAN mode serves HTTPS on the LAN anyway, with a certificate from the
                     installation's own certificate authority (<data dir>/tls/ca.crt)
  --tls-cert FILE    the team's own certificate (PEM, its chain may follow) instead
  --tls-key FILE     and its key (PEM) (HEARTH_TLS_CERT, HEARTH_TLS_KEY)
  --tls-pfx FILE     or both in one PKCS#12 file (HEARTH_TLS_PFX; passphrase in
                     HEARTH_TLS_PFX_PASSPHRASE)
  --demo             seed a demo organization and enable the dev login endpoints (HEARTH_DEMO=1)
  --no-rate-limit    turn rate limiting off, e.g. for benchmarks (HEARTH_RATE_LIMIT=0)
  --max-connections-per-address N
                     connections one client address may keep open (default ${PER_ADDRESS_LIMIT}; this
                     machine's own clients are not limited per address)
                     (HEARTH_MAX_CONNECTIONS_PER_ADDRESS)
  --trusted-proxy ADDR[,ADDR]
                     reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names
                     the client, for per-address limits (HEARTH_TRUSTED_PROXIES)
  --deactivate-organization
                     deactivate the organization (every API request then fails) and exit
  --set-jwt-key KEY  store the organization's JWT key (HS256, at least 32 bytes), enabling
                     POST /api/v1/jwt/fetch_api_key (HEARTH_JWT_KEY)
  --clear-jwt-key    remove the stored JWT key, disabling JWT login (HEARTH_CLEAR_JWT_KEY=1)
  --export-zulip OUT write the organization as a Zulip 12.x export into the empty folder OUT
                     (or OUT.tar.gz) and exit; works while the server runs (docs/moving-to-zulip.md)
  --import-zulip PATH
                     read a Zulip 10.x-12.x export (folder or .tar.gz) into the empty data
                     directory and exit
  --set-password EMAIL
                     set that person's password (from HEARTH_PASSWORD, or typed) and exit
  --settle-zulip URL after importing the export into the Zulip server at URL: set what its
                     importer reset, through its API (owner in ZULIP_EMAIL, ZULIP_API_KEY)`);
    process.exit(0);
  }
  const portText = values.port ?? env.HEARTH_PORT ?? '9991';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) throw new Error(`invalid port: ${portText}`);
  const externalUrl = values['external-url'] ?? env.HEARTH_EXTERNAL_URL;
  const perAddressText =
    values['max-connections-per-address'] ?? env.HEARTH_MAX_CONNECTIONS_PER_ADDRESS;
  if (perAddressText !== undefined && !/^[1-9]\d{0,5}$/.test(perAddressText)) {
    throw new Error(`invalid connections per address: ${perAddressText}`);
  }
  const tlsCertificate = tlsCertificateOption(
    {
      cert: values['tls-cert'] ?? env.HEARTH_TLS_CERT,
      key: values['tls-key'] ?? env.HEARTH_TLS_KEY,
      pfx: values['tls-pfx'] ?? env.HEARTH_TLS_PFX,
    },
    env.HEARTH_TLS_PFX_PASSPHRASE,
  );
  return {
    ...(externalUrl ? { externalUrl: normalizeExternalUrl(externalUrl) } : {}),
    ...(tlsCertificate ? { tlsCertificate } : {}),
    https: values.https ?? truthy(env.HEARTH_HTTPS),
    ...(perAddressText ? { maxConnectionsPerAddress: Number(perAddressText) } : {}),
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
    portability: portabilityCommand(values),
  };
}

/** --tls-cert with --tls-key, or --tls-pfx; paths resolved against the working directory. */
function tlsCertificateOption(
  given: { cert?: string; key?: string; pfx?: string },
  passphrase: string | undefined,
): OwnCertificateFiles | undefined {
  const { cert, key, pfx } = given;
  if (pfx) {
    if (cert || key)
      throw new Error('give either --tls-pfx or --tls-cert with --tls-key, not both');
    return { pfxFile: path.resolve(pfx), ...(passphrase !== undefined ? { passphrase } : {}) };
  }
  if (!cert && !key) return undefined;
  if (!cert) throw new Error('--tls-key needs --tls-cert (the certificate it belongs to)');
  if (!key) throw new Error('--tls-cert needs --tls-key (its private key)');
  return { certFile: path.resolve(cert), keyFile: path.resolve(key) };
}

function portabilityCommand(values: {
  'export-zulip'?: string;
  'import-zulip'?: string;
  'set-password'?: string;
  'settle-zulip'?: string;
}): PortabilityCommand | undefined {
  const given: PortabilityCommand[] = [];
  if (values['export-zulip'] !== undefined)
    given.push({ kind: 'export-zulip', out: values['export-zulip'] });
  if (values['import-zulip'] !== undefined)
    given.push({ kind: 'import-zulip', source: values['import-zulip'] });
  if (values['set-password'] !== undefined)
    given.push({ kind: 'set-password', email: values['set-password'] });
  if (values['settle-zulip'] !== undefined) {
    given.push({ kind: 'settle-zulip', url: values['settle-zulip'] });
  }
  if (given.length > 1)
    throw new Error(
      'give one of --export-zulip, --import-zulip, --set-password and --settle-zulip at a time',
    );
  return given[0];
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
): Promise<RunningServer | null> {
  const options = parseCliOptions(argv, env);
  if (options.portability) {
    await runPortabilityCommand(options.portability, options.dataDir, env);
    return null;
  }
  // Per launch: whoever can read this process's output may administer the organization.
  const adminToken = randomBytes(32).toString('base64url');
  const server = await createServer({
    dataDir: options.dataDir,
    host: options.host,
    port: options.port,
    externalUrl: options.externalUrl,
    https: options.https,
    ...(options.tlsCertificate ? { tlsCertificate: options.tlsCertificate } : {}),
    demo: options.demo,
    rateLimit: options.rateLimit,
    ...(options.maxConnectionsPerAddress
      ? { connectionLimits: { perAddress: options.maxConnectionsPerAddress } }
      : {}),
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
  const tls = tlsOf(server.ctx);
  if (tls?.authority) {
    console.log(
      `HTTPS: devices trust this server once they install its certificate authority from ${deviceSetupUrl(server.ctx.config)}`,
    );
    console.log(`  Its SHA-256 fingerprint, to compare on each device: ${tls.fingerprint}`);
  } else if (tls) {
    console.log(`HTTPS with the certificate given (SHA-256 ${tls.fingerprint})`);
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
