import { describe, expect, it } from 'vitest';
import {
  channelLink,
  fenceFor,
  groupMention,
  quoteBlock,
  uploadLink,
  uploadPlaceholder,
  userMention,
} from '../../../renderer/src/chat/compose/syntax.js';

describe('mention syntax', () => {
  it('names a person by name alone when the name is unambiguous', () => {
    expect(userMention('Alice Smith', 12)).toBe('@**Alice Smith**');
    expect(userMention('Alice Smith', 12, { silent: true })).toBe('@_**Alice Smith**');
  });

  it('adds the id for a name two people share, or a wildcard name', () => {
    expect(userMention('Sam', 7, { ambiguous: true })).toBe('@**Sam|7**');
    expect(userMention('Everyone', 9)).toBe('@**Everyone|9**');
    expect(userMention('topic', 3, { silent: true })).toBe('@_**topic|3**');
  });

  it('writes groups and channel links in Zulip syntax', () => {
    expect(groupMention('support')).toBe('@*support*');
    expect(groupMention('support', true)).toBe('@_*support*');
    expect(channelLink('general')).toBe('#**general**');
    expect(channelLink('general', 'lunch plans')).toBe('#**general>lunch plans**');
  });
});

describe('quote and reply', () => {
  it('quotes the raw Markdown under a silent mention linking to the message', () => {
    expect(
      quoteBlock({ fullName: 'Alice', userId: 4 }, 'http://h/#narrow/near/9', 'hi *there*'),
    ).toBe('@_**Alice|4** [said](http://h/#narrow/near/9):\n```quote\nhi *there*\n```\n');
  });

  it('uses a fence longer than any fence inside the quoted text', () => {
    const code = 'look:\n```py\nx = 1\n```';
    expect(fenceFor(code)).toBe('````');
    expect(fenceFor('````\nx\n````')).toBe('`````');
    expect(fenceFor('inline ``` not at line start')).toBe('```');
    const quoted = quoteBlock({ fullName: 'Bo', userId: 1 }, 'l', code);
    expect(quoted).toBe(`@_**Bo|1** [said](l):\n\`\`\`\`quote\n${code}\n\`\`\`\`\n`);
  });
});

describe('upload text', () => {
  it('links the file by name, escaping brackets that would end the link text', () => {
    expect(uploadLink('a.png', '/user_uploads/2/ab/a.png')).toBe(
      '[a.png](/user_uploads/2/ab/a.png)',
    );
    expect(uploadLink('x [1].txt', '/u')).toBe('[x \\[1\\].txt](/u)');
    expect(uploadPlaceholder('a.png')).toBe('[Uploading a.png…]()');
  });
});
