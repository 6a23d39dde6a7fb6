import { useState } from 'react';
import { Link } from 'wouter';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { NewChannelForm } from './NewChannelForm.js';

/** The fields of a Zulip channel object this page shows. */
export interface ChannelSummary {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  subscriber_count?: number;
  is_archived?: boolean;
}

export function ChannelsPage() {
  const api = useApi();
  const [channels, reload] = useLoad(
    async () => (await api.channels.list.query()).streams as unknown as ChannelSummary[],
  );
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle title="Channels">Every channel, private ones included.</PageTitle>
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
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loading>
    </>
  );
}
