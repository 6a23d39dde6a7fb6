import { useId, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useChat } from '../data/store-context.js';
import { Dialog } from '../ui/Dialog.js';
import { formatFullDate, formatTime } from '../views/time.js';
import {
  farEnoughAhead,
  fromLocalInput,
  localInputValue,
  MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS,
  type ScheduleChoice,
  scheduleChoices,
} from './schedule-times.js';

/** "Tomorrow at 9:00 AM", in the user's 12- or 24-hour time. */
export function choiceLabel(choice: ScheduleChoice, twentyFourHour: boolean): string {
  return `${choice.day} at ${formatTime(choice.timestamp, twentyFourHour)}`;
}

/** The user's time format, as the feed shows times. */
export const useTwentyFourHour = () => useChat((s) => s.settings.twenty_four_hour_time === true);

/** When a scheduled message or reminder goes out, in full. */
export const deliveryText = (timestamp: number, twentyFourHour: boolean) =>
  formatFullDate(timestamp, twentyFourHour).replace(/:\d\d(?=\D*$)/, '');

export interface ScheduleDialogProps {
  title: string;
  submitLabel: string;
  /** Start on the custom time (the preset times were in the menu that opened this). */
  customOnly?: boolean;
  /** Offer a note (reminders). */
  withNote?: boolean;
  onSubmit(timestamp: number, note: string): Promise<void>;
  onClose(): void;
}

/**
 * Picking a time: Zulip's preset times and a custom date and time (at
 * least five minutes ahead, as Zulip's web app asks), with an optional note.
 */
export function ScheduleDialog({
  title,
  submitLabel,
  customOnly,
  withNote,
  onSubmit,
  onClose,
}: ScheduleDialogProps) {
  const id = useId();
  const twentyFour = useTwentyFourHour();
  const choices = useMemo(() => (customOnly ? [] : scheduleChoices(new Date())), [customOnly]);
  const [picked, setPicked] = useState<number | 'custom'>(choices[0]?.timestamp ?? 'custom');
  const [custom, setCustom] = useState(() => localInputValue(Math.floor(Date.now() / 1000) + 3600));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const timestamp = picked === 'custom' ? fromLocalInput(custom) : picked;
    if (timestamp === null) {
      setError('Choose a date and time.');
      return;
    }
    if (!farEnoughAhead(timestamp)) {
      setError(
        `Choose a time at least ${MINIMUM_SCHEDULED_MESSAGE_DELAY_SECONDS / 60} minutes from now.`,
      );
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(timestamp, note.trim());
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };

  // In the body, not inside the compose box's own form (forms do not nest).
  return createPortal(
    <Dialog title={title} onClose={onClose} className="schedule-dialog">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // React carries the event up through the portal: the compose form must not send.
          event.stopPropagation();
          void submit();
        }}
      >
        <fieldset className="chat-field schedule-choices">
          <legend>When</legend>
          {choices.map((choice, index) => (
            <label key={choice.timestamp} className="schedule-choice">
              <input
                type="radio"
                name={`${id}-when`}
                checked={picked === choice.timestamp}
                onChange={() => setPicked(choice.timestamp)}
                data-autofocus={index === 0 ? true : undefined}
              />
              {choiceLabel(choice, twentyFour)}
            </label>
          ))}
          {choices.length > 0 && (
            <label className="schedule-choice">
              <input
                type="radio"
                name={`${id}-when`}
                checked={picked === 'custom'}
                onChange={() => setPicked('custom')}
              />
              Custom time
            </label>
          )}
          {picked === 'custom' && (
            <input
              type="datetime-local"
              className="schedule-custom"
              aria-label="Date and time"
              value={custom}
              onChange={(event) => {
                setCustom(event.target.value);
                setError(null);
              }}
              data-autofocus={choices.length === 0 ? true : undefined}
            />
          )}
        </fieldset>
        {withNote && (
          <div className="chat-field">
            <label htmlFor={`${id}-note`}>Note (optional)</label>
            <textarea
              id={`${id}-note`}
              rows={2}
              value={note}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
        )}
        {error && (
          <p className="chat-form-error" role="alert">
            {error}
          </p>
        )}
        <div className="chat-dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Dialog>,
    document.body,
  );
}
