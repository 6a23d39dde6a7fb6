/**
 * The recorded event sequences the replay tests use are still what the
 * server sends: each scenario is recorded afresh and its key facts (register
 * keys, event types, ops and keys) compared with the committed fixture.
 * RECORD_CHAT_EVENTS=1 rewrites the fixtures instead.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { fixturePath, keyFacts, type Recording, recordScenario, scenarios } from './record.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe('recorded chat events', () => {
  for (const scenario of Object.keys(scenarios)) {
    it(`${scenario} still matches what the server sends`, async () => {
      const fresh = await recordScenario(t, scenario);
      if (process.env.RECORD_CHAT_EVENTS) {
        writeFileSync(fixturePath(scenario), `${JSON.stringify(fresh, null, 1)}\n`);
      }
      const saved = JSON.parse(readFileSync(fixturePath(scenario), 'utf8')) as Recording;
      expect(keyFacts(fresh)).toEqual(keyFacts(saved));
    });
  }
});
