/** Where the desktop window's links and navigations lead (main/window-navigation.ts). */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { destinationOf, isAdminPage } from '../../main/window-navigation.js';

const adminPagePath = '/app/renderer/dist/index.html';
const admin = pathToFileURL(adminPagePath).href;
const places = {
  adminPagePath,
  localUrl: 'http://127.0.0.1:9991',
  clientUrl: 'https://chat.example.org',
};

describe('isAdminPage', () => {
  it('is the admin file, at any route of its hash router', () => {
    expect(isAdminPage(admin, adminPagePath)).toBe(true);
    expect(isAdminPage(`${admin}#/users/3`, adminPagePath)).toBe(true);
    expect(isAdminPage(`${admin}?x=1`, adminPagePath)).toBe(true);
  });

  it('is nothing else', () => {
    for (const url of [
      undefined,
      '',
      'not a url',
      'http://127.0.0.1:9991/',
      'http://127.0.0.1:9991/admin/',
      pathToFileURL('/app/renderer/dist/chat/chat.html').href,
      pathToFileURL('/app/renderer/dist/index.html.evil').href,
      `${admin}/..`,
    ]) {
      expect(isAdminPage(url, adminPagePath), String(url)).toBe(false);
    }
  });
});

describe('destinationOf', () => {
  it('the chat page at the local URL, whichever of the server’s addresses was named', () => {
    expect(destinationOf('http://127.0.0.1:9991/', places)).toEqual({
      kind: 'chat',
      url: 'http://127.0.0.1:9991/',
    });
    expect(destinationOf('https://chat.example.org/#narrow/channel/1-general', places)).toEqual({
      kind: 'chat',
      url: 'http://127.0.0.1:9991/#narrow/channel/1-general',
    });
  });

  it('the admin page for the admin file and for /admin over http', () => {
    for (const url of [
      `${admin}#/users`,
      'http://127.0.0.1:9991/admin',
      'http://127.0.0.1:9991/admin/',
      'https://chat.example.org/admin/channels/3',
    ]) {
      expect(destinationOf(url, places), url).toEqual({ kind: 'admin' });
    }
  });

  it('the server’s other paths as downloads (they need the window’s cookie)', () => {
    expect(destinationOf('https://chat.example.org/user_uploads/2/ab/c/d.pdf', places)).toEqual({
      kind: 'download',
      url: 'http://127.0.0.1:9991/user_uploads/2/ab/c/d.pdf',
    });
    expect(destinationOf('http://127.0.0.1:9991/administrator', places).kind).toBe('download');
  });

  it('other sites to the system, and refuses everything else', () => {
    expect(destinationOf('https://zulip.com/help/', places)).toEqual({
      kind: 'external',
      url: 'https://zulip.com/help/',
    });
    expect(destinationOf('mailto:a@example.org', places).kind).toBe('external');
    // Another port of this machine is another site.
    expect(destinationOf('http://127.0.0.1:9992/', places).kind).toBe('external');
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'x']) {
      expect(destinationOf(url, places), url).toEqual({ kind: 'blocked' });
    }
  });

  it('while no server runs, nothing is the chat', () => {
    const stopped = { ...places, localUrl: null };
    expect(destinationOf('http://127.0.0.1:9991/', stopped).kind).toBe('external');
    expect(destinationOf('https://chat.example.org/', stopped).kind).toBe('external');
  });
});
