import { type FormEvent, useEffect, useState } from 'react';
import type { Outputs } from '../../api/client.js';
import { useApi } from '../../api/context.js';
import { useLoad } from '../../api/use-load.js';
import { useConfirm } from '../../components/ConfirmDialog.js';
import { CopyButton } from '../../components/CopyButton.js';
import { CheckField, Field } from '../../components/Field.js';
import { FormStatus } from '../../components/FormStatus.js';
import { PageTitle } from '../../components/Layout.js';
import { Loading } from '../../components/Loading.js';
import { useForm } from '../../components/use-form.js';

type Network = Outputs['network']['get'];
const FIELDS = [
  'lan',
  'interfaceAddress',
  'externalUrl',
  'tlsCertFile',
  'tlsKeyFile',
  'tlsPassphrase',
] as const;
const isPkcs12 = (file: string) => /\.(p12|pfx)$/i.test(file.trim());

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
            {net.authorityProblem ? (
              <AuthorityProblem problem={net.authorityProblem} onReplaced={reload} />
            ) : null}
            {net.followsSettings ? null : <CommandLineNotice network={net} />}
            <NetworkForm network={net} onSaved={reload} />
            <ClientUrls network={net} />
            {net.tls ? <DeviceTrust tls={net.tls} /> : null}
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
  const [tlsCertFile, setTlsCertFile] = useState(network.tlsCertFile ?? '');
  const [tlsKeyFile, setTlsKeyFile] = useState(network.tlsKeyFile ?? '');
  const [tlsPassphrase, setTlsPassphrase] = useState('');
  useEffect(() => {
    setLan(network.lan);
    setInterfaceAddress(network.interfaceAddress ?? '');
    setExternalUrl(network.externalUrl ?? '');
    setTlsCertFile(network.tlsCertFile ?? '');
    setTlsKeyFile(network.tlsKeyFile ?? '');
    setTlsPassphrase('');
  }, [network]);
  const pkcs12 = isPkcs12(tlsCertFile);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void form.run(async () => {
      const answer = await api.network.set.mutate({
        lan,
        interfaceAddress: lan && interfaceAddress ? interfaceAddress : null,
        externalUrl: externalUrl.trim() || null,
        tlsCertFile: lan ? tlsCertFile.trim() || null : null,
        tlsKeyFile: lan && !pkcs12 ? tlsKeyFile.trim() || null : null,
        tlsPassphrase: lan && pkcs12 ? tlsPassphrase || null : null,
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
        <p className="muted" id="https-note">
          On the network Hearth speaks HTTPS, with a certificate from this installation’s own
          certificate authority: each device trusts it once (see “Trusting this server” below). This
          computer keeps plain HTTP for itself.
        </p>
      ) : null}
      {network.clearTextWarning ? (
        <p className="alert alert-error" id="clear-text-warning" role="note">
          Clients are told a plain-HTTP address: on the network, passwords, API keys and messages
          travel unencrypted. Give an https external URL, or leave it empty.
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
      {lan ? (
        <fieldset className="grid" id="own-certificate">
          <legend>Your own certificate (optional)</legend>
          <p className="muted">
            A certificate your organization already has (for example from its own authority),
            instead of Hearth’s. Paths on this computer: a PEM certificate and its key, or one
            PKCS#12 file (.p12, .pfx).
          </p>
          <Field label="Certificate file" name="tlsCertFile" error={form.errorFor('tlsCertFile')}>
            {(p) => (
              <input
                {...p}
                placeholder="/etc/ssl/hearth/server.crt"
                value={tlsCertFile}
                onChange={(e) => setTlsCertFile(e.target.value)}
              />
            )}
          </Field>
          {pkcs12 ? (
            <Field
              label="PKCS#12 passphrase"
              name="tlsPassphrase"
              error={form.errorFor('tlsPassphrase')}
            >
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="off"
                  value={tlsPassphrase}
                  onChange={(e) => setTlsPassphrase(e.target.value)}
                />
              )}
            </Field>
          ) : (
            <Field label="Key file" name="tlsKeyFile" error={form.errorFor('tlsKeyFile')}>
              {(p) => (
                <input
                  {...p}
                  placeholder="/etc/ssl/hearth/server.key"
                  value={tlsKeyFile}
                  onChange={(e) => setTlsKeyFile(e.target.value)}
                />
              )}
            </Field>
          )}
        </fieldset>
      ) : null}
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

/** The owner's choice when the data directory's certificate authority is damaged. */
function AuthorityProblem({ problem, onReplaced }: { problem: string; onReplaced: () => void }) {
  const api = useApi();
  const [dialog, confirm] = useConfirm();
  const form = useForm();
  const replace = async () => {
    const ok = await confirm({
      title: 'Make a new certificate authority?',
      body: 'Every device that trusts the old one must then install the new one. The damaged files are kept beside the data directory.',
      confirmLabel: 'Make a new one',
      danger: true,
    });
    if (!ok) return;
    void form.run(async () => {
      const answer = await api.network.replaceAuthority.mutate();
      onReplaced();
      return answer.restartRequired
        ? `Moved to ${answer.keptAt}. Restart the Hearth server to make the new authority.`
        : `Moved to ${answer.keptAt}. The server restarted with a new authority.`;
    });
  };
  return (
    <section className="card" aria-labelledby="authority-problem-title" id="authority-problem">
      <h2 id="authority-problem-title">The certificate authority is damaged</h2>
      <p className="alert alert-error" role="alert">
        {problem}
      </p>
      <div className="actions">
        <button type="button" className="button danger" onClick={replace} disabled={form.busy}>
          Make a new certificate authority
        </button>
      </div>
      <FormStatus form={form} fields={[]} />
      {dialog}
    </section>
  );
}

/** Devices trust the server: the authority to download, its fingerprint, the steps, a QR code. */
function DeviceTrust({ tls }: { tls: NonNullable<Network['tls']> }) {
  const setup = tls.setupUrl;
  return (
    <section className="card" aria-labelledby="device-trust-title" id="device-trust">
      <h2 id="device-trust-title">Trusting this server</h2>
      {setup ? (
        <>
          <p className="muted">
            Each phone and computer installs this installation’s certificate authority once. Before
            installing, compare this fingerprint with the one the device shows: they must be the
            same.
          </p>
          <p>
            SHA-256 fingerprint: <code id="tls-fingerprint">{tls.fingerprint}</code>
            <CopyButton text={tls.fingerprint} />
          </p>
          <p className="actions">
            <a className="button" id="download-mobileconfig" href={`${setup}hearth.mobileconfig`}>
              Profile for iPhone and iPad
            </a>
            <a className="button" id="download-crt" href={`${setup}ca.crt`} download>
              Certificate for Android and computers (.crt)
            </a>
          </p>
          <ul className="steps">
            <li>
              <strong>iPhone, iPad:</strong> open the profile in Safari, install it in Settings,
              then turn on full trust in Settings › General › About › Certificate Trust Settings.
            </li>
            <li>
              <strong>Android:</strong> save the .crt, then Settings › Security › Encryption &amp;
              credentials › Install a certificate › CA certificate. The Zulip app trusts it.
            </li>
            <li>
              <strong>Windows, macOS:</strong> open the .crt and place it among the trusted root
              authorities (Keychain Access: Always Trust).
            </li>
            <li>
              <strong>Linux, Python bots:</strong> add it to the system’s certificates, or set{' '}
              <code>cert_bundle</code> in the zuliprc to its path.
            </li>
          </ul>
          <figure className="qr">
            <div
              className="qr-code"
              role="img"
              aria-label={`QR code of ${setup}`}
              // The server's own SVG (made by the qrcode library), not user content.
              // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted SVG from the server
              dangerouslySetInnerHTML={{ __html: tls.setupQrSvg ?? '' }}
            />
            <figcaption className="muted">
              Scan with a phone’s camera to open <code>{setup}</code>: the downloads and these
              steps.
            </figcaption>
          </figure>
        </>
      ) : (
        <>
          <p className="muted">
            The server presents your own certificate: {tls.certificate.subject} (
            {tls.certificate.names}), valid until {tls.certificate.validTo.slice(0, 10)}.
          </p>
          <p>
            SHA-256 fingerprint: <code id="tls-fingerprint">{tls.fingerprint}</code>
            <CopyButton text={tls.fingerprint} />
          </p>
        </>
      )}
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
