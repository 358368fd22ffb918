import {
  ASC_WDS_CATEGORIES,
  type AscWdsCourse,
  type AscWdsPreview,
  type AscWdsRow,
  type AscWdsSince,
  ascWdsCategoryName,
} from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { saveInBrowser } from '../native/files';
import { formatDateTime, formatDay } from '../results/api';
import { Badge, Button, Card, type Column, DataTable, EmptyState, PageHeader, Select, Spinner } from '../ui';
import { siteWord } from '../whitelabel/words';
import { ascWdsKey, downloadAscWds, saveAscWdsCategory, useAscWdsPreview } from './asc-wds-api';
import { usePackPlaces } from './use-pack-places';

const CATEGORY_OPTIONS = [...ASC_WDS_CATEGORIES]
  .sort((a, b) => a.name.localeCompare(b.name))
  .map((c) => ({ value: c.code, label: c.name }));
const ACCREDITED: Record<string, string> = { '1': 'Yes', '0': 'No', '999': 'Don’t know' };

const cell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
/** The people missing an employee number as the importer's people file (importer template columns), to fill in. */
export function peopleFile(preview: AscWdsPreview): Blob {
  const lines = [
    'name,email,employee_number',
    ...preview.missing_id.map((p) => `${cell(p.name)},${cell(p.email)},`),
  ];
  return new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' });
}

/**
 * /reports/asc-wds (issue 37 §1; docs/asc-wds-export.md): a home's training records as the ASC-WDS bulk upload
 * training file. Shows what will be sent, and what is left out and how to fix it: the home's workplace ID (its settings
 * page), a course's ASC-WDS category (chosen here, with a suggestion from the title), a person's employee number
 * (their page); then downloads the file, which is recorded so "changes since the last export" works next time.
 */
export default function AscWdsExportPage() {
  const wl = useWhitelabel();
  const { places } = usePackPlaces();
  const [params, setParams] = useSearchParams();
  const slug = params.get('home') ?? places.find((p) => p.level === 'B')?.slug ?? places[0]?.slug ?? null;
  const since: AscWdsSince = params.get('since') === 'all' ? 'all' : 'last';
  const preview = useAscWdsPreview(slug, since);
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };
  const home = siteWord(wl);

  return (
    <div className="space-y-6">
      <PageHeader
        title="ASC-WDS training export"
        breadcrumbs={[{ label: 'Reports' }, { label: 'ASC-WDS training export' }]}
        description="Your staff’s training records as the Adult Social Care Workforce Data Set (Skills for Care) bulk upload training file, ready to upload."
      />
      <Card title="What to export">
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label={home}
            value={slug ?? ''}
            onChange={(e) => set('home', e.target.value)}
            options={places.map((p) => ({ value: p.slug, label: p.name }))}
          />
          <Select
            label="Records"
            value={since}
            onChange={(e) => set('since', e.target.value)}
            options={[
              { value: 'last', label: 'Changes since the last export' },
              { value: 'all', label: 'Everything' },
            ]}
            hint="ASC-WDS replaces all the training of each person in the file, so every record of a person with a change is sent."
          />
        </div>
      </Card>
      {!slug ? (
        <EmptyState title={`No ${home.toLowerCase()} to export`} />
      ) : preview.isLoading ? (
        <div className="flex items-center gap-3 text-sm text-slate-600" aria-live="polite">
          <Spinner /> Loading…
        </div>
      ) : preview.isError || !preview.data ? (
        <EmptyState title="The export could not be loaded." description="Please try again." />
      ) : (
        <AscWdsPreviewView preview={preview.data} since={since} />
      )}
    </div>
  );
}

