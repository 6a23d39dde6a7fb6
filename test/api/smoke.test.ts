import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('test server', () => {
  it('answers GET /users/me for every fixture role', async () => {
    for (const who of ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'] as const) {
      const res = await t.as(who).get('/users/me');
      expect(res.status).toBe(200);
      expect(res.body.user_id).toBe(t.accounts[who].id);
    }
  });
});
