/**
 * A team's own certificate (`--tls-cert`/`--tls-key`, or a PKCS#12 file
 * with `--tls-pfx`): read and checked before the server starts, so a
 * missing, unreadable, expired or mismatched file stops the start with a
 * message naming the file and the problem instead of failing every
 * handshake later. Node reads PEM, DER and PKCS#12 itself (X509Certificate,
 * createPrivateKey, createSecureContext's `pfx`); no library is needed.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { TlsSetupError } from './errors.js';

/** Where the team's certificate is: PEM certificate (its chain may follow) and key, or PKCS#12. */
export type OwnCertificateFiles =
  | { certFile: string; keyFile: string }
  | { pfxFile: string; passphrase?: string };

export interface OwnCertificate {
  /** What tls.createSecureContext takes. */
  contextOptions: tls.SecureContextOptions;
  /** The server's certificate (the chain's first). */
  cert: X509Certificate;
}

function readFile(file: string, what: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'is a folder'
            : (err as Error).message;
    throw new TlsSetupError(`Cannot read the ${what} ${file}: ${problem}`);
  }
}

/** The first certificate of a PEM file (a chain may follow) or a DER file. */
function parseCertificate(file: string, data: Buffer): X509Certificate {
  try {
    return new X509Certificate(data);
  } catch {
    throw new TlsSetupError(`The TLS certificate ${file} holds no certificate (PEM or DER)`);
  }
}

function parseKey(file: string, data: Buffer): KeyObject {
  try {
    return createPrivateKey(data);
  } catch (err) {
    const encrypted = /passphrase|encrypted/i.test((err as Error).message);
    throw new TlsSetupError(
      encrypted
        ? `The TLS key ${file} is encrypted: give the key without a passphrase`
        : `The TLS key ${file} holds no private key (PEM or DER)`,
    );
  }
}

/** The certificate a PKCS#12 file holds, as a server would present it. */
function pkcs12Certificate(file: string, options: tls.SecureContextOptions): X509Certificate {
  let context: tls.SecureContext;
  try {
    context = tls.createSecureContext(options);
  } catch (err) {
    const message = (err as Error).message;
    const problem = /mac verify|password|passphrase/i.test(message)
      ? 'wrong passphrase (HEARTH_TLS_PFX_PASSPHRASE)'
      : `not a PKCS#12 file Node can read (${message})`;
    throw new TlsSetupError(`Cannot use the PKCS#12 file ${file}: ${problem}`);
  }
  const socket = new tls.TLSSocket(new net.Socket(), { isServer: true, secureContext: context });
  try {
    const raw = (socket.getCertificate() as tls.PeerCertificate | null)?.raw;
    if (!raw) throw new TlsSetupError(`The PKCS#12 file ${file} holds no certificate`);
    return new X509Certificate(raw);
  } finally {
    socket.destroy();
  }
}

/** Not yet valid or expired at `now`: the message for the file, else null. */
function validityProblem(cert: X509Certificate, now: number): string | null {
  const from = new Date(cert.validFrom);
  const to = new Date(cert.validTo);
  if (to.getTime() <= now) return `expired on ${to.toISOString()}`;
  if (from.getTime() > now) return `is not valid before ${from.toISOString()}`;
  return null;
}

/** Reads and checks the team's certificate; throws TlsSetupError naming the file and the problem. */
export function loadOwnCertificate(files: OwnCertificateFiles, now: number): OwnCertificate {
  if ('pfxFile' in files) {
    const contextOptions: tls.SecureContextOptions = {
      pfx: readFile(files.pfxFile, 'PKCS#12 file'),
      ...(files.passphrase !== undefined ? { passphrase: files.passphrase } : {}),
    };
    const cert = pkcs12Certificate(files.pfxFile, contextOptions);
    const problem = validityProblem(cert, now);
    if (problem) throw new TlsSetupError(`The certificate in ${files.pfxFile} ${problem}`);
    return { contextOptions, cert };
  }
  const certData = readFile(files.certFile, 'TLS certificate');
  const keyData = readFile(files.keyFile, 'TLS key');
  const cert = parseCertificate(files.certFile, certData);
  const key = parseKey(files.keyFile, keyData);
  const problem = validityProblem(cert, now);
  if (problem) throw new TlsSetupError(`The TLS certificate ${files.certFile} ${problem}`);
  if (!cert.checkPrivateKey(key)) {
    throw new TlsSetupError(
      `The TLS key ${files.keyFile} does not belong to the certificate in ${files.certFile}`,
    );
  }
  const contextOptions = { cert: certData, key: keyData };
  try {
    tls.createSecureContext(contextOptions);
  } catch (err) {
    throw new TlsSetupError(
      `Cannot use ${files.certFile} with ${files.keyFile}: ${(err as Error).message}`,
    );
  }
  return { contextOptions, cert };
}
