import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

const EMPTY = { name: '', pygmentsLanguage: '', urlTemplate: '' };
const FIELDS = ['name', 'pygmentsLanguage', 'urlTemplate'] as const;

/** /realm/playgrounds: where a code block's "open in playground" link goes. */
export function PlaygroundsPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.playgrounds.list.query());
  const form = useForm();
  const [values, setValues] = useState(EMPTY);
  const [removeError, setRemoveError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      await api.playgrounds.create.mutate(sent);
      setValues(EMPTY);
      reload();
      return `Added ${sent.name.trim()}.`;
    });
  };
  const remove = (id: number) => {
    setRemoveError(null);
    api.playgrounds.remove.mutate({ playgroundId: id }).then(reload, (err: unknown) => {
      setRemoveError(shownError(err).message);
    });
  };

  return (
    <>
      <PageTitle title="Code playgrounds">
        Code blocks in a language listed here get a link that opens them in the playground.
      </PageTitle>
      <form
        id="add-playground-form"
        className="card"
        onSubmit={submit}
        noValidate
        aria-label="New playground"
      >
        <h2>New playground</h2>
        <div className="grid">
          <TextField label="Name" name="name" form={form} values={values} setValues={setValues} />
          <TextField
            label="Language"
            name="pygmentsLanguage"
            hint="As written after ``` (e.g. python)."
            form={form}
            values={values}
            setValues={setValues}
          />
          <TextField
            label="URL template"
            name="urlTemplate"
            hint="With {code} where the code goes."
            form={form}
            values={values}
            setValues={setValues}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button primary" disabled={form.busy}>
            Add playground
          </button>
        </div>
        <FormStatus form={form} fields={FIELDS} />
      </form>
      {removeError ? (
        <p className="alert alert-error" role="alert">
          {removeError}
        </p>
      ) : null}
      <Loading loaded={list}>
        {(playgrounds) =>
          playgrounds.length === 0 ? (
            <p className="muted">No playgrounds yet.</p>
          ) : (
            <ul className="member-list card" id="playgrounds">
              {playgrounds.map((p) => (
                <li key={p.id}>
                  <span>
                    <strong>{p.name}</strong> <span className="muted">({p.pygments_language})</span>{' '}
                    <code>{p.url_template}</code>
                  </span>
                  <button
                    type="button"
                    className="button small danger"
                    onClick={() => remove(p.id)}
                  >
                    Remove<span className="visually-hidden"> {p.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </>
  );
}
