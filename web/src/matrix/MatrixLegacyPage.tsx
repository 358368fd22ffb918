import { formatDate, MatrixMessages } from '@cc/contracts';
import { useMemo, useState } from 'react';
import { useWhitelabel } from '../app/whitelabel';
import { ComplianceFilters, complianceFilterParams, useComplianceFilters } from '../compliance/filters';
import { Card, EmptyState, PageHeader, Pagination, Spinner } from '../ui';
import { STATUS_LABEL, statusColour, textOn } from './grid';
import { useMatrix } from './MatrixPage';
import { RestartNotice } from './RestartNotice';

/**
 * /reports/matrix-legacy: the same data as /reports/matrix (the same websocket channel) in the simpler older
 * layout: one plain table per entity, paginated by users (25 a page).
 */
const PER_PAGE = 25;

export default function MatrixLegacyPage() {
  const wl = useWhitelabel();
  const { filters: nav } = useComplianceFilters();
  const params = complianceFilterParams(nav);
  const { grid, progress, error, notice } = useMatrix({
    compliance_type: params.compliance_type,
    new_starters_filter: params.new_starters_filter,
  });
  const [pages, setPages] = useState<Record<number, number>>({});
  const done = progress >= 1;
  const byEntity = useMemo(() => {
    const map = new Map<number, number[]>();
    if (!done) return map;
    grid.users.forEach((u, row) => {
      map.set(u.entityId, [...(map.get(u.entityId) ?? []), row]);
    });
    return map;
  }, [grid, done]);
  const courses = useMemo(() => (done ? grid.orderedCourses() : []), [grid, done]);

  return (
    <div className="flex flex-col gap-4">
      <PageHeader title="Compliance matrix (legacy)" description="One table per entity." />
      <Card>
        <ComplianceFilters show={['newStarters', 'complianceType']} />
      </Card>
      {error ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-800">
          {error.status === 500 || error.status === 504 ? MatrixMessages.tooLarge : error.message}
        </div>
      ) : null}
      <RestartNotice notice={error ? null : notice} />
      {!done && !error ? <Spinner label={`Loading… ${Math.round(progress * 100)}%`} /> : null}
      {done && grid.users.length === 0 ? <EmptyState title="No users match these filters" /> : null}
      {[...byEntity.entries()].map(([entityId, rows]) => {
        const page = pages[entityId] ?? 1;
        const visible = rows.slice((page - 1) * PER_PAGE, page * PER_PAGE);
        const name = grid.entities.get(entityId)?.name ?? '';
        return (
          <Card key={entityId}>
            <h2 className="mb-2 text-lg font-semibold">{name}</h2>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll region must be reachable by keyboard */}
            <section className="overflow-x-auto" tabIndex={0} aria-label={`${name} matrix`}>
              <table className="min-w-full text-left text-xs">
                <caption className="sr-only">{name}</caption>
                <thead>
                  <tr>
                    <th scope="col" className="p-2">
                      User
                    </th>
                    <th scope="col" className="p-2">
                      Score
                    </th>
                    {courses.map((c) => (
                      <th key={c.id} scope="col" className="p-2 font-medium">
                        {c.title}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {visible.map((row) => (
                    <tr key={grid.users[row]?.id} className="border-t border-gray-100">
                      <th scope="row" className="whitespace-nowrap p-2 font-medium">
                        {grid.users[row]?.name}
                      </th>
                      <td className="p-2">{grid.score(row)}%</td>
                      {courses.map((c) => {
                        const cell = grid.cell(row, c.id);
                        return (
                          <td key={c.id} className="p-1">
                            {cell ? (
                              <span
                                className="block rounded px-1 py-0.5 whitespace-nowrap"
                                style={{
                                  background: statusColour(cell.status, wl),
                                  color: textOn(statusColour(cell.status, wl)),
                                }}
                              >
                                {STATUS_LABEL[cell.status]}
                                {cell.expires ? ` ${formatDate(cell.expires)}` : ''}
                              </span>
                            ) : null}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <Pagination
              label={`${name} pages`}
              meta={{
                current_page: page,
                last_page: Math.max(1, Math.ceil(rows.length / PER_PAGE)),
                total: rows.length,
              }}
              onPageChange={(p) => setPages((prev) => ({ ...prev, [entityId]: p }))}
            />
          </Card>
        );
      })}
    </div>
  );
}
