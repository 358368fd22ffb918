import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAuth } from '../app/auth';
import { startAttempt, useCurrentAttempt, useLearnerCourses } from '../learning/api';
import { Button, ButtonLink } from '../ui';

const ONLINE = new Set(['elearning', 'scorm']);

/**
 * How a learner does a course step from their pathway: the app has no page per course, so the step offers what the
 * learner's course list offers (learning/LearnerCourses): "Continue" for the attempt in progress on it, "Start" on
 * each online content; a course without online content (face-to-face, a record) is pointed to the learner's courses.
 */
export function CourseStepAction({ courseId, title }: { courseId: number; title: string }) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const current = useCurrentAttempt();
  const available = useLearnerCourses(user?.uuid, 'available-courses');
  const [starting, setStarting] = useState<number | null>(null);
  if (!user || available.isPending) return null;
  if (current.data && current.data.course.id === courseId)
    return (
      <ButtonLink size="sm" to={`/attempt/${current.data.id}`} aria-label={`Continue ${title}`}>
        Continue
      </ButtonLink>
    );
  const contents = (available.data ?? [])
    .find((c) => c.id === courseId)
    ?.contents.filter((c) => ONLINE.has(c.type));
  if (!contents?.length)
    return (
      <p className="text-xs text-slate-700">
        Find this course in{' '}
        <Link to="/" className="focus-ring rounded font-medium text-primary-800 underline">
          your events
        </Link>{' '}
        or ask your manager how to take it.
      </p>
    );
  const start = async (contentId: number) => {
    setStarting(contentId);
    const attempt = await startAttempt(user.uuid, contentId);
    setStarting(null);
    if (attempt) navigate(`/attempt/${attempt.id}`);
  };
  return (
    <div className="flex flex-wrap gap-2">
      {contents.map((content) => (
        <Button
          key={content.id}
          size="sm"
          loading={starting === content.id}
          onClick={() => void start(content.id)}
          aria-label={contents.length === 1 ? `Start ${title}` : `Start ${content.title}`}
        >
          {contents.length === 1 ? 'Start' : `Start ${content.title}`}
        </Button>
      ))}
    </div>
  );
}
