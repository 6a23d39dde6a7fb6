import { type NotificationPermissionState, requestNotifications } from '../views/notifications.js';
import { SettingToggle } from './SettingControls.js';
import { NOTIFICATION_TOGGLES } from './settings-model.js';

const PERMISSION_TEXT: Record<NotificationPermissionState, string> = {
  granted: 'This browser shows Hearth’s desktop notifications.',
  denied: 'This browser blocks Hearth’s notifications; allow them in its site settings.',
  default: 'This browser has not been asked to show Hearth’s notifications yet.',
  unsupported: 'This browser cannot show desktop notifications for this page.',
};

/** Notifications: which messages notify and sound, and this browser's permission. */
export function NotificationSettings({
  permission,
  onPermissionChanged,
}: {
  permission: NotificationPermissionState;
  onPermissionChanged: () => void;
}) {
  return (
    <>
      <section className="settings-block" aria-labelledby="settings-browser-title">
        <h3 id="settings-browser-title">This browser</h3>
        <p className="settings-value">{PERMISSION_TEXT[permission]}</p>
        {permission === 'default' && (
          <button
            type="button"
            className="button"
            onClick={() => void requestNotifications().then(onPermissionChanged)}
          >
            Enable desktop notifications
          </button>
        )}
      </section>
      {NOTIFICATION_TOGGLES.map((group) => (
        <fieldset className="settings-block settings-group" key={group.legend}>
          <legend>{group.legend}</legend>
          {group.settings.map((setting) => (
            <SettingToggle key={setting.name} name={setting.name} label={setting.label} />
          ))}
        </fieldset>
      ))}
    </>
  );
}
