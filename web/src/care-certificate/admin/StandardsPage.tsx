import {
  CareCertificateMessages,
  type CriterionView,
  formatDate,
  type OutcomeView,
  type VersionSummary,
  type VersionView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Envelope } from '../../app/api';
import { useAuth } from '../../app/auth';
import { useWhitelabel } from '../../app/whitelabel';
import { LoadError, LoadingCard } from '../../entities/shared';
import { Badge, Button, Card, ConfirmDialog, cx, DataTable, PageHeader, Spinner, Toggle } from '../../ui';
import { ccAction, useVersion, useVersions } from './api';
import { CriteriaImport, GapsCard, useVersionGaps } from './CriteriaImport';
import { NoPermission } from './HistoricalPage';
import { EditableRow, type InlineField, InlineForm, type InlineValues } from './InlineEdit';

type Confirm = { path: string; title: string; message: string } | null;
const str = (v: string | boolean | undefined) => String(v ?? '').trim();
const optionalNumber = (v: string | boolean | undefined) => (str(v) === '' ? undefined : Number(str(v)));

const STANDARD_FIELDS: InlineField[] = [
  { name: 'number', label: 'Number', kind: 'number', required: true },
  { name: 'title', label: 'Title', required: true, wide: true },
];
const OUTCOME_FIELDS: InlineField[] = [
  { name: 'code', label: 'Code', required: true },
  { name: 'title', label: 'Outcome', wide: true },
];
const CRITERION_FIELDS: InlineField[] = [
  { name: 'code', label: 'Code', required: true },
  { name: 'text', label: 'Criterion', kind: 'textarea', required: true, wide: true },
  { name: 'requires_observation', label: 'Must be observed at work', kind: 'checkbox' },
];
const VERSION_FIELDS: InlineField[] = [
  { name: 'code', label: 'Code', required: true },
  { name: 'title', label: 'Title', required: true, wide: true },
  { name: 'effective_from', label: 'Effective from (YYYY-MM-DD)' },
];

