import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { CheckField, Field, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import { PROFILE_FIELD_TYPES, SELECT_FIELD, selectFieldData } from '../../labels.js';

const EMPTY = { name: '', hint: '', fieldType: 1, options: '', required: false, summary: false };
const FIELDS = ['name', 'hint', 'fieldType', 'fieldData'] as const;

/** POST /realm/profile_fields */
export function NewFieldForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState(EMPTY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      await api.profileFields.create.mutate({
        name: sent.name,
        hint: sent.hint,
        fieldType: sent.fieldType,
        required: sent.required,
        displayInProfileSummary: sent.summary,
        ...(sent.fieldType === SELECT_FIELD ? { fieldData: selectFieldData(sent.options) } : {}),
      });
      setValues(EMPTY);
      onCreated();
      return `Added the field ${sent.name.trim()}.`;
    });
  };
  return (
    <form id="add-field-form" className="card" onSubmit={submit} noValidate aria-label="New field">
      <h2>New profile field</h2>
      <div className="grid">
        <TextField label="Label" name="name" form={form} values={values} setValues={setValues} />
        <Field label="Type" name="fieldType" error={form.errorFor('fieldType')}>
          {(p) => (
            <select
              {...p}
              value={values.fieldType}
              onChange={(e) => setValues({ ...values, fieldType: Number(e.target.value) })}
            >
              {PROFILE_FIELD_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <TextField label="Hint" name="hint" form={form} values={values} setValues={setValues} />
      </div>
      {values.fieldType === SELECT_FIELD ? (
        <Field
          label="Options"
          name="fieldData"
          error={form.errorFor('fieldData')}
          hint="One option per line, in the order people see them."
        >
          {(p) => (
            <textarea
              {...p}
              rows={4}
              value={values.options}
              onChange={(e) => setValues({ ...values, options: e.target.value })}
            />
          )}
        </Field>
      ) : null}
      <CheckField
        name="required"
        label="Required"
        checked={values.required}
        onChange={(required) => setValues({ ...values, required })}
      />
      <CheckField
        name="summary"
        label="Show in the profile summary"
        checked={values.summary}
        onChange={(summary) => setValues({ ...values, summary })}
      />
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Add field
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
