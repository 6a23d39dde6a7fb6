import { type FormEvent, useRef, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { shownError } from '../../api/errors.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

type Emoji = Outputs['emoji']['list'][number];
const FIELDS = ['name', 'image'] as const;

/** The file's bytes in base64, as emoji.add takes them. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}

/** Custom emoji: everyone may use them in messages and reactions as :name:. */
export function EmojiPage() {
  const api = useApi();
  const [list, reload] = useLoad(() => api.emoji.list.query());
  const form = useForm();
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dialog, confirm] = useConfirm();
  const [removeError, setRemoveError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sentName = name.trim();
    const sentFile = file;
    void form.run(async () => {
      if (!sentFile) throw new Error('Choose an image file.');
      await api.emoji.add.mutate({
        name: sentName,
        fileName: sentFile.name,
        contentType: sentFile.type,
        image: await readBase64(sentFile),
      });
      setName('');
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      reload();
      return `Added :${sentName}:.`;
    });
  };

  const deactivate = async (emoji: Emoji) => {
    const ok = await confirm({
      title: `Deactivate :${emoji.name}:?`,
      body: 'Nobody can use it any more; messages and reactions that already have it keep showing it.',
      confirmLabel: 'Deactivate',
      danger: true,
    });
    if (!ok) return;
    setRemoveError(null);
    api.emoji.deactivate.mutate({ name: emoji.name }).then(reload, (err: unknown) => {
      setRemoveError(shownError(err).message);
    });
  };

  return (
    <>
      <PageTitle title="Custom emoji">
        Pictures anyone in the organization can use in messages and reactions as <code>:name:</code>
        .
      </PageTitle>
      <form
        id="add-emoji-form"
        className="card"
        onSubmit={submit}
        noValidate
        aria-label="New emoji"
      >
        <h2>New emoji</h2>
        <div className="grid">
          <Field
            label="Name"
            name="name"
            error={form.errorFor('name')}
            hint="Lowercase letters, digits, spaces, - and _."
          >
            {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field
            label="Image"
            name="image"
            error={form.errorFor('image')}
            hint="PNG, GIF, JPEG or WebP, up to 5 MiB; shown at 64×64."
          >
            {(p) => (
              <input
                {...p}
                ref={fileInput}
                type="file"
                accept="image/png,image/gif,image/jpeg,image/webp"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
        </div>
        <div className="actions">
          <button type="submit" className="button primary" disabled={form.busy}>
            {form.busy ? 'Uploading…' : 'Add emoji'}
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
        {(all) => {
          const active = all.filter((e) => !e.deactivated);
          const deactivated = all.length - active.length;
          return (
            <section className="card" aria-labelledby="emoji-list-title">
              <h2 id="emoji-list-title">In use</h2>
              {active.length === 0 ? (
                <p className="muted">No custom emoji yet.</p>
              ) : (
                <ul className="member-list" id="emoji-list">
                  {active.map((e) => (
                    <li key={e.id}>
                      <span className="emoji-name">
                        {e.imageDataUrl ? (
                          <img className="emoji-image" src={e.imageDataUrl} alt="" />
                        ) : null}
                        <code>:{e.name}:</code>
                      </span>
                      <button
                        type="button"
                        className="button small danger"
                        onClick={() => void deactivate(e)}
                      >
                        Deactivate<span className="visually-hidden"> :{e.name}:</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {deactivated > 0 ? (
                <p className="muted">{deactivated} deactivated emoji still show in old messages.</p>
              ) : null}
            </section>
          );
        }}
      </Loading>
      {dialog}
    </>
  );
}
