import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The shared multipart reading every upload endpoint relies on: file parts
// are not parameters, and a request carrying one is otherwise parsed as usual.
describe('multipart requests with file parts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('a file part is neither a parameter nor an ignored one', async () => {
    const res = await t
      .as('member')
      .post(
        '/users/me/alert_words',
        { alert_words: ['kettle'], file: new File(['hello'], 'a.txt', { type: 'text/plain' }) },
        { encoding: 'multipart' },
      );
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toBeUndefined();
    expect(res.body.alert_words).toEqual(['kettle']);
  });

  it('a file larger than any upload limit does not break the request', async () => {
    const big = new Uint8Array(26 * 1024 * 1024);
    const res = await t
      .as('member')
      .post(
        '/users/me/alert_words',
        { alert_words: ['big'], file: new File([big], 'big.bin') },
        { encoding: 'multipart' },
      );
    expect(res.status).toBe(200);
    expect(res.body.alert_words).toContain('big');
  });
});
