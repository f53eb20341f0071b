// A full collection on demand, for threads that just let go of tens of MB: V8 would keep that
// garbage (strings and the buffers they reference) until its heap grows further, and a daemon's
// memory is its peak. The flag only makes `gc` available to contexts created after it is set;
// it changes nothing else.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

export const collectGarbage = (): void => gc();

/** Whether an op that handled this many bytes should ask for a collection: a few per second at most. */
export const worthCollecting = (bytes: number): boolean => bytes >= 1024 * 1024;
