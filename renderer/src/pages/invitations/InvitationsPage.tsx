import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { CopyButton } from '../../components/CopyButton.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

const ROLES: [number, string][] = [
  [400, 'Member'],
  [600, 'Guest'],
  [300, 'Moderator'],
  [200, 'Administrator'],
  [100, 'Owner'],
];
const roleName = (role: number) => ROLES.find(([r]) => r === role)?.[1] ?? String(role);

const EXPIRY: [string, string][] = [
  ['1440', '1 day'],
  ['14400', '10 days'],
  ['43200', '30 days'],
  ['never', 'Never'],
];

const expiresIn = (value: string) => (value === 'never' ? null : Number(value));

const when = (seconds: number | null) =>
  seconds === null ? 'never' : new Date(seconds * 1000).toLocaleString();

/**
 * Invitations: Hearth sends no e-mail, so every invitation is a link to pass
 * on (chat, paper, a QR code); whoever opens it chooses a name and password.
 */
export function InvitationsPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.invitations.list.query());
  const linkForm = useForm();
  const emailForm = useForm();
  const [role, setRole] = useState('400');
  const [expiry, setExpiry] = useState('14400');
  const [emails, setEmails] = useState('');
  const [listError, setListError] = useState<string | null>(null);

  const createLink = (event: FormEvent) => {
    event.preventDefault();
    void linkForm.run(async () => {
      await api.invitations.createLink.mutate({
        inviteAs: Number(role),
        expiresInMinutes: expiresIn(expiry),
      });
      reload();
      return 'Link created: copy it from the list below.';
    });
  };
  const invite = (event: FormEvent) => {
    event.preventDefault();
    void emailForm.run(async () => {
      await api.invitations.invite.mutate({
        emails,
        inviteAs: Number(role),
        expiresInMinutes: expiresIn(expiry),
      });
      setEmails('');
      reload();
      return 'Invited: copy each person’s link from the list below.';
    });
  };
  const revoke = (id: number, isMultiuse: boolean) => {
    setListError(null);
    api.invitations.revoke
      .mutate({ id, isMultiuse })
      .then(reload, (err: unknown) => setListError(shownError(err).message));
  };

  const choices = (
    <div className="grid">
      <Field label="Joins as" name="inviteAs">
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.target.value)}>
            {ROLES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Expires after" name="expires">
        {(props) => (
          <select {...props} value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRY.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );

  return (
    <>
      <PageTitle title="Invitations">
        Bring people in with a link: whoever opens it picks a name and a password, and joins the
        default channels. Hearth sends no e-mail, so pass the link on yourself.
      </PageTitle>
      <form id="invite-link-form" className="card" onSubmit={createLink} aria-label="New link">
        <h2>Reusable invitation link</h2>
        {choices}
        <div className="actions">
          <button type="submit" className="button primary" disabled={linkForm.busy}>
            Create link
          </button>
        </div>
        <FormStatus form={linkForm} />
      </form>
      <form
        id="invite-email-form"
        className="card"
        onSubmit={invite}
        aria-label="Invite by address"
      >
        <h2>Invite by e-mail address</h2>
        <Field label="Addresses" name="emails" hint="One per line or separated by commas.">
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={emails}
              onChange={(e) => setEmails(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="button" disabled={emailForm.busy}>
            Invite
          </button>
        </div>
        <FormStatus form={emailForm} fields={['emails']} />
      </form>
      {listError ? (
        <p className="alert alert-error" role="alert">
          {listError}
        </p>
      ) : null}
      <Loading loaded={list}>
        {(invites) =>
          invites.length === 0 ? (
            <p className="muted">No open invitations.</p>
          ) : (
            <ul className="member-list card" id="invitations">
              {invites.map((i) => (
                <li key={`${i.is_multiuse}-${i.id}`}>
                  <span className="wrap">
                    <strong>
                      {'email' in i && typeof i.email === 'string' ? i.email : 'Reusable link'}
                    </strong>{' '}
                    <span className="muted">
                      ({roleName(i.invited_as)}, expires {when(i.expiry_date)})
                    </span>
                    <br />
                    <code>{i.link_url}</code>
                  </span>
                  <span className="actions">
                    <CopyButton text={i.link_url} label="Copy link" />
                    <button
                      type="button"
                      className="button small danger"
                      onClick={() => revoke(i.id, i.is_multiuse)}
                    >
                      Revoke<span className="visually-hidden"> {i.link_url}</span>
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}
