import { type FormEvent, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useRefreshOrganization } from '../../api/organization-context.js';
import { CheckField, Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';

type Settings = Outputs['organization']['settings'];

const TOGGLES = [
  ['allow_message_editing', 'Allow people to edit their messages'],
  ['allow_edit_history', 'Keep and show message edit history'],
  ['mandatory_topics', 'Require topics in channel messages'],
  ['enable_read_receipts', 'Enable read receipts'],
  ['emails_restricted_to_domains', 'Restrict new accounts to the allowed e-mail domains'],
] as const;

type Toggle = (typeof TOGGLES)[number][0];
const FIELDS = ['name', 'description', 'waiting_period_threshold'] as const;

/** PATCH /realm for the settings an organization changes most. */
export function SettingsForm({ settings }: { settings: Settings }) {
  const api = useApi();
  const form = useForm();
  const refreshOrganization = useRefreshOrganization();
  const [values, setValues] = useState(settings);
  // What the server holds: the last load, then each save.
  const [saved, setSaved] = useState(settings);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Only what changed, so a save does not announce untouched settings to every client.
    const changed = Object.fromEntries(
      (Object.keys(values) as (keyof Settings)[])
        .filter((key) => key !== 'limits' && values[key] !== saved[key])
        .map((key) => [key, values[key]]),
    );
    void form.run(async () => {
      if (Object.keys(changed).length === 0) return 'Nothing to save.';
      await api.organization.update.mutate(changed);
      setSaved(values);
      if ('name' in changed) refreshOrganization();
      return 'Settings saved.';
    });
  };

  return (
    <form onSubmit={submit} aria-labelledby="settings-title" className="card" noValidate>
      <h2 id="settings-title">Settings</h2>
      <Field label="Organization name" name="name" error={form.errorFor('name')}>
        {(p) => (
          <input
            {...p}
            value={values.name}
            maxLength={settings.limits.name}
            onChange={(e) => setValues({ ...values, name: e.target.value })}
          />
        )}
      </Field>
      <Field
        label="Description"
        name="description"
        error={form.errorFor('description')}
        hint="Shown on the login page; Markdown is allowed."
      >
        {(p) => (
          <textarea
            {...p}
            rows={3}
            value={values.description}
            maxLength={settings.limits.description}
            onChange={(e) => setValues({ ...values, description: e.target.value })}
          />
        )}
      </Field>
      <fieldset className="checks">
        <legend>Messages and accounts</legend>
        {TOGGLES.map(([name, label]) => (
          <CheckField
            key={name}
            name={name}
            label={label}
            checked={values[name as Toggle]}
            onChange={(checked) => setValues({ ...values, [name]: checked })}
          />
        ))}
      </fieldset>
      <Field
        label="Days before new members count as full members"
        name="waiting_period_threshold"
        error={form.errorFor('waiting_period_threshold')}
      >
        {(p) => (
          <input
            {...p}
            type="number"
            min={0}
            inputMode="numeric"
            value={values.waiting_period_threshold}
            onChange={(e) =>
              setValues({ ...values, waiting_period_threshold: e.target.valueAsNumber || 0 })
            }
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Save settings
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
