import type { AppContext } from '../core/context.js';
import { FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../core/version.js';
import { renderContent } from '../markdown/index.js';
import { loadRealm } from '../shared/realm.js';

export function authenticationMethods(ctx: AppContext) {
  return {
    password: true,
    dev: ctx.config.demo,
    email: true,
    ldap: false,
    remoteuser: false,
    github: false,
    azuread: false,
    gitlab: false,
    apple: false,
    google: false,
    saml: false,
    'openid connect': false,
  };
}

/** GET /server_settings: what a client needs before it has credentials. */
export function serverSettings(ctx: AppContext) {
  const realm = loadRealm(ctx);
  const url = ctx.config.externalUrl;
  return {
    authentication_methods: authenticationMethods(ctx),
    external_authentication_methods: [],
    zulip_feature_level: FEATURE_LEVEL,
    service_feature_level: FEATURE_LEVEL,
    zulip_version: ZULIP_VERSION,
    zulip_merge_base: ZULIP_MERGE_BASE,
    push_notifications_enabled: false,
    is_incompatible: false,
    email_auth_enabled: true,
    require_email_format_usernames: true,
    realm_uri: url,
    realm_url: url,
    realm_name: realm.row.name,
    realm_icon: `${url}/static/images/logo/hearth-icon.png`,
    // Rendered, as Zulip's get_realm_rendered_description gives it here (register has the source).
    realm_description:
      realm.row.description === '' ? '' : renderContent(ctx, realm.row.description),
    realm_web_public_access_enabled: realm.settings.enable_spectator_access,
  };
}
