/**
 * Whether this server has a certificate authority of its own for devices
 * to install (`GET /tls/info`, without credentials; the authority itself is
 * at /tls/ca.crt), with its SHA-256 fingerprint as people compare it and
 * the setup page a phone opens.
 */
export interface ServerAuthority {
  fingerprint: string;
  setupUrl: string;
}

export async function serverAuthority(
  fetcher: typeof fetch = fetch,
): Promise<ServerAuthority | null> {
  try {
    const response = await fetcher('/tls/info', { credentials: 'omit', cache: 'no-cache' });
    if (!response.ok) return null;
    const info = (await response.json()) as {
      authority?: boolean;
      fingerprint?: string | null;
      setup_url?: string | null;
    };
    if (!info.authority || !info.fingerprint || !info.setup_url) return null;
    return { fingerprint: info.fingerprint, setupUrl: info.setup_url };
  } catch {
    return null;
  }
}
