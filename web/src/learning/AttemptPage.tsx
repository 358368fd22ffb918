import { useParams } from 'react-router';
import { AttemptPlayer } from './AttemptPlayer';

/** /attempt/{attemptId} (spec 1 §2): the attempt player. */
export default function AttemptPage() {
  // A retake opens another attempt on the same page: a fresh player, not the last one's state.
  const { attemptId } = useParams();
  return <AttemptPlayer key={attemptId} mode="attempt" />;
}
