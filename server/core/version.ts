/**
 * The Zulip API feature level whose behaviour Hearth implements (the spec
 * describes levels up to 496). Clients gate features on it.
 */
export const FEATURE_LEVEL = 496;
/** Reported as zulip_version; python bindings require it to be non-null. */
export const ZULIP_VERSION = '11.0-hearth-0.1.0';
export const ZULIP_MERGE_BASE = '11.0';
export const HEARTH_VERSION = '0.1.0';
