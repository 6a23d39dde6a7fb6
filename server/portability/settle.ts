/**
 * After `manage.py import` on the Zulip side: what the importer reset is
 * set again through Zulip's REST API, from Hearth's data. The importer
 * overwrites the organization's name with the subdomain
 * (do_import_realm: `data["zerver_realm"][0]["name"] = subdomain`), and
 * regenerates bots' API keys and outgoing-webhook tokens; the first is put
 * back, the second listed, since only the bots' owners can reconfigure the
 * services that use them.
 */
import { openSqliteFile } from '../db/open.js';
export interface SettleOptions {
  databaseFile: string;
  /** The Zulip server's base URL, e.g. https://chat.example.com */
  zulipUrl: string;
  /** An owner's account on the Zulip server (the importer's owner after `change_password`). */
  email: string;
  apiKey: string;
  fetch?: typeof fetch;
}

export interface SettleReport {
  /** The settings set again, by name. */
  restored: Record<string, string>;
  /** Bots whose keys the importer replaced: their owners must update what uses them. */
  botsToReconfigure: { name: string; email: string; outgoingWebhook: boolean }[];
}

export class SettleFailed extends Error {}

export async function settleOnZulip(options: SettleOptions): Promise<SettleReport> {
  const db = openSqliteFile(options.databaseFile, { readonly: true, fileMustExist: true });
  let realm: { name: string; description: string };
  let bots: { full_name: string; delivery_email: string; bot_type: number | null }[];
  try {
    realm = db.prepare('SELECT name, description FROM realm WHERE id = 1').get() as typeof realm;
    if (!realm) throw new SettleFailed('this data directory has no organization');
    bots = db
      .prepare(
        'SELECT full_name, delivery_email, bot_type FROM users WHERE is_bot = 1 AND bot_owner_id IS NOT NULL AND is_active = 1 ORDER BY id',
      )
      .all() as typeof bots;
  } finally {
    db.close();
  }
  const base = options.zulipUrl.replace(/\/+$/, '');
  const auth = `Basic ${Buffer.from(`${options.email}:${options.apiKey}`).toString('base64')}`;
  const call = options.fetch ?? fetch;
  const res = await call(`${base}/api/v1/realm`, {
    method: 'PATCH',
    headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: realm.name, description: realm.description }),
  }).catch((err: unknown) => {
    throw new SettleFailed(
      `${base} did not answer: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  const body = (await res.json().catch(() => ({}))) as { result?: string; msg?: string };
  if (res.status !== 200 || body.result !== 'success') {
    throw new SettleFailed(
      `Zulip refused to set the organization's name (${res.status}): ${body.msg ?? 'no message'}`,
    );
  }
  return {
    restored: { name: realm.name, description: realm.description },
    botsToReconfigure: bots.map((b) => ({
      name: b.full_name,
      email: b.delivery_email,
      outgoingWebhook: b.bot_type === 3,
    })),
  };
}
