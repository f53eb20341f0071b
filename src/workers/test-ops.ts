// An op only the test hooks reach (POST /_test/heavy-thread, with testHooks on): it fills the
// thread's heap in small pieces, as a request needing more than the thread allows would, so tests
// see what a thread's death does to its own task and to the tasks waiting behind it. Small pieces
// end the thread cleanly (ERR_WORKER_OUT_OF_MEMORY); one large allocation at the limit can abort
// the whole process instead (nodejs/node#47224), which is why the heavy thread's heap is sized with
// room to spare over what the request limits let in.
import type { Handlers } from '../threads/serve.js';

export type TestOps = {
  exhaustHeap: { input: { afterMs: number }; output: never };
};

export const testHandlers: Handlers<TestOps> = {
  exhaustHeap: async ({ afterMs }) => {
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    const kept: number[][] = [];
    for (let i = 0; ; i++) kept.push(new Array<number>(1024).fill(i));
  },
};
