/**
 * Helpers shared by the API tests: raw HTTP for requests the ApiClient cannot
 * make (odd content types, broken bodies, hand-made Authorization headers)
 * and one assertion for Zulip's error envelope.
 */
import { expect } from 'vitest';
import { type Account, type ApiResponse, basicAuth } from '../helpers/server.js';

export function authHeader(account: Account): string {
  return basicAuth(account.email, account.apiKey);
}

export interface RawResponse extends ApiResponse {
  text: string;
}

/** A request exactly as given; the body is parsed as JSON when it is JSON. */
export async function raw(
  baseUrl: string,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string | Buffer | FormData } = {},
): Promise<RawResponse> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: init.headers,
    body: init.body as BodyInit | undefined,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Zulip's error envelope: status, code, exact msg, plus any extra fields. */
export function expectError(
  res: ApiResponse,
  status: number,
  code: string,
  msg: string,
  extra: Record<string, unknown> = {},
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { result: 'error', msg, code, ...extra },
  });
}

/** Any well-formed answer: a JSON object with result and msg, error fields when failing. */
export function expectEnvelope(res: { status: number; body: unknown; text?: string }): void {
  expect(res.body, `not a JSON object: ${res.text?.slice(0, 200)}`).toBeTypeOf('object');
  expect(res.body).not.toBeNull();
  const body = res.body as Record<string, unknown>;
  expect(typeof body.msg).toBe('string');
  if (res.status === 200) {
    expect(body.result).toBe('success');
    expect(body.msg).toBe('');
  } else {
    expect(body.result).toBe('error');
    expect(body.msg).not.toBe('');
    expect(typeof body.code).toBe('string');
  }
}

export const API_KEY = /^[A-Za-z0-9]{32}$/;
