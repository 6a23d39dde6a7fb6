import { type FormEvent, useEffect, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { CopyButton } from '../../components/CopyButton.js';
import { CheckField, Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

type Network = Outputs['network']['get'];
const FIELDS = ['lan', 'interfaceAddress', 'externalUrl'] as const;

/** Serving the local network: the switch, where to listen, and what clients (and phones) use. */
export function NetworkPage() {
  const api = useApi();
  const [network, reload] = useLoad(() => api.network.get.query());
  return (
    <>
      <PageTitle title="Network">
        Who can reach this server: only this computer, or every device on your local network.
      </PageTitle>
      <Loading loaded={network}>
        {(net) => (
          <>
            {net.followsSettings ? null : <CommandLineNotice network={net} />}
            <NetworkForm network={net} onSaved={reload} />
            <ClientUrls network={net} />
          </>
        )}
      </Loading>
    </>
  );
}

function NetworkForm({ network, onSaved }: { network: Network; onSaved: () => void }) {
  const api = useApi();
  const form = useForm();
  const [lan, setLan] = useState(network.lan);
  const [interfaceAddress, setInterfaceAddress] = useState(network.interfaceAddress ?? '');
  const [externalUrl, setExternalUrl] = useState(network.externalUrl ?? '');
  useEffect(() => {
    setLan(network.lan);
    setInterfaceAddress(network.interfaceAddress ?? '');
    setExternalUrl(network.externalUrl ?? '');
  }, [network]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(async () => {
      const answer = await api.network.set.mutate({
        lan,
        interfaceAddress: lan && interfaceAddress ? interfaceAddress : null,
        externalUrl: externalUrl.trim() || null,
      });
      onSaved();
      return answer.restartRequired
        ? 'Saved for the desktop app. This server keeps the address its command line gave it: start it again with the command above to change it.'
        : 'Saved. The server restarted on the new settings.';
    });
  };

  return (
    <form id="network-form" className="card" onSubmit={submit} noValidate aria-label="Network">
      <h2>
        {network.followsSettings ? 'Serving the network' : 'Serving the network (desktop app)'}
      </h2>
      <CheckField
        label="Serve the local network (LAN)"
        name="lan"
        checked={lan}
        onChange={setLan}
        hint="Off: only this computer can connect."
      />
      {lan ? (
        <p className="alert alert-error" id="clear-text-warning" role="note">
          Hearth serves plain HTTP: on the network, passwords, API keys and messages travel
          unencrypted. Use it only on a network you trust, or put an HTTPS proxy in front and give
          its address as the external URL.
        </p>
      ) : null}
      <div className="grid">
        {lan ? (
          <Field
            label="Network interface"
            name="interfaceAddress"
            error={form.errorFor('interfaceAddress')}
            hint="Listen on one address only, or on all of them."
          >
            {(p) => (
              <select
                {...p}
                value={interfaceAddress}
                onChange={(e) => setInterfaceAddress(e.target.value)}
              >
                <option value="">All interfaces</option>
                {network.interfaces.map((i) => (
                  <option key={`${i.name}-${i.address}`} value={i.address}>
                    {i.name}: {i.address} ({i.family})
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field
          label="External URL"
          name="externalUrl"
          error={form.errorFor('externalUrl')}
          hint="Optional: the address clients use when it differs (a proxy, a DNS name)."
        >
          {(p) => (
            <input
              {...p}
              type="url"
              inputMode="url"
              placeholder="https://chat.example.com"
              value={externalUrl}
              onChange={(e) => setExternalUrl(e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="button primary" disabled={form.busy}>
          {form.busy ? 'Saving…' : 'Save'}
        </button>
      </div>
      <FormStatus form={form} fields={FIELDS} />
    </form>
  );
}

function ClientUrls({ network }: { network: Network }) {
  const [main] = network.urls;
  return (
    <section className="card" aria-labelledby="client-urls-title">
      <h2 id="client-urls-title">What clients connect to</h2>
      <p className="muted">
        Listening on <code>{network.host}</code>, port {network.port}.
        {network.clearTextWarning ? ' Reachable from other devices over plain HTTP.' : ''}
      </p>
      <ul className="member-list" id="client-urls">
        {network.urls.map((url) => (
          <li key={url}>
            <code>{url}</code>
            <CopyButton text={url} />
          </li>
        ))}
      </ul>
      {main && !reachableFromOthers(network) ? (
        <p className="muted" id="qr-unreachable">
          No QR code: phones and other computers cannot reach a server listening on{' '}
          <code>{network.host}</code>, which is this computer only.
        </p>
      ) : null}
      {main && reachableFromOthers(network) ? (
        <figure className="qr">
          <div
            className="qr-code"
            role="img"
            aria-label={`QR code of ${main}`}
            // The server's own SVG (made by the qrcode library), not user content.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted SVG from the server
            dangerouslySetInnerHTML={{ __html: network.qrSvg }}
          />
          <figcaption className="muted">
            Scan with the Zulip app on a phone to add <code>{main}</code>.
          </figcaption>
        </figure>
      ) : null}
    </section>
  );
}

/** Loopback addresses (127.x, ::1, localhost) reach this computer only. */
const LOOPBACK = /^(127\.|::1$|localhost$|\[::1\]$)/i;

/** Whether another device can use the main URL: the server listens beyond this computer, or a given URL says so. */
function reachableFromOthers(network: Network): boolean {
  const main = network.urls[0] ?? '';
  let host = '';
  try {
    host = new URL(main).hostname;
  } catch {
    return false;
  }
  return !LOOPBACK.test(network.host) && !LOOPBACK.test(host);
}

/** The `npm start` command that serves what the saved settings say (the server's own port kept). */
export function startCommand(network: Network): string {
  const parts = ['npm start --'];
  if (network.lan) parts.push(`--host ${network.interfaceAddress ?? '0.0.0.0'}`);
  parts.push(`--port ${network.port}`);
  if (network.externalUrl) parts.push(`--external-url ${network.externalUrl}`);
  return parts.join(' ');
}

/**
 * A server started from the command line (`npm start`) listens where its
 * flags say; what this page saves is for the desktop app. Said plainly, with
 * the command that serves the saved settings.
 */
function CommandLineNotice({ network }: { network: Network }) {
  const command = startCommand(network);
  return (
    <section className="card" id="command-line-notice" aria-labelledby="command-line-title">
      <h2 id="command-line-title">This server's address comes from its command line</h2>
      <p>
        It was started with <code>npm start</code>, not by the desktop app, and listens on{' '}
        <code>
          {network.host}:{network.port}
        </code>{' '}
        whatever is saved below: saving and restarting does not change that. To serve what the
        settings below say, stop it and start it with:
      </p>
      <p className="command">
        <code className="command-text">{command}</code>
        <CopyButton text={command} />
      </p>
      <p className="muted">
        Add <code>--data-dir</code> as you did before if you gave one. The saved settings apply when
        the desktop app runs the server.
      </p>
    </section>
  );
}
