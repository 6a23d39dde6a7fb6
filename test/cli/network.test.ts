import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  externalUrlFor,
  lanAddress,
  localUrlFor,
  normalizeExternalUrl,
} from '../../server/shared/network.js';

const nic = (
  address: string,
  family: 'IPv4' | 'IPv6',
  internal = false,
  scopeid = 0,
): os.NetworkInterfaceInfo =>
  ({
    address,
    family,
    internal,
    netmask: '',
    mac: '00:00:00:00:00:00',
    cidr: null,
    ...(family === 'IPv6' ? { scopeid } : {}),
  }) as os.NetworkInterfaceInfo;

describe('lanAddress', () => {
  it('takes the first non-internal IPv4 address in the order the OS lists them', () => {
    expect(
      lanAddress({
        lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
        eth0: [nic('fd00::2', 'IPv6'), nic('192.168.1.20', 'IPv4')],
        wlan0: [nic('10.0.0.7', 'IPv4')],
      }),
    ).toBe('192.168.1.20');
  });

  it('skips link-local IPv4, then falls back to a global IPv6 address, then the host name', () => {
    expect(
      lanAddress({
        eth0: [
          nic('169.254.3.4', 'IPv4'),
          nic('fe80::1', 'IPv6', false, 2),
          nic('fd00::2', 'IPv6'),
        ],
      }),
    ).toBe('[fd00::2]');
    expect(lanAddress({ lo: [nic('127.0.0.1', 'IPv4', true)] })).toBe(os.hostname());
  });
});

describe('externalUrlFor and localUrlFor', () => {
  it('never tells clients loopback when listening on every interface', () => {
    for (const host of ['0.0.0.0', '::']) {
      expect(externalUrlFor(host, 9991)).not.toMatch(/127\.0\.0\.1|\[::1\]|0\.0\.0\.0/);
    }
    expect(localUrlFor('0.0.0.0', 9991)).toBe('http://127.0.0.1:9991');
    expect(localUrlFor('::', 9991)).toBe('http://[::1]:9991');
  });

  it('uses the address listened on otherwise, and the given URL first', () => {
    expect(externalUrlFor('127.0.0.1', 80)).toBe('http://127.0.0.1:80');
    expect(externalUrlFor('192.168.1.20', 80)).toBe('http://192.168.1.20:80');
    expect(externalUrlFor('::1', 80)).toBe('http://[::1]:80');
    expect(localUrlFor('192.168.1.20', 80)).toBe('http://192.168.1.20:80');
    expect(externalUrlFor('0.0.0.0', 80, 'https://chat.example.com')).toBe(
      'https://chat.example.com',
    );
  });
});

describe('normalizeExternalUrl', () => {
  it('drops trailing slashes and keeps a path', () => {
    expect(normalizeExternalUrl('https://chat.example.com/')).toBe('https://chat.example.com');
    expect(normalizeExternalUrl('http://Hearth.LAN:8080/chat//')).toBe(
      'http://hearth.lan:8080/chat',
    );
  });

  it.each([
    'chat.example.com',
    'ftp://chat.example.com',
    'https://u:p@chat.example.com',
    'https://chat.example.com/?x=1',
    'https://chat.example.com/#top',
  ])('refuses %s', (bad) => {
    expect(() => normalizeExternalUrl(bad)).toThrow(/invalid external URL/);
  });
});
