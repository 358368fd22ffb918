import {
  HELP_QUESTION_MAX,
  type HelpArticle,
  HelpContactBody,
  type HelpContactResult,
  HelpMessages,
} from '@cc/contracts';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { api, type Envelope } from '../app/api';
import { useAuth } from '../app/auth';
import { routePatternStore } from '../app/route-meta';
import { useStore } from '../app/store';
import { errorEnvelope, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Button, cx, SearchInput, Spinner, TextArea } from '../ui';
import { HelpBody } from './HelpBody';
import { articleLink, articlesForRoute, sessionData, useHelpArticles } from './help';

/**
 * The help widget (spec 1 §1 "a chat-style help widget is always enabled"): a Help button fixed at the bottom right
 * of every page of the signed-in shell, opening a panel with the articles for the current route pattern, each
 * readable in place with its link on this page, a search over all articles, and "Contact support", which sends the
 * question with the user's identification and session data (spec 1 §4) to POST /help/contact.
 * On the sign-in and error pages (AuthLayout, ExternalLayout) it shows a signed-out person the articles only (issue
 * 38 §3): "Contact support" sends the caller's identity, which a signed-out person does not have.
 */
type View =
  | { kind: 'home' }
  | { kind: 'article'; article: HelpArticle }
  | { kind: 'contact' }
  | { kind: 'sent'; to: string };

/**
 * Where the Help button sits. `header`: in the signed-in shell's top bar (issue 33 §1: a floating button covered the
 * controls at the right edge of long pages, such as the permission switches, at every scroll position but the end);
 * `floating`: bottom right, on the short centred pages without a top bar (sign-in, errors), which keep room for it.
 */
export type HelpPlacement = 'header' | 'floating';

export function HelpWidget({ placement = 'floating' }: { placement?: HelpPlacement }) {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>({ kind: 'home' });
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // Loaded as soon as a signed-in shell shows (spec 1 §4 "loaded ... at app start"), not on first open; signed out
  // (a sign-in or error page, which most people never ask help from) on first open.
  const signedIn = Boolean(user);
  const [opened, setOpened] = useState(false);
  const articles = useHelpArticles(signedIn, signedIn || opened);

  const close = () => {
    setOpen(false);
    setView({ kind: 'home' });
    buttonRef.current?.focus();
  };

  return (
    <>
      {open ? (
        <HelpPanel
          id={panelId}
          view={view}
          setView={setView}
          onClose={close}
          articles={articles.data}
          loading={articles.isLoading}
          error={articles.isError ? articles.error : null}
          onRetry={() => void articles.refetch()}
          placement={placement}
        />
      ) : null}
      <button
        ref={buttonRef}
        type="button"
        data-testid="help-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          if (open) return close();
          setOpen(true);
          setOpened(true);
        }}
        className={
          placement === 'header'
            ? 'focus-ring flex items-center gap-1.5 rounded-full p-2 text-sm font-medium text-slate-600 hover:bg-slate-100 sm:px-3'
            : cx(
                'focus-ring fixed right-3 bottom-3 z-40 flex items-center gap-2 rounded-full px-4 py-2.5 text-sm font-semibold shadow-lg sm:right-5 sm:bottom-5',
                'bg-primary-700 text-on-primary-700 hover:bg-primary-800',
                open && 'max-sm:hidden',
              )
        }
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
          <circle cx="10" cy="10" r="8.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M7.75 7.6a2.3 2.3 0 1 1 3.4 2c-.7.4-1.15.85-1.15 1.65v.35"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinecap="round"
          />
          <circle cx="10" cy="14.4" r="0.9" fill="currentColor" />
        </svg>
        <span className={placement === 'header' ? 'max-sm:sr-only' : undefined}>
          {open ? 'Close help' : 'Help'}
        </span>
      </button>
    </>
  );
}

