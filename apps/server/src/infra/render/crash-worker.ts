// A render worker for the pool's tests: renders like the real one, but a batch holding tag -1
// ends the thread (process.exit in a worker ends the worker), and one holding tag -2 throws
// outside any handler (the worker's 'error' event), and one holding tag -3 never answers. A
// preview whose data names 'exit' ends the thread too.
import { renderPreview } from './preview';
import { renderJobs } from './render';
import { serve } from './thread';

serve(
  async (jobs) => {
    if (jobs.some((j) => j.tagId === -1)) process.exit(3);
    if (jobs.some((j) => j.tagId === -2)) {
      setTimeout(() => {
        throw new Error('boom in the worker');
      });
      return new Promise(() => {});
    }
    if (jobs.some((j) => j.tagId === -3)) return new Promise(() => {});
    return renderJobs(jobs);
  },
  async (job) => {
    if (job.data.name === 'exit') process.exit(4);
    return renderPreview(job);
  },
);
