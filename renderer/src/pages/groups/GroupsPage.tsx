import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

const EMPTY = { name: '', description: '' };

export function GroupsPage() {
  const api = useApi();
  const [groups, reload] = useLoad(() => api.groups.list.query());
  const [adding, setAdding] = useState(false);
  return (
    <>
      <PageTitle title="User groups">
        Groups people can mention together and that permissions can name.
      </PageTitle>
      <div className="toolbar">
        <button
          type="button"
          id="add-group"
          className="button primary"
          aria-expanded={adding}
          aria-controls="add-group-form"
          onClick={() => setAdding(!adding)}
        >
          {adding ? 'Close the new-group form' : 'Add a group'}
        </button>
      </div>
      {adding ? <NewGroupForm onCreated={reload} /> : null}
      <Loading loaded={groups}>
        {(list) => (
          <table id="groups-table" className="table stack">
            <caption className="visually-hidden">User groups</caption>
            <thead>
              <tr>
                <th scope="col">Group</th>
                <th scope="col">Description</th>
                <th scope="col">Members</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {list
                .filter((g) => !g.is_system_group)
                .map((g) => (
                  <tr key={g.id}>
                    <th scope="row" data-label="Group">
                      <Link href={`/groups/${g.id}`}>{g.name}</Link>
                    </th>
                    <td data-label="Description" className="wrap">
                      {g.description || <span className="muted">—</span>}
                    </td>
                    <td data-label="Members">{g.members.length}</td>
                    <td data-label="Status">{g.deactivated ? 'Deactivated' : 'Active'}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        )}
      </Loading>
    </>
  );
}

function NewGroupForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState(EMPTY);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    void form.run(async () => {
      await api.groups.create.mutate(sent);
      setValues(EMPTY);
      onCreated();
      return `Created the group ${sent.name.trim()}.`;
    });
  };
  return (
    <form id="add-group-form" className="card" onSubmit={submit} noValidate aria-label="New group">
      <h2>New group</h2>
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
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Create group
        </button>
      </div>
      <FormStatus form={form} fields={['name', 'description']} />
    </form>
  );
}
