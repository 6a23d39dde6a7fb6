import { type FormEvent, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

type Account = Outputs['users']['list']['members'][number];

/** Who is subscribed, with adding and removing (as POST/DELETE /users/me/subscriptions do for others). */
export function ChannelMembers({ channelId, users }: { channelId: number; users: Account[] }) {
  const api = useApi();
  const form = useForm();
  const [members, reload] = useLoad(() => api.channels.members.query({ channelId }), [channelId]);
  const [chosen, setChosen] = useState('');
  const byId = new Map(users.map((u) => [u.user_id, u]));

  const add = (event: FormEvent) => {
    event.preventDefault();
    const user = byId.get(Number(chosen));
    if (!user) return;
    void form.run(async () => {
      await api.channels.addMembers.mutate({ channelId, userIds: [user.user_id] });
      setChosen('');
      reload();
      return `Subscribed ${user.full_name}.`;
    });
  };
  const remove = (user: Account) =>
    form.run(async () => {
      await api.channels.removeMembers.mutate({ channelId, userIds: [user.user_id] });
      reload();
      return `Unsubscribed ${user.full_name}.`;
    });

  return (
    <section className="card" aria-labelledby="members-title">
      <h2 id="members-title">Subscribers</h2>
      <Loading loaded={members}>
        {({ subscribers }) => {
          const subscribed = new Set(subscribers);
          const candidates = users.filter((u) => u.is_active && !subscribed.has(u.user_id));
          return (
            <>
              <form onSubmit={add} className="inline-form" aria-label="New subscriber">
                <Field label="Add a subscriber" name="userIds" error={form.errorFor('userIds')}>
                  {(p) => (
                    <select {...p} value={chosen} onChange={(e) => setChosen(e.target.value)}>
                      <option value="">Choose someone…</option>
                      {candidates.map((u) => (
                        <option key={u.user_id} value={u.user_id}>
                          {u.full_name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <button
                  type="submit"
                  className="button primary"
                  disabled={form.busy || chosen === ''}
                >
                  Subscribe
                </button>
              </form>
              <FormStatus form={form} fields={['userIds']} />
              {subscribers.length === 0 ? (
                <p className="muted">Nobody is subscribed.</p>
              ) : (
                <ul className="member-list" id="channel-members">
                  {subscribers.map((id) => {
                    const user = byId.get(id);
                    const name = user?.full_name ?? `User ${id}`;
                    return (
                      <li key={id}>
                        <span>{name}</span>
                        {user ? (
                          <button
                            type="button"
                            className="button small"
                            disabled={form.busy}
                            onClick={() => remove(user)}
                          >
                            Remove<span className="visually-hidden"> {name}</span>
                          </button>
                        ) : null}
                      </li>
                    );
                  })}
                </ul>
              )}
            </>
          );
        }}
      </Loading>
    </section>
  );
}
