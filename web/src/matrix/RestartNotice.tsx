/**
 * "The server is restarting — reconnecting…" while the matrix socket reconnects (issue 12 §3). The live region is
 * always in the page, so screen readers announce the words when they appear.
 */
export function RestartNotice({ notice }: { notice: string | null }) {
  return (
    <div role="status" aria-live="polite">
      {notice ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">{notice}</p>
      ) : null}
    </div>
  );
}
