import { escapeHtml } from '../shared/html.js';

/**
 * The page a device opens (from the QR code, over plain HTTP: it does not
 * trust the server yet) to install the installation's certificate
 * authority: the downloads, the steps each platform needs, and the
 * fingerprint to compare with the one the server's owner sees.
 */
export function tlsSetupPage(options: {
  fingerprint: string;
  authorityName: string;
  /** Where the chat is, once the device trusts the authority. */
  chatUrl: string;
}): string {
  const fingerprint = escapeHtml(options.fingerprint);
  const name = escapeHtml(options.authorityName);
  const chatUrl = escapeHtml(options.chatUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Trust this Hearth server</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.15rem; margin-top: 1.5rem; }
code, .fingerprint { font-family: ui-monospace, monospace; word-break: break-all; }
.fingerprint { display: block; padding: .5rem; border: 1px solid #8888; border-radius: 6px; }
.download { display: inline-block; margin: .25rem .5rem .25rem 0; padding: .5rem .9rem; border-radius: 6px; background: #2563eb; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<main>
<h1>Trust this Hearth server</h1>
<p>This server's connections are encrypted with a certificate from its own certificate authority, <strong>${name}</strong>. Install the authority once on each device, then open <a href="${chatUrl}">${chatUrl}</a>.</p>
<p>Before installing, compare this SHA-256 fingerprint with the one shown on the server's Network page or in the Hearth app. They must be the same:</p>
<p><span class="fingerprint" id="fingerprint">${fingerprint}</span></p>
<p>
<a class="download" id="download-mobileconfig" href="/tls/hearth.mobileconfig">Profile for iPhone and iPad</a>
<a class="download" id="download-crt" href="/tls/ca.crt" download="hearth-ca.crt">Certificate for Android and computers</a>
</p>
<h2>iPhone and iPad</h2>
<ol>
<li>Open this page in Safari and tap <em>Profile for iPhone and iPad</em>; allow the download.</li>
<li>Open <em>Settings</em>, tap <em>Profile Downloaded</em>, then <em>Install</em>.</li>
<li>In <em>Settings &gt; General &gt; About &gt; Certificate Trust Settings</em>, turn on full trust for ${name}.</li>
</ol>
<h2>Android</h2>
<ol>
<li>Tap <em>Certificate for Android and computers</em> to save <code>hearth-ca.crt</code>.</li>
<li>Open <em>Settings &gt; Security &amp; privacy &gt; More security settings &gt; Encryption &amp; credentials &gt; Install a certificate &gt; CA certificate</em> (names differ a little between phones; search Settings for "CA certificate") and pick the file.</li>
<li>Chrome and the Zulip app trust it from then on.</li>
</ol>
<h2>Windows</h2>
<ol>
<li>Download <code>hearth-ca.crt</code> and open it; choose <em>Install Certificate</em>.</li>
<li>Place it in <em>Trusted Root Certification Authorities</em>.</li>
</ol>
<h2>macOS</h2>
<ol>
<li>Download <code>hearth-ca.crt</code> and open it: Keychain Access adds it.</li>
<li>Open ${name} in Keychain Access, expand <em>Trust</em> and choose <em>Always Trust</em>.</li>
</ol>
<h2>Linux</h2>
<ol>
<li>Debian and Ubuntu: <code>sudo cp hearth-ca.crt /usr/local/share/ca-certificates/ &amp;&amp; sudo update-ca-certificates</code>.</li>
<li>Firefox keeps its own list: <em>Settings &gt; Privacy &amp; Security &gt; Certificates &gt; View Certificates &gt; Authorities &gt; Import</em>.</li>
<li>Zulip's terminal and Python clients: set <code>cert_bundle</code> in the zuliprc to the file's path.</li>
</ol>
<p>The authority can vouch only for this machine's names and private network addresses, never for a site on the Internet.</p>
</main>
</body>
</html>
`;
}
