import { type FormEvent, useState } from 'react';
import { PASSWORD_RULE_HINT } from '../../../../server/shared/password-rule.js';
import { useApi } from '../../api/context.js';
import { Field, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import { MEMBER_ROLE, ROLES } from '../../labels.js';

const EMPTY = { fullName: '', email: '', password: '', role: MEMBER_ROLE };
const FIELDS = ['fullName', 'email', 'password', 'role'] as const;

/**
 * POST /users, then the role (which users.update checks) when it is not
 * Member. An empty password creates the account without one (set it later
 * with Set password); any other must meet the password rule.
 */
export function NewUserForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState(EMPTY);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // What was sent names the message: the form is cleared before it shows.
    const sent = values;
    void form.run(async () => {
      const { user_id } = await api.users.create.mutate({
        fullName: sent.fullName,
        email: sent.email,
        password: sent.password === '' ? null : sent.password,
      });
      setValues(EMPTY);
      onCreated();
      if (sent.role !== MEMBER_ROLE) {
        await api.users.update.mutate({ userId: user_id, role: sent.role });
        onCreated();
      }
      return `Created ${sent.fullName.trim()}.`;
    });
  };

  return (
    <form id="add-user-form" className="card" onSubmit={submit} noValidate aria-label="New user">
      <h2>New user</h2>
      <div className="grid">
        <TextField
          label="Full name"
          name="fullName"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={`${PASSWORD_RULE_HINT} Leave it empty to set one later.`}
          form={form}
          values={values}
          setValues={setValues}
        />
        <Field label="Role" name="role" error={form.errorFor('role')}>
          {(p) => (
            <select
              {...p}
              value={values.role}
              onChange={(e) => setValues({ ...values, role: Number(e.target.value) })}
            >
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Create user
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
