import { describe, expect, it } from 'vitest';
import { contentProblem, textLength } from '../../../renderer/src/chat/compose/limits.js';
import { uploadSizeError } from '../../../renderer/src/chat/compose/use-uploads.js';

const lunch = { kind: 'channel' as const, channelId: 1, topic: 'lunch' };
const check = (over: Partial<Parameters<typeof contentProblem>[0]>) =>
  contentProblem({
    editing: lunch,
    target: lunch,
    text: 'hi',
    uploading: false,
    topicsRequired: false,
    ...over,
  });

describe('what stops a send, in Zulip’s words', () => {
  it('needs a recipient and something to send', () => {
    expect(check({})).toBeNull();
    expect(check({ target: null, editing: { kind: 'channel', channelId: null, topic: '' } })).toBe(
      'Please specify a channel.',
    );
    expect(check({ target: null, editing: { kind: 'direct', userIds: [] } })).toBe(
      'Please specify at least one valid recipient.',
    );
    expect(check({ text: '  \n ' })).toBe('You have nothing to send!');
    expect(check({ uploading: true })).toBe('Please wait for your files to finish uploading.');
  });

  it('counts characters, not UTF-16 units, against 10,000 and 60', () => {
    expect(textLength('👍👍')).toBe(2);
    expect(check({ text: '👍'.repeat(10_000) })).toBeNull();
    expect(check({ text: 'x'.repeat(10_001) })).toBe(
      "Message length shouldn't be greater than 10000 characters.",
    );
    const long = { ...lunch, topic: 't'.repeat(61) };
    expect(check({ target: long, editing: long })).toBe(
      "Topic length shouldn't be greater than 60 characters.",
    );
  });

  it('asks for a topic only where the organization requires one', () => {
    const empty = { ...lunch, topic: '' };
    expect(check({ target: empty, editing: empty })).toBeNull();
    expect(check({ target: empty, editing: empty, topicsRequired: true })).toBe(
      'Topics are required in this organization.',
    );
  });
});

describe('upload sizes', () => {
  it('refuses files over the organization’s limit, and every file when uploads are off', () => {
    expect(uploadSizeError({ name: 'a.bin', size: 25 * 1024 * 1024 }, 25)).toBeNull();
    expect(uploadSizeError({ name: 'a.bin', size: 25 * 1024 * 1024 + 1 }, 25)).toBe(
      'a.bin exceeds the maximum file size for attachments (25 MiB).',
    );
    expect(uploadSizeError({ name: 'a.bin', size: 1 }, 0)).toBe(
      'File and image uploads have been disabled for this organization.',
    );
  });
});
