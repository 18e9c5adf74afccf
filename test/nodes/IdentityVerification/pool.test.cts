/** The in-house promise pool behind parallel page requests: bounds, order, throttling, failure. */
import { mapWithConcurrency } from '../../../nodes/IdentityVerification/helpers/pagination';

/** Tasks that finish only when the test says so, so concurrency is observed, not timed. */
function controlledTasks(n: number) {
	const resolvers: Array<(v: number) => void> = [];
	const rejecters: Array<(e: Error) => void> = [];
	let active = 0;
	const activeAtStart: number[] = [];
	const started: number[] = [];
	const worker = (input: number) =>
		new Promise<number>((resolve, reject) => {
			active++;
			activeAtStart.push(active);
			started.push(input);
			resolvers[input] = (v) => {
				active--;
				resolve(v);
			};
			rejecters[input] = (e) => {
				active--;
				reject(e);
			};
		});
	const inputs = Array.from({ length: n }, (_, i) => i);
	const tick = () => new Promise((r) => setImmediate(r));
	return {
		inputs,
		worker,
		resolvers,
		rejecters,
		activeAtStart,
		started,
		tick,
		active: () => active,
	};
}

describe('mapWithConcurrency', () => {
	test('runs at most the given number of tasks at once and keeps results in input order', async () => {
		const t = controlledTasks(10);
		const done = mapWithConcurrency(t.inputs, 3, (i) => t.worker(i));
		await t.tick();
		expect(t.started).toEqual([0, 1, 2]);
		// finish out of order
		for (const i of [2, 0, 1, 5, 3, 4, 8, 6, 7, 9]) {
			while (!t.resolvers[i]) await t.tick();
			t.resolvers[i](i * 10);
			await t.tick();
		}
		expect(await done).toEqual(t.inputs.map((i) => i * 10));
		expect(Math.max(...t.activeAtStart)).toBe(3);
	});

	test('after throttle() runs fewer tasks at once, never below one', async () => {
		const t = controlledTasks(12);
		let throttled = false;
		const done = mapWithConcurrency(t.inputs, 4, (i, _index, control) => {
			if (i === 3 && !throttled) {
				throttled = true;
				control.throttle();
				expect(control.concurrency).toBe(2);
			}
			return t.worker(i);
		});
		await t.tick();
		const before = t.activeAtStart.length;
		expect(before).toBe(4);
		for (let i = 0; i < 12; i++) {
			while (!t.resolvers[i]) await t.tick();
			t.resolvers[i](i);
			await t.tick();
		}
		await done;
		// tasks started after the first four never found more than 2 running (incl. themselves)
		expect(Math.max(...t.activeAtStart.slice(before))).toBeLessThanOrEqual(2);
	});

	test('throttle() never goes below one task', async () => {
		const seen: number[] = [];
		await mapWithConcurrency([1, 2, 3, 4, 5], 2, async (_i, _index, control) => {
			control.throttle();
			control.throttle();
			seen.push(control.concurrency);
		});
		expect(Math.min(...seen)).toBe(1);
	});

	test('on a failure starts nothing new, waits for the running tasks, then rejects with the failure', async () => {
		const t = controlledTasks(6);
		const done = mapWithConcurrency(t.inputs, 2, (i) => t.worker(i));
		let settled = false;
		done.catch(() => undefined).finally(() => (settled = true));
		await t.tick();
		t.rejecters[0](new Error('page 1 failed'));
		await t.tick();
		expect(t.started).toEqual([0, 1]);
		expect(settled).toBe(false);
		t.resolvers[1](1);
		await expect(done).rejects.toThrow('page 1 failed');
		expect(t.started).toEqual([0, 1]);
	});

	test('rejects when the last task running is the one that fails', async () => {
		const t = controlledTasks(2);
		const done = mapWithConcurrency(t.inputs, 2, (i) => t.worker(i));
		await t.tick();
		t.resolvers[0](0);
		await t.tick();
		t.rejecters[1](new Error('page 2 failed'));
		await expect(done).rejects.toThrow('page 2 failed');
	});

	test('handles an empty list', async () => {
		expect(await mapWithConcurrency([], 4, async () => 1)).toEqual([]);
	});
});
