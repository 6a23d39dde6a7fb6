/**
 * The Zulip API feature level whose behaviour Hearth implements (the spec
 * describes levels up to 496). Clients gate features on it.
 */
export const FEATURE_LEVEL = 496;
/**
 * Reported as zulip_version (python bindings require it to be non-null).
 * Feature level 496 belongs to the Zulip 12.0 release line (11.0 ended at
 * level 421), so Hearth names 12.0: a client that gates on the version
 * string rather than the level would otherwise under-estimate the server,
 * and a Hearth export is pinned to the same line (portability/profiles).
 */
export const ZULIP_VERSION = '12.0-hearth-0.1.0';
export const ZULIP_MERGE_BASE = '12.0';
export const HEARTH_VERSION = '0.1.0';
