import { ContentPerm, Messages } from '@cc/contracts';
import { useState } from 'react';
import { useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { EmptyState, PageHeader, Tabs } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { AssignmentsPanel } from './AssignmentsPanel';

/**
 * `/entities/{slug}/courses` (spec 2 §2 "Entity screens for content", §7 "Entity content and courses"): the courses
 * (permission 68) and the content items (69) made available to the organisation, each switched on or off there.
 * A tab shows only with its permission; adding from the catalogue also needs 63 (the content creator's lists), and
 * the per-organisation admin-only override of content needs 122 (server/src/courses/assignments.ts).
 */
export default function EntityCoursesPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const [tab, setTab] = useState(0);

  if (entity.isLoading) return <LoadingCard lines={6} />;
  if (entity.isError || !entity.data)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void entity.refetch()}
      />
    );
  const name = entity.data.name;
  const browse = can([ContentPerm.contentCreator]);
  const restrict = can([ContentPerm.restrictContent]);
  const tabs = [
    can([ContentPerm.entityCourses])
      ? {
          key: 'courses',
          label: 'Courses',
          content: (
            <AssignmentsPanel
              slug={slug}
              entityName={name}
              kind="course"
              can={{ manage: true, browse, restrict }}
            />
          ),
        }
      : null,
    can([ContentPerm.entityContent])
      ? {
          key: 'content',
          label: 'Content',
          content: (
            <AssignmentsPanel
              slug={slug}
              entityName={name}
              kind="content"
              can={{ manage: true, browse, restrict }}
            />
          ),
        }
      : null,
  ].filter((t) => t !== null);

  return (
    <div className="space-y-2">
      <PageHeader
        title="Courses and content"
        description={`The courses and content available to ${name}. Switch one off to hide it from ${name} and its sites.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: name, to: `/entities/${slug}` },
          { label: 'Courses and content' },
        ]}
      />
      {tabs.length === 0 ? (
        <EmptyState
          title="Nothing to manage here"
          description="You don't have permission to manage this organisation's courses. Ask your administrator."
        />
      ) : tabs.length === 1 && tabs[0] ? (
        tabs[0].content
      ) : (
        <Tabs label="Courses and content" tabs={tabs} selectedIndex={tab} onChange={setTab} />
      )}
    </div>
  );
}
