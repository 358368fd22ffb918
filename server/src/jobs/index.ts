export {
  enqueue,
  registerJob,
  registerRecurring,
  runDueJobs,
  startWorker,
  UNCHANGED,
  unchangedWhenNone,
} from './queue';
