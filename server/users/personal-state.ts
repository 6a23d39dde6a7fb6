import type { StateProvider } from '../events/state-provider.js';

export const onboardingStepsState: StateProvider = {
  fetchTypes: ['onboarding_steps'],
  fetch: () => ({ onboarding_steps: [], navigation_tour_video_url: null }),
};

export const miscPersonalState: StateProvider[] = [
  { fetchTypes: ['video_calls'], fetch: () => ({ has_zoom_token: false }) },
  { fetchTypes: ['giphy'], fetch: () => ({ giphy_api_key: '' }) },
  { fetchTypes: ['stop_words'], fetch: () => ({ stop_words: [] }) },
  {
    fetchTypes: ['realm_billing'],
    fetch: () => ({ realm_billing: { has_pending_sponsorship_request: false } }),
  },
];
