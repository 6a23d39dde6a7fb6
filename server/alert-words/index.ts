/** Alert words: a user's words and phrases, their events and state, and matching them in messages. */
export {
  addAlertWords,
  listAlertWords,
  recipientsAlertedBy,
  removeAlertWords,
} from './alert-words.js';
export { alertWordsState } from './state.js';
