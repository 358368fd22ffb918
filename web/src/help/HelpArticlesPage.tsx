import {
  HELP_BODY_MAX,
  HELP_REGEX_MAX,
  HELP_SUFFIX_MAX,
  HELP_TITLE_MAX,
  type HelpArticle,
  HelpArticleBody,
  HelpMessages,
  helpArticleMatches,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { api, type Envelope } from '../app/api';
import { useAuth } from '../app/auth';
import { deleteHelpArticle } from '../app/graphql/operations';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import {
  Button,
  Card,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  TextArea,
  TextField,
} from '../ui';
import { HelpBody } from './HelpBody';
import { HELP_ARTICLES_KEY, useHelpArticles } from './help';

/**
 * /help-articles (ours; issue 14): super admins manage the platform's help articles: list, add, edit, delete (after a
 * confirm), and try a route pattern against the URL pattern before saving. Everyone else goes to /403.
 */
type Draft = { id: number | null; title: string; url_regex: string; link_suffix: string; body: string };
const EMPTY: Draft = { id: null, title: '', url_regex: '', link_suffix: '', body: '' };
const toDraft = (a: HelpArticle): Draft => ({
  id: a.id,
  title: a.title,
  url_regex: a.url_regex,
  link_suffix: a.link_suffix ?? '',
  body: a.body,
});

export default function HelpArticlesPage() {
  const { user } = useAuth();
  const list = useHelpArticles(true, Boolean(user?.super_admin));
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<HelpArticle | null>(null);
  if (user && !user.super_admin) return <Navigate to="/403" replace />;

  const refresh = () => queryClient.invalidateQueries({ queryKey: HELP_ARTICLES_KEY });
  const remove = async () => {
    if (!deleting) return;
    try {
      // GraphQL (spec 2 §7): web/src/app/graphql/README.md.
      await deleteHelpArticle(deleting.id);
      notifySuccess(HelpMessages.deleted);
      if (draft?.id === deleting.id) setDraft(null);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Could not delete.'), 'Could not delete.');
      throw error;
    }
  };

  const columns: Column<HelpArticle>[] = [
    {
      key: 'title',
      header: 'Title',
      render: (a) => <span className="font-medium text-slate-900">{a.title}</span>,
    },
    {
      key: 'url_regex',
      header: 'Shown on pages matching',
      hideOnMobile: true,
      render: (a) => (
        <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs break-all">{a.url_regex}</code>
      ),
    },
    {
      key: 'link_suffix',
      header: 'Link suffix',
      hideOnMobile: true,
      render: (a) => (a.link_suffix ? <code className="text-xs">{a.link_suffix}</code> : '—'),
    },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Help articles"
        description="The articles the Help button shows. Each appears on the pages whose address pattern matches its URL pattern, for every organisation."
        actions={<Button onClick={() => setDraft({ ...EMPTY })}>Add article</Button>}
      />
      {draft ? (
        <ArticleForm
          key={draft.id ?? 'new'}
          initial={draft}
          onCancel={() => setDraft(null)}
          onSaved={async () => {
            setDraft(null);
            await refresh();
          }}
        />
      ) : null}
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback="Help articles could not be loaded."
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false} className="overflow-hidden">
          <DataTable
            caption="Help articles"
            columns={columns}
            rows={list.data}
            rowKey={(a) => a.id}
            loading={list.isLoading}
            empty={
              <EmptyState
                title="No help articles yet"
                description="Add the first one: say which pages it belongs to with a URL pattern such as ^/reports/matrix$."
                action={<Button onClick={() => setDraft({ ...EMPTY })}>Add article</Button>}
              />
            }
            rowActions={(a) => (
              <>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setDraft(toDraft(a))}
                  aria-label={`Edit ${a.title}`}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  onClick={() => setDeleting(a)}
                  aria-label={`Delete ${a.title}`}
                >
                  Delete
                </Button>
              </>
            )}
          />
        </Card>
      )}
      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete this help article?"
        message={`“${deleting?.title ?? ''}” will no longer show in the Help panel. This cannot be undone.`}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

function ArticleForm({
  initial,
  onCancel,
  onSaved,
}: {
  initial: Draft;
  onCancel: () => void;
  onSaved: () => Promise<void>;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const [tryRoute, setTryRoute] = useState('');
  const set = (field: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.target.value }));

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = {
      title: draft.title,
      url_regex: draft.url_regex,
      link_suffix: draft.link_suffix,
      body: draft.body,
    };
    const parsed = HelpArticleBody.safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const res = draft.id
        ? await api.patch<Envelope<HelpArticle>>(`/help-articles/${draft.id}`, body, { actingAs: false })
        : await api.post<Envelope<HelpArticle>>('/help-articles', body, { actingAs: false });
      notifySuccess(res.data.message ?? (draft.id ? HelpMessages.updated : HelpMessages.created));
      await onSaved();
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        notifyError(errorEnvelope(error, 'Could not save.'), 'Could not save.');
    } finally {
      setBusy(false);
    }
  };

  const tried = tryRoute.trim();
  const matches = tried && draft.url_regex ? helpArticleMatches(draft.url_regex, tried) : null;
  return (
    <Card>
      <form
        onSubmit={save}
        className="space-y-4"
        noValidate
        aria-label={draft.id ? 'Edit help article' : 'Add a help article'}
      >
        <h2 className="text-base font-semibold text-slate-900">
          {draft.id ? 'Edit help article' : 'Add a help article'}
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label="Title"
            value={draft.title}
            onChange={set('title')}
            maxLength={HELP_TITLE_MAX}
            error={errors.title}
            required
          />
          <TextField
            label="URL pattern"
            hint="A regular expression matched against the page's address pattern, ids shown as *: ^/users/\*$ for a person's page."
            value={draft.url_regex}
            onChange={set('url_regex')}
            maxLength={HELP_REGEX_MAX}
            error={errors.url_regex}
            required
            className="font-mono"
          />
          <TextField
            label="Link suffix (optional)"
            hint="Added to the page's address for “Show me on this page”: an anchor such as #matrix, or a query such as ?help=matrix."
            value={draft.link_suffix}
            onChange={set('link_suffix')}
            maxLength={HELP_SUFFIX_MAX}
            error={errors.link_suffix}
          />
          <div>
            <TextField
              label="Try a page"
              hint="An address pattern such as /reports/matrix or /users/*."
              value={tryRoute}
              onChange={(e) => setTryRoute(e.target.value)}
            />
            {matches !== null ? (
              <p className="mt-1 text-sm font-medium" role="status" data-testid="try-result">
                {matches ? (
                  <span className="text-success-800">Shown on {tried}</span>
                ) : (
                  <span className="text-danger-800">Not shown on {tried}</span>
                )}
              </p>
            ) : null}
          </div>
        </div>
        <TextArea
          label="Body"
          hint="Plain text. Blank lines start paragraphs; “- ” and “1. ” start list items; **bold**; ## heading; [text](https://…) links."
          rows={10}
          value={draft.body}
          onChange={set('body')}
          maxLength={HELP_BODY_MAX}
          error={errors.body}
          required
        />
        {draft.body.trim() ? (
          <details className="rounded-lg bg-slate-50 p-3">
            <summary className="cursor-pointer text-sm font-medium text-slate-800">Preview</summary>
            <div className="mt-3">
              <HelpBody body={draft.body} />
            </div>
          </details>
        ) : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {draft.id ? 'Save changes' : 'Add article'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
