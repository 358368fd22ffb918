import { CareCertificateMessages, type CourseCriteriaView, type VersionView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, type Envelope } from '../../app/api';
import { useWhitelabel } from '../../app/whitelabel';
import { Button, Card, Checkbox, Select, Spinner } from '../../ui';
import { ccAction, ccKeys, useCourseCriteria, useVersion, useVersions } from './api';

/** One version's criteria grouped standard → outcome, each with a checkbox; a standard ticks all of its own. */
function CriteriaTree({
  version,
  selected,
  toggle,
}: {
  version: VersionView;
  selected: Set<number>;
  toggle: (ids: number[], on: boolean) => void;
}) {
  return (
    <div className="space-y-2">
      {version.standards.map((s) => {
        const ids = s.outcomes.flatMap((o) => o.criteria.map((c) => c.id));
        const count = ids.filter((id) => selected.has(id)).length;
        return (
          <details
            key={s.id}
            className="rounded-lg ring-1 ring-slate-200"
            open={count > 0 ? true : undefined}
          >
            <summary className="focus-ring flex cursor-pointer items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm font-medium text-slate-900">
              <span>
                {s.number}. {s.title}
              </span>
              <span className="shrink-0 text-xs font-normal text-slate-600">
                {count} of {ids.length} chosen
              </span>
            </summary>
            <div className="space-y-3 border-t border-slate-100 px-3 py-3">
              {ids.length ? (
                <Button size="sm" variant="ghost" onClick={() => toggle(ids, count < ids.length)}>
                  {count < ids.length ? 'Choose all' : 'Clear all'}
                  <span className="sr-only"> of standard {s.number}</span>
                </Button>
              ) : null}
              {s.outcomes.map((o) => (
                <fieldset key={o.id} className="space-y-2">
                  <legend className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
                    {o.code}
                    {o.title ? ` ${o.title}` : ''}
                  </legend>
                  {o.criteria.map((c) => (
                    <Checkbox
                      key={c.id}
                      label={`${c.code} ${c.text}`}
                      hint={
                        c.requires_observation
                          ? 'Must be observed at work: a course alone does not evidence it.'
                          : undefined
                      }
                      checked={selected.has(c.id)}
                      onChange={(e) => toggle([c.id], e.target.checked)}
                    />
                  ))}
                </fieldset>
              ))}
            </div>
          </details>
        );
      })}
    </div>
  );
}

/**
 * The course form's "<certificateGroupMenuName> criteria" section (content creator): which assessment criteria a
 * passed result of this course evidences, grouped by version → standard → outcome, saved with
 * PUT /courses/{id}/care-certificate-criteria (the whole list).
 */
export function CourseCareCertificateCriteria({ courseId }: { courseId: number }) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const current = useCourseCriteria(courseId);
  const versions = useVersions();
  const [versionId, setVersionId] = useState<number | null>(null);
  const version = useVersion(versionId);
  const [selected, setSelected] = useState<Set<number> | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (current.data && selected === null) setSelected(new Set(current.data.criteria.map((c) => c.id)));
  }, [current.data, selected]);
  useEffect(() => {
    if (versionId === null && versions.data?.length)
      setVersionId((versions.data.find((v) => v.is_default) ?? versions.data[0])?.id ?? null);
  }, [versions.data, versionId]);
  const title = `${wl.certificateGroupMenuName} criteria`;
  if (current.isError || versions.isError)
    return (
      <Card title={title}>
        <p className="text-sm text-slate-600">The criteria could not be loaded.</p>
      </Card>
    );
  const chosen = selected ?? new Set<number>();
  const toggle = (ids: number[], on: boolean) =>
    setSelected(() => {
      const next = new Set(chosen);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  const others = (current.data?.criteria ?? []).filter(
    (c) => chosen.has(c.id) && version.data && c.version_code !== version.data.code,
  );
  const save = async () => {
    setBusy(true);
    try {
      const saved = await ccAction<CourseCriteriaView>(
        queryClient,
        () =>
          api.put<Envelope<CourseCriteriaView>>(`/courses/${courseId}/care-certificate-criteria`, {
            criterion_ids: [...chosen],
          }),
        CareCertificateMessages.courseCriteriaSaved,
      );
      if (saved) {
        queryClient.setQueryData(ccKeys.courseCriteria(courseId), saved);
        setSelected(new Set(saved.criteria.map((c) => c.id)));
      }
    } catch {
      // the notice says why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card
      title={title}
      data-testid="course-criteria"
      actions={
        <Button size="sm" loading={busy} disabled={selected === null} onClick={() => void save()}>
          Save criteria
        </Button>
      }
    >
      <p className="mb-4 text-sm text-slate-600">
        A passed, approved result of this course counts as evidence of the criteria chosen here. {chosen.size}{' '}
        chosen.
      </p>
      <div className="mb-4 max-w-sm">
        <Select
          label="Version"
          value={versionId ?? ''}
          onChange={(e) => setVersionId(Number(e.target.value) || null)}
          options={(versions.data ?? []).map((v) => ({ value: v.id, label: v.title }))}
        />
      </div>
      {others.length ? (
        <p className="mb-3 text-xs text-slate-600">
          Also chosen in other versions: {others.map((c) => `${c.version_code} ${c.code}`).join(', ')}.
        </p>
      ) : null}
      {version.isLoading || current.isLoading ? (
        <Spinner label="Loading the criteria" />
      ) : version.data ? (
        <CriteriaTree version={version.data} selected={chosen} toggle={toggle} />
      ) : null}
    </Card>
  );
}
