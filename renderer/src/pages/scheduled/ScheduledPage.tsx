import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';

/** Everyone's messages waiting to be sent, soonest first (read-only: senders manage their own). */
export function ScheduledPage() {
  const api = useApi();
  const [data] = useLoad(async () => {
    const [messages, users, channels] = await Promise.all([
      api.scheduled.overview.query(),
      api.users.list.query(),
      api.channels.list.query(),
    ]);
    return {
      messages,
      userName: new Map(users.members.map((u) => [u.user_id, u.full_name])),
      channelName: new Map(channels.streams.map((c) => [c.stream_id, c.name])),
    };
  });
  return (
    <>
      <PageTitle title="Scheduled messages">
        Messages people have scheduled, in the order they will be sent. Direct messages keep their
        text private.
      </PageTitle>
      <Loading loaded={data}>
        {({ messages, userName, channelName }) =>
          messages.length === 0 ? (
            <p className="muted">Nothing is scheduled.</p>
          ) : (
            <table id="scheduled-table" className="table stack">
              <caption className="visually-hidden">Scheduled messages</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {messages.map((m) => (
                  <tr key={m.scheduled_message_id}>
                    <th scope="row" data-label="When">
                      {new Date(m.scheduled_delivery_timestamp * 1000).toLocaleString()}
                      {m.failed ? <span className="field-error"> (failed)</span> : null}
                    </th>
                    <td data-label="From">{userName.get(m.sender_id) ?? `User ${m.sender_id}`}</td>
                    <td data-label="To" className="wrap">
                      {m.type === 'stream'
                        ? `#${channelName.get(m.stream_id ?? 0) ?? m.stream_id} > ${m.topic}`
                        : m.recipient_ids.map((id) => userName.get(id) ?? `User ${id}`).join(', ')}
                    </td>
                    <td data-label="Message" className="wrap">
                      {m.content ?? <span className="muted">Direct message</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loading>
    </>
  );
}
