import { useState } from 'react';
import { Link } from 'wouter';
import type { ListedStream } from '../../../../server/shared/zulip-api/index.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { NewChannelForm } from './NewChannelForm.js';

/** A channel as channels.list gives it (`GET /streams` with `include_default`: `is_default`). */
export type ChannelSummary = ListedStream;

export function ChannelsPage() {
  const api = useApi();
  const [channels, reload] = useLoad(async () => (await api.channels.list.query()).streams);
  const [adding, setAdding] = useState(false);
  const [defaultError, setDefaultError] = useState<string | null>(null);
  const setDefault = (channelId: number, isDefault: boolean) => {
    setDefaultError(null);
    api.channels.setDefault
      .mutate({ channelId, isDefault })
      .then(reload, (err: unknown) => setDefaultError(shownError(err).message));
  };
  return (
    <>
      <PageTitle title="Channels">
        Every channel, private ones included. People who join are subscribed to the default
        channels.
      </PageTitle>
      <div className="toolbar">
        <button
          type="button"
          id="add-channel"
          className="button primary"
          aria-expanded={adding}
          aria-controls="add-channel-form"
          onClick={() => setAdding(!adding)}
        >
          {adding ? 'Close the new-channel form' : 'Add a channel'}
        </button>
      </div>
      {adding ? <NewChannelForm onCreated={reload} /> : null}
      {defaultError ? (
        <p className="alert alert-error" role="alert">
          {defaultError}
        </p>
      ) : null}
      <Loading loaded={channels}>
        {(list) => (
          <table id="channels-table" className="table stack">
            <caption className="visually-hidden">Channels</caption>
            <thead>
              <tr>
                <th scope="col">Channel</th>
                <th scope="col">Description</th>
                <th scope="col">Privacy</th>
                <th scope="col">Subscribers</th>
                <th scope="col">Default for new people</th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.stream_id}>
                  <th scope="row" data-label="Channel">
                    <Link href={`/channels/${c.stream_id}`}>#{c.name}</Link>
                  </th>
                  <td data-label="Description" className="wrap">
                    {c.description || <span className="muted">—</span>}
                  </td>
                  <td data-label="Privacy">{c.invite_only ? 'Private' : 'Public'}</td>
                  <td data-label="Subscribers">{c.subscriber_count ?? '—'}</td>
                  <td data-label="Default for new people">
                    {c.invite_only ? (
                      <span className="muted">—</span>
                    ) : (
                      <input
                        type="checkbox"
                        aria-label={`Default for new people: #${c.name}`}
                        checked={c.is_default === true}
                        onChange={(e) => setDefault(c.stream_id, e.target.checked)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
    </>
  );
}
