import { type FormEvent, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { CheckField, Field, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';

type Settings = Outputs['backup']['list']['settings'];
const FIELDS = ['enabled', 'hour', 'keep', 'folder'] as const;
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export function BackupSettingsForm(props: { settings: Settings; onSaved: () => void }) {
  const api = useApi();
  const form = useForm();
  // Set from the list once, then from each save's answer: a list reloaded by
  // another action (a backup) must not undo edits in progress.
  const [values, setValues] = useState(props.settings);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      setValues(await api.backup.updateSettings.mutate(sent));
      props.onSaved();
      return sent.enabled
        ? `Saved. A backup runs daily at ${String(sent.hour).padStart(2, '0')}:00.`
        : 'Saved. Automatic backups are off.';
    });
  };

  return (
    <form
      id="backup-settings-form"
      className="card"
      onSubmit={submit}
      noValidate
      aria-label="Automatic backups"
    >
      <h2>Automatic backups</h2>
      <CheckField
        label="Back up every day"
        name="enabled"
        checked={values.enabled}
        onChange={(enabled) => setValues({ ...values, enabled })}
      />
      <div className="grid">
        <Field
          label="At"
          name="hour"
          error={form.errorFor('hour')}
          hint="This computer's local time."
        >
          {(p) => (
            <select
              {...p}
              value={values.hour}
              onChange={(e) => setValues({ ...values, hour: Number(e.target.value) })}
            >
              {HOURS.map((hour) => (
                <option key={hour} value={hour}>
                  {String(hour).padStart(2, '0')}:00
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Keep"
          name="keep"
          error={form.errorFor('keep')}
          hint="Automatic backups kept; older ones are removed. Yours never are."
        >
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              inputMode="numeric"
              value={Number.isNaN(values.keep) ? '' : values.keep}
              onChange={(e) => setValues({ ...values, keep: e.target.valueAsNumber })}
            />
          )}
        </Field>
        <TextField
          label="Folder"
          name="folder"
          hint="An absolute path; another disk keeps backups safe from this one failing."
          form={form}
          values={values}
          setValues={setValues}
        />
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Save
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
