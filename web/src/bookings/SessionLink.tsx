import { linkHost } from './labels';

/**
 * A link a training company put on a session (its joining link), with the host it leads to in plain sight ("Join on
 * meet.example"), opened in a new tab that gets neither this page (noopener) nor its address (noreferrer). Anything
 * that is not an http(s) link is shown as nothing at all (issue 29 §7).
 */
export function SessionLink({
  url,
  action = 'Join',
  className = 'focus-ring rounded font-medium text-primary-800 underline break-all',
}: {
  url: string | null | undefined;
  action?: string;
  className?: string;
}) {
  const host = linkHost(url);
  if (!url || !host) return null;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer" className={className}>
      {action} on {host}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
