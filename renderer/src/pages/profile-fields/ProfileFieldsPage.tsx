import { type FormEvent, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { CheckField, Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';
import { profileFieldTypeLabel } from '../../labels.js';
import { NewFieldForm } from './NewFieldForm.js';

type ProfileField = Outputs['profileFields']['list'][number];

export function ProfileFieldsPage() {
  const api = useApi();
  const [fields, reload] = useLoad(() => api.profileFields.list.query());
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [confirmElement, confirm] = useConfirm();

  const move = async (list: ProfileField[], index: number, by: -1 | 1) => {
    const order = list.map((f) => f.id);
    const [moved] = order.splice(index, 1);
    order.splice(index + by, 0, moved!);
    setMessage(null);
    try {
      await api.profileFields.reorder.mutate({ order });
      reload();
    } catch (err) {
      setMessage(shownError(err).message);
    }
  };
  const remove = async (field: ProfileField) => {
    const ok = await confirm({
      title: `Delete the field ${field.name}?`,
      body: 'Everyone’s value for it is deleted too.',
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!ok) return;
    setMessage(null);
    try {
      await api.profileFields.delete.mutate({ fieldId: field.id });
      reload();
    } catch (err) {
      setMessage(shownError(err).message);
    }
  };

  return (
    <>
      <PageTitle title="Profile fields">
        Extra fields on everyone’s profile, in the order shown here.
      </PageTitle>
      {confirmElement}
      <div className="toolbar">
        <button
          type="button"
          id="add-field"
          className="button primary"
          aria-expanded={adding}
          aria-controls="add-field-form"
          onClick={() => setAdding(!adding)}
        >
          {adding ? 'Close the new-field form' : 'Add a field'}
        </button>
      </div>
      {adding ? <NewFieldForm onCreated={reload} /> : null}
      {message ? (
        <p className="alert alert-error" role="alert">
          {message}
        </p>
      ) : null}
      <Loading loaded={fields}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">No custom profile fields yet.</p>
          ) : (
            <ol className="field-list" id="profile-fields">
              {list.map((field, index) => (
                <li key={field.id} className="card">
                  <div className="field-row">
                    <div>
                      <strong>{field.name}</strong>{' '}
                      <span className="muted">
                        {profileFieldTypeLabel(field.type)}
                        {field.required ? ', required' : ''}
                      </span>
                      {field.hint ? <p className="field-hint">{field.hint}</p> : null}
                    </div>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="button small"
                        disabled={index === 0}
                        onClick={() => move(list, index, -1)}
                      >
                        Move up<span className="visually-hidden"> {field.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button small"
                        disabled={index === list.length - 1}
                        onClick={() => move(list, index, 1)}
                      >
                        Move down<span className="visually-hidden"> {field.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button small"
                        aria-expanded={editing === field.id}
                        onClick={() => setEditing(editing === field.id ? null : field.id)}
                      >
                        Edit<span className="visually-hidden"> {field.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => remove(field)}
                      >
                        Delete<span className="visually-hidden"> {field.name}</span>
                      </button>
                    </div>
                  </div>
                  {editing === field.id ? <EditField field={field} onSaved={reload} /> : null}
                </li>
              ))}
            </ol>
          )
        }
      </Loading>
    </>
  );
}

/** PATCH /realm/profile_fields/{id}: label, hint and flags. */
function EditField({ field, onSaved }: { field: ProfileField; onSaved(): void }) {
  const api = useApi();
  const form = useForm();
  const [name, setName] = useState(field.name);
  const [hint, setHint] = useState(field.hint);
  const [required, setRequired] = useState(field.required);
  const [summary, setSummary] = useState(field.display_in_profile_summary === true);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(async () => {
      await api.profileFields.update.mutate({
        fieldId: field.id,
        name,
        hint,
        required,
        displayInProfileSummary: summary,
      });
      onSaved();
      return 'Field saved.';
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Edit ${field.name}`} className="edit-field">
      <div className="grid">
        <Field label="Label" name="name" error={form.errorFor('name')}>
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Hint" name="hint" error={form.errorFor('hint')}>
          {(p) => <input {...p} value={hint} onChange={(e) => setHint(e.target.value)} />}
        </Field>
      </div>
      <CheckField name="required" label="Required" checked={required} onChange={setRequired} />
      <CheckField
        name="summary"
        label="Show in the profile summary"
        checked={summary}
        onChange={setSummary}
      />
      <div className="actions">
        <button type="submit" className="button small primary" disabled={form.busy}>
          Save field
        </button>
      </div>
      <FormStatus form={form} fields={['name', 'hint']} />
    </form>
  );
}
