/**
 * TLS: the installation's certificate authority and the server certificate
 * it issues (renewed by itself), or the team's own certificate; the
 * authority as devices install it (PEM, iOS profile).
 */
import type { AppContext } from '../core/context.js';
import type { ServerTls } from './server-tls.js';

export {
  authorityProblem,
  CA_CERT_FILE,
  CA_KEY_FILE,
  hasAuthority,
  RENEW_BEFORE_MS,
  SERVER_CERT_VALIDITY_MS,
  setAsideAuthority,
  TLS_DIR,
  tlsFolder,
} from './authority.js';
export { DamagedAuthorityError, TlsSetupError } from './errors.js';
export { authorityProfile } from './mobileconfig.js';
export { type CertificateNames, machineHostNames, PRIVATE_RANGES } from './names.js';
export { loadOwnCertificate, type OwnCertificateFiles } from './own-certificate.js';
export { ServerTls, type ServerTlsOptions } from './server-tls.js';

const running = new WeakMap<AppContext, ServerTls>();

/** Records the TLS of the server `ctx` belongs to (createServer, when HTTPS is on). */
export function attachTls(ctx: AppContext, tls: ServerTls): void {
  running.set(ctx, tls);
}

/** The server's TLS, or null when it serves plain HTTP only. */
export function tlsOf(ctx: AppContext): ServerTls | null {
  return running.get(ctx) ?? null;
}
