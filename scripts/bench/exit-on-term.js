// Preloaded into the profiled service: a plain exit on SIGTERM lets V8 write the CPU profile
// (the service's own shutdown re-raises the signal, which ends the process without writing it).
process.once('SIGTERM', () => process.exit(0));
