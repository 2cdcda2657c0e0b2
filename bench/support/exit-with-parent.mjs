// Preloaded into each server child (see children.ts). The parent normally stops children with SIGTERM;
// this covers the parent being killed outright, when no cleanup code runs.
if (process.send) {
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
