import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let channelId: number;
beforeAll(async () => {
  t = await startTestServer();
  channelId = createChannel(t, {
    name: 'Q&A "tests"',
    subscribers: [t.accounts.member.id, t.accounts.admin.id],
  });
});
afterAll(() => t.close());

describe('POST /messages/render', () => {
  it('renders Zulip Markdown with mentions and channel links from the organization', async () => {
    const res = await t.as('member').post('/messages/render', {
      content: `**Hi** @**Ada Admin** see #**Q&A "tests"** :smile:`,
    });
    expect(res.status).toBe(200);
    expect(res.body.rendered).toBe(
      `<p><strong>Hi</strong> <span class="user-mention" data-user-id="${t.accounts.admin.id}">@Ada Admin</span> ` +
        `see <a class="stream" data-stream-id="${channelId}" href="/#narrow/channel/${channelId}-Q.26A-.22tests.22">#Q&amp;A "tests"</a> ` +
        '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>',
    );
  });

  it('escapes raw HTML and renders whitespace to nothing, as Zulip does', async () => {
    const res = await t
      .as('member')
      .post('/messages/render', { content: '<script>alert(1)</script>' });
    expect(res.body.rendered).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
    for (const content of ['   ', '', '\n \n']) {
      const empty = await t.as('member').post('/messages/render', { content });
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ result: 'success', msg: '', rendered: '' });
    }
    const nul = await t.as('member').post('/messages/render', { content: 'a\u0000b `c\u0000`' });
    expect(nul.status, JSON.stringify(nul.body)).toBe(200);
    const missing = await t.as('member').post('/messages/render', {});
    expect(missing.body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'content' });
  });

  it('renders what sending stores, and events carry the same HTML', async () => {
    const content = 'Use `npm test` and ~~strike~~';
    const preview = await t.as('member').post('/messages/render', { content });
    const sent = await t.as('member').post('/messages', {
      type: 'stream',
      to: channelId,
      topic: 'preview',
      content,
    });
    const fetched = await t.as('member').get(`/messages/${sent.body.id}`);
    expect(fetched.body.message.content).toBe(preview.body.rendered);
    expect(fetched.body.raw_content).toBe(content);
  });
});
