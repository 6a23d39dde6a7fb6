/**
 * The Python bindings against the https URL with the authority as their
 * `cert_bundle`. The `zulip` package cannot be installed here (PyPI is out
 * of reach), so the script does on the wire what zulip.Client does with
 * that setting (python-zulip-api, zulip/zulip/__init__.py: `ensure_session`
 * sets `session.verify = cert_bundle` on a requests.Session with HTTP Basic
 * auth and the ZulipPython user agent; `do_api_query` sends GET parameters
 * in the query string and others form-encoded, non-strings `json.dumps`ed),
 * with the real `requests` and its certificate checks.
 *
 * requests lets REQUESTS_CA_BUNDLE and CURL_CA_BUNDLE override a session's
 * `verify` (its merge_environment_settings), and so the bindings'
 * cert_bundle: the script runs without them, as a user's shell would.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SCRIPT = `
import json, sys
import requests

site, email, key, bundle, reader_email, reader_key = sys.argv[1:7]

def session(verify, who=(email, key)):
    s = requests.Session()
    s.auth = requests.auth.HTTPBasicAuth(*who)
    s.verify = verify
    s.headers.update({"User-agent": "ZulipPython/0.9.1 (Linux; test)"})
    return s

out = {}
reader = session(bundle, (reader_email, reader_key))
sender = session(bundle)
reg = reader.post(site + "/api/v1/register", data={"event_types": json.dumps(["message"])}, timeout=15).json()
out["register"] = reg["result"]
sent = sender.post(site + "/api/v1/messages", data={"type": "private", "to": json.dumps([reader_email]), "content": "from Python over TLS"}, timeout=15).json()
out["sent"] = sent.get("id")
events = reader.get(site + "/api/v1/events", params={"queue_id": reg["queue_id"], "last_event_id": json.dumps(reg["last_event_id"])}, timeout=90).json()
out["event"] = [e["message"]["id"] for e in events["events"] if e["type"] == "message"]
try:
    session(True).get(site + "/api/v1/users/me", timeout=15)
    out["without_bundle"] = "connected"
except requests.exceptions.SSLError as e:
    out["without_bundle"] = "SSLError: " + str(e)
print(json.dumps(out))
`;

function pythonWithRequests(): boolean {
  const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
  return probe.status === 0;
}

describe('the Python bindings with cert_bundle', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ https: true });
  });
  afterAll(() => t.close());

  it.runIf(pythonWithRequests())(
    'register, send and get events over https; without the bundle TLS refuses',
    async () => {
      const { owner, member } = t.accounts;
      const bundle = path.join(t.dataDir, 'tls', 'ca.crt');
      // Asynchronous: the server answers in this process while Python waits.
      const { spawn } = await import('node:child_process');
      const env = { ...process.env };
      delete env.REQUESTS_CA_BUNDLE;
      delete env.CURL_CA_BUNDLE;
      const child = spawn(
        'python3',
        [
          '-c',
          SCRIPT,
          t.server.url,
          owner.email,
          owner.apiKey,
          bundle,
          member.email,
          member.apiKey,
        ],
        { env },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const out = JSON.parse(stdout);
      expect(out.register).toBe('success');
      expect(typeof out.sent).toBe('number');
      expect(out.event).toEqual([out.sent]);
      expect(out.without_bundle).toMatch(/^SSLError: .*CERTIFICATE_VERIFY_FAILED/);
    },
  );
});
