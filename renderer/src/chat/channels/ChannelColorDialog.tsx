import { useId, useState } from 'react';
import { Dialog } from '../ui/Dialog.js';
import { CHANNEL_COLORS } from './channel-model.js';

/** Picks a channel's colour: Zulip's palette, or any colour. */
export function ChannelColorDialog({
  channelName,
  color,
  onChoose,
  onCancel,
}: {
  channelName: string;
  color: string;
  onChoose: (color: string) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState(color);
  const customId = useId();
  return (
    <Dialog title={`Colour of #${channelName}`} onClose={onCancel} className="channel-color">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onChoose(chosen);
        }}
      >
        <fieldset className="color-grid">
          <legend className="visually-hidden">Palette</legend>
          {CHANNEL_COLORS.map((option) => (
            <label key={option} className="color-choice" title={option}>
              <input
                type="radio"
                name="channel-color"
                value={option}
                checked={chosen.toLowerCase() === option}
                onChange={() => setChosen(option)}
              />
              <span className="color-swatch" style={{ background: option }} />
              <span className="visually-hidden">{option}</span>
            </label>
          ))}
        </fieldset>
        <div className="chat-field color-custom">
          <label htmlFor={customId}>Other colour</label>
          <input
            id={customId}
            type="color"
            value={/^#[0-9a-f]{6}$/i.test(chosen) ? chosen : '#c2c2c2'}
            onChange={(event) => setChosen(event.target.value)}
          />
        </div>
        <div className="chat-dialog-actions">
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="button primary" data-autofocus>
            Save colour
          </button>
        </div>
      </form>
    </Dialog>
  );
}
