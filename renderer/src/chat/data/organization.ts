import { ZulipApi } from './api.js';

/** What the log-in page shows of the organization, from `GET /server_settings` (no credentials). */
export interface OrganizationFace {
  name: string;
  iconUrl: string | null;
  /** Rendered HTML, as the server gives it (Zulip renders it there). */
  descriptionHtml: string;
}

/** The organization's name, icon and description; null when the server does not say. */
export async function loadOrganizationFace(
  api: ZulipApi = new ZulipApi(),
): Promise<OrganizationFace | null> {
  const answer = await api.call<Record<string, unknown>>('GET', '/server_settings');
  const name = typeof answer.realm_name === 'string' ? answer.realm_name : '';
  if (name === '') return null;
  return {
    name,
    iconUrl: typeof answer.realm_icon === 'string' ? sameServer(answer.realm_icon, api) : null,
    descriptionHtml: typeof answer.realm_description === 'string' ? answer.realm_description : '',
  };
}

/**
 * The server names its files by its own configured address, which a phone
 * on the LAN may not reach: the path is taken on the address this page came from.
 */
function sameServer(url: string, api: ZulipApi): string {
  try {
    const parsed = new URL(url, api.baseUrl);
    return api.url(parsed.pathname + parsed.search);
  } catch {
    return url;
  }
}
