import { type Dispatch, type SetStateAction, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useChat, useZulipApi } from '../data/store-context.js';
import { uploadLink, uploadPlaceholder } from './syntax.js';

const MIB = 1024 * 1024;

/** Zulip's wording for a file over the limit, or uploads turned off. */
export function uploadSizeError(
  file: { name: string; size: number },
  limitMib: number,
): string | null {
  if (limitMib <= 0) return 'File and image uploads have been disabled for this organization.';
  if (file.size > limitMib * MIB) {
    return `${file.name} exceeds the maximum file size for attachments (${limitMib} MiB).`;
  }
  return null;
}

export interface Uploads {
  /** How many files are still uploading (sending waits for them). */
  pending: number;
  errors: string[];
  clearErrors(): void;
  upload(files: Iterable<File>): void;
}

/**
 * Uploads files into the message text: a placeholder goes in at the cursor
 * at once, and becomes the `[name](url)` link when the server answers (or
 * disappears, with the reason shown, when it refuses).
 */
export function useUploads(
  insert: (text: string) => void,
  setText: Dispatch<SetStateAction<string>>,
): Uploads {
  const api = useZulipApi();
  const limitMib = useChat((s) => s.realm.maxFileUploadSizeMib);
  const [pending, setPending] = useState(0);
  const [errors, setErrors] = useState<string[]>([]);

  const replace = (placeholder: string, replacement: string) =>
    setText((text) => {
      const at = text.indexOf(placeholder);
      if (at < 0) return text; // the person deleted the placeholder: leave their text alone
      return text.slice(0, at) + replacement + text.slice(at + placeholder.length);
    });

  const upload = (files: Iterable<File>) => {
    for (const file of files) {
      const refusal = uploadSizeError(file, limitMib);
      if (refusal) {
        setErrors((list) => [...list, refusal]);
        continue;
      }
      const placeholder = uploadPlaceholder(file.name);
      insert(placeholder);
      setPending((n) => n + 1);
      api
        .upload(file)
        .then(
          (answer) => replace(placeholder, uploadLink(answer.filename || file.name, answer.url)),
          (err: unknown) => {
            replace(placeholder, '');
            const reason = err instanceof ApiError ? err.message : 'The upload failed.';
            setErrors((list) => [...list, `${file.name}: ${reason}`]);
          },
        )
        .finally(() => setPending((n) => n - 1));
    }
  };

  return { pending, errors, clearErrors: () => setErrors([]), upload };
}
