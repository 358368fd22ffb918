import type { SearchGroup, SearchHit, SearchKind } from '@cc/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { Button, Card, EmptyState, PageHeader } from '../ui';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { useSystemSearch } from './api';
import { type PageHit, pageHits } from './search-pages';

const PER_KIND = 5;
const ALL_OF_KIND = 50;

/** Where a hit opens. */
function hitLink(kind: SearchKind, hit: SearchHit): string {
  if (kind === 'users' || kind === 'records') return `/users/${hit.ref}`;
  if (kind === 'entities') return `/entities/${hit.ref}`;
  return `/content-creator/courses/update/${hit.ref}`;
}

/** The list page with the search applied, for "see all". */
function moreLink(kind: SearchKind, q: string): string {
  const search = encodeURIComponent(q);
  if (kind === 'users') return `/users?search=${search}`;
  if (kind === 'entities') return `/entities?search=${search}`;
  if (kind === 'courses') return `/content-creator/courses?search=${search}`;
  return `/system/search?q=${search}&kind=records`;
}

/** `/system/search` (spec 1 §2): one box over people, organisations, courses and training records, grouped by kind. */
export default function SystemSearchPage() {
  const wl = useWhitelabel();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const only = params.get('kind') as SearchKind | null;
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const search = useSystemSearch(q, only ? ALL_OF_KIND : PER_KIND);
  const can = usePermissionChecker();
  const pages = only ? [] : pageHits(q, can);
  const labels: Record<SearchKind, { one: string; many: string }> = {
    users: { one: 'person', many: 'People' },
    entities: { one: organisationWord(wl).toLowerCase(), many: organisationsWord(wl) },
    courses: { one: 'course', many: 'Courses' },
    records: { one: 'training record', many: 'Training records' },
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    if (text.trim()) next.set('q', text.trim());
    setParams(next);
  };
  const groups = (search.data?.groups ?? []).filter((g) => !only || g.kind === only);
  const tooShort = q.trim().length > 0 && q.trim().length < 2;
  const nothing = search.data && groups.every((g) => g.total === 0) && pages.length === 0;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Search"
        description={`Find people, ${organisationsWord(wl).toLowerCase()}, courses and training records you can see.`}
      />
      <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <label htmlFor="system-search" className="mb-1 block text-sm font-medium text-slate-800">
            Search for
          </label>
          <input
            id="system-search"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="A name, e-mail, course title…"
            // biome-ignore lint/a11y/noAutofocus: the page exists to type a search
            autoFocus
            className="focus-ring block w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
          />
        </div>
        <Button type="submit">Search</Button>
      </form>
      {only && q ? (
        <p className="text-sm">
          <Link
            to={`/system/search?q=${encodeURIComponent(q)}`}
            className="focus-ring rounded text-primary-800 underline"
          >
            ← All results for “{q}”
          </Link>
        </p>
      ) : null}
      {!q ? (
        <Card>
          <EmptyState
            title="Type at least 2 characters"
            description="Results are grouped by kind, best matches first."
          />
        </Card>
      ) : tooShort ? (
        <Card>
          <EmptyState title="Type at least 2 characters" />
        </Card>
      ) : search.isError && pages.length === 0 ? (
        <Card>
          <EmptyState
            title="Search failed"
            description={errorEnvelope(search.error, 'Please try again.').message}
          />
        </Card>
      ) : search.isLoading && pages.length === 0 ? (
        <Card>
          <div
            className="cc-skeleton h-24 rounded bg-slate-100"
            role="status"
            aria-busy="true"
            aria-label="Searching"
          />
        </Card>
      ) : search.data && search.data.groups.length === 0 && pages.length === 0 ? (
        <Card>
          <EmptyState
            title="Nothing you can search here"
            description="Your account cannot search people, places or records."
          />
        </Card>
      ) : nothing ? (
        <Card>
          <EmptyState
            title={`No results for “${q}”`}
            description="Check the spelling or try fewer letters."
          />
        </Card>
      ) : (
        <div className="space-y-4" aria-live="polite">
          <p className="text-sm text-slate-700" data-testid="search-summary">
            {[
              ...(pages.length ? [`Pages ${pages.length}`] : []),
              ...groups.map((g) => `${labels[g.kind].many} ${g.total}`),
            ].join(' · ')}
          </p>
          {pages.length ? <PageResults pages={pages} /> : null}
          {groups
            .filter((g) => g.total > 0)
            .map((g) => (
              <ResultGroup key={g.kind} group={g} q={q} label={labels[g.kind]} showMore={!only} />
            ))}
        </div>
      )}
    </div>
  );
}

/** The app's own pages that match (search-pages.ts): "inspection" finds the inspection pack. */
function PageResults({ pages }: { pages: PageHit[] }) {
  return (
    <Card padded={false} title={`Pages (${pages.length})`} data-testid="search-pages">
      <ul className="divide-y divide-slate-100">
        {pages.map((p) => (
          <li key={p.to}>
            <Link
              to={p.to}
              className="focus-ring flex flex-col gap-0.5 px-5 py-3 hover:bg-slate-50 sm:flex-row sm:items-baseline sm:justify-between"
            >
              <span className="font-medium break-words text-primary-800">{p.title}</span>
              <span className="text-sm break-words text-slate-600">{p.detail}</span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ResultGroup({
  group,
  q,
  label,
  showMore,
}: {
  group: SearchGroup;
  q: string;
  label: { one: string; many: string };
  showMore: boolean;
}) {
  const more = group.total - group.hits.length;
  return (
    <Card padded={false} title={`${label.many} (${group.total})`} data-testid={`search-${group.kind}`}>
      <ul className="divide-y divide-slate-100">
        {group.hits.map((hit) => (
          <li key={`${hit.id}-${hit.ref}`}>
            <Link
              to={hitLink(group.kind, hit)}
              className="focus-ring flex flex-col gap-0.5 px-5 py-3 hover:bg-slate-50 sm:flex-row sm:items-baseline sm:justify-between"
            >
              <span className="font-medium break-words text-primary-800">{hit.title}</span>
              {hit.detail ? <span className="text-sm break-words text-slate-600">{hit.detail}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
      {showMore && more > 0 ? (
        <div className="border-t border-slate-200 px-5 py-3 text-sm">
          <Link
            to={moreLink(group.kind, q)}
            className="focus-ring rounded font-medium text-primary-800 underline"
          >
            See all {group.total} {group.total === 1 ? label.one : label.many.toLowerCase()}
          </Link>
        </div>
      ) : null}
    </Card>
  );
}