function HelpPanel({
  id,
  view,
  setView,
  onClose,
  articles,
  loading,
  error,
  onRetry,
  placement,
}: {
  placement: HelpPlacement;
  id: string;
  view: View;
  setView: (v: View) => void;
  onClose: () => void;
  articles: HelpArticle[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const titleId = `${id}-title`;
  const { user } = useAuth();
  // Contact support needs the caller's identity: signed out (or signed out meanwhile) the panel is articles only.
  const shown: View = !user && (view.kind === 'contact' || view.kind === 'sent') ? { kind: 'home' } : view;
  const onContact = user ? () => setView({ kind: 'contact' }) : null;
  // Each view change (open, article, contact, sent) puts focus on its title, so keyboard and screen-reader users
  // start at the top of what just appeared.
  const viewKey = shown.kind === 'article' ? `article-${shown.article.id}` : shown.kind;
  useEffect(() => {
    if (viewKey) headingRef.current?.focus();
  }, [viewKey]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const title =
    shown.kind === 'article' ? shown.article.title : shown.kind === 'home' ? 'Help' : 'Contact support';
  return (
    <section
      id={id}
      role="dialog"
      aria-labelledby={titleId}
      data-testid="help-panel"
      className={cx(
        'fixed inset-x-0 bottom-0 z-50 flex max-h-[85vh] flex-col rounded-t-2xl bg-white shadow-2xl ring-1 ring-slate-200',
        'sm:inset-x-auto sm:right-5 sm:max-h-[min(640px,calc(100vh-7rem))] sm:w-[24rem] sm:rounded-2xl',
        // Under the top bar's Help button, or over the floating one.
        placement === 'header' ? 'sm:top-[4.5rem] sm:bottom-auto' : 'sm:bottom-20',
      )}
    >
      <header className="flex items-center gap-2 rounded-t-2xl bg-primary-700 px-4 py-3 text-on-primary-700">
        {shown.kind !== 'home' ? (
          <button
            type="button"
            onClick={() => setView({ kind: 'home' })}
            className="focus-ring -ml-1 rounded-md p-1 hover:bg-primary-800"
            aria-label="Back to help"
          >
            <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
              <path
                d="M12 5l-5 5 5 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>
        ) : null}
        <h2
          ref={headingRef}
          id={titleId}
          tabIndex={-1}
          className="min-w-0 flex-1 truncate text-base font-semibold focus:outline-none"
        >
          {title}
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="focus-ring rounded-md p-1 hover:bg-primary-800"
          aria-label="Close help"
        >
          <svg viewBox="0 0 20 20" className="h-5 w-5" aria-hidden="true">
            <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        {shown.kind === 'home' ? (
          <HomeView
            articles={articles}
            loading={loading}
            error={error}
            onRetry={onRetry}
            setView={setView}
            onContact={onContact}
          />
        ) : shown.kind === 'article' ? (
          <ArticleView article={shown.article} onContact={onContact} />
        ) : shown.kind === 'contact' ? (
          <ContactView onSent={(to) => setView({ kind: 'sent', to })} />
        ) : (
          <SentView to={shown.to} onDone={() => setView({ kind: 'home' })} />
        )}
      </div>
    </section>
  );
}

function Bubble({ children }: { children: React.ReactNode }) {
  return (
    <div className="max-w-[90%] rounded-2xl rounded-tl-sm bg-slate-100 px-3 py-2 text-sm text-slate-800">
      {children}
    </div>
  );
}

function ArticleList({
  articles,
  setView,
  label,
}: {
  articles: HelpArticle[];
  setView: (v: View) => void;
  label: string;
}) {
  return (
    <ul aria-label={label} className="space-y-2">
      {articles.map((a) => (
        <li key={a.id}>
          <button
            type="button"
            onClick={() => setView({ kind: 'article', article: a })}
            className="focus-ring flex w-full items-center justify-between gap-2 rounded-xl px-3 py-2.5 text-left text-sm font-medium text-slate-900 ring-1 ring-slate-200 hover:bg-slate-50"
          >
            <span>{a.title}</span>
            <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-500" aria-hidden="true">
              <path
                d="M8 5l5 5-5 5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
          </button>
        </li>
      ))}
    </ul>
  );
}

function HomeView({
  articles,
  loading,
  error,
  onRetry,
  setView,
  onContact,
}: {
  articles: HelpArticle[] | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  setView: (v: View) => void;
  /** null signed out: no "Contact support". */
  onContact: (() => void) | null;
}) {
  const { user } = useAuth();
  const pattern = useStore(routePatternStore);
  const [search, setSearch] = useState('');
  const forPage = useMemo(() => articlesForRoute(articles ?? [], pattern), [articles, pattern]);
  const found = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q) return [];
    return (articles ?? []).filter((a) => `${a.title}\n${a.body}`.toLowerCase().includes(q));
  }, [articles, search]);
  const firstName = user?.name.split(/\s+/)[0];

  return (
    <div className="space-y-4">
      <Bubble>
        {firstName ? `Hi ${firstName}, how can we help?` : 'How can we help?'} Here is what we have for this
        page.
      </Bubble>
      {loading ? (
        <Spinner label="Loading help articles" />
      ) : error ? (
        <div role="alert" className="space-y-2 text-sm text-danger-800">
          <p>{errorEnvelope(error, 'Help articles could not be loaded.').message}</p>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : forPage.length ? (
        <ArticleList articles={forPage} setView={setView} label="Help for this page" />
      ) : (
        <p className="text-sm text-slate-600" data-testid="help-none">
          There are no articles for this page yet. Search all articles below{onContact ? ', or ask us' : ''}.
        </p>
      )}
      <SearchInput label="Search help articles" onSearch={setSearch} />
      {search.trim() ? (
        found.length ? (
          <ArticleList articles={found} setView={setView} label="Search results" />
        ) : (
          <p className="text-sm text-slate-600">No article mentions “{search.trim()}”.</p>
        )
      ) : null}
      {onContact ? (
        <div className="border-t border-slate-200 pt-4">
          <p className="mb-2 text-sm text-slate-700">Still stuck? Our support team answers by e-mail.</p>
          <Button variant="secondary" onClick={onContact} className="w-full">
            Contact support
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function ArticleView({ article, onContact }: { article: HelpArticle; onContact: (() => void) | null }) {
  const link = articleLink(window.location.href, article.link_suffix);
  return (
    <article className="space-y-4" data-testid="help-article">
      <HelpBody body={article.body} />
      {link ? (
        <a
          href={link}
          className="focus-ring inline-block rounded text-sm font-medium text-primary-800 underline"
        >
          Show me on this page
        </a>
      ) : null}
      {onContact ? (
        <div className="border-t border-slate-200 pt-4">
          <p className="mb-2 text-sm text-slate-700">Did this not answer your question?</p>
          <Button variant="secondary" onClick={onContact} className="w-full">
            Contact support
          </Button>
        </div>
      ) : null}
    </article>
  );
}

/** What goes with the question (spec 1 §4 identification), shown so the user knows what support will see. */
function Identification() {
  const { user } = useAuth();
  if (!user) return null;
  const rows: [string, string][] = [
    ['Name', user.name],
    ['E-mail', user.email],
    ['Role', user.role?.name ?? '—'],
    ['Type', user.type?.name ?? '—'],
    ['Profile', `${window.location.origin}/users/${user.uuid}`],
  ];
  return (
    <details className="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-700">
      <summary className="cursor-pointer font-medium text-slate-800">What we send with your question</summary>
      <dl className="mt-2 space-y-1">
        {rows.map(([label, value]) => (
          <div key={label} className="flex gap-2">
            <dt className="w-16 shrink-0 text-slate-500">{label}</dt>
            <dd className="min-w-0 break-all">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2">
        And this page’s address, the app and API releases, whether you use the web or the mobile app, and your
        connection speed.
      </p>
    </details>
  );
}

function ContactView({ onSent }: { onSent: (to: string) => void }) {
  const [question, setQuestion] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (e: React.FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const body = { question, page: window.location.href, session: await sessionData() };
    const parsed = HelpContactBody.safeParse(body);
    if (!parsed.success) {
      const fields = zodFieldErrors(parsed.error);
      setErrors(fields);
      // Only the question is the user's to fix; anything else in the session data is ours.
      if (!fields.question) setFailure('Your question could not be sent.');
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = await api.post<Envelope<HelpContactResult>>('/help/contact', parsed.data, {
        actingAs: false,
      });
      onSent(res.data.data.delivered_to);
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        setFailure(errorEnvelope(error, 'Your question could not be sent.').message ?? null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={send} className="space-y-3" noValidate>
      <Bubble>Tell us what you were trying to do and what happened. We will reply by e-mail.</Bubble>
      <TextArea
        label="Your question"
        rows={5}
        value={question}
        maxLength={HELP_QUESTION_MAX}
        onChange={(e) => setQuestion(e.target.value)}
        error={errors.question}
        required
      />
      <Identification />
      {failure ? (
        <p role="alert" className="text-sm text-danger-800">
          {failure}
        </p>
      ) : null}
      <Button type="submit" loading={busy} className="w-full">
        Send to support
      </Button>
    </form>
  );
}

function SentView({ to, onDone }: { to: string; onDone: () => void }) {
  return (
    <div className="space-y-4" role="status" data-testid="help-sent">
      <Bubble>{HelpMessages.sent}</Bubble>
      <p className="text-sm text-slate-600">It went to {to}.</p>
      <Button variant="secondary" onClick={onDone} className="w-full">
        Back to help
      </Button>
    </div>
  );
}
