import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Preloaded into a provider process (`node --require`) by `plan-cpu --threads`: when the
 * process exits, appends one line to the file named by $THREAD_CPU_FILE with the CPU
 * seconds of its main thread and of all its other threads together. The others are
 * V8's platform workers (the optimising compiler and the concurrent GC) and libuv's
 * pool: work that a Go plugin, compiled ahead of time, does not have.
 */

/** Linux reports a thread's CPU in clock ticks of 1/100 s (USER_HZ). */
const TICK_S = 0.01;

function threadCpuSeconds(task: string): number {
  const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_S;
}

const file = process.env.THREAD_CPU_FILE;
if (file) {
  process.on('exit', () => {
    let main = 0;
    let others = 0;
    for (const task of readdirSync('/proc/self/task')) {
      if (Number(task) === process.pid) main = threadCpuSeconds(task);
      else others += threadCpuSeconds(task);
    }
    appendFileSync(file, `${main.toFixed(2)} ${others.toFixed(2)}\n`);
  });
}
