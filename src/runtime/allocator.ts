// The daemon's malloc setting, made once by the main thread before it starts any thread.
import type { Logger } from '../log.js';
import { allocatorAddon } from './assets.js';

export interface AllocatorAddon {
  /** mallopt(M_MMAP_THRESHOLD): false where the C library is not glibc. */
  fixMmapThreshold(bytes: number): boolean;
}

/**
 * Buffers from 128 KB up are mapped and unmapped by themselves instead of coming from glibc's
 * arenas. glibc's own threshold rises with every large buffer freed, up to 32 MB: the daemon's
 * 40 MB messages, parsed, composed, stored and signed on four threads, then left arenas of 50-100 MB
 * each, fragmented and never returned (issue 10: the heavy-send peak 570-620 MB, 505 MB fixed).
 * Messages of ordinary size stay far below it.
 */
const MMAP_THRESHOLD = 128 * 1024;

type AllocatorSetting = 'fixed' | 'set by the environment' | 'not glibc' | 'addon not built';

function fixThreshold(dataDir: string): AllocatorSetting {
  if (process.env.MALLOC_MMAP_THRESHOLD_ !== undefined || process.env.GLIBC_TUNABLES?.includes('mmap_threshold')) return 'set by the environment';
  const addon = allocatorAddon(dataDir);
  if (!addon) return 'addon not built';
  return addon.fixMmapThreshold(MMAP_THRESHOLD) ? 'fixed' : 'not glibc';
}

/** An operator's own setting (MALLOC_MMAP_THRESHOLD_, GLIBC_TUNABLES) wins; a missing addon is said. */
export function tuneAllocator(dataDir: string, log: Logger): void {
  const setting = fixThreshold(dataDir);
  if (setting === 'addon not built') {
    log.warn('the allocator addon was not built (npm run install, with a C compiler): memory peaks run higher under 40 MB messages', { fix: 'or set MALLOC_MMAP_THRESHOLD_=131072' });
  } else {
    log.debug('malloc mmap threshold', { setting });
  }
}
