export { enqueue, registerJob, registerRecurring, runDueJobs, startWorker } from './queue';
