import { type FormEvent, useState } from 'react';
import { PASSWORD_RULE_HINT } from '../../../../server/shared/password-rule.js';
import { useApi } from '../../api/context.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import { ImportFromZulipForm } from './ImportFromZulipForm.js';

const FIELDS = ['realmName', 'ownerName', 'email', 'password', 'confirm'] as const;

/**
 * First run: the organization and its owner, as the person at the keyboard
 * chooses them. Nothing exists on the server until this completes.
 */
export function SetupPage({ onDone }: { onDone(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState({
    realmName: '',
    ownerName: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [mismatch, setMismatch] = useState(false);
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
    const { confirm: _, ...input } = values;
    if (await form.run(() => api.setup.complete.mutate(input).then(() => null))) onDone();
  };

  return (
    <main className="content solo" id="main">
      <section className="card setup" aria-labelledby="setup-title">
        <div className="brand">
          <img className="logo" src="icon.svg" alt="" width="28" height="28" />
          <span>Hearth</span>
        </div>
        <h1 id="setup-title" tabIndex={-1}>
          Set up your organization
        </h1>
        <p className="lead">
          Name the organization and create its owner account: you will log in to Zulip apps with
          this e-mail and password.
        </p>
        <form onSubmit={submit} noValidate aria-label="Organization setup">
          <Field label="Organization name" name="realmName" error={form.errorFor('realmName')}>
            {(p) => <input {...p} value={values.realmName} onChange={set('realmName')} required />}
          </Field>
          <Field label="Your name" name="ownerName" error={form.errorFor('ownerName')}>
            {(p) => (
              <input
                {...p}
                value={values.ownerName}
                onChange={set('ownerName')}
                autoComplete="name"
                required
              />
            )}
          </Field>
          <Field label="E-mail" name="email" error={form.errorFor('email')}>
            {(p) => (
              <input
                {...p}
                type="email"
                value={values.email}
                onChange={set('email')}
                autoComplete="email"
                required
              />
            )}
          </Field>
          <Field
            label="Password"
            name="password"
            error={form.errorFor('password')}
            hint={PASSWORD_RULE_HINT}
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
            label="Password again"
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
            <button type="submit" className="button primary" disabled={form.busy}>
              {form.busy ? 'Creating…' : 'Create organization'}
            </button>
          </div>
          <FormStatus form={form} fields={FIELDS} />
        </form>
      </section>
      <ImportFromZulipForm onDone={onDone} />
    </main>
  );
}
