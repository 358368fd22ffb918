import { type DesignSummary, formatDateTime } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Badge, type BadgeTone, Button, ButtonLink, ConfirmDialog, PagedListCard, PageHeader } from '../ui';
import { contentPath, deleteDesign, designerKeys, useDesigns } from './api';

const STATE: Record<DesignSummary['state'], { label: string; tone: BadgeTone }> = {
  draft: { label: 'Draft', tone: 'neutral' },
  published: { label: 'Published', tone: 'success' },
  changed: { label: 'Changed since publishing', tone: 'warning' },
};

/** /content-designer: the designs of the organisations in view, newest change first, with their published state. */
export default function DesignsPage() {
  const [page, setPage] = useState(1);
  const designs = useDesigns(page);
  const queryClient = useQueryClient();
  const [doomed, setDoomed] = useState<DesignSummary | null>(null);

  const remove = async () => {
    if (!doomed) return;
    try {
      const res = await deleteDesign(doomed.id);
      notifySuccess(res.message ?? 'Design deleted.');
      await queryClient.invalidateQueries({ queryKey: designerKeys.all });
    } catch (e) {
      notifyError(errorEnvelope(e, 'The design could not be deleted.'), '');
      throw e;
    }
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Content designer"
        description="Build e-learning from pages of blocks, preview it as learners see it, and publish it to a course."
        actions={<ButtonLink to="/content-designer/create">New design</ButtonLink>}
      />
      <PagedListCard
        title="Designs"
        testId="designs"
        listLabel="Designs"
        loadingLabel="Loading designs"
        pagesLabel="Design pages"
        isLoading={designs.isLoading}
        errorTitle="Designs could not be loaded"
        errorText={designs.isError ? errorEnvelope(designs.error, 'Please try again.').message : undefined}
        empty={{
          title: 'No designs yet',
          description: 'Start a new design: add pages, fill them with blocks, then publish.',
        }}
        page={designs.data}
        onPageChange={setPage}
        itemClassName="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between"
        renderItem={(d) => (
          <>
            <div className="min-w-0 space-y-1">
              <Link
                to={`/content-designer/${d.id}`}
                className="focus-ring font-medium text-primary-700 underline-offset-2 hover:underline"
              >
                {d.title}
              </Link>
              <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
                <Badge tone={STATE[d.state].tone}>{STATE[d.state].label}</Badge>
                <span>{d.page_count === 1 ? '1 page' : `${d.page_count} pages`}</span>
                <span>{d.entity.name}</span>
                <span>
                  Changed <time dateTime={d.updated_at}>{formatDateTime(d.updated_at)}</time>
                </span>
                {d.content ? (
                  <Link to={contentPath(d.content.id)} className="focus-ring text-primary-700 underline">
                    Published content
                  </Link>
                ) : null}
              </p>
            </div>
            <div className="flex shrink-0 gap-2">
              <ButtonLink to={`/content-designer/${d.id}`} variant="secondary" size="sm">
                Edit<span className="sr-only"> {d.title}</span>
              </ButtonLink>
              <Button variant="ghost" size="sm" onClick={() => setDoomed(d)}>
                Delete<span className="sr-only"> {d.title}</span>
              </Button>
            </div>
          </>
        )}
      />
      <ConfirmDialog
        open={doomed !== null}
        title="Delete this design?"
        message={
          doomed?.content
            ? `“${doomed.title}” will be deleted. Its published content stays, and learners keep their results.`
            : `“${doomed?.title ?? ''}” will be deleted.`
        }
        onConfirm={remove}
        onClose={() => setDoomed(null)}
      />
    </div>
  );
}
