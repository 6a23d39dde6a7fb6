import { useId, useState } from 'react';
import { ApiError } from '../data/api.js';
import { useZulipApi } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';

/** Zulip's report types (`server_report_message_types`), in its order. */
export const REPORT_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
] as const;

/**
 * Zulip's "Report message": a reason and an explanation (needed for "Other
 * reason"), sent to the organization's moderation channel.
 */
export function ReportDialog({
  messageId,
  senderName,
  onClose,
  onReported,
}: {
  messageId: number;
  senderName: string;
  onClose(): void;
  onReported(): void;
}) {
  const id = useId();
  const api = useZulipApi();
  const [reportType, setReportType] = useState<string>('spam');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (reportType === 'other' && description.trim() === '') {
      setError('An explanation is required.');
      return;
    }
    setBusy(true);
    try {
      await api.call('POST', `/messages/${messageId}/report`, {
        report_type: reportType,
        description: description.trim(),
      });
      onReported();
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Report a message" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="chat-field-hint report-hint">
          Your report will be sent to the private moderation requests channel for this organization.
          It is about a message from {senderName}.
        </p>
        <div className="chat-field">
          <label htmlFor={`${id}-type`}>Reason</label>
          <select
            id={`${id}-type`}
            value={reportType}
            data-autofocus
            onChange={(event) => {
              setReportType(event.target.value);
              setError(null);
            }}
          >
            {REPORT_TYPES.map((type) => (
              <option key={type.key} value={type.key}>
                {type.name}
              </option>
            ))}
          </select>
        </div>
        <div className="chat-field">
          <label htmlFor={`${id}-description`}>Explanation</label>
          <textarea
            id={`${id}-description`}
            rows={3}
            value={description}
            aria-invalid={error !== null && reportType === 'other' ? true : undefined}
            onChange={(event) => {
              setDescription(event.target.value);
              setError(null);
            }}
          />
        </div>
        {error && (
          <p className="chat-form-error" role="alert">
            {error}
          </p>
        )}
        <div className="chat-dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button danger" disabled={busy}>
            Submit
          </button>
        </div>
      </form>
    </Dialog>
  );
}
