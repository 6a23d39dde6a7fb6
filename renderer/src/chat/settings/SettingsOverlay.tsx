import './settings.css';
import { useId, useState } from 'react';
import { Dialog } from '../ui/Dialog.js';
import type { NotificationPermissionState } from '../views/notifications.js';
import { AccountSettings } from './AccountSettings.js';
import { AlertWordsSettings } from './AlertWordsSettings.js';
import { MutedUsersSettings } from './MutedUsersSettings.js';
import { NotificationSettings } from './NotificationSettings.js';
import { PreferencesSettings } from './PreferencesSettings.js';
import { ProfileSettings } from './ProfileSettings.js';
import { SETTINGS_SECTIONS, type SettingsSectionId } from './settings-model.js';

interface SettingsOverlayProps {
  section: SettingsSectionId;
  onClose(): void;
  notifications: NotificationPermissionState;
  onNotificationsChanged(): void;
}

/**
 * Personal settings (Zulip's overlay of the same name), from the account
 * menu: a list of sections beside the open one (above it on a phone). Every
 * change goes to the server at once and comes back as an event, so the chat
 * and any other tab of the same person follow it.
 */
export function SettingsOverlay({
  section: first,
  onClose,
  notifications,
  onNotificationsChanged,
}: SettingsOverlayProps) {
  const [section, setSection] = useState<SettingsSectionId>(first);
  const panelId = useId();
  const current = SETTINGS_SECTIONS.find((s) => s.id === section) ?? SETTINGS_SECTIONS[0];
  return (
    <Dialog title="Personal settings" onClose={onClose} className="settings-overlay">
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections">
          <ul>
            {SETTINGS_SECTIONS.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className="settings-nav-item"
                  aria-current={s.id === section ? 'page' : undefined}
                  aria-controls={panelId}
                  onClick={() => setSection(s.id)}
                >
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section
          id={panelId}
          className="settings-panel"
          aria-labelledby={`${panelId}-title`}
          data-section={section}
        >
          <h2 id={`${panelId}-title`} className="settings-panel-title">
            {current.title}
          </h2>
          {section === 'profile' && <ProfileSettings />}
          {section === 'account' && <AccountSettings />}
          {section === 'preferences' && <PreferencesSettings />}
          {section === 'notifications' && (
            <NotificationSettings
              permission={notifications}
              onPermissionChanged={onNotificationsChanged}
            />
          )}
          {section === 'muted-users' && <MutedUsersSettings />}
          {section === 'alert-words' && <AlertWordsSettings />}
        </section>
      </div>
    </Dialog>
  );
}
