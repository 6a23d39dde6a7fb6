/** The state built from a register answer, for what the recordings cannot show. */
import { describe, expect, it } from 'vitest';
import type { RegisterAnswer } from '../../../renderer/src/chat/data/state.js';
import { stateFromRegister } from '../../../renderer/src/chat/data/state.js';

/** A register answer as the wire brings it: JSON, here sometimes deliberately off-shape. */
const fromWire = (answer: object) => answer as RegisterAnswer;

const person = (user_id: number, full_name: string) => ({
  user_id,
  full_name,
  email: `user${user_id}@example.com`,
  role: 400,
  is_bot: false,
});

describe('register state', () => {
  it('marks users active or deactivated by the list they come in (register omits is_active)', () => {
    const state = stateFromRegister(
      fromWire({
        user_id: 1,
        realm_users: [person(1, 'Me'), person(2, 'Active')],
        realm_non_active_users: [person(3, 'Gone')],
        cross_realm_bots: [{ ...person(4, 'Notification Bot'), is_bot: true }],
        unread_msgs: { streams: [], huddles: [], pms: [], mentions: [], count: 0 },
      }),
      1_700_000_000,
    );
    expect(state.users.get(2)?.is_active).toBe(true);
    expect(state.users.get(3)?.is_active).toBe(false);
    expect(state.users.get(4)?.is_active).toBe(true);
  });
});

describe('starred messages from register', () => {
  it('keeps the ids register gives, and none without them', () => {
    const unread_msgs = { streams: [], huddles: [], pms: [], mentions: [], count: 0 };
    const state = stateFromRegister(
      fromWire({ user_id: 1, realm_users: [], unread_msgs, starred_messages: [4, 9] }),
      1_700_000_000,
    );
    expect([...state.starred!]).toEqual([4, 9]);
    expect(
      stateFromRegister(fromWire({ user_id: 1, unread_msgs }), 1_700_000_000).starred?.size,
    ).toBe(0);
  });
});
