/**
 * The deliberate differences between the routes' parameters and Zulip's
 * description (test/api/route-params.test.ts), each with its reason. A new
 * difference fails the test until it is fixed, declared in
 * api/hearth-extension.yaml (Hearth serves something newer than the
 * description) or listed here; a listed one that no longer occurs fails too.
 */

const UNDESCRIBED =
  'Zulip serves it (zerver/urls.py); the level-420 description does not describe it';
const LEGACY_URL = 'a legacy Zulip URL Hearth keeps for older clients; the description omits it';
const NEWER_PUSH =
  "Zulip's newer push-device registration (levels after 420); the description has the older one";
const FILE_PART = 'a file part, which the route reads as an uploaded file, not as a parameter';
const RETENTION =
  "'unlimited', 'realm_default' or an integer: one parser (`retention`) for Zulip's union";
const NULL_CLEARS =
  "JSON-encoded so that null clears it, as Zulip's Json[int | None] view reads it";
const TO_SHAPES =
  "Zulip's views read `to` in four shapes (JSON list of ids or e-mails, a name, a bare id), so it is parsed as text";
const VIEW_CHECKS_ABSENCE =
  "Zulip's view reads it as optional and answers its own error when absent";
const MIRRORING =
  "Zulip's send_message_backend reads these for API super-users (mirroring); Hearth only checks them";
const NOT_YET = 'not implemented in Hearth yet';
const SPEC = 'the product spec (api-spec.md) declares it, newer than the description';
const DESCRIPTION_LAX =
  "required by Zulip's view (a typed_endpoint parameter without a default); the description leaves `required` out";
const PATH_TEXT =
  'a path segment read as text: a file URL that does not match is a 404, as in Zulip';

