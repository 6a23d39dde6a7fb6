import type { Credentials } from './api.js';

/**
 * Logging in and staying logged in: the key from `POST /fetch_api_key` kept
 * in localStorage for this origin. STUB: replaced by the data layer.
 */
export async function logIn(_email: string, _password: string): Promise<Credentials> {
  throw new Error('logIn: not implemented yet');
}
export function savedCredentials(): Credentials | null {
  return null;
}
export function forgetCredentials(): void {}
