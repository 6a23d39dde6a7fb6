import { parseTemplate } from 'url-template';

/** RFC 6570 expression operators (level 2 and 3). */
const OPERATORS = '+#./;?&';
/** varchar: ALPHA / DIGIT / "_" / pct-encoded. */
const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
/** varspec: a varname (varchars, single dots between them), then a prefix (:1 to :9999) or explode (*). */
const VARSPEC = new RegExp(`^${VARCHAR}+(?:\\.${VARCHAR}+)*(?::[1-9][0-9]{0,3}|\\*)?$`);

/**
 * Whether `template` is an RFC 6570 URI template: literal text without
 * braces, and expressions `{op?var,var,...}` whose variables are well formed.
 * The reserved operators (`=`, `,`, `!`, `@`, `|`) are refused, as Zulip's
 * validator does. The url-template library expands templates but does not
 * check them, hence this.
 */
export function isValidUrlTemplate(template: string): boolean {
  for (const part of template.split(/(\{[^{}]*\})/)) {
    if (part.startsWith('{') && part.endsWith('}') && part.length >= 2) {
      let body = part.slice(1, -1);
      if (body !== '' && OPERATORS.includes(body[0]!)) body = body.slice(1);
      if (!body.split(',').every((varspec) => VARSPEC.test(varspec))) return false;
    } else if (/[{}]/.test(part)) {
      return false;
    }
  }
  return true;
}

/**
 * Whether a template's links can only be web pages: it starts with a literal
 * http:// or https://, so no expansion can make a javascript: or data: URL
 * that a click would run.
 */
export function isWebUrlTemplate(template: string): boolean {
  return /^https?:\/\//i.test(template);
}

/** The names of a valid template's variables, as the url-template library reads them. */
export function templateVariableNames(template: string): Set<string> {
  const names = new Set<string>();
  const recorder = new Proxy(
    {},
    {
      get(_target, key) {
        if (typeof key === 'string') names.add(key);
        return undefined;
      },
    },
  );
  parseTemplate(template).expand(recorder);
  return names;
}
