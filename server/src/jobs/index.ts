export { enqueue, registerJob, registerRecurring, runDueJobs, startWorker, UNCHANGED } from './queue';
