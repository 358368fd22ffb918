import { useParams } from 'react-router';
import { AttemptPlayer } from './AttemptPlayer';

/**
 * /cattempt/{attemptId} (spec 1 §2). The spec lists the route next to /attempt/{attemptId} without saying how it
 * differs. Our reading: the same player, opened from a course context — headed by the course title, with the
 * course's other contents offered below (starting one stays in the course reading, /cattempt/{id}).
 */
export default function CourseAttemptPage() {
  // A retake opens another attempt on the same page: a fresh player, not the last one's state.
  const { attemptId } = useParams();
  return <AttemptPlayer key={attemptId} mode="course" />;
}
