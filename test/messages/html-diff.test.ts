/**
 * content_html_diff in Zulip's markup (zerver/lib/html_diff.py: lxml's
 * htmldiff wrapped in a <div>, <ins>/<del> turned into spans, inserted text
 * before the text it replaced). The expected strings are the ones Zulip's
 * own edit-history tests assert for the same edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  createChannel(t, { name: 'Denmark', subscribers: [t.accounts.member.id] });
});
afterAll(() => t.close());

async function diffOfEdit(before: string, after: string): Promise<string> {
  const member = t.as('member');
  const id = await sendOk(member, streamMessage('Denmark', 'editing', before));
  const edit = await member.patch(`/messages/${id}`, { content: after });
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  const history = await member.get(`/messages/${id}/history`);
  return history.body.message_history[1].content_html_diff;
}

describe('content_html_diff', () => {
  it('wraps the diff in a div and puts inserted text before deleted text', async () => {
    expect(await diffOfEdit('content before edit', 'content after edit')).toBe(
      '<div><p>content <span class="highlight_text_inserted">after</span> ' +
        '<span class="highlight_text_deleted">before</span> edit</p></div>',
    );
  });

  it('diffs words across paragraphs and line breaks', async () => {
    expect(
      await diffOfEdit(
        'content before edit, line 1\n\ncontent before edit, line 3',
        'content before edit, line 1\ncontent after edit, line 2\ncontent before edit, line 3',
      ),
    ).toBe(
      '<div><p>content before edit, line 1<br> ' +
        'content <span class="highlight_text_inserted">after edit, line 2<br> ' +
        'content</span> before edit, line 3</p></div>',
    );
  });

  it("shows a link's changed target", async () => {
    expect(
      await diffOfEdit(
        'Here is a link to [zulip](http://www.zulip.org).',
        'Here is a link to [zulip](http://www.zulipchat.com).',
      ),
    ).toBe(
      '<div><p>Here is a link to <a href="http://www.zulipchat.com">zulip ' +
        '<span class="highlight_text_inserted"> Link: http://www.zulipchat.com .</span> ' +
        '<span class="highlight_text_deleted"> Link: http://www.zulip.org .</span> </a></p></div>',
    );
  });

  it('moves a highlight inside whole inserted paragraphs', async () => {
    expect(await diffOfEdit('first paragraph here', 'first paragraph here\n\nsecond one')).toBe(
      '<div><p>first paragraph here</p> <p><span class="highlight_text_inserted">second one</span></p></div>',
    );
  });
});

describe('diffs stored by an older Hearth', () => {
  it('are computed again when the history is read', async () => {
    const member = t.as('member');
    const id = await sendOk(member, streamMessage('Denmark', 'editing', 'content before edit'));
    await member.patch(`/messages/${id}`, { content: 'content after edit' });
    t.server.ctx.db
      .prepare('UPDATE message_edits SET content_html_diff = ? WHERE message_id = ?')
      .run('<span class="highlight_text_deleted">before</span>', id);
    const history = await member.get(`/messages/${id}/history`);
    expect(history.body.message_history[1].content_html_diff).toMatch(/^<div><p>content /);
  });
});
