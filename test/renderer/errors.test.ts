/**
 * The admin UI's error texts: the API's terse ones said in human words, the
 * same on every page; the server's rules (a weak password) in its own words.
 */
import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { humanMessage, shownError } from '../../renderer/src/api/errors.js';

describe('humanMessage', () => {
  it('says what to do instead of quoting the wire', () => {
    expect(humanMessage("Invalid email ''")).toBe('Enter an e-mail address.');
    expect(humanMessage("Invalid email 'bob at home'")).toBe(
      '“bob at home” is not a valid e-mail address.',
    );
    expect(humanMessage('Name too short!')).toBe('The name is too short.');
    expect(humanMessage('Failed to fetch')).toBe(
      'The server did not answer. Is Hearth still running?',
    );
  });

  it("leaves the server's own rules and other readable texts alone", () => {
    for (const text of [
      'The password is too weak.',
      'New password is too weak!',
      "Email 'member@example.com' already in use",
    ]) {
      expect(humanMessage(text)).toBe(text);
    }
  });

  it('applies to what the forms show, with the field kept', () => {
    const error = new TRPCClientError("Invalid email ''", {
      result: {
        error: {
          message: "Invalid email ''",
          code: -32600,
          data: { code: 'BAD_REQUEST', field: 'email', zulip: { msg: "Invalid email ''" } },
        },
      },
    });
    expect(shownError(error)).toMatchObject({
      message: 'Enter an e-mail address.',
      field: 'email',
    });
  });
});
