/**
 * The rule every password a person sets must meet, Zulip's: at least
 * PASSWORD_MIN_LENGTH and at most PASSWORD_MAX_LENGTH characters, and
 * PASSWORD_MIN_GUESSES guesses by the zxcvbn estimate (users/passwords.ts
 * applies it). Register reports the three numbers; the admin UI and the chat
 * show the hint under their password fields (this file is pure: the
 * browser bundles import it).
 */

export const PASSWORD_MIN_LENGTH = 6;
/** Zulip 10's PASSWORD_MAX_LENGTH (register's password_max_length, feature level 338). */
export const PASSWORD_MAX_LENGTH = 100;
export const PASSWORD_MIN_GUESSES = 10_000;

/** What a password field says about the rule, before anything is typed. */
export const PASSWORD_RULE_HINT =
  `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, and hard to guess: ` +
  'not a common password, word or keyboard pattern, nor your name or e-mail.';
