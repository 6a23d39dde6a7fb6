import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/core/errors.js';
import { parseChannelIndicator, parseRecipientList } from '../../server/messages/addressee.js';

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.message : String(err);
  }
  return null;
};

describe('`to` as clients send it', () => {
  it('channel: bare name, JSON name or id, one-element list', () => {
    expect(parseChannelIndicator('Denmark')).toEqual({ name: 'Denmark' });
    expect(parseChannelIndicator('"Denmark"')).toEqual({ name: 'Denmark' });
    expect(parseChannelIndicator('7')).toEqual({ id: 7 });
    expect(parseChannelIndicator('["Denmark"]')).toEqual({ name: 'Denmark' });
    expect(errorOf(() => parseChannelIndicator('["a","b"]'))).toBe('Expected exactly one channel');
    expect(errorOf(() => parseChannelIndicator('{"a":1}'))).toBe('Invalid data type for channel');
  });

  it('direct: ids, e-mails, bare comma-separated e-mails; never both; ids must be integers', () => {
    expect(parseRecipientList('[3, 4, 3]')).toEqual({ ids: [3, 4] });
    expect(parseRecipientList('["a@x.com", " b@x.com "]')).toEqual({
      emails: ['a@x.com', 'b@x.com'],
    });
    expect(parseRecipientList('a@x.com, b@x.com')).toEqual({ emails: ['a@x.com', 'b@x.com'] });
    expect(parseRecipientList('9')).toEqual({ ids: [9] });
    expect(errorOf(() => parseRecipientList('[3, "a@x.com"]'))).toBe(
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    expect(errorOf(() => parseRecipientList('[99999999999999999999]'))).toBe(
      'Invalid user ID 100000000000000000000',
    );
    expect(errorOf(() => parseRecipientList('[1.5]'))).toBe('Invalid user ID 1.5');
    expect(errorOf(() => parseRecipientList('{"a":1}'))).toBe('Invalid data type for recipients');
  });
});
