import { useState } from 'react';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { ConnectForm } from './ConnectForm.js';
import { DeliveryLog } from './DeliveryLog.js';
import { INCOMING_WEBHOOK, type IntegrationSummary } from './types.js';

/**
 * The team's other servers (forge, CI, monitoring) posting at Zulip's
 * integration URLs: the URL for each tool, the bots that post, and what
 * became of their last deliveries.
 */
export function IntegrationsPage() {
  const api = useApi();
  const [data, reload] = useLoad(async () => {
    const [catalog, bots, channels, users] = await Promise.all([
      api.integrations.catalog.query(),
      api.bots.list.query(),
      api.channels.list.query(),
      api.users.list.query(),
    ]);
    return {
      baseUrl: catalog.baseUrl,
      integrations: catalog.integrations as IntegrationSummary[],
      bots: bots.filter((b) => b.bot_type === INCOMING_WEBHOOK && b.is_active),
      channels: channels.streams.map((c) => c.name).sort(),
      names: new Map(users.members.map((u) => [u.user_id, u.full_name])),
    };
  });
  const [chosen, setChosen] = useState('gitea');
  const [watching, setWatching] = useState<number | null>(null);

  return (
    <>
      <PageTitle title="Integrations">
        Your forge, CI and monitoring post into channels here, at the URLs Zulip’s integrations use.
        Make a URL for each tool and paste it where the tool asks for a webhook.
      </PageTitle>
      <Loading loaded={data}>
        {({ baseUrl, integrations, bots, channels, names }) => (
          <>
            <ConnectForm
              integrations={integrations}
              bots={bots}
              channels={channels}
              chosen={chosen}
              onChoose={setChosen}
              onBotCreated={reload}
            />
            <section className="card" aria-labelledby="webhook-bots-heading">
              <h2 id="webhook-bots-heading">Webhook bots</h2>
              {bots.length === 0 ? (
                <p className="muted">None yet: “A new bot…” above makes one.</p>
              ) : (
                <table id="webhook-bots" className="table stack">
                  <caption className="visually-hidden">Incoming-webhook bots</caption>
                  <thead>
                    <tr>
                      <th scope="col">Bot</th>
                      <th scope="col">Owner</th>
                      <th scope="col">
                        <span className="visually-hidden">Deliveries</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {bots.map((bot) => (
                      <tr key={bot.user_id}>
                        <th scope="row" data-label="Bot">
                          {bot.full_name} <span className="muted">{bot.email}</span>
                        </th>
                        <td data-label="Owner">
                          {bot.owner_id === null ? '—' : (names.get(bot.owner_id) ?? '?')}
                        </td>
                        <td className="row-actions">
                          <button
                            type="button"
                            className="button small"
                            aria-expanded={watching === bot.user_id}
                            aria-controls={`deliveries-${bot.user_id}`}
                            onClick={() =>
                              setWatching(watching === bot.user_id ? null : bot.user_id)
                            }
                          >
                            {watching === bot.user_id ? 'Hide deliveries' : 'Last deliveries'}
                            <span className="visually-hidden"> to {bot.full_name}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            {watching !== null ? (
              <DeliveryLog
                botId={watching}
                botName={bots.find((b) => b.user_id === watching)?.full_name ?? ''}
              />
            ) : null}
            <section className="card" aria-labelledby="integrations-heading">
              <h2 id="integrations-heading">What Hearth understands</h2>
              <table id="integrations-table" className="table stack">
                <caption className="visually-hidden">Integrations</caption>
                <thead>
                  <tr>
                    <th scope="col">Tool</th>
                    <th scope="col">Posts</th>
                    <th scope="col">URL</th>
                  </tr>
                </thead>
                <tbody>
                  {integrations.map((i) => (
                    <tr key={i.name}>
                      <th scope="row" data-label="Tool">
                        {i.displayName}
                      </th>
                      <td data-label="Posts" className="wrap">
                        {i.description}
                      </td>
                      <td data-label="URL" className="wrap">
                        <code>
                          {baseUrl}
                          {i.name}
                        </code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </>
        )}
      </Loading>
    </>
  );
}
