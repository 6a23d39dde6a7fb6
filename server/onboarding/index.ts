/** What newcomers get: a new account's subscriptions and the Welcome Bot's message; a new organization's first channels and messages. */
export { type AccountSetUp, createAccount } from './accounts.js';
export { FIRST_RUN_CHANNELS, setUpFirstRun } from './first-run.js';
export { sendTestWelcomeMessage } from './welcome.js';
