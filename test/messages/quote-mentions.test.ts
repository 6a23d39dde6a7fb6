/**
 * Zulip silences every mention in quoted text (BlockQuoteProcessor.clean):
 * quoting a message, as quote-and-reply does, shows the people and groups it
 * mentioned without mentioning them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel } from '../helpers/fixtures.js';
import { sendOk, streamMessage } from '../helpers/messages.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { flagsOf } from './send-support.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
  const a = t.accounts;
  createChannel(t, { name: 'general', subscribers: [a.owner.id, a.admin.id, a.member.id] });
  const group = await t.as('owner').post('/user_groups/create', {
    name: 'reviewers',
    description: 'Reviewers',
    members: [a.admin.id],
  });
  expect(group.status, JSON.stringify(group.body)).toBe(200);
});
afterAll(() => t.close());

const send = (content: string) =>
  sendOk(t.as('member'), streamMessage('general', 'quotes', content));
const mentioned = (who: 'owner' | 'admin', id: number) =>
  flagsOf(t, t.accounts[who].id, id).some((f) => f.includes('mentioned'));
const rendered = async (id: number) =>
  (await t.as('member').get(`/messages/${id}`)).body.message.content as string;

describe('mentions in quoted text', () => {
  it('are silent in a > quote', async () => {
    const id = await send('> @**Olivia Owner** asked for this');
    expect(mentioned('owner', id)).toBe(false);
    expect(await rendered(id)).toContain(
      `<span class="user-mention silent" data-user-id="${t.accounts.owner.id}">Olivia Owner</span>`,
    );
  });

  it('are silent in a quote-and-reply', async () => {
    const owner = t.accounts.owner;
    const id = await send(
      `@_**Olivia Owner|${owner.id}** [said](#narrow/channel/1-general/topic/quotes/near/1):\n` +
        '```quote\n@**Ada Admin** and @*reviewers*, please look\n```\nDone.',
    );
    expect(mentioned('admin', id)).toBe(false);
    expect(mentioned('owner', id)).toBe(false);
    const html = await rendered(id);
    expect(html).toContain('class="user-mention silent"');
    expect(html).toContain('class="user-group-mention silent"');
  });

  it('leave wildcards in quotes silent too, and mentions outside the quote loud', async () => {
    const quotedAll = await send('> @**all** meeting now');
    expect(mentioned('owner', quotedAll)).toBe(false);
    const outside = await send('> someone said\n\n@**Ada Admin** see above');
    expect(mentioned('admin', outside)).toBe(true);
  });
});
