import { useChat } from '../data/store-context.js';
import { PasswordForm } from './PasswordForm.js';
import { SettingToggle } from './SettingControls.js';

/** Account & privacy: your e-mail, your password, and what others learn of you. */
export function AccountSettings() {
  const me = useChat((s) => s.users.get(s.ownUserId));
  const email =
    typeof me?.delivery_email === 'string' && me.delivery_email ? me.delivery_email : me?.email;
  return (
    <>
      <section className="settings-block" aria-labelledby="settings-email-title">
        <h3 id="settings-email-title">E-mail</h3>
        <p className="settings-value">{email}</p>
      </section>
      <section className="settings-block" aria-labelledby="settings-password-title">
        <h3 id="settings-password-title">Password</h3>
        <PasswordForm />
      </section>
      <section className="settings-block" aria-labelledby="settings-privacy-title">
        <h3 id="settings-privacy-title">Privacy</h3>
        <SettingToggle
          name="presence_enabled"
          fallback={true}
          label="Display my availability to other users"
        />
        <SettingToggle
          name="send_read_receipts"
          fallback={true}
          label="Allow others to see when I've read messages"
        />
        <SettingToggle
          name="send_private_typing_notifications"
          fallback={true}
          label="Let recipients see when I'm typing direct messages"
        />
        <SettingToggle
          name="send_stream_typing_notifications"
          fallback={true}
          label="Let recipients see when I'm typing messages in channels"
        />
      </section>
    </>
  );
}
