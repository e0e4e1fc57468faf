// A render worker thread (started by pool.ts through worker-boot.mjs): serves batches until the
// pool terminates it.
import { serve } from './thread';

serve();
