import os from 'node:os';

export interface NetworkInterface {
  name: string;
  address: string;
  family: 'IPv4' | 'IPv6';
}

/**
 * The machine's addresses other devices may reach: non-internal IPv4 and
 * IPv6. IPv6 link-local addresses are left out: a URL cannot carry the zone
 * they need, so no client could use them.
 */
export function lanInterfaces(
  all: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): NetworkInterface[] {
  const found: NetworkInterface[] = [];
  for (const [name, infos] of Object.entries(all)) {
    for (const info of infos ?? []) {
      if (info.internal) continue;
      if (info.family === 'IPv6' && /^fe[89ab]/i.test(info.address)) continue;
      found.push({ name, address: info.address, family: info.family });
    }
  }
  return found;
}
