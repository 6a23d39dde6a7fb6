import { useState } from 'react';
import { MenuButton, MenuItem, MenuLabel, MenuSeparator } from '../ui/Menu.js';
import { Icon } from '../views/Icon.js';
import { choiceLabel, ScheduleDialog, useTwentyFourHour } from './ScheduleDialog.js';
import { scheduleChoices } from './schedule-times.js';

/**
 * Zulip's "Schedule message" beside Send: its preset times in a menu, or a
 * custom time in a dialog. `onSchedule` sends the box's message for later.
 */
export function ScheduleButton({
  disabled,
  onSchedule,
}: {
  disabled: boolean;
  onSchedule(timestamp: number): Promise<void>;
}) {
  const twentyFour = useTwentyFourHour();
  const [custom, setCustom] = useState(false);
  if (disabled) {
    return (
      <button
        type="button"
        className="button compose-schedule"
        disabled
        aria-label="Schedule message"
      >
        <Icon name="clock" />
      </button>
    );
  }
  return (
    <>
      <MenuButton
        label="Schedule message"
        className="button compose-schedule"
        items={() => (
          <>
            <MenuLabel>Schedule message</MenuLabel>
            {scheduleChoices(new Date()).map((choice) => (
              <MenuItem
                key={choice.timestamp}
                onSelect={() => void onSchedule(choice.timestamp).catch(() => {})}
              >
                {choiceLabel(choice, twentyFour)}
              </MenuItem>
            ))}
            <MenuSeparator />
            <MenuItem onSelect={() => setCustom(true)}>Custom time</MenuItem>
          </>
        )}
      >
        <Icon name="clock" />
      </MenuButton>
      {custom && (
        <ScheduleDialog
          title="Schedule message"
          submitLabel="Schedule"
          customOnly
          onSubmit={(timestamp) => onSchedule(timestamp)}
          onClose={() => setCustom(false)}
        />
      )}
    </>
  );
}
