import { useState } from 'react';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { botTypeLabel, isSystemBot } from '../../labels.js';
import { AccountTable } from '../users/UsersPage.js';
import { NewBotForm } from './NewBotForm.js';

export function BotsPage() {
  const api = useApi();
  const [users, reload] = useLoad(() => api.users.list.query());
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle title="Bots">
        Accounts for scripts and integrations; each logs in with its API key.
      </PageTitle>
      <div className="toolbar">
        <button
          type="button"
          id="add-bot"
          className="button primary"
          aria-expanded={adding}
          aria-controls="add-bot-form"
          onClick={() => setAdding(!adding)}
        >
          {adding ? 'Close the new-bot form' : 'Add a bot'}
        </button>
      </div>
      {adding ? <NewBotForm onCreated={reload} /> : null}
      <Loading loaded={users}>
        {(value) => {
          const names = new Map(value.members.map((u) => [u.user_id, u.full_name]));
          return (
            <AccountTable
              id="bots-table"
              caption="Bots"
              accounts={value.members.filter((u) => u.is_bot)}
              onChanged={reload}
              locked={isSystemBot}
              extra={[
                { heading: 'Type', cell: (bot) => botTypeLabel(bot.bot_type) },
                {
                  heading: 'Owner',
                  cell: (bot) =>
                    bot.bot_owner_id == null ? '—' : (names.get(bot.bot_owner_id) ?? '?'),
                },
              ]}
            />
          );
        }}
      </Loading>
    </>
  );
}