/** The tree of one version: standards → outcomes → criteria, each editable in place (super admin). */
function VersionTree({ version }: { version: VersionView }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const run = async (call: () => Promise<{ data: { message?: string } }>) => {
    await ccAction(queryClient, call, CareCertificateMessages.standardsUpdated);
    setEditing(null);
  };
  const editButtons = (key: string, del: Confirm, name: string) => (
    <>
      <Button size="sm" variant="ghost" onClick={() => setEditing(key)}>
        Edit <span className="sr-only">{name}</span>
      </Button>
      <Button size="sm" variant="ghost" onClick={() => setConfirm(del)}>
        Delete <span className="sr-only">{name}</span>
      </Button>
    </>
  );
  const criterionRow = (c: CriterionView) => (
    <li key={c.id} className="py-2">
      <EditableRow
        editing={editing === `criterion-${c.id}`}
        form={
          <InlineForm
            label={`Edit criterion ${c.code}`}
            fields={CRITERION_FIELDS}
            initial={{ code: c.code, text: c.text, requires_observation: c.requires_observation }}
            onCancel={() => setEditing(null)}
            onSave={(v) =>
              run(() =>
                api.patch(`/care-certificate-criteria/${c.id}`, {
                  code: str(v.code),
                  text: str(v.text),
                  requires_observation: Boolean(v.requires_observation),
                }),
              )
            }
          />
        }
        actions={
          <>
            <span className="flex items-center gap-2 pr-1 text-xs text-slate-700">
              <span aria-hidden="true">Observed</span>
              <Toggle
                label={`Criterion ${c.code} must be observed at work`}
                hideLabel
                labels={{ checked: 'On', unchecked: 'Off' }}
                checked={c.requires_observation}
                onChange={(requires_observation) =>
                  void run(() =>
                    api.patch(`/care-certificate-criteria/${c.id}`, { requires_observation }),
                  ).catch(() => {})
                }
              />
            </span>
            {editButtons(
              `criterion-${c.id}`,
              {
                path: `/care-certificate-criteria/${c.id}`,
                title: `Delete criterion ${c.code}?`,
                message: 'It is removed from this version. A criterion that has evidence cannot be deleted.',
              },
              `criterion ${c.code}`,
            )}
          </>
        }
      >
        <p className="text-sm text-slate-900">
          <span className="mr-2 font-semibold tabular-nums">{c.code}</span>
          {c.text}
        </p>
        {c.requires_observation ? (
          <p className="mt-1">
            <Badge tone="primary">Must be observed at work</Badge>
          </p>
        ) : null}
      </EditableRow>
    </li>
  );
  const outcomeBlock = (o: OutcomeView) => (
    <div key={o.id} className="rounded-lg ring-1 ring-slate-200">
      <div className="border-b border-slate-100 bg-slate-50 px-3 py-2">
        <EditableRow
          editing={editing === `outcome-${o.id}`}
          form={
            <InlineForm
              label={`Edit outcome ${o.code}`}
              fields={OUTCOME_FIELDS}
              initial={{ code: o.code, title: o.title ?? '' }}
              onCancel={() => setEditing(null)}
              onSave={(v) =>
                run(() =>
                  api.patch(`/care-certificate-outcomes/${o.id}`, {
                    code: str(v.code),
                    title: str(v.title) || null,
                  }),
                )
              }
            />
          }
          actions={editButtons(
            `outcome-${o.id}`,
            {
              path: `/care-certificate-outcomes/${o.id}`,
              title: `Delete outcome ${o.code}?`,
              message: 'The outcome and its criteria are removed. One with evidence cannot be deleted.',
            },
            `outcome ${o.code}`,
          )}
        >
          <h4 className="text-sm font-semibold text-slate-900">
            {o.code}
            {o.title ? ` ${o.title}` : ''}
          </h4>
        </EditableRow>
      </div>
      <div className="px-3">
        {o.criteria.length ? (
          <ul className="divide-y divide-slate-100">{o.criteria.map(criterionRow)}</ul>
        ) : (
          <p className="py-2 text-sm text-slate-600">No criteria yet.</p>
        )}
        <div className="py-2">
          {editing === `add-criterion-${o.id}` ? (
            <InlineForm
              label={`Add a criterion to ${o.code}`}
              fields={CRITERION_FIELDS}
              initial={{
                code: `${o.code}${String.fromCharCode(97 + o.criteria.length)}`,
                text: '',
                requires_observation: false,
              }}
              saveLabel="Add criterion"
              onCancel={() => setEditing(null)}
              onSave={(v) =>
                run(() =>
                  api.post(`/care-certificate-outcomes/${o.id}/criteria`, {
                    code: str(v.code),
                    text: str(v.text),
                    requires_observation: Boolean(v.requires_observation),
                  }),
                )
              }
            />
          ) : (
            <Button size="sm" variant="secondary" onClick={() => setEditing(`add-criterion-${o.id}`)}>
              Add a criterion <span className="sr-only">to {o.code}</span>
            </Button>
          )}
        </div>
      </div>
    </div>
  );
  return (
    <div className="space-y-4">
      {version.standards.map((s) => (
        <details
          key={s.id}
          className="group rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
          data-testid="standard"
        >
          <summary className="focus-ring flex cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-5 py-4">
            <span className="text-base font-semibold text-slate-900">
              {s.number}. {s.title}
            </span>
            <span className="shrink-0 text-xs text-slate-600">
              {s.outcomes.reduce((n, o) => n + o.criteria.length, 0)} criteria
              <span aria-hidden="true" className="ml-2 inline-block transition group-open:rotate-90">
                ›
              </span>
            </span>
          </summary>
          <div className="space-y-3 border-t border-slate-200 px-5 py-4">
            <EditableRow
              editing={editing === `standard-${s.id}`}
              form={
                <InlineForm
                  label={`Edit standard ${s.number}`}
                  fields={STANDARD_FIELDS}
                  initial={{ number: String(s.number), title: s.title }}
                  onCancel={() => setEditing(null)}
                  onSave={(v) =>
                    run(() =>
                      api.patch(`/care-certificate-standards/${s.id}`, {
                        number: optionalNumber(v.number),
                        title: str(v.title),
                      }),
                    )
                  }
                />
              }
              actions={editButtons(
                `standard-${s.id}`,
                {
                  path: `/care-certificate-standards/${s.id}`,
                  title: `Delete standard ${s.number}?`,
                  message:
                    'The standard, its outcomes and criteria are removed. One with evidence cannot be deleted.',
                },
                `standard ${s.number}`,
              )}
            >
              <p className="text-sm text-slate-600">Standard {s.number}</p>
            </EditableRow>
            {s.outcomes.map(outcomeBlock)}
            {editing === `add-outcome-${s.id}` ? (
              <InlineForm
                label={`Add an outcome to standard ${s.number}`}
                fields={OUTCOME_FIELDS}
                initial={{ code: `${s.number}.${s.outcomes.length + 1}`, title: '' }}
                saveLabel="Add outcome"
                onCancel={() => setEditing(null)}
                onSave={(v) =>
                  run(() =>
                    api.post(`/care-certificate-standards/${s.id}/outcomes`, {
                      code: str(v.code),
                      title: str(v.title) || null,
                    }),
                  )
                }
              />
            ) : (
              <Button size="sm" variant="secondary" onClick={() => setEditing(`add-outcome-${s.id}`)}>
                Add an outcome <span className="sr-only">to standard {s.number}</span>
              </Button>
            )}
          </div>
        </details>
      ))}
      {editing === 'add-standard' ? (
        <InlineForm
          label="Add a standard"
          fields={STANDARD_FIELDS}
          initial={{ number: String(version.standards.length + 1), title: '' }}
          saveLabel="Add standard"
          onCancel={() => setEditing(null)}
          onSave={(v) =>
            run(() =>
              api.post(`/care-certificate-versions/${version.id}/standards`, {
                number: optionalNumber(v.number),
                title: str(v.title),
              }),
            )
          }
        />
      ) : (
        <Button variant="secondary" onClick={() => setEditing('add-standard')}>
          Add a standard
        </Button>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm?.title ?? ''}
        message={confirm?.message ?? ''}
        onClose={() => setConfirm(null)}
        onConfirm={async () => {
          if (!confirm) return;
          await ccAction(
            queryClient,
            () => api.delete(confirm.path),
            CareCertificateMessages.standardsUpdated,
          );
        }}
      />
    </div>
  );
}

function VersionHeader({ summary, onDeleted }: { summary: VersionSummary; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  if (editing)
    return (
      <InlineForm
        label="Edit version"
        fields={VERSION_FIELDS}
        initial={{ code: summary.code, title: summary.title, effective_from: summary.effective_from ?? '' }}
        onCancel={() => setEditing(false)}
        onSave={async (v) => {
          await ccAction(
            queryClient,
            () =>
              api.patch(`/care-certificate-versions/${summary.id}`, {
                code: str(v.code),
                title: str(v.title),
                effective_from: str(v.effective_from) || null,
              }),
            CareCertificateMessages.standardsUpdated,
          );
          setEditing(false);
        }}
      />
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">
          {summary.title} {summary.is_default ? <Badge tone="success">Default</Badge> : null}
        </h2>
        <p className="text-sm text-slate-600">
          {summary.code}
          {summary.effective_from ? ` · from ${formatDate(summary.effective_from)}` : ''} ·{' '}
          {summary.standards_count} standards · {summary.criteria_count} criteria ·{' '}
          {summary.certificates_count} certificates
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
          Edit version
        </Button>
        {summary.is_default ? null : (
          <Button
            size="sm"
            variant="secondary"
            onClick={() =>
              void ccAction(
                queryClient,
                () => api.patch(`/care-certificate-versions/${summary.id}`, { is_default: true }),
                CareCertificateMessages.standardsUpdated,
              ).catch(() => {})
            }
          >
            Make default
          </Button>
        )}
        {summary.is_default || summary.certificates_count > 0 ? null : (
          <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
            Delete version
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={deleting}
        title={`Delete ${summary.title}?`}
        message="The version and all its standards, outcomes and criteria are removed. No certificate uses it."
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await ccAction(
            queryClient,
            () => api.delete(`/care-certificate-versions/${summary.id}`),
            CareCertificateMessages.standardsUpdated,
          );
          onDeleted();
        }}
      />
    </div>
  );
}

function NewVersion({
  versions,
  onCreated,
}: {
  versions: VersionSummary[];
  onCreated: (id: number) => void;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [copyFrom, setCopyFrom] = useState<string>(
    versions.find((v) => v.is_default) ? String(versions.find((v) => v.is_default)?.id) : '',
  );
  if (!open) return <Button onClick={() => setOpen(true)}>New version</Button>;
  return (
    <Card title="New version">
      <div className="mb-3 max-w-sm">
        <label className="block text-sm font-medium text-slate-800" htmlFor="copy-from">
          Copy standards from
        </label>
        <select
          id="copy-from"
          value={copyFrom}
          onChange={(e) => setCopyFrom(e.target.value)}
          className="mt-1.5 block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm"
        >
          <option value="">Start empty</option>
          {versions.map((v) => (
            <option key={v.id} value={v.id}>
              {v.title}
            </option>
          ))}
        </select>
      </div>
      <InlineForm
        label="New version"
        fields={VERSION_FIELDS}
        initial={{ code: '', title: '', effective_from: '' }}
        saveLabel="Create version"
        onCancel={() => setOpen(false)}
        onSave={async (v: InlineValues) => {
          const created = await ccAction<VersionSummary>(
            queryClient,
            () =>
              api.post<Envelope<VersionSummary>>('/care-certificate-versions', {
                code: str(v.code),
                title: str(v.title),
                effective_from: str(v.effective_from) || null,
                copy_from_id: copyFrom ? Number(copyFrom) : null,
              }),
            CareCertificateMessages.standardsUpdated,
          );
          setOpen(false);
          if (created?.id) onCreated(created.id);
        }}
      />
    </Card>
  );
}

/**
 * /care-certificate/standards (super admin): the versions of the standards with their counts; a chosen version's
 * standards, outcomes and criteria edited in place (add, edit, delete with a confirm, whether a criterion must be
 * observed at work), which version is the default, and a new version copied from another. Issue 32 §2: what each
 * standard still lacks with where the official text is published, and an import of criteria from a file.
 */
export default function StandardsPage() {
  const wl = useWhitelabel();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const versions = useVersions();
  const chosen =
    Number(params.get('version')) ||
    versions.data?.find((v) => v.is_default)?.id ||
    versions.data?.[0]?.id ||
    null;
  const version = useVersion(user?.super_admin ? chosen : null);
  const gaps = useVersionGaps(user?.super_admin ? chosen : null);
  const title = `${wl.certificateGroupMenuName} standards`;
  if (!user?.super_admin)
    return <NoPermission title={title} text="Only a super admin can edit the standards." />;
  if (versions.isLoading) return <LoadingCard />;
  if (versions.isError || !versions.data)
    return (
      <LoadError
        error={versions.error}
        fallback="The versions could not be loaded."
        onRetry={() => void versions.refetch()}
      />
    );
  const summary = versions.data.find((v) => v.id === chosen);
  const choose = (id: number) => setParams({ version: String(id) });
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description="The versions of the standards, their outcomes and assessment criteria. A correction here applies at once."
        breadcrumbs={[
          { label: wl.certificateGroupMenuName, to: '/care-certificate' },
          { label: 'Standards' },
        ]}
        actions={<NewVersion versions={versions.data} onCreated={choose} />}
      />
      <Card title="Versions" padded={false} className="relative overflow-hidden">
        <DataTable
          caption="Versions"
          rows={versions.data}
          rowKey={(v) => v.id}
          columns={[
            {
              key: 'title',
              header: 'Version',
              render: (v) => (
                <span className={cx('font-medium', v.id === chosen && 'text-primary-800')}>
                  {v.title} {v.is_default ? <Badge tone="success">Default</Badge> : null}
                  <span className="block text-xs font-normal text-slate-600">{v.code}</span>
                </span>
              ),
            },
            { key: 'standards', header: 'Standards', render: (v) => v.standards_count, hideOnMobile: true },
            { key: 'criteria', header: 'Criteria', render: (v) => v.criteria_count, hideOnMobile: true },
            {
              key: 'certificates',
              header: 'Certificates',
              render: (v) => v.certificates_count,
              hideOnMobile: true,
            },
          ]}
          rowActions={(v) =>
            v.id === chosen ? (
              <span className="px-2 text-sm text-slate-600">Shown below</span>
            ) : (
              <Button size="sm" variant="secondary" onClick={() => choose(v.id)}>
                Open <span className="sr-only">{v.title}</span>
              </Button>
            )
          }
        />
      </Card>
      {summary ? (
        <section aria-label={summary.title} className="space-y-4">
          <VersionHeader summary={summary} onDeleted={() => setParams({})} />
          {gaps.data ? <GapsCard gaps={gaps.data} /> : null}
          <CriteriaImport version={summary} />
          {version.isLoading ? (
            <Spinner label="Loading the standards" />
          ) : version.data ? (
            <VersionTree version={version.data} />
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
