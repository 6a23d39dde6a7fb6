import { type FormEvent, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { downloadText } from '../../components/download.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { Secret } from '../../components/Secret.js';
import { useForm } from '../../components/use-form.js';

type Account = Outputs['users']['list']['members'][number];

/** Rename, password, API key and zuliprc for one account (people and bots). */
export function AccountTools({ account, onChanged }: { account: Account; onChanged(): void }) {
  const api = useApi();
  const rename = useForm();
  const password = useForm();
  const keys = useForm();
  const [confirmElement, confirm] = useConfirm();
  const [name, setName] = useState(account.full_name);
  const [newPassword, setNewPassword] = useState('');
  const [newKey, setNewKey] = useState<string | null>(null);

  const submitName = (event: FormEvent) => {
    event.preventDefault();
    const sent = name;
    void rename.run(async () => {
      await api.users.update.mutate({ userId: account.user_id, fullName: sent });
      onChanged();
      return `Renamed to ${sent.trim()}.`;
    });
  };
  const submitPassword = (event: FormEvent) => {
    event.preventDefault();
    void password.run(async () => {
      await api.users.setPassword.mutate({ userId: account.user_id, password: newPassword });
      setNewPassword('');
      return 'Password changed.';
    });
  };
  const regenerate = async () => {
    const ok = await confirm({
      title: `New API key for ${account.full_name}?`,
      body: 'The current key stops working at once: apps and scripts using it must be given the new one.',
      confirmLabel: 'Make a new key',
      danger: true,
    });
    if (!ok) return;
    void keys.run(async () => {
      const { api_key } = account.is_bot
        ? await api.bots.regenerateApiKey.mutate({ botId: account.user_id })
        : await api.users.regenerateApiKey.mutate({ userId: account.user_id });
      setNewKey(api_key);
      return null;
    });
  };
  const zuliprc = () =>
    keys.run(async () => {
      const { text } = await api.users.zuliprc.query({ userId: account.user_id });
      downloadText('zuliprc', text);
      return 'zuliprc downloaded.';
    });

  return (
    <div className="tools">
      {confirmElement}
      <form onSubmit={submitName} noValidate aria-label={`Rename ${account.full_name}`}>
        <Field label="Full name" name="fullName" error={rename.errorFor('fullName')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <div className="actions">
          <button type="submit" className="button small" disabled={rename.busy}>
            Rename
          </button>
        </div>
        <FormStatus form={rename} fields={['fullName']} />
      </form>
      {account.is_bot ? null : (
        <form
          onSubmit={submitPassword}
          noValidate
          aria-label={`Set a password for ${account.full_name}`}
        >
          <Field
            label="New password"
            name="password"
            error={password.errorFor('password')}
            hint="Give it to them in person."
          >
            {(p) => (
              <input
                {...p}
                type="password"
                autoComplete="new-password"
                value={newPassword}
                onChange={(e) => setNewPassword(e.target.value)}
              />
            )}
          </Field>
          <div className="actions">
            <button type="submit" className="button small" disabled={password.busy}>
              Set password
            </button>
          </div>
          <FormStatus form={password} fields={['password']} />
        </form>
      )}
      <div className="key-tools">
        <div className="actions">
          <button type="button" className="button small" onClick={zuliprc} disabled={keys.busy}>
            Download zuliprc
          </button>
          <button type="button" className="button small" onClick={regenerate} disabled={keys.busy}>
            New API key
          </button>
        </div>
        <FormStatus form={keys} />
        {newKey ? (
          <Secret
            title="New API key"
            value={newKey}
            note="The old key no longer works."
            onDismiss={() => setNewKey(null)}
          />
        ) : null}
      </div>
    </div>
  );
}
