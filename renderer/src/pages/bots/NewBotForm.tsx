import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { downloadText } from '../../components/download.js';
import { Field, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { Secret } from '../../components/Secret.js';
import { useForm } from '../../components/use-form.js';
import { BOT_TYPES, OUTGOING_WEBHOOK } from '../../labels.js';

const EMPTY = { fullName: '', shortName: '', botType: 1, payloadUrl: '' };
const FIELDS = ['fullName', 'shortName', 'botType', 'payloadUrl'] as const;

interface Created {
  name: string;
  email: string;
  apiKey: string;
  userId: number;
}

/** POST /bots; the new key is shown until dismissed, with its zuliprc to download. */
export function NewBotForm({ onCreated }: { onCreated(): void }) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState(EMPTY);
  const [created, setCreated] = useState<Created | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    setCreated(null);
    void form.run(async () => {
      const bot = await api.bots.create.mutate({
        fullName: sent.fullName,
        shortName: sent.shortName,
        botType: sent.botType,
        ...(sent.botType === OUTGOING_WEBHOOK ? { payloadUrl: sent.payloadUrl } : {}),
      });
      // POST /bots answers without the address the bot logs in with.
      const record = await api.users.get.query({ userId: bot.user_id });
      setCreated({
        name: sent.fullName.trim(),
        email: record.delivery_email ?? record.email,
        apiKey: bot.api_key,
        userId: bot.user_id,
      });
      setValues(EMPTY);
      onCreated();
      return `Created the bot ${sent.fullName.trim()}.`;
    });
  };
  const zuliprc = (userId: number) =>
    api.users.zuliprc.query({ userId }).then(({ text }) => downloadText('zuliprc', text));

  return (
    <form id="add-bot-form" className="card" onSubmit={submit} noValidate aria-label="New bot">
      <h2>New bot</h2>
      <div className="grid">
        <TextField
          label="Name"
          name="fullName"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        <TextField
          label="Username"
          name="shortName"
          hint="The bot's address becomes username-bot@…"
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        <Field label="Type" name="botType" error={form.errorFor('botType')}>
          {(p) => (
            <select
              {...p}
              value={values.botType}
              onChange={(e) => setValues({ ...values, botType: Number(e.target.value) })}
            >
              {BOT_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {values.botType === OUTGOING_WEBHOOK ? (
          <TextField
            label="Endpoint URL"
            name="payloadUrl"
            hint="Hearth POSTs messages that mention the bot here."
            type="url"
            form={form}
            values={values}
            setValues={setValues}
          />
        ) : null}
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Create bot
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
      {created ? (
        <div className="created-key">
          <Secret
            title={`API key of ${created.name}`}
            value={created.apiKey}
            note={`The bot logs in as ${created.email} with this key.`}
            onDismiss={() => setCreated(null)}
          />
          <button type="button" className="button small" onClick={() => zuliprc(created.userId)}>
            Download its zuliprc
          </button>
        </div>
      ) : null}
    </form>
  );
}
