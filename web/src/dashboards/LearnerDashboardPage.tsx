import { useAuth } from '../app/auth';
import { BookingNextSessionsWidget } from '../bookings/BookingNextSessionsWidget';
import { LearnerCareCertificateWidget } from '../care-certificate/widgets/LearnerCareCertificateWidget';
import { PoliciesToRead } from '../documents/PoliciesToRead';
import { LearnerCourses } from '../learning/LearnerCourses';
import { MyPathwaysWidget } from '../pathways/MyPathways';
import { PendingApprovalBanner } from '../signup-links/PendingBanner';
import { PageHeader } from '../ui';
import { useLearnerEvents } from './api';
import { coursesLeftToTodo, LearnerTodo } from './LearnerTodo';
import { TrainingHistory } from './TrainingHistory';

/**
 * `/learner-dashboard` (spec 1 §2; guard: the new-dashboards feature and 104, else `/`): the learner's to-do first,
 * their certificates (the completed courses), the next step of each pathway, their training history with evidence, and the other courses they can
 * take, with "My next sessions" (face-to-face bookings, shown with 108) after the to-do.
 */
export default function LearnerDashboardPage() {
  const { user } = useAuth();
  const events = useLearnerEvents(user?.uuid);
  if (!user) return null;
  const inTodo = coursesLeftToTodo(events.data?.data ?? []);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Learner dashboard"
        description="What you need to do and by when, your certificates and your training history."
      />
      <PendingApprovalBanner />
      <LearnerTodo userRef={user.uuid} completedTitle="My certificates" />
      <PoliciesToRead />
      <BookingNextSessionsWidget me={user.id} />
      <LearnerCareCertificateWidget />
      <MyPathwaysWidget />
      <TrainingHistory userRef={user.uuid} />
      <LearnerCourses userRef={user.uuid} availableOnly exclude={inTodo} />
    </div>
  );
}
