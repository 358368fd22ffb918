import type { Attempt, H5pResult } from '@cc/contracts';
import { H5PPlayer } from './players/H5PPlayer';
import type { H5pOutcome } from './players/h5p-xapi';
import { ScormPlayer } from './players/ScormPlayer';

/**
 * Where an interactive item plays: an H5P item inside a topic (players/H5PPlayer.tsx, h5p-standalone), or a whole
 * SCORM content (players/ScormPlayer.tsx, the scorm-again runtime). The props are the hand-over: `kind`, the
 * attempt (id, version, cmi), the H5P item id for H5P, and `onAttemptChange` to report the updated attempt (new
 * version) after the player saved CMI data or finished. For H5P, `onH5pOutcome` records the item's xAPI outcome
 * on the attempt (the caller adds the topic and sends it through its serialised PATCH queue) and resolves with the
 * result the server kept for the topic; `onH5pScored` says whether the item is a scored activity.
 */
export interface PlayerSlotProps {
  kind: 'h5p' | 'scorm';
  attempt: Attempt;
  h5pId?: number;
  title?: string;
  onAttemptChange?: (attempt: Attempt) => void;
  onH5pOutcome?: (outcome: H5pOutcome) => Promise<H5pResult | null>;
  onH5pScored?: (scored: boolean) => void;
}

export function PlayerSlot({
  kind,
  attempt,
  h5pId,
  title,
  onAttemptChange,
  onH5pOutcome,
  onH5pScored,
}: PlayerSlotProps) {
  if (kind === 'scorm')
    return <ScormPlayer attempt={attempt} title={title} onAttemptChange={onAttemptChange} />;
  if (h5pId === undefined) return null;
  return (
    <H5PPlayer
      attempt={attempt}
      h5pId={h5pId}
      title={title}
      onOutcome={onH5pOutcome}
      onScored={onH5pScored}
    />
  );
}
