import { ApiError, type Credentials, ZulipApi } from './api.js';

/**
 * Logging in and staying logged in: the key from `POST /fetch_api_key` kept
 * in localStorage for this origin, and the image cookie (`/chat/session`)
 * that lets `<img src="/user_uploads/…">` load without an Authorization
 * header.
 */

export const CREDENTIALS_KEY = 'hearth-chat-credentials';

/** localStorage when the page has one (never touched at import: the data layer runs in node tests). */
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage blocked by the browser's privacy settings.
    return null;
  }
}

export async function logIn(
  email: string,
  password: string,
  api: ZulipApi = new ZulipApi(),
): Promise<Credentials> {
  const answer = await api.call<{ email: string; api_key: string }>('POST', '/fetch_api_key', {
    username: email,
    password,
  });
  const credentials: Credentials = { email: answer.email, apiKey: answer.api_key };
  storage()?.setItem(CREDENTIALS_KEY, JSON.stringify(credentials));
  api.credentials = credentials;
  await openImageSession(api);
  return credentials;
}

export function savedCredentials(): Credentials | null {
  const text = storage()?.getItem(CREDENTIALS_KEY);
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Credentials>;
    if (typeof value.email === 'string' && typeof value.apiKey === 'string') {
      return { email: value.email, apiKey: value.apiKey };
    }
  } catch {
    // A damaged entry is as good as none.
  }
  return null;
}

export function forgetCredentials(): void {
  storage()?.removeItem(CREDENTIALS_KEY);
}

/**
 * `POST /chat/session`: the cookie for uploaded images. A server without
 * the endpoint (404) or a failure leaves images needing a reload at worst,
 * so nothing here is fatal.
 */
export async function openImageSession(api: ZulipApi): Promise<void> {
  try {
    await api.callAtRoot('POST', '/chat/session');
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
}

export async function closeImageSession(api: ZulipApi): Promise<void> {
  try {
    await api.callAtRoot('DELETE', '/chat/session');
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
}
