/**
 * A browser already logged in to the chat, as after its login page: POST
 * /chat/session with e-mail and password, and the cookies it sets given to
 * a Playwright context (the HttpOnly session cookie included, which no page
 * script could set). For browser tests and benchmarks that start past the
 * login form.
 */
import type { BrowserContext } from 'playwright-core';

export async function logInBrowser(
  context: BrowserContext,
  serverUrl: string,
  email: string,
  password: string,
): Promise<void> {
  const res = await fetch(new URL('/chat/session', serverUrl), {
    method: 'POST',
    body: new URLSearchParams({ username: email, password }),
  });
  if (!res.ok) throw new Error(`logging in as ${email} failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  const cookies = res.headers.getSetCookie().map((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      url: serverUrl,
      httpOnly: attributes.includes('HttpOnly'),
      sameSite: 'Lax' as const,
    };
  });
  await context.addCookies(cookies);
}
