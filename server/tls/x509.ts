/**
 * The X.509 work, done by @peculiar/x509 (certificates, extensions, PEM)
 * and @peculiar/asn1-x509 (the NameConstraints structure, which has no
 * helper class of its own): pure TypeScript over WebCrypto, which Node has,
 * so nothing compiles at install and no ASN.1 is written by hand here.
 * Keys are ECDSA P-256: every phone, browser and Zulip client takes them,
 * and they are made in a millisecond (an RSA key takes a second).
 *
 * The library resolves its parts through tsyringe, which needs the Reflect
 * metadata API: reflect-metadata is imported first. This module is loaded
 * only when the server speaks TLS (see certificates.ts).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  GeneralName,
  GeneralSubtree,
  GeneralSubtrees,
  id_ce_nameConstraints,
  NameConstraints,
} from '@peculiar/asn1-x509';
import * as x509 from '@peculiar/x509';
import type { CertificateNames } from './names.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;

/** A certificate and its private key, as PEM. */
export interface PemPair {
  certPem: string;
  keyPem: string;
}

/** A positive 128-bit serial number (RFC 5280 allows up to 20 octets). */
function randomSerial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return Buffer.from(bytes).toString('hex');
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return webcrypto.subtle.importKey('pkcs8', der, KEY_ALGORITHM, false, ['sign']);
}

/** The subtrees an authority may vouch for, as a critical NameConstraints extension. */
function nameConstraints(permitted: CertificateNames): x509.Extension {
  const subtrees = [
    ...permitted.dns.map((name) => new GeneralName({ dNSName: name })),
    ...permitted.ips.map((range) => new GeneralName({ iPAddress: range })),
  ].map((base) => new GeneralSubtree({ base }));
  const value = AsnConvert.serialize(
    new NameConstraints({ permittedSubtrees: new GeneralSubtrees(subtrees) }),
  );
  return new x509.Extension(id_ce_nameConstraints, true, value);
}

/**
 * A self-signed certificate authority that can sign only server
 * certificates (path length 0) for the names and address ranges given.
 */
export async function createAuthority(options: {
  commonName: string;
  permitted: CertificateNames;
  notBefore: Date;
  notAfter: Date;
}): Promise<PemPair> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [options.commonName] }, { O: ['Hearth'] }],
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      nameConstraints(options.permitted),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** A TLS server certificate for `names`, signed by the authority. */
export async function issueServerCertificate(options: {
  authority: PemPair;
  names: CertificateNames;
  notBefore: Date;
  notAfter: Date;
}): Promise<PemPair> {
  const authority = new x509.X509Certificate(options.authority.certPem);
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    // Not a host name, so no verifier mistakes it for one (names live in the SAN).
    subject: [{ CN: ['Hearth server'] }, { O: ['Hearth'] }],
    issuer: authority.subject,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    publicKey: keys.publicKey,
    signingKey: await importKey(options.authority.keyPem),
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...options.names.dns.map((value) => ({ type: 'dns' as const, value })),
        ...options.names.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(authority.publicKey),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await keyPem(keys.privateKey) };
}

/** The names and address ranges an authority's NameConstraints permit (null: unconstrained). */
export function permittedNames(certPem: string): CertificateNames | null {
  const cert = new x509.X509Certificate(certPem);
  const extension = cert.getExtension(id_ce_nameConstraints);
  if (!extension) return null;
  const constraints = AsnConvert.parse(extension.value, NameConstraints);
  const permitted: CertificateNames = { dns: [], ips: [] };
  for (const subtree of constraints.permittedSubtrees ?? []) {
    if (subtree.base.dNSName !== undefined) permitted.dns.push(subtree.base.dNSName);
    if (subtree.base.iPAddress !== undefined) permitted.ips.push(subtree.base.iPAddress);
  }
  return permitted;
}

/** The DNS names and IP addresses of a certificate's subjectAltName. */
export function certificateNames(certPem: string): CertificateNames {
  const cert = new x509.X509Certificate(certPem);
  const names: CertificateNames = { dns: [], ips: [] };
  const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
  for (const name of san?.names.toJSON() ?? []) {
    if (name.type === 'dns') names.dns.push(name.value);
    if (name.type === 'ip') names.ips.push(name.value);
  }
  return names;
}
