import type { ComposeTarget } from '../data/model.js';

export interface ComposeBoxProps {
  /** The narrow's default target (composeTargetFor); null where the user must choose. */
  defaultTarget: ComposeTarget | null;
}

/** The compose box at the foot of the feed. STUB: replaced by the compose work. */
export function ComposeBox(_props: ComposeBoxProps) {
  return null;
}
