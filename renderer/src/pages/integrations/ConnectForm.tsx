import { type FormEvent, useState } from 'react';
import { useApi } from '../../api/context.js';
import { CopyButton } from '../../components/CopyButton.js';
import { CheckField, Field, TextField } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { useForm } from '../../components/use-form.js';
import type { IntegrationSummary, WebhookBot } from './types.js';
import { INCOMING_WEBHOOK } from './types.js';

/** The bot select's value for "make a new one". */
const NEW_BOT = 'new';
/** The channel select's value for the bot owner's direct messages. */
const DIRECT = '';

interface Values {
  integration: string;
  bot: string;
  fullName: string;
  shortName: string;
  stream: string;
  topic: string;
  onlyEvents: string[];
  options: Record<string, string | boolean>;
}

const FIELDS = ['fullName', 'shortName', 'stream', 'topic'] as const;

interface Made {
  url: string;
  integration: IntegrationSummary;
  botName: string;
}

/**
 * Picks an integration, an incoming-webhook bot (or makes one), where its
 * messages go and which events; shows the exact URL to paste into the tool.
 */
export function ConnectForm(props: {
  integrations: IntegrationSummary[];
  bots: WebhookBot[];
  channels: string[];
  chosen: string;
  onChoose(name: string): void;
  onBotCreated(): void;
}) {
  const api = useApi();
  const form = useForm();
  const [values, setValues] = useState<Values>({
    integration: props.chosen,
    bot: props.bots[0] ? String(props.bots[0].user_id) : NEW_BOT,
    fullName: '',
    shortName: '',
    stream: props.channels[0] ?? DIRECT,
    topic: '',
    onlyEvents: [],
    options: {},
  });
  const [made, setMade] = useState<Made | null>(null);
  const integration =
    props.integrations.find((i) => i.name === props.chosen) ?? props.integrations[0]!;
  const set = (changes: Partial<Values>) => setValues({ ...values, ...changes });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = values;
    setMade(null);
    void form.run(async () => {
      let botId = Number(sent.bot);
      let botName = props.bots.find((b) => b.user_id === botId)?.full_name ?? '';
      if (sent.bot === NEW_BOT) {
        const name = sent.fullName.trim() || `${integration.displayName} bot`;
        const created = await api.bots.create.mutate({
          fullName: name,
          shortName: sent.shortName.trim() || integration.name.replace(/_/g, '-'),
          botType: INCOMING_WEBHOOK,
        });
        botId = created.user_id;
        botName = name;
        props.onBotCreated();
        setValues({ ...sent, bot: String(botId), fullName: '', shortName: '' });
      }
      const { url } = await api.integrations.url.query({
        botId,
        integration: integration.name,
        stream: sent.stream || undefined,
        topic: sent.topic || undefined,
        onlyEvents: sent.onlyEvents.length > 0 ? sent.onlyEvents : undefined,
        options: sent.options,
      });
      setMade({ url, integration, botName });
      return null;
    });
  };

  return (
    <form
      id="connect-form"
      className="card"
      onSubmit={submit}
      noValidate
      aria-label="Connect a tool"
    >
      <h2>Connect a tool</h2>
      <div className="grid">
        <Field label="Tool" name="integration" hint={integration.description}>
          {(p) => (
            <select
              {...p}
              value={integration.name}
              onChange={(e) => {
                props.onChoose(e.target.value);
                setValues({ ...values, onlyEvents: [], options: {} });
                setMade(null);
              }}
            >
              {props.integrations.map((i) => (
                <option key={i.name} value={i.name}>
                  {i.displayName}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Posts as"
          name="bot"
          hint="An incoming-webhook bot can post through these URLs and do nothing else."
        >
          {(p) => (
            <select {...p} value={values.bot} onChange={(e) => set({ bot: e.target.value })}>
              {props.bots.map((b) => (
                <option key={b.user_id} value={b.user_id}>
                  {b.full_name}
                </option>
              ))}
              <option value={NEW_BOT}>A new bot…</option>
            </select>
          )}
        </Field>
        {values.bot === NEW_BOT ? (
          <>
            <TextField
              label="New bot’s name"
              name="fullName"
              placeholder={`${integration.displayName} bot`}
              autoComplete="off"
              form={form}
              values={values}
              setValues={setValues}
            />
            <TextField
              label="New bot’s username"
              name="shortName"
              placeholder={integration.name.replace(/_/g, '-')}
              hint="Its address becomes username-bot@…"
              autoComplete="off"
              form={form}
              values={values}
              setValues={setValues}
            />
          </>
        ) : null}
        <Field label="Channel" name="stream" error={form.errorFor('stream')}>
          {(p) => (
            <select {...p} value={values.stream} onChange={(e) => set({ stream: e.target.value })}>
              {props.channels.map((name) => (
                <option key={name} value={name}>
                  #{name}
                </option>
              ))}
              <option value={DIRECT}>Direct messages to the bot’s owner</option>
            </select>
          )}
        </Field>
        <TextField
          label="Topic"
          name="topic"
          hint="Empty: the tool’s own topics (per repository and branch, pull request, alert…)."
          autoComplete="off"
          form={form}
          values={values}
          setValues={setValues}
        />
        {integration.urlOptions.map((option) =>
          option.kind === 'bool' ? (
            <CheckField
              key={option.key}
              label={option.label}
              name={option.key}
              checked={values.options[option.key] === true}
              onChange={(checked) => set({ options: { ...values.options, [option.key]: checked } })}
            />
          ) : (
            <Field key={option.key} label={option.label} name={option.key}>
              {(p) => (
                <input
                  {...p}
                  autoComplete="off"
                  value={String(values.options[option.key] ?? '')}
                  onChange={(e) =>
                    set({ options: { ...values.options, [option.key]: e.target.value } })
                  }
                />
              )}
            </Field>
          ),
        )}
      </div>
      {integration.eventTypes ? (
        <details className="event-filter">
          <summary>
            Post only some events
            {values.onlyEvents.length > 0 ? ` (${values.onlyEvents.length} chosen)` : ''}
          </summary>
          <fieldset className="checks">
            <legend className="visually-hidden">Post only these events</legend>
            <p className="field-hint">None ticked: every event the integration posts.</p>
            <div className="event-type-list">
              {integration.eventTypes.map((type) => (
                <CheckField
                  key={type}
                  label={type}
                  name="only_events"
                  checked={values.onlyEvents.includes(type)}
                  onChange={(checked) =>
                    set({
                      onlyEvents: checked
                        ? [...values.onlyEvents, type]
                        : values.onlyEvents.filter((t) => t !== type),
                    })
                  }
                />
              ))}
            </div>
          </fieldset>
        </details>
      ) : null}
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          Show the URL
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
      {made ? (
        <section
          id="integration-url"
          className="secret"
          aria-label={`URL for ${made.integration.displayName}`}
        >
          <h3>
            Paste into {made.integration.displayName} ({made.botName})
          </h3>
          <div className="secret-value">
            <code className="secret-text">{made.url}</code>
            <CopyButton text={made.url} />
          </div>
          <p>{made.integration.setup}</p>
          <p className="muted">The URL holds the bot’s API key: keep it as you would a password.</p>
        </section>
      ) : null}
    </form>
  );
}
