// `npm install` goes on without the allocator addon (native/allocator) when it cannot be built, say
// without a C compiler: the daemon then runs with glibc's own malloc settings, and says so at start.
process.stderr.write(
  'postmill: the allocator addon (native/allocator) was not built; the daemon works without it, with higher memory peaks under 40 MB messages.\n' +
    '  Install a C compiler (build-essential) and run `npm run install`, or set MALLOC_MMAP_THRESHOLD_=131072 in the environment.\n',
);
