import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';

/**
 * The key POST /api/v1/jwt/fetch_api_key verifies tokens with. It is never
 * read back: the form only sets or removes it.
 */
export function JwtKeyForm() {
  const api = useApi();
  const form = useForm();
  const [key, setKey] = useState('');

  const save = (event: FormEvent) => {
    event.preventDefault();
    void form.run(async () => {
      await api.organization.setJwtKey.mutate({ key });
      setKey('');
      return 'JWT key saved: JWT login is on.';
    });
  };
  const clear = () =>
    form.run(async () => {
      await api.organization.setJwtKey.mutate({ key: null });
      return 'JWT key removed: JWT login is off.';
    });

  return (
    <form onSubmit={save} className="card" aria-labelledby="jwt-title" noValidate>
      <h2 id="jwt-title">JWT login</h2>
      <p className="muted">
        With a key, other systems log people in by sending a signed token (HS256) to{' '}
        <code>/api/v1/jwt/fetch_api_key</code>.
      </p>
      <Field
        label="New key"
        name="key"
        error={form.errorFor('key')}
        hint="At least 32 bytes. The stored key is never shown."
      >
        {(p) => (
          <input
            {...p}
            type="password"
            autoComplete="off"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy || key === ''}>
          Set key
        </button>
        <button type="button" className="button" disabled={form.busy} onClick={clear}>
          Remove key
        </button>
      </div>
      <FormStatus form={form} fields={['key']} />
    </form>
  );
}
