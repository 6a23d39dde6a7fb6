import { afterAll, beforeAll, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendToChannel } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/*
 * The linkifiers are read once and kept until realm_linkifiers is written
 * (db/queries/markdown-lookups.ts): whoever writes the table, the next
 * formatted message's topic_links follows it.
 */

let t: TestServer;
let id: number;

const topicLinks = async () => {
  const res = await t.as('member').get('/messages', {
    anchor: id,
    num_before: 0,
    num_after: 0,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.messages[0].topic_links as Array<{ text: string; url: string }>;
};

beforeAll(async () => {
  t = await startTestServer();
  const general = createChannel(t, { name: 'general', subscribers: [t.accounts.member.id] });
  id = await sendToChannel(t, 'member', general, 'fix #42 and T7');
});
afterAll(() => t.close());

it('topic_links follows linkifiers added, changed and removed after a first read', async () => {
  const db = t.server.ctx.db;
  expect(await topicLinks()).toEqual([]);

  db.prepare(
    "INSERT INTO realm_linkifiers (id, pattern, url_template, sort_order) VALUES (1, '#(?P<id>[0-9]+)', 'https://bugs.example/{id}', 0)",
  ).run();
  expect(await topicLinks()).toEqual([{ text: '#42', url: 'https://bugs.example/42' }]);

  db.prepare("UPDATE realm_linkifiers SET url_template = 'https://tracker.example/{id}'").run();
  expect(await topicLinks()).toEqual([{ text: '#42', url: 'https://tracker.example/42' }]);

  db.prepare(
    "INSERT INTO realm_linkifiers (id, pattern, url_template, sort_order) VALUES (2, 'T(?P<n>[0-9]+)', 'https://tasks.example/{n}', 1)",
  ).run();
  expect(await topicLinks()).toEqual([
    { text: '#42', url: 'https://tracker.example/42' },
    { text: 'T7', url: 'https://tasks.example/7' },
  ]);

  db.prepare('DELETE FROM realm_linkifiers WHERE id = 1').run();
  expect(await topicLinks()).toEqual([{ text: 'T7', url: 'https://tasks.example/7' }]);
});
