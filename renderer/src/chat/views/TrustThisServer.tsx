import { useEffect, useState } from 'react';
import { type ServerAuthority, serverAuthority } from '../data/server-trust.js';

/**
 * Under the log-in form, when the server has its own certificate authority:
 * how other devices come to trust it (the downloads and the steps are on
 * /tls/, which the QR code opens on a phone), and the fingerprint to compare.
 */
export function TrustThisServer() {
  const [authority, setAuthority] = useState<ServerAuthority | null>(null);
  useEffect(() => {
    let live = true;
    void serverAuthority().then((found) => {
      if (live) setAuthority(found);
    });
    return () => {
      live = false;
    };
  }, []);
  if (!authority) return null;
  return (
    <details className="trust-card" id="trust-this-server">
      <summary>Using Hearth on another phone or computer?</summary>
      <p>
        Each device first trusts this server’s own certificate authority, once. Open{' '}
        <a href={authority.setupUrl}>{authority.setupUrl}</a> on the device (or scan the code with
        its camera), then install:
      </p>
      <p className="trust-downloads">
        <a className="button" href="/tls/hearth.mobileconfig">
          iPhone, iPad profile
        </a>
        <a className="button" href="/tls/ca.crt" download="hearth-ca.crt">
          Certificate (Android, computers)
        </a>
      </p>
      <p>
        The device must show this SHA-256 fingerprint:{' '}
        <code className="trust-fingerprint">{authority.fingerprint}</code>
      </p>
      <img className="trust-qr" src="/tls/setup-qr.svg" alt="QR code of the setup page" />
    </details>
  );
}
