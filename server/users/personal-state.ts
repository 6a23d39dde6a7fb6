import { stmt } from '../db/prepared.js';
import type { StateProvider } from '../events/state-provider.js';

export const alertWordsState: StateProvider = {
  fetchTypes: ['alert_words'],
  fetch: (ctx, user) => ({
    alert_words: stmt<[number], { word: string }>(
      ctx.db,
      'SELECT word FROM alert_words WHERE user_id = ? ORDER BY word',
    )
      .all(user.id)
      .map((r) => r.word),
  }),
};

export const mutedUsersState: StateProvider = {
  fetchTypes: ['muted_users'],
  fetch: (ctx, user) => ({
    muted_users: stmt<[number], { id: number; timestamp: number }>(
      ctx.db,
      'SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users WHERE user_id = ? ORDER BY muted_user_id',
    ).all(user.id),
  }),
};

export const userStatusState: StateProvider = {
  fetchTypes: ['user_status'],
  fetch(ctx) {
    const rows = stmt<
      [],
      {
        user_id: number;
        status_text: string;
        emoji_name: string;
        emoji_code: string;
        reaction_type: string;
      }
    >(
      ctx.db,
      'SELECT user_id, status_text, emoji_name, emoji_code, reaction_type FROM user_status',
    ).all();
    const statuses: Record<string, Record<string, string>> = {};
    for (const r of rows) {
      const status: Record<string, string> = {};
      if (r.status_text) status.status_text = r.status_text;
      if (r.emoji_name) {
        status.emoji_name = r.emoji_name;
        status.emoji_code = r.emoji_code;
        status.reaction_type = r.reaction_type;
      }
      if (Object.keys(status).length > 0) statuses[String(r.user_id)] = status;
    }
    return { user_status: statuses };
  },
};

export const draftsState: StateProvider = {
  fetchTypes: ['drafts'],
  fetch: (ctx, user) => ({
    drafts: stmt<
      [number],
      {
        id: number;
        type: string;
        recipients: string;
        topic: string;
        content: string;
        last_edit_time: number;
      }
    >(ctx.db, 'SELECT * FROM drafts WHERE user_id = ? ORDER BY id')
      .all(user.id)
      .map((d) => ({
        id: d.id,
        type: d.type,
        to: JSON.parse(d.recipients) as number[],
        topic: d.topic,
        content: d.content,
        timestamp: d.last_edit_time,
      })),
  }),
};

export const onboardingStepsState: StateProvider = {
  fetchTypes: ['onboarding_steps'],
  fetch: () => ({ onboarding_steps: [], navigation_tour_video_url: null }),
};

export const miscPersonalState: StateProvider[] = [
  { fetchTypes: ['video_calls'], fetch: () => ({ has_zoom_token: false }) },
  { fetchTypes: ['giphy'], fetch: () => ({ giphy_api_key: '' }) },
  { fetchTypes: ['stop_words'], fetch: () => ({ stop_words: [] }) },
  { fetchTypes: ['saved_snippets'], fetch: () => ({ saved_snippets: [] }) },
  { fetchTypes: ['navigation_views'], fetch: () => ({ navigation_views: [] }) },
  { fetchTypes: ['channel_folders'], fetch: () => ({ channel_folders: [] }) },
  {
    fetchTypes: ['realm_billing'],
    fetch: () => ({ realm_billing: { has_pending_sponsorship_request: false } }),
  },
];
