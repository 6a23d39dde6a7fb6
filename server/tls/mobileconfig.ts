/**
 * The authority as an iOS/iPadOS configuration profile (Apple's
 * Configuration Profile Reference: a property list whose one payload is of
 * type `com.apple.security.root`). Safari offers to install it; iOS then
 * asks the user to turn on full trust for it in Settings > General > About >
 * Certificate Trust Settings. The profile is unsigned (Settings shows "Not
 * Verified"): the fingerprint, compared in person, is what vouches for it.
 * Identifiers and UUIDs derive from the authority's fingerprint, so the same
 * authority always gives the same profile and installing it again replaces it.
 */
import { createHash, type X509Certificate } from 'node:crypto';
import { escapeHtml } from '../shared/html.js';

/** A UUID (version 4 layout) derived from `seed`. */
function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`.toUpperCase();
}

const string = (text: string) => `<string>${escapeHtml(text)}</string>`;

export function authorityProfile(authority: X509Certificate): string {
  const fingerprint = authority.fingerprint256.replace(/:/g, '').toLowerCase();
  const identifier = `org.hearth.ca.${fingerprint.slice(0, 16)}`;
  const name = /CN=([^\n]*)/.exec(authority.subject)?.[1] ?? 'Hearth CA';
  const der = authority.raw.toString('base64').replace(/.{1,64}/g, '\t\t\t$&\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>PayloadContent</key>
	<array>
		<dict>
			<key>PayloadCertificateFileName</key>
			${string('hearth-ca.crt')}
			<key>PayloadContent</key>
			<data>
${der}			</data>
			<key>PayloadDescription</key>
			${string('Lets this device trust the Hearth server it came from.')}
			<key>PayloadDisplayName</key>
			${string(name)}
			<key>PayloadIdentifier</key>
			${string(`${identifier}.certificate`)}
			<key>PayloadType</key>
			<string>com.apple.security.root</string>
			<key>PayloadUUID</key>
			${string(derivedUuid(`${fingerprint}:certificate`))}
			<key>PayloadVersion</key>
			<integer>1</integer>
		</dict>
	</array>
	<key>PayloadDescription</key>
	${string(`Trust for the Hearth chat server. Certificate SHA-256 fingerprint: ${authority.fingerprint256}`)}
	<key>PayloadDisplayName</key>
	${string(name)}
	<key>PayloadIdentifier</key>
	${string(identifier)}
	<key>PayloadRemovalDisallowed</key>
	<false/>
	<key>PayloadType</key>
	<string>Configuration</string>
	<key>PayloadUUID</key>
	${string(derivedUuid(`${fingerprint}:profile`))}
	<key>PayloadVersion</key>
	<integer>1</integer>
</dict>
</plist>
`;
}
