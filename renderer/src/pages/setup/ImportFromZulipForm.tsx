import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import { waitForRestart } from '../backups/restart.js';

const FIELDS = ['source', 'password', 'confirm'] as const;

/**
 * First run, the other way in: the organization comes from a Zulip export
 * (Zulip 10.x to 12.x, a folder or .tar.gz on this machine), with its ids,
 * history, uploads and settings. Passwords do not travel, so the export's
 * owner account gets the one chosen here; the server restarts on it.
 */
export function ImportFromZulipForm({ onDone }: { onDone(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState({ source: '', password: '', confirm: '' });
  const [mismatch, setMismatch] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const set = (name: keyof typeof values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrongConfirm = values.password !== values.confirm;
    setMismatch(wrongConfirm);
    if (wrongConfirm) {
      form.clear();
      return;
    }
    const ok = await form.run(async () => {
      const done = await api.setup.importZulip.mutate({
        source: values.source,
        ownerPassword: values.password,
      });
      setRestarting(true);
      await waitForRestart(api);
      return `Imported ${done.counts.messages ?? 0} messages; log in as ${done.ownerEmail ?? 'the owner'}.`;
    });
    setRestarting(false);
    if (ok) onDone();
  };

  return (
    <section className="card setup" aria-labelledby="import-zulip-title">
      <h2 id="import-zulip-title">Import from Zulip</h2>
      <p className="lead">
        Bring a Zulip organization's history here: give the path of its export (made with{' '}
        <code>manage.py export</code> or the organization's "Export" page), a folder or a{' '}
        <code>.tar.gz</code>. Passwords cannot be carried over: choose one for the export's owner
        account; the others are set from the Users page.
      </p>
      <form onSubmit={submit} noValidate aria-label="Import from Zulip">
        <Field
          label="Zulip export (folder or .tar.gz)"
          name="source"
          error={form.errorFor('source')}
        >
          {(p) => (
            <input
              {...p}
              value={values.source}
              onChange={set('source')}
              placeholder="/home/me/zulip-export.tar.gz"
              required
            />
          )}
        </Field>
        <Field
          label="Owner's new password"
          name="password"
          error={form.errorFor('password')}
          hint="At least 6 characters."
        >
          {(p) => (
            <input
              {...p}
              type="password"
              value={values.password}
              onChange={set('password')}
              autoComplete="new-password"
              required
            />
          )}
        </Field>
        <Field
          label="Owner's password again"
          name="confirm"
          error={mismatch ? 'The two passwords differ.' : null}
        >
          {(p) => (
            <input
              {...p}
              type="password"
              value={values.confirm}
              onChange={set('confirm')}
              autoComplete="new-password"
              required
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="button" disabled={form.busy}>
            {restarting
              ? 'Starting on the imported data…'
              : form.busy
                ? 'Importing…'
                : 'Import from Zulip'}
          </button>
        </div>
        <FormStatus form={form} fields={FIELDS} />
      </form>
    </section>
  );
}
