/**
 * TLS cannot be set up as configured: a certificate or key file that is
 * missing, unreadable, expired or mismatched, or a damaged certificate
 * authority in the data directory. The message names the file and the
 * problem; the server does not start.
 */
export class TlsSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TlsSetupError';
  }
}

/**
 * The data directory's certificate authority is damaged. Hearth never
 * replaces it by itself (every device that trusts it would stop trusting
 * the server); the owner restores it or asks for a new one.
 */
export class DamagedAuthorityError extends TlsSetupError {
  constructor(
    readonly folder: string,
    problem: string,
  ) {
    super(
      `The certificate authority in ${folder} is damaged: ${problem}. Hearth does not replace it by itself: devices that trust it would stop trusting this server. Restore ca.crt and ca.key from a copy, or move the folder away and start again to make a new authority (every device must then trust the new one).`,
    );
    this.name = 'DamagedAuthorityError';
  }
}
