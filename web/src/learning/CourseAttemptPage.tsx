import { AttemptPlayer } from './AttemptPlayer';

/**
 * /cattempt/{attemptId} (spec 1 §2). The spec lists the route next to /attempt/{attemptId} without saying how it
 * differs. Our reading: the same player, opened from a course context — headed by the course title, with the
 * course's other contents offered below (starting one stays in the course reading, /cattempt/{id}).
 */
export default function CourseAttemptPage() {
  return <AttemptPlayer mode="course" />;
}
