import { SettingSelect, SettingToggle, useSetting } from './SettingControls.js';
import {
  COLOR_SCHEME_CHOICES,
  ColorScheme,
  EMOJISET_CHOICES,
  FONT_SIZE_DEFAULT,
  FONT_SIZE_MAX,
  FONT_SIZE_MIN,
  HOME_VIEW_CHOICES,
} from './settings-model.js';

const FONT_SIZES = Array.from({ length: FONT_SIZE_MAX - FONT_SIZE_MIN + 1 }, (_, i) => {
  const px = FONT_SIZE_MIN + i;
  return { value: px, text: px === FONT_SIZE_DEFAULT ? `${px} px (default)` : `${px} px` };
});

/** Preferences: how the chat looks and behaves (Zulip's "Preferences" page). */
export function PreferencesSettings() {
  const emojiset = useSetting<string>('emojiset', 'google');
  // Twitter's set is Zulip's too, but this server draws only Google's: it shows as Google.
  const emojiChoices = EMOJISET_CHOICES.some((c) => c.value === emojiset.value)
    ? EMOJISET_CHOICES
    : [...EMOJISET_CHOICES, { value: emojiset.value, text: `${emojiset.value} (shown as Google)` }];
  return (
    <>
      <section className="settings-block" aria-labelledby="settings-theme-title">
        <h3 id="settings-theme-title">Appearance</h3>
        <SettingSelect
          name="color_scheme"
          label="Theme"
          choices={COLOR_SCHEME_CHOICES}
          fallback={ColorScheme.automatic}
        />
        <SettingSelect
          name="web_font_size_px"
          label="Font size"
          choices={FONT_SIZES}
          fallback={FONT_SIZE_DEFAULT}
        />
        <SettingSelect name="emojiset" label="Emoji" choices={emojiChoices} fallback="google" />
      </section>
      <section className="settings-block" aria-labelledby="settings-behaviour-title">
        <h3 id="settings-behaviour-title">Behavior</h3>
        <SettingToggle
          name="enter_sends"
          label="Enter sends the message (Shift+Enter for a new line)"
        />
        <SettingToggle name="twenty_four_hour_time" label="Show times in 24-hour format" />
        <SettingSelect
          name="web_home_view"
          label="Home view"
          choices={HOME_VIEW_CHOICES}
          fallback="inbox"
        />
        <SettingToggle
          name="web_escape_navigates_to_home_view"
          fallback={true}
          label="Escape goes to the home view"
        />
        <SettingToggle
          name="starred_message_counts"
          fallback={true}
          label="Show the number of starred messages"
        />
      </section>
    </>
  );
}
