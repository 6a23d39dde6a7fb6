import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUserFullName } from '../../server/db/queries/users.js';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Payloads that must never reach a client's HTML unescaped. */
const payloads = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  "'><iframe src=javascript:alert(1)>",
  '<a href="javascript:alert(1)">x</a>',
  '[click](javascript:alert(1))',
  '<details open ontoggle=alert(1)>',
  '`<b>`</code><script>alert(1)</script>',
];

/**
 * What input-made markup would look like: a real tag (not escaped text) that
 * is a script, frame or object, carries an event handler, or links to javascript:.
 */
function dangerous(html: string): string | null {
  for (const tag of html.match(/<[^>]*>/g) ?? []) {
    if (/^<\/?(script|iframe|object|embed|svg|details)\b/i.test(tag)) return tag;
    if (/\son[a-z]+\s*=/i.test(tag)) return tag;
    if (/\b(href|src)\s*=\s*["']?\s*javascript:/i.test(tag)) return tag;
  }
  return null;
}

let t: TestServer;
let channelId: number;
beforeAll(async () => {
  t = await startTestServer();
  // Hostile names: a user and a channel named after a payload.
  setUserFullName(t.server.ctx.db, t.accounts.admin.id, '<img src=x onerror=alert(1)>');
  channelId = createChannel(t, {
    name: '<img src=x onerror=alert(1)',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
});
afterAll(() => t.close());

describe('raw HTML from users never reaches HTML unescaped', () => {
  it('in content, topics, mentions of hostile user names and links to hostile channel names', async () => {
    const ids: number[] = [];
    for (const payload of payloads) {
      const sent = await t.as('member').post('/messages', {
        type: 'stream',
        to: channelId,
        topic: `xss ${payload}`.slice(0, 60),
        content: `${payload}\n\n@**<img src=x onerror=alert(1)>** #**<img src=x onerror=alert(1)** ${payload}`,
      });
      expect(sent.status).toBe(200);
      ids.push(sent.body.id);
    }
    const fetched = await t.as('admin').get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: channelId }],
    });
    expect(fetched.body.messages).toHaveLength(payloads.length);
    for (const message of fetched.body.messages) {
      expect(dangerous(message.content), message.content).toBeNull();
      for (const link of message.topic_links) expect(link.url).not.toMatch(/^javascript:/i);
    }
    // The mention and the channel link really were recognised (so the names went through the renderer).
    expect(fetched.body.messages[0].content).toContain('class="user-mention"');
    expect(fetched.body.messages[0].content).toContain('class="stream"');

    // Search highlights wrap escaped text: match_content and match_subject are HTML too.
    const searched = await t.as('admin').get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'alert' }],
    });
    expect(searched.body.messages.length).toBeGreaterThan(0);
    for (const message of searched.body.messages) {
      expect(dangerous(message.match_content), message.match_content).toBeNull();
      expect(dangerous(message.match_subject), message.match_subject).toBeNull();
    }
  });

  it('in POST /messages/render', async () => {
    for (const payload of payloads) {
      const res = await t.as('member').post('/messages/render', { content: payload });
      expect(dangerous(res.body.rendered), res.body.rendered).toBeNull();
    }
  });

  it('the checker itself catches unescaped payloads', () => {
    expect(dangerous('<p><script>alert(1)</script></p>')).not.toBeNull();
    expect(dangerous('<p><img src=x onerror=alert(1)></p>')).not.toBeNull();
    expect(dangerous('<a href="javascript:alert(1)">x</a>')).not.toBeNull();
    expect(dangerous('<p>&lt;img src=x onerror=alert(1)&gt;</p>')).toBeNull();
    expect(dangerous('<p>&lt;a href="javascript:alert(1)"&gt;x&lt;/a&gt;</p>')).toBeNull();
  });
});
