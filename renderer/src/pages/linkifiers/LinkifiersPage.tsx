import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

const EMPTY = { pattern: '', urlTemplate: '' };
const FIELDS = ['pattern', 'urlTemplate'] as const;

/** /realm/linkifiers: text in messages and topics that becomes a link, tried in this order. */
export function LinkifiersPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.linkifiers.list.query());
  const form = useForm();
  const [values, setValues] = useState(EMPTY);
  const [listError, setListError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      await api.linkifiers.add.mutate(sent);
      setValues(EMPTY);
      reload();
      return `Added ${sent.pattern.trim()}.`;
    });
  };
  const act = (action: Promise<unknown>) => {
    setListError(null);
    action.then(reload, (err: unknown) => setListError(shownError(err).message));
  };
  const move = (ids: number[], from: number, to: number) => {
    const order = [...ids];
    const [moved] = order.splice(from, 1);
    order.splice(to, 0, moved!);
    act(api.linkifiers.reorder.mutate({ orderedIds: order }));
  };

  return (
    <>
      <PageTitle title="Linkifiers">
        Text in messages and topics that matches a pattern becomes a link, e.g. #123 to your issue
        tracker. When patterns overlap, the higher one wins.
      </PageTitle>
      <form
        id="add-linkifier-form"
        className="card"
        onSubmit={submit}
        noValidate
        aria-label="New linkifier"
      >
        <h2>New linkifier</h2>
        <div className="grid">
          <TextField
            label="Pattern"
            name="pattern"
            hint={
              <>
                A regular expression with named groups, e.g. <code>#(?P&lt;id&gt;[0-9]+)</code>.
              </>
            }
            form={form}
            values={values}
            setValues={setValues}
          />
          <TextField
            label="URL template"
            name="urlTemplate"
            hint={
              <>
                The groups in braces, e.g. <code>https://tracker.example/issues/{'{id}'}</code>.
              </>
            }
            form={form}
            values={values}
            setValues={setValues}
          />
        </div>
        <div className="actions">
          <button type="submit" className="button primary" disabled={form.busy}>
            Add linkifier
          </button>
        </div>
        <FormStatus form={form} fields={FIELDS} />
      </form>
      {listError ? (
        <p className="alert alert-error" role="alert">
          {listError}
        </p>
      ) : null}
      <Loading loaded={list}>
        {(linkifiers) =>
          linkifiers.length === 0 ? (
            <p className="muted">No linkifiers yet.</p>
          ) : (
            <ol className="member-list card" id="linkifiers">
              {linkifiers.map((l, index) => {
                const ids = linkifiers.map((x) => x.id);
                return (
                  <li key={l.id}>
                    <span className="wrap">
                      <code>{l.pattern}</code> → <code>{l.url_template}</code>
                    </span>
                    <span className="actions">
                      <button
                        type="button"
                        className="button small"
                        disabled={index === 0}
                        onClick={() => move(ids, index, index - 1)}
                      >
                        Up<span className="visually-hidden"> {l.pattern}</span>
                      </button>
                      <button
                        type="button"
                        className="button small"
                        disabled={index === linkifiers.length - 1}
                        onClick={() => move(ids, index, index + 1)}
                      >
                        Down<span className="visually-hidden"> {l.pattern}</span>
                      </button>
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => act(api.linkifiers.remove.mutate({ id: l.id }))}
                      >
                        Remove<span className="visually-hidden"> {l.pattern}</span>
                      </button>
                    </span>
                  </li>
                );
              })}
            </ol>
          )
        }
      </Loading>
    </>
  );
}