export function AscWdsPreviewView({ preview, since }: { preview: AscWdsPreview; since: AscWdsSince }) {
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  const h = preview.home;
  const missingCategory = preview.courses.filter((c) => c.category === null && c.records > 0);
  const blocked = !h.local_establishment_id;
  const download = async () => {
    setBusy(true);
    const saved = await downloadAscWds(h.slug, since);
    setBusy(false);
    if (saved) {
      notifySuccess(`The file with ${preview.rows.length} training records has been downloaded.`);
      void queryClient.invalidateQueries({ queryKey: ascWdsKey(h.slug) });
    }
  };
  return (
    <>
      <Card
        title={h.name}
        actions={
          <Button
            onClick={() => void download()}
            loading={busy}
            disabled={blocked || preview.rows.length === 0}
          >
            Download the file
          </Button>
        }
      >
        <dl className="grid gap-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-500">Workplace ID (LOCALESTID)</dt>
            <dd className="font-medium text-slate-900" data-testid="local-id">
              {h.local_establishment_id ?? (
                <span className="text-danger-700">
                  Not set.{' '}
                  {preview.may_set_id ? (
                    <Link className="underline" to={`/entities/${h.slug}/update#asc-wds`}>
                      Set it on the settings page
                    </Link>
                  ) : (
                    'Ask someone who can change its settings.'
                  )}
                </span>
              )}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">To send</dt>
            <dd className="font-medium text-slate-900" data-testid="to-send">
              {`${preview.rows.length} ${preview.rows.length === 1 ? 'record' : 'records'}`}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">Last export</dt>
            <dd className="font-medium text-slate-900">
              {preview.last_export
                ? `${formatDateTime(preview.last_export.at)}${preview.last_export.by ? ` by ${preview.last_export.by}` : ''} · ${preview.last_export.rows} records`
                : 'Never'}
            </dd>
          </div>
        </dl>
        {h.local_establishment_id && preview.rows.length === 0 && since === 'last' && preview.last_export ? (
          <p className="mt-4 text-sm text-slate-600">Nothing has changed since the last export.</p>
        ) : null}
      </Card>

      <CategoriesCard slug={h.slug} courses={preview.courses} missing={missingCategory.length} />

      {preview.missing_id.length ? (
        <Card
          title={`Missing an employee number (${preview.missing_id.length})`}
          actions={
            <Button
              variant="secondary"
              onClick={() => saveInBrowser(peopleFile(preview), `employee-numbers-${h.slug}.csv`)}
            >
              Download them as a people file
            </Button>
          }
        >
          <p className="mb-3 text-sm text-slate-600">
            ASC-WDS knows each person by their worker ID, the employee number here, which a people import
            sets. Their records are not sent until they have one: download them as a people file, fill in the
            employee_number column with their ASC-WDS worker IDs, and import it in{' '}
            <Link className="underline" to="/importer/logs">
              Importer logs
            </Link>
            .
          </p>
          <ul className="divide-y divide-slate-100 text-sm" aria-label="People missing an employee number">
            {preview.missing_id.map((p) => (
              <li key={p.uuid} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link className="font-medium underline" to={`/users/${p.uuid}`}>
                  {p.name}
                </Link>
                <span className="text-slate-500">{`${p.records} ${p.records === 1 ? 'record' : 'records'}`}</span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      {preview.invalid.length ? (
        <Card title={`Not sent: refused by the import rules (${preview.invalid.length})`}>
          <ul className="space-y-1 text-sm" aria-label="Records refused">
            {preview.invalid.map((r) => (
              <li key={`${r.person}-${r.course}-${r.column}`}>
                <span className="font-medium">{`${r.person} – ${r.course}`}</span>
                {`: ${r.message}`}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card title="What will be sent" padded={false}>
        {preview.rows.length > SHOWN ? (
          <p className="px-5 pt-4 text-sm text-slate-600">
            {`The first ${SHOWN} of ${preview.rows.length} records; the file holds them all.`}
          </p>
        ) : null}
        <DataTable<AscWdsRow>
          caption="Training records in the file"
          rows={preview.rows.slice(0, SHOWN)}
          rowKey={(r) => `${r.person.uuid}-${r.course.id}-${r.completed_on}`}
          columns={ROW_COLUMNS}
          empty={<EmptyState title="No records to send" />}
        />
      </Card>
    </>
  );
}

const ROW_COLUMNS: Column<AscWdsRow>[] = [
  {
    key: 'person',
    header: 'Person',
    render: (r) => (
      <>
        <span className="block">{r.person.name}</span>
        <span className="block text-xs text-slate-500">{`Worker ID ${r.person.employee_number}`}</span>
      </>
    ),
  },
  {
    key: 'course',
    header: 'Training',
    render: (r) => (
      <>
        <span className="block">{r.course.title}</span>
        <span className="block text-xs text-slate-500">{ascWdsCategoryName(r.category)}</span>
      </>
    ),
  },
  {
    key: 'dates',
    header: 'Completed · expires',
    render: (r) => `${formatDay(r.completed_on)} · ${formatDay(r.expires_on)}`,
    hideOnMobile: true,
  },
  {
    key: 'accredited',
    header: 'Accredited',
    render: (r) => (r.accredited ? ACCREDITED[r.accredited] : '—'),
    hideOnMobile: true,
  },
];
/** The table shows this many rows; the file holds them all. */
const SHOWN = 100;

function CategoriesCard({
  slug,
  courses,
  missing,
}: {
  slug: string;
  courses: AscWdsCourse[];
  missing: number;
}) {
  const ordered = [...courses].sort((a, b) => Number(a.category !== null) - Number(b.category !== null));
  const suggested = courses.filter((c) => c.category === null && c.suggestion !== null);
  const queryClient = useQueryClient();
  const useAll = useMutation({
    mutationFn: async () => {
      for (const c of suggested) await saveAscWdsCategory(slug, c.id, c.suggestion);
      return suggested.length;
    },
    onSuccess: (n) => notifySuccess(`${n} ${n === 1 ? 'category has' : 'categories have'} been saved.`),
    onError: (error) =>
      notifyError((error as { data?: { message?: string } }).data, 'It could not be saved.'),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ascWdsKey(slug) }),
  });
  return (
    <Card
      title={missing ? `Courses missing a category (${missing})` : 'Course categories'}
      actions={
        suggested.length ? (
          <Button variant="secondary" loading={useAll.isPending} onClick={() => useAll.mutate()}>
            {`Use the ${suggested.length} suggested ${suggested.length === 1 ? 'category' : 'categories'}`}
          </Button>
        ) : null
      }
    >
      <p className="mb-3 text-sm text-slate-600">
        Each record is sent under one of the ASC-WDS training categories. Choose the category of each course;
        a course with no category is not sent. A suggestion from the course’s title is chosen for you: check
        it, then save.
      </p>
      {courses.length === 0 ? (
        <p className="text-sm text-slate-600">No training records yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Course categories">
          {ordered.map((c) => (
            <CategoryRow key={`${c.id}-${c.category}`} slug={slug} course={c} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function CategoryRow({ slug, course }: { slug: string; course: AscWdsCourse }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState<string>(String(course.category ?? course.suggestion ?? ''));
  const save = useMutation({
    mutationFn: () => saveAscWdsCategory(slug, course.id, value ? Number(value) : null),
    onSuccess: (res) => {
      notifySuccess(res.message ?? 'Saved.');
      void queryClient.invalidateQueries({ queryKey: ascWdsKey(slug) });
    },
    onError: (error) =>
      notifyError((error as { data?: { message?: string } }).data, 'It could not be saved.'),
  });
  const unchanged = value === String(course.category ?? '');
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium break-words text-slate-900">{course.title}</p>
        <p className="text-xs text-slate-500">
          {course.category === null ? <Badge tone="warning">No category</Badge> : null}
          {course.category === null && course.suggestion ? ' Suggested from the title.' : null}
        </p>
      </div>
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Select
          label={`ASC-WDS category of ${course.title}`}
          hideLabel
          className="w-64 max-w-full"
          value={value}
          placeholder="Choose a category"
          onChange={(e) => setValue(e.target.value)}
          options={CATEGORY_OPTIONS}
        />
        <Button type="submit" variant="secondary" loading={save.isPending} disabled={unchanged}>
          Save
        </Button>
      </form>
    </li>
  );
}
