/**
 * Narrow operators: one table for the server and the browser chat (pure, no
 * imports, so the chat bundles it as it does resolved-topics.ts).
 *
 * NARROW_OPERATORS maps every name a client may send to the operator it is
 * handled as, Zulip's NarrowBuilder.by_method_map (zerver/lib/narrow.py):
 * the legacy `stream`, `streams` and `pm-with`, and the underscore spellings
 * Zulip still accepts. `group-pm-with` keeps its own meaning, group direct
 * messages that include the user (more than two people), where
 * `dm-including` is every direct message that does.
 */
export const NARROW_OPERATORS: Readonly<Record<string, string>> = {
  channel: 'channel',
  stream: 'channel',
  channels: 'channels',
  streams: 'channels',
  topic: 'topic',
  sender: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  'dm-including': 'dm-including',
  'group-pm-with': 'group-pm-with',
  pm_with: 'dm',
  group_pm_with: 'group-pm-with',
  is: 'is',
  has: 'has',
  in: 'in',
  id: 'id',
  near: 'near',
  search: 'search',
  with: 'with',
};

/**
 * Words Zulip's web app also accepts typed in its search box and in links
 * (filter.ts canonicalize_operator), and rewrites before anything is sent:
 * the server does not know them.
 */
export const TYPED_OPERATOR_SYNONYMS: Readonly<Record<string, string>> = {
  subject: 'topic',
  from: 'sender',
};
