import { domainToASCII } from 'node:url';

/**
 * Django's EmailValidator (5.x, what Zulip 12 runs), which Zulip's importer
 * applies to every user's `email` and `delivery_email`
 * (do_import_realm: validate_email); one address it refuses stops the whole
 * import. LAN addresses such as `alice@team` (no dot) are the usual victim.
 */
const USER_PART =
  /^(?:[-!#$%&'*+/=?^_`{}|~0-9a-z]+(?:\.[-!#$%&'*+/=?^_`{}|~0-9a-z]+)*|"(?:[\x01-\x08\x0b\x0c\x0e-\x1f!#-[\]-\x7f]|\\[\x01-\x09\x0b\x0c\x0e-\x7f])*")$/i;
const UL = '\\u00a1-\\uffff';
const HOSTNAME = `[a-z${UL}0-9](?:[a-z${UL}0-9-]{0,61}[a-z${UL}0-9])?`;
const DOMAIN = `(?:\\.(?!-)[a-z${UL}0-9-]{1,63}(?<!-))*`;
const TLD = `\\.(?!-)(?:[a-z${UL}-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)`;
const DOMAIN_PART = new RegExp(`^${HOSTNAME}${DOMAIN}${TLD}$`, 'i');
const LITERAL = /^\[(.+)\]$/;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DOMAIN_ALLOWLIST = new Set(['localhost']);

function validDomain(domain: string): boolean {
  if (DOMAIN_ALLOWLIST.has(domain.toLowerCase())) return true;
  if (DOMAIN_PART.test(domain)) return true;
  const literal = LITERAL.exec(domain);
  if (literal)
    return (
      IPV4.test(literal[1]!) || /^ipv6:/i.test(literal[1]!) || /^[0-9a-f:.]+$/i.test(literal[1]!)
    );
  const ascii = domainToASCII(domain);
  return ascii !== '' && ascii !== domain && DOMAIN_PART.test(ascii);
}

export function isDjangoValidEmail(value: string): boolean {
  if (!value.includes('@') || value.length > 320) return false;
  const at = value.lastIndexOf('@');
  const user = value.slice(0, at);
  const domain = value.slice(at + 1);
  return USER_PART.test(user) && validDomain(domain);
}
