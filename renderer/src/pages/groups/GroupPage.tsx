import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'wouter';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { MemberEditor } from '../../components/MemberEditor.js';
import { useForm } from '../../components/use-form.js';

type Group = Outputs['groups']['list'][number];

/** /groups/:id: a group's name, description, members and (de)activation. */
export function GroupPage() {
  const api = useApi();
  const groupId = Number(useParams<{ id: string }>().id);
  const [data, reload] = useLoad(async () => {
    const [groups, users] = await Promise.all([api.groups.list.query(), api.users.list.query()]);
    const group = groups.find((g) => g.id === groupId && !g.is_system_group);
    if (!group) throw new Error('No such group.');
    return { group, users: users.members };
  }, [groupId]);

  return (
    <>
      <p className="breadcrumb">
        <Link href="/groups">User groups</Link>
      </p>
      <Loading loaded={data}>
        {({ group, users }) => (
          <>
            <PageTitle title={group.name}>{group.description}</PageTitle>
            <GroupSettings key={group.id} group={group} onSaved={reload} />
            <section className="card" aria-labelledby="group-members-title">
              <h2 id="group-members-title">Members</h2>
              <MemberEditor
                noun="member"
                listId="group-members"
                memberIds={group.members}
                people={users}
                add={(userId) =>
                  api.groups.updateMembers.mutate({ groupId, add: [userId] }).then(reload)
                }
                remove={(userId) =>
                  api.groups.updateMembers.mutate({ groupId, delete: [userId] }).then(reload)
                }
              />
            </section>
            <GroupActivation group={group} onChanged={reload} />
          </>
        )}
      </Loading>
    </>
  );
}

function GroupSettings({ group: loaded, onSaved }: { group: Group; onSaved(): void }) {
  const api = useApi();
  const form = useForm();
  const [group, setGroup] = useState(loaded);
  const [name, setName] = useState(group.name);
  const [description, setDescription] = useState(group.description);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes = {
      ...(name !== group.name ? { name } : {}),
      ...(description !== group.description ? { description } : {}),
    };
    void form.run(async () => {
      if (Object.keys(changes).length === 0) return 'Nothing to save.';
      await api.groups.update.mutate({ groupId: group.id, ...changes });
      setGroup({ ...group, name, description });
      onSaved();
      return 'Group saved.';
    });
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="group-settings-title">
      <h2 id="group-settings-title">Settings</h2>
      <Field label="Name" name="name" error={form.errorFor('name')}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Description" name="description" error={form.errorFor('description')}>
        {(p) => (
          <input {...p} value={description} onChange={(e) => setDescription(e.target.value)} />
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Save group
        </button>
      </div>
      <FormStatus form={form} fields={['name', 'description']} />
    </form>
  );
}

function GroupActivation({ group, onChanged }: { group: Group; onChanged(): void }) {
  const api = useApi();
  const form = useForm();
  const [confirmElement, confirm] = useConfirm();
  const toggle = async () => {
    if (!group.deactivated) {
      const ok = await confirm({
        title: `Deactivate ${group.name}?`,
        body: 'It can no longer be mentioned or joined. Settings that name it keep working until changed.',
        confirmLabel: 'Deactivate',
        danger: true,
      });
      if (!ok) return;
    }
    await form.run(async () => {
      if (group.deactivated) await api.groups.reactivate.mutate({ groupId: group.id });
      else await api.groups.deactivate.mutate({ groupId: group.id });
      onChanged();
      return null;
    });
  };
  return (
    <section className="card" aria-labelledby="group-status-title">
      {confirmElement}
      <h2 id="group-status-title">Status</h2>
      <p>{group.deactivated ? 'This group is deactivated.' : 'This group is active.'}</p>
      <button
        type="button"
        className={group.deactivated ? 'button' : 'button danger'}
        disabled={form.busy}
        onClick={toggle}
      >
        {group.deactivated ? 'Reactivate' : 'Deactivate'} {group.name}
      </button>
      <FormStatus form={form} />
    </section>
  );
}
