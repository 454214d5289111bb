import { StoppedError } from '../../src/reconcile';
import { pollUntil, sleep } from '../../src/reconcile/wait';

/** The provider's StopProvider aborts the context's `stop`: a wait in progress ends at once, whatever its interval. */

test('a read-back that would poll for an hour ends with a StoppedError as soon as the stop comes', async () => {
  const stop = new AbortController();
  let checks = 0;
  const waiting = pollUntil(async () => {
    checks++;
    stop.abort(); // Terraform asks the provider to stop while the change is not yet visible
    return undefined;
  }, { timeoutMs: 7_200_000, intervalMs: 3_600_000, stop: stop.signal });
  await expect(waiting).rejects.toBeInstanceOf(StoppedError);
  await expect(waiting).rejects.toThrow('stopped: Terraform asked the provider to stop');
  expect(checks).toBe(1);
});

test('a sleep after the stop does not start; one without a stop signal just waits', async () => {
  const stop = new AbortController();
  stop.abort();
  await expect(sleep(3_600_000, stop.signal)).rejects.toBeInstanceOf(StoppedError);
  await expect(sleep(1)).resolves.toBeUndefined();
});
