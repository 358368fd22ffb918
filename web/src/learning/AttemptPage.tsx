import { AttemptPlayer } from './AttemptPlayer';

/** /attempt/{attemptId} (spec 1 §2): the attempt player. */
export default function AttemptPage() {
  return <AttemptPlayer mode="attempt" />;
}
