import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import type { ChannelSummary } from './ChannelsPage.js';

const FIELDS = ['newName', 'description', 'isPrivate'] as const;

/** PATCH /streams/{id}: name, description and privacy, sending only what changed. */
export function ChannelSettingsForm(props: { channel: ChannelSummary; onSaved(): void }) {
  const api = useApi();
  const form = useForm();
  // What the server holds: the channel as loaded, then each save.
  const [channel, setChannel] = useState(props.channel);
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [isPrivate, setPrivate] = useState(channel.invite_only);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changes = {
      ...(name !== channel.name ? { newName: name } : {}),
      ...(description !== channel.description ? { description } : {}),
      ...(isPrivate !== channel.invite_only ? { isPrivate } : {}),
    };
    void form.run(async () => {
      if (Object.keys(changes).length === 0) return 'Nothing to save.';
      await api.channels.update.mutate({ channelId: channel.stream_id, ...changes });
      setChannel({ ...channel, name, description, invite_only: isPrivate });
      props.onSaved();
      return 'Channel saved.';
    });
  };

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="channel-settings-title">
      <h2 id="channel-settings-title">Settings</h2>
      <Field label="Name" name="newName" error={form.errorFor('newName')}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Description" name="description" error={form.errorFor('description')}>
        {(p) => (
          <textarea
            {...p}
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <Field label="Privacy" name="isPrivate" error={form.errorFor('isPrivate')}>
        {(p) => (
          <select
            {...p}
            value={isPrivate ? 'private' : 'public'}
            onChange={(e) => setPrivate(e.target.value === 'private')}
          >
            <option value="public">Public: anyone may find and join it</option>
            <option value="private">Private: only subscribers see it</option>
          </select>
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Save channel
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}