export const DELIBERATE_DIFFERENCES: Record<string, string> = {
  "POST /jwt/fetch_api_key: token is optional, the description's is required": VIEW_CHECKS_ABSENCE,
  'GET /dev_list_users: not in the description': UNDESCRIBED,
  'POST /users/me/api_key/regenerate: not in the description': UNDESCRIBED,
  'PATCH /users/{email}: new_email of the description not declared': NOT_YET,
  'PATCH /users/{user_id}: new_email of the description not declared': NOT_YET,
  "POST /invites: invite_expires_in_minutes is json, the description's is integer": NULL_CLEARS,
  'POST /invites: group_ids of the description not declared': NOT_YET,
  "POST /invites/multiuse: invite_expires_in_minutes is json, the description's is integer":
    NULL_CLEARS,
  'POST /invites/multiuse: group_ids of the description not declared': NOT_YET,
  'GET /bots: not in the description': UNDESCRIBED,
  'POST /bots: not in the description': UNDESCRIBED,
  'PATCH /bots/{bot_id}: not in the description': UNDESCRIBED,
  'DELETE /bots/{bot_id}: not in the description': UNDESCRIBED,
  'POST /bots/{bot_id}/api_key/regenerate: not in the description': UNDESCRIBED,
  "GET /events: queue_id is optional, the description's is required": VIEW_CHECKS_ABSENCE,
  'POST /messages: forged not in the description': MIRRORING,
  'POST /messages: sender not in the description': MIRRORING,
  "POST /messages: to is string, the description's is json": TO_SHAPES,
  "POST /messages: to is optional, the description's is required": TO_SHAPES,
  'POST /messages: time not in the description': MIRRORING,
  'POST /submessage: not in the description': UNDESCRIBED,
  'POST /messages/matches_narrow: not in the description': UNDESCRIBED,
  "POST /typing: to is string, the description's is json": TO_SHAPES,
  "PATCH /streams/{stream_id}: message_retention_days is retention, the description's is json":
    RETENTION,
  "PATCH /streams/{stream_id}: folder_id is json, the description's is integer": NULL_CLEARS,
  "POST /channels/create: message_retention_days is retention, the description's is json":
    RETENTION,
  "POST /channels/create: folder_id is json, the description's is integer": NULL_CLEARS,
  "POST /channel_folders/create: name is required, the description's is optional": DESCRIPTION_LAX,
  "POST /channel_folders/create: description is required, the description's is optional":
    DESCRIPTION_LAX,
  "PATCH /channel_folders: order is required, the description's is optional": DESCRIPTION_LAX,
  "POST /users/me/subscriptions: message_retention_days is retention, the description's is json":
    RETENTION,
  "POST /users/me/subscriptions: folder_id is json, the description's is integer": NULL_CLEARS,
  'GET /users/{user_id}/channels: not in the description': UNDESCRIBED,
  'PATCH /users/me/subscriptions/{stream_id}: not in the description': LEGACY_URL,
  'POST /users/me/subscriptions/{stream_id}: not in the description': LEGACY_URL,
  'POST /scheduled_messages: scheduled_message_id not in the description': SPEC,
  "POST /reminders: message_id is required, the description's is optional": DESCRIPTION_LAX,
  "POST /reminders: scheduled_delivery_timestamp is required, the description's is optional":
    DESCRIPTION_LAX,
  "PUT /bot_storage: storage is optional, the description's is required": VIEW_CHECKS_ABSENCE,
  "POST /users/me/android_gcm_reg_id: token is optional, the description's is required": NEWER_PUSH,
  "DELETE /users/me/android_gcm_reg_id: token is optional, the description's is required":
    NEWER_PUSH,
  "POST /users/me/apns_device_token: token is optional, the description's is required": NEWER_PUSH,
  "POST /users/me/apns_device_token: appid is optional, the description's is required": NEWER_PUSH,
  "DELETE /users/me/apns_device_token: token is optional, the description's is required":
    NEWER_PUSH,
  'POST /register_client_device: not in the description': NEWER_PUSH,
  'POST /remove_client_device: not in the description': NEWER_PUSH,
  'POST /mobile_push/register: device_id not in the description': NEWER_PUSH,
  "POST /mobile_push/register: token_kind is optional, the description's is required": NEWER_PUSH,
  'POST /mobile_push/register: push_key not in the description': NEWER_PUSH,
  'POST /mobile_push/register: push_key_id not in the description': NEWER_PUSH,
  'POST /mobile_push/register: token_id not in the description': NEWER_PUSH,
  "POST /mobile_push/register: bouncer_public_key is optional, the description's is required":
    NEWER_PUSH,
  "POST /mobile_push/register: encrypted_push_registration is optional, the description's is required":
    NEWER_PUSH,
  'POST /mobile_push/register: push_account_id of the description not declared': NEWER_PUSH,
  'POST /mobile_push/register: push_public_key of the description not declared': NEWER_PUSH,
  'GET /realm/filters: not in the description': LEGACY_URL,
  'PATCH /realm: not in the description': UNDESCRIBED,
  'PATCH /realm/profile_fields/{field_id}: not in the description': UNDESCRIBED,
  'DELETE /realm/profile_fields/{field_id}: not in the description': UNDESCRIBED,
  'PATCH /users/me/profile_data: not in the description': UNDESCRIBED,
  'DELETE /users/me/profile_data: not in the description': UNDESCRIBED,
  'PATCH /settings/display: not in the description': LEGACY_URL,
  'PATCH /settings/notifications: not in the description': LEGACY_URL,
  'POST /realm/emoji/{*}: filename of the description not declared': FILE_PART,
  'POST /users/me/avatar: not in the description': UNDESCRIBED,
  'DELETE /users/me/avatar: not in the description': UNDESCRIBED,
  'POST /user_uploads: filename of the description not declared': FILE_PART,
  "GET /user_uploads/{realm_id}/{*}: realm_id is string, the description's is integer": PATH_TEXT,
  'DELETE /export/realm/{export_id}: not in the description': UNDESCRIBED,
};
