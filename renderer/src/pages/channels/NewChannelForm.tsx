import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { CheckField, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';

const EMPTY = { name: '', description: '', isPrivate: false };
const FIELDS = ['name', 'description'] as const;

/** POST /channels/create, with no subscribers yet (add them on the channel's page). */
export function NewChannelForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState(EMPTY);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      await api.channels.create.mutate(sent);
      setValues(EMPTY);
      onCreated();
      return `Created #${sent.name.trim()}.`;
    });
  };

  return (
    <form
      id="add-channel-form"
      className="card"
      onSubmit={submit}
      noValidate
      aria-label="New channel"
    >
      <h2>New channel</h2>
      <div className="grid">
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        <TextField
          label="Description"
          name="description"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
      </div>
      <CheckField
        name="isPrivate"
        label="Private: only subscribers see it"
        checked={values.isPrivate}
        onChange={(isPrivate) => setValues({ ...values, isPrivate })}
      />
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Create channel
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
