// What a bench reads about a server child from /proc (Linux): its resident memory, and the CPU time
// its main thread and all its threads have run. CPU time per request does not depend on how busy the
// machine is the way req/s does, so it tells a cost apart from a wait. Elsewhere: null.
import { readdirSync, readFileSync } from 'node:fs';

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** Resident memory (VmRSS) in MB, or null. */
export function rssMb(pid: number): number | null {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(read(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) / 1024 : null;
}

/** Milliseconds run on a CPU so far: the main thread (JavaScript) and all threads together, or null. */
export function cpuMs(pid: number): { main: number; all: number } | null {
  const ran = (tid: string) =>
    Number((read(`/proc/${pid}/task/${tid}/schedstat`) ?? '0').split(' ')[0]) / 1e6;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  return { main: ran(String(pid)), all: tids.reduce((sum, tid) => sum + ran(tid), 0) };
}

/**
 * Milliseconds run on a CPU so far by every PostgreSQL process of this machine (each is one thread),
 * or null when none runs here (a database elsewhere). What the database spends per request when it
 * shares the machine: on two cores, its CPU and the server's bound the rates together.
 */
export function postgresCpuMs(): number | null {
  let total = 0;
  let found = false;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || read(`/proc/${pid}/comm`)?.trim() !== 'postgres') continue;
    found = true;
    total += Number((read(`/proc/${pid}/schedstat`) ?? '0').split(' ')[0]) / 1e6;
  }
  return found ? total : null;
}
