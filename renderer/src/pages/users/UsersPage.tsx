import { Fragment, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { roleLabel } from '../../labels.js';
import { AccountTools } from './AccountTools.js';
import { toggleActivation } from './activation.js';
import { NewUserForm } from './NewUserForm.js';
import { RoleSelect } from './RoleSelect.js';

type Account = Outputs['users']['list']['members'][number];

export function UsersPage() {
  const api = useApi();
  const [users, reload] = useLoad(() => api.users.list.query());
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle title="Users">People with an account in this organization.</PageTitle>
      <div className="toolbar">
        <button
          type="button"
          id="add-user"
          className="button primary"
          aria-expanded={adding}
          aria-controls="add-user-form"
          onClick={() => setAdding(!adding)}
        >
          {adding ? 'Close the new-user form' : 'Add a user'}
        </button>
      </div>
      {adding ? <NewUserForm onCreated={reload} /> : null}
      <Loading loaded={users}>
        {(value) => (
          <AccountTable
            id="users-table"
            caption="Users"
            accounts={value.members.filter((u) => !u.is_bot)}
            onChanged={reload}
          />
        )}
      </Loading>
    </>
  );
}

/** People or bots: role, status, and the tools to manage each. */
export function AccountTable(props: {
  id: string;
  caption: string;
  accounts: Account[];
  onChanged(): void;
  /** Extra columns' heading and cells (the Bots page's type and owner). */
  extra?: { heading: string; cell(account: Account): string }[];
  /** Accounts nobody may change (the Notification Bot). */
  locked?: (account: Account) => boolean;
}) {
  const api = useApi();
  const [open, setOpen] = useState<number | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [confirmElement, confirm] = useConfirm();
  const columns = 4 + (props.extra?.length ?? 0) + 1;

  const activation = async (account: Account) => {
    setMessage(null);
    try {
      const done = await toggleActivation(api, confirm, account);
      if (done) {
        setMessage({ kind: 'success', text: done });
        props.onChanged();
      }
    } catch (err) {
      setMessage({ kind: 'error', text: shownError(err).message });
    }
  };

  return (
    <section aria-label={props.caption}>
      {confirmElement}
      {message ? (
        <p
          className={`alert alert-${message.kind}`}
          role={message.kind === 'error' ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
      <table id={props.id} className="table stack">
        <caption className="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Status</th>
            {props.extra?.map((x) => (
              <th scope="col" key={x.heading}>
                {x.heading}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.accounts.map((account) => {
            const locked = props.locked?.(account) ?? false;
            const toolsId = `${props.id}-tools-${account.user_id}`;
            return (
              <Fragment key={account.user_id}>
                <tr data-user-id={account.user_id}>
                  <th scope="row" data-label="Name">
                    {account.full_name}
                  </th>
                  <td data-label="E-mail" className="wrap">
                    {account.delivery_email ?? account.email}
                  </td>
                  <td data-label="Role">
                    {locked || !account.is_active ? (
                      roleText(account, locked)
                    ) : (
                      <RoleSelect
                        key={account.role}
                        userId={account.user_id}
                        name={account.full_name}
                        role={account.role}
                        onSaved={props.onChanged}
                        onAttempt={() => setMessage(null)}
                      />
                    )}
                  </td>
                  <td data-label="Status">{account.is_active ? 'Active' : 'Deactivated'}</td>
                  {props.extra?.map((x) => (
                    <td key={x.heading} data-label={x.heading}>
                      {x.cell(account)}
                    </td>
                  ))}
                  <td>
                    <div className="row-actions">
                      {locked ? (
                        <span className="muted">System bot</span>
                      ) : (
                        <>
                          <button
                            type="button"
                            className="button small"
                            aria-expanded={open === account.user_id}
                            aria-controls={toolsId}
                            onClick={() =>
                              setOpen(open === account.user_id ? null : account.user_id)
                            }
                          >
                            Manage<span className="visually-hidden"> {account.full_name}</span>
                          </button>
                          <button
                            type="button"
                            className={account.is_active ? 'button small danger' : 'button small'}
                            onClick={() => activation(account)}
                          >
                            {account.is_active ? 'Deactivate' : 'Reactivate'}
                            <span className="visually-hidden"> {account.full_name}</span>
                          </button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
                {open === account.user_id && !locked ? (
                  <tr className="tools-row" id={toolsId}>
                    <td colSpan={columns}>
                      <AccountTools account={account} onChanged={props.onChanged} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

const roleText = (account: Account, locked: boolean) =>
  locked ? 'System' : roleLabel(account.role);
